//===--- DiscardedTensorResultCheck.cpp - unused tensors ------------------===//
//
// Rule: the value of a call to an out-of-place LibTorch operation (a method of
// at::Tensor or a function of namespace at/torch that returns a tensor by
// value) must not be discarded: the call builds a new tensor and changes
// nothing else, so `x.to(device);` leaves `x` where it was.
//
//===----------------------------------------------------------------------===//
#include "DiscardedTensorResultCheck.h"

#include "torch-tidy/Anchor.h"
#include "torch-tidy/Compat.h"
#include "torch-tidy/EvaluationOrder.h"
#include "torch-tidy/Options.h"
#include "torch-tidy/Types.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Lex/Lexer.h"

using namespace clang;
using namespace clang::ast_matchers;

namespace torch_tidy {

namespace {

/// LibTorch functions that return a tensor by value and also change one of
/// their arguments, whose result is often ignored on purpose: batch and
/// instance norm update the running statistics in training mode, `embedding`
/// renormalises the weight in place under `max_norm`, `rrelu_with_noise`
/// writes its noise.
const std::vector<std::string> &sideEffectFunctions() {
  static const std::vector<std::string> Names = {
      "at::batch_norm",
      "at::instance_norm",
      "at::rrelu_with_noise",
      "torch::nn::functional::batch_norm",
      "torch::nn::functional::instance_norm",
      "torch::nn::functional::embedding",
      "torch::nn::functional::embedding_bag",
  };
  return Names;
}

/// Methods whose result is certainly meant to replace the tensor they are
/// called on: conversions of device, dtype and layout.
bool isConversion(StringRef Name) {
  return compat::isOneOf({"to", "cuda", "cpu", "hip", "contiguous", "toType",
                          "toBackend", "type_as"},
                         Name);
}

/// `+=` for `+`, and so on; OO_None for operators without a compound form.
OverloadedOperatorKind compoundOf(OverloadedOperatorKind K) {
  switch (K) {
  case OO_Plus:
    return OO_PlusEqual;
  case OO_Minus:
    return OO_MinusEqual;
  case OO_Star:
    return OO_StarEqual;
  case OO_Slash:
    return OO_SlashEqual;
  case OO_Amp:
    return OO_AmpEqual;
  case OO_Pipe:
    return OO_PipeEqual;
  case OO_Caret:
    return OO_CaretEqual;
  default:
    return OO_None;
  }
}

bool hasOperator(const CXXRecordDecl *RD, OverloadedOperatorKind K) {
  RD = RD ? RD->getDefinition() : nullptr;
  return RD && llvm::any_of(RD->methods(), [K](const CXXMethodDecl *M) {
           return M->getOverloadedOperator() == K;
         });
}

bool hasMethodNamed(const CXXRecordDecl *RD, StringRef Name) {
  RD = RD ? RD->getDefinition() : nullptr;
  if (!RD)
    return false;
  for (const CXXMethodDecl *M : RD->methods())
    if (M->getIdentifier() && M->getName() == Name)
      return true;
  return false;
}

/// Whether an options argument such as `F::DropoutFuncOptions().p(0.2)` is
/// known not to ask for `inplace`: built in the call from a constructor with
/// no `inplace` parameter, through setters other than `inplace(...)`.
bool knownNotInplace(const Expr *Arg) {
  const Expr *E = Arg;
  for (unsigned Steps = 0; E && Steps < 64; ++Steps) {
    E = stripExpr(E, Strip::Temporaries);
    if (const auto *FC = dyn_cast<CXXFunctionalCastExpr>(E)) {
      E = FC->getSubExpr();
      continue;
    }
    if (const auto *MC = dyn_cast<CXXMemberCallExpr>(E)) {
      const CXXMethodDecl *MD = MC->getMethodDecl();
      if (!MD || !MD->getIdentifier() || MD->getName() == "inplace")
        return false;
      E = MC->getImplicitObjectArgument();
      continue;
    }
    if (const auto *CE = dyn_cast<CXXConstructExpr>(E)) {
      const CXXConstructorDecl *Ctor = CE->getConstructor();
      if (!Ctor || Ctor->isCopyOrMoveConstructor())
        return false;
      for (unsigned I = 0; I < CE->getNumArgs(); ++I) {
        if (isa<CXXDefaultArgExpr>(CE->getArg(I)))
          continue;
        if (I >= Ctor->getNumParams())
          return false;
        const ParmVarDecl *P = Ctor->getParamDecl(I);
        if (!P->getIdentifier() || P->getName() == "inplace")
          return false;
      }
      return true;
    }
    return false;
  }
  return false;
}

/// Whether \p Call may work in place because an argument asks it to:
/// `F::relu(x, F::ReLUFuncOptions(true))`, `F::dropout(x, opts)` with
/// `opts.inplace(true)` set elsewhere.
bool mayBeInplaceByArgument(const CallExpr *Call) {
  const FunctionDecl *FD = Call->getDirectCallee();
  for (unsigned I = 0; I < Call->getNumArgs(); ++I) {
    const Expr *Arg = Call->getArg(I);
    if (isa<CXXDefaultArgExpr>(Arg))
      continue;
    if (FD && I < FD->getNumParams()) {
      const ParmVarDecl *P = FD->getParamDecl(I);
      if (P->getIdentifier() && P->getName() == "inplace")
        return true;
    }
    const CXXRecordDecl *RD =
        Arg->getType().getNonReferenceType()->getAsCXXRecordDecl();
    if (RD && hasMethodNamed(RD, "inplace") && !knownNotInplace(Arg))
      return true;
  }
  return false;
}

/// Whether a function or method named \p Name is declared in \p DC.
bool declares(const DeclContext *DC, StringRef Name, ASTContext &Ctx) {
  if (!DC)
    return false;
  DeclContext::lookup_result R =
      DC->getPrimaryContext()->lookup(DeclarationName(&Ctx.Idents.get(Name)));
  return llvm::any_of(R, [](const NamedDecl *D) {
    return isa<FunctionDecl>(D->getUnderlyingDecl()) ||
           isa<FunctionTemplateDecl>(D->getUnderlyingDecl());
  });
}

std::string sourceText(const Expr *E, const SourceManager &SM,
                       const LangOptions &LO) {
  SourceRange R = E->getSourceRange();
  if (R.isInvalid() || R.getBegin().isMacroID() || R.getEnd().isMacroID())
    return "";
  return Lexer::getSourceText(CharSourceRange::getTokenRange(R), SM, LO).str();
}

/// A receiver that can be named in the message: a variable, or a member of
/// one or of `this` (`x`, `this->w`, `batch.data`).
bool isNamedObject(const Expr *E) {
  for (unsigned Steps = 0; E && Steps < 8; ++Steps) {
    E = E->IgnoreParenImpCasts();
    if (const auto *DRE = dyn_cast<DeclRefExpr>(E))
      return isa<VarDecl>(DRE->getDecl());
    if (isa<CXXThisExpr>(E))
      return true;
    const auto *ME = dyn_cast<MemberExpr>(E);
    if (!ME || !isa<FieldDecl>(ME->getMemberDecl()))
      return false;
    E = ME->getBase();
  }
  return false;
}

/// A receiver that can be assigned the result: a modifiable `at::Tensor`.
bool isModifiableTensor(const Expr *E) {
  E = E->IgnoreParenImpCasts();
  return E->isLValue() && !E->getType().isConstQualified() &&
         hasQualifiedName(E->getType()->getAsCXXRecordDecl(), "at::Tensor");
}

/// A receiver the fix-it may assign to: a modifiable `at::Tensor` variable
/// (local, parameter, non-const reference) or a member of `this`.
bool isAssignableVariable(const Expr *E) {
  if (!isModifiableTensor(E))
    return false;
  E = E->IgnoreParenImpCasts();
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E))
    return isa<VarDecl>(DRE->getDecl());
  if (const auto *ME = dyn_cast<MemberExpr>(E))
    return isa<FieldDecl>(ME->getMemberDecl()) &&
           isa<CXXThisExpr>(ME->getBase()->IgnoreParenImpCasts());
  return false;
}

} // namespace

DiscardedTensorResultCheck::DiscardedTensorResultCheck(
    StringRef Name, tidy::ClangTidyContext *Context)
    : ClangTidyCheck(Name, Context),
      RawIgnoredFunctions(OptionReader(Options, Name, Context)
                              .getNameList("IgnoredFunctions")) {
  IgnoredFunctions = parseList(RawIgnoredFunctions);
}

void DiscardedTensorResultCheck::storeOptions(
    tidy::ClangTidyOptions::OptionMap &Opts) {
  Options.store(Opts, "IgnoredFunctions", RawIgnoredFunctions);
}

void DiscardedTensorResultCheck::onStartOfTranslationUnit() {
  Reported.clear();
}

void DiscardedTensorResultCheck::registerMatchers(MatchFinder *Finder) {
  registerAnchor(*Finder, *this);
}

void DiscardedTensorResultCheck::check(const MatchFinder::MatchResult &Result) {
  const FunctionDecl *FD = userFunction(*this, Result);
  if (!FD || !FD->getBody())
    return;
  InTemplate = FD->getTemplateInstantiationPattern() != nullptr;
  ASTContext &Ctx = *Result.Context;
  for (const DiscardedValue &V : discardedValuesIn(FD)) {
    const Expr *E = stripExpr(V.E, Strip::Temporaries);
    if (const auto *Call = dyn_cast<CallExpr>(E))
      report(Call, V.Statement ? V.E : nullptr, Ctx);
  }
}

void DiscardedTensorResultCheck::report(const CallExpr *Call,
                                        const Expr *Statement,
                                        ASTContext &Ctx) {
  if (Call->isTypeDependent() || Call->containsErrors())
    return;
  const FunctionDecl *Callee = Call->getDirectCallee();
  if (!Callee || Callee->isInvalidDecl() ||
      !Callee->getIdentifier() && !isa<CXXOperatorCallExpr>(Call))
    return;
  // In-place operations return a reference (`add_`, `clamp_`, `operator+=`),
  // and so does `operator=`; only a new tensor by value is lost.
  if (Callee->getReturnType()->isReferenceType() ||
      !isTensorClass(Call->getType()->getAsCXXRecordDecl()))
    return;
  // Function templates of LibTorch (`Tensor::m(f)`) return what the user's
  // callable returns.
  if (Callee->getPrimaryTemplate() || Callee->getDescribedFunctionTemplate())
    return;
  const auto *MD = dyn_cast<CXXMethodDecl>(Callee);
  const Expr *Receiver = nullptr;
  if (MD && !MD->isStatic()) {
    // Methods of other classes (an optimizer's `step()` returns the loss, a
    // module's `forward()` may update running statistics) are used for what
    // they do.
    if (!isTensorClass(MD->getParent()))
      return;
    Receiver = memberCallObject(Call);
    if (!Receiver)
      return;
  } else if (MD || !inLibTorchNamespace(Callee)) {
    return;
  }
  // LibTorch's in-place naming: `torch::nn::init::xavier_uniform_(w)` fills
  // `w` and returns it by value.
  if (Callee->getIdentifier() && compat::endsWith(Callee->getName(), "_"))
    return;
  if (matchesFunctionList(Callee, sideEffectFunctions()) ||
      matchesFunctionList(Callee, IgnoredFunctions) ||
      mayBeInplaceByArgument(Call))
    return;

  const SourceManager &SM = Ctx.getSourceManager();
  const LangOptions &LO = Ctx.getLangOpts();
  SourceLocation Loc = Call->getExprLoc();
  // Code written inside a LibTorch macro is LibTorch's.
  if (Loc.isInvalid() || SM.isInSystemHeader(SM.getSpellingLoc(Loc)))
    return;
  if (!Reported.insert(Loc.getRawEncoding()).second)
    return;

  unsigned Written = 0;
  for (unsigned I = isa<CXXOperatorCallExpr>(Call) && MD ? 1 : 0;
       I < Call->getNumArgs(); ++I)
    if (!isa<CXXDefaultArgExpr>(Call->getArg(I)))
      ++Written;
  std::string Args = Written ? "(...)" : "()";

  if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(Call)) {
    std::string Op = getOperatorSpelling(OC->getOperator());
    OverloadedOperatorKind Assign = compoundOf(OC->getOperator());
    const CXXRecordDecl *Left =
        Call->getNumArgs() == 2
            ? Call->getArg(0)->getType()->getAsCXXRecordDecl()
            : nullptr;
    bool Compound = Assign != OO_None && hasOperator(Left, Assign);
    diag(Loc, "result of operator '%0' is discarded: it returns a new tensor "
              "and changes none of its operands; %1")
        << Op
        << (Compound ? "use '" + Op +
                           "=' to change the left operand in place, or assign "
                           "the result"
                     : std::string("assign the result or remove the "
                                   "expression"));
    return;
  }

  std::string Name = Callee->getName().str();
  if (!Receiver) {
    // A free function: named as written (`torch::relu`, `F::relu`).
    std::string Written = Name;
    if (const auto *DRE =
            dyn_cast<DeclRefExpr>(Call->getCallee()->IgnoreParenImpCasts())) {
      std::string Text = sourceText(DRE, SM, LO);
      if (!Text.empty() && Text.size() <= 60 &&
          compat::endsWith(StringRef(Text), Name) &&
          !DRE->hasExplicitTemplateArgs())
        Written = Text;
    }
    bool InPlace = declares(Callee->getDeclContext(), Name + "_", Ctx);
    diag(Loc, "result of '%0%1' is discarded: '%0' returns a new tensor and "
              "changes none of its arguments; %2")
        << Written << Args
        << (InPlace ? "assign the result, or call the in-place '" + Written +
                          "_" + Args + "'"
                    : std::string("assign the result or remove the call"));
    return;
  }

  bool InPlace = hasMethodNamed(MD->getParent(), Name + "_") ||
                 declares(MD->getParent(), Name + "_", Ctx);
  std::string Object =
      isNamedObject(Receiver) && !Receiver->getType()->isPointerType()
          ? sourceText(Receiver->IgnoreParenImpCasts(), SM, LO)
          : "";
  // Written in a macro: the variable's name.
  if (const auto *DRE = dyn_cast<DeclRefExpr>(Receiver->IgnoreParenImpCasts()))
    if (Object.empty() && DRE->getDecl()->getIdentifier())
      Object = DRE->getDecl()->getName().str();
  if (Object.size() > 40)
    Object.clear();
  if (Object.empty()) {
    diag(Loc, "result of '%0%1' is discarded: it returns a new tensor and "
              "leaves the tensor it is called on unchanged; %2")
        << Name << Args
        << (InPlace ? "call the in-place '" + Name + "_" + Args +
                          "' or use the result"
                    : std::string("use the result or remove the call"));
    return;
  }
  std::string Call0 = Object + "." + Name + Args;
  bool Assignable = isModifiableTensor(Receiver);
  std::string Action;
  if (InPlace)
    Action = "call the in-place '" + Object + "." + Name + "_" + Args +
             "' or assign the result";
  else if (Assignable)
    Action = "assign it back: '" + Object + " = " + Call0 + "'";
  else
    Action = "assign the result to a variable and use that";
  auto D = diag(Loc, "result of '%0' is discarded: '%1' returns a new tensor "
                     "and leaves '%2' unchanged, so the code after it still "
                     "uses the old tensor; %3")
           << Call0 << Name << Object << Action;
  // The fix-it: `x = ` before a conversion of a variable that is the whole
  // statement, outside macros and templates.
  if (!Statement || InTemplate || InPlace || !isAssignableVariable(Receiver) ||
      !isConversion(Name) || !isTensorType(Call->getType()) ||
      Statement->getBeginLoc().isMacroID() ||
      Statement->getEndLoc().isMacroID() || Loc.isMacroID())
    return;
  D << FixItHint::CreateInsertion(Statement->getBeginLoc(), Object + " = ");
}

} // namespace torch_tidy
