//===--- BceOnLogitsCheck.cpp - torch-bce-on-logits -----------------------===//
//
// Rule: binary cross-entropy on probabilities (`BCELoss`,
// `binary_cross_entropy`) must not be given raw logits; and a sigmoid applied
// right before it is better folded into `BCEWithLogitsLoss`.
//
//===----------------------------------------------------------------------===//
#include "BceOnLogitsCheck.h"

#include "torch-tidy/Anchor.h"
#include "torch-tidy/Compat.h"
#include "torch-tidy/EvaluationOrder.h"
#include "torch-tidy/Losses.h"
#include "torch-tidy/Options.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/ExprCXX.h"
#include "clang/Lex/Lexer.h"

using namespace clang;
using namespace clang::ast_matchers;

namespace torch_tidy {

struct BceOnLogitsCheck::LossCall {
  enum FormT { Module, Function, NNFunction, Custom } Form = Custom;
  const CallExpr *Call = nullptr;
  const Expr *Input = nullptr;
  const Expr *Object = nullptr; ///< the criterion, for the module form
  std::string Name;             ///< how messages name the loss
  std::string Instead;          ///< what to use instead
};

BceOnLogitsCheck::BceOnLogitsCheck(StringRef Name,
                                   tidy::ClangTidyContext *Context)
    : ClangTidyCheck(Name, Context),
      RawBCELossClasses(
          OptionReader(Options, Name, Context).getNameList("BCELossClasses")),
      RawBCEFunctions(
          OptionReader(Options, Name, Context).getNameList("BCEFunctions")),
      ActivationOpts(OptionReader(Options, Name, Context)),
      SuggestWithLogits(OptionReader(Options, Name, Context)
                            .getBool("SuggestWithLogits", true)) {
  BCELossClasses = parseList(RawBCELossClasses);
  BCEFunctions = parseList(RawBCEFunctions);
}

void BceOnLogitsCheck::storeOptions(tidy::ClangTidyOptions::OptionMap &Opts) {
  Options.store(Opts, "BCELossClasses", RawBCELossClasses);
  Options.store(Opts, "BCEFunctions", RawBCEFunctions);
  Options.store(Opts, "SuggestWithLogits",
                SuggestWithLogits ? "true" : "false");
  ActivationOpts.store(Options, Opts);
}

void BceOnLogitsCheck::onStartOfTranslationUnit() {
  Analysis.reset();
  Reported.clear();
}

void BceOnLogitsCheck::registerMatchers(MatchFinder *Finder) {
  registerAnchor(*Finder, *this);
}

void BceOnLogitsCheck::check(const MatchFinder::MatchResult &Result) {
  const FunctionDecl *FD = userFunction(*this, Result);
  if (!FD || !FD->getBody())
    return;
  if (!Analysis)
    Analysis.emplace(ActivationOpts.config(), *Result.SourceManager);
  // A fix-it in a template instantiation would change every instantiation.
  InTemplate = FD->getTemplateInstantiationPattern() != nullptr;
  const SourceManager &SM = *Result.SourceManager;
  const LangOptions &LO = Result.Context->getLangOpts();
  for (const CallExpr *CE : callsIn(FD))
    checkLossCall(CE, SM, LO);
}

static std::string quoted(const NamedDecl *D) {
  return "'" + D->getQualifiedNameAsString() + "'";
}

bool BceOnLogitsCheck::lossCall(const CallExpr *Call, LossCall &Out) const {
  if (!Call->getDirectCallee())
    return false;
  Out.Call = Call;
  torch_tidy::LossCall B = builtinLossCall(Call, *Analysis);
  if (B.Kind == LossKind::BCE) {
    Out.Form = B.Form == LossForm::Module     ? LossCall::Module
               : B.Form == LossForm::Function ? LossCall::Function
                                              : LossCall::NNFunction;
    Out.Input = B.Input;
    Out.Object = B.Object;
    Out.Name = describeLoss(B);
    Out.Instead = describeLoss(LossKind::BCEWithLogits, B.Form);
    return true;
  }
  // In-house losses that, like BCELoss, expect probabilities.
  const Expr *Obj = nullptr;
  unsigned First = 0;
  if (const CXXRecordDecl *Impl = Analysis->moduleCall(Call, &Obj, &First)) {
    if (Call->getNumArgs() <= First)
      return false;
    const CXXRecordDecl *Holder = writtenObjectClass(Obj);
    bool Custom = false;
    for (const std::string &C : BCELossClasses)
      Custom = Custom || isSameOrDerivedFrom(Impl, C) ||
               isSameOrDerivedFrom(Holder, C);
    if (!Custom)
      return false;
    Out.Form = LossCall::Custom;
    Out.Input = Call->getArg(First);
    Out.Object = Obj;
    Out.Name = quoted(Holder && holderImpl(Holder) ? Holder : Impl);
    Out.Instead = "'torch::nn::BCEWithLogitsLoss'";
    return true;
  }
  if (Call->getNumArgs() < 1 || isa<CXXMemberCallExpr>(Call) ||
      !matchesFunctionList(Call->getDirectCallee(), BCEFunctions))
    return false;
  Out.Form = LossCall::Custom;
  Out.Name = quoted(Call->getDirectCallee());
  Out.Instead = "'torch::nn::BCEWithLogitsLoss'";
  Out.Input = Call->getArg(0);
  return true;
}

/// The logits a sigmoid call is applied to: `z` in `torch::sigmoid(z)`,
/// `z.sigmoid()`, `torch::special::expit(z)`.
static const Expr *sigmoidOperand(const Expr *E) {
  WrittenActivation W = writtenActivation(E);
  return W.Op == ActivationOp::Sigmoid ? W.Operand : nullptr;
}

static unsigned writtenArgs(const CallExpr *CE) {
  unsigned N = 0;
  for (const Expr *A : CE->arguments())
    if (!isa<CXXDefaultArgExpr>(A))
      ++N;
  return N;
}

/// Fix-its that compute the loss with the with-logits variant: renames the
/// function, or changes the type of a local, default-constructed `BCELoss`
/// used only here; replaces the input with \p Logits when given. Empty when
/// that is not certainly right.
llvm::SmallVector<FixItHint, 3>
BceOnLogitsCheck::withLogitsFix(const LossCall &L, const Expr *Logits,
                                const SourceManager &SM, const LangOptions &LO,
                                SourceLocation &Where) {
  llvm::SmallVector<FixItHint, 3> Fix;
  Where = compat::beginLoc(L.Call);
  if (InTemplate)
    return {};
  if (Logits) {
    std::optional<std::string> Z = writtenText(Logits, SM, LO);
    std::optional<std::string> In = writtenText(L.Input, SM, LO);
    if (!Z || !In)
      return {};
    Fix.push_back(FixItHint::CreateReplacement(
        CharSourceRange::getTokenRange(L.Input->getSourceRange()), *Z));
  }
  switch (L.Form) {
  case LossCall::Function:
  case LossCall::NNFunction: {
    // Weight means the same to both; reduction moves (at::) and the options
    // types differ (torch::nn::functional::).
    unsigned N = writtenArgs(L.Call);
    if (N < 2 || N > (L.Form == LossCall::Function ? 3U : 2U))
      return {};
    const auto *Callee =
        dyn_cast<DeclRefExpr>(L.Call->getCallee()->IgnoreParenImpCasts());
    if (!Callee)
      return {};
    SourceLocation NameLoc = Callee->getLocation();
    if (NameLoc.isMacroID())
      return {};
    CharSourceRange Name = CharSourceRange::getTokenRange(NameLoc, NameLoc);
    if (Lexer::getSourceText(Name, SM, LO) != "binary_cross_entropy")
      return {};
    Fix.push_back(
        FixItHint::CreateReplacement(Name, "binary_cross_entropy_with_logits"));
    Where = NameLoc;
    return Fix;
  }
  case LossCall::Module: {
    const auto *VD = dyn_cast_or_null<VarDecl>(objectDecl(L.Object));
    if (!VD || !VD->hasLocalStorage() || isa<ParmVarDecl>(VD) ||
        VD->getType()->isReferenceType())
      return {};
    Access How = Access::Pointer;
    const CXXRecordDecl *RD = pointeeClass(VD->getType(), &How);
    if (!RD || How != Access::Value ||
        !hasQualifiedName(RD, "torch::nn::BCELoss"))
      return {};
    const auto *Init = dyn_cast_or_null<CXXConstructExpr>(
        VD->getInit() ? VD->getInit()->IgnoreImplicit() : nullptr);
    if (!Init)
      return {};
    for (const Expr *A : Init->arguments())
      if (!isa<CXXDefaultArgExpr>(A))
        return {};
    if (!Analysis->soleDeclaration(VD) || Analysis->referenceCount(VD) != 1)
      return {};
    const TypeSourceInfo *TSI = VD->getTypeSourceInfo();
    if (!TSI)
      return {};
    SourceRange TR = TSI->getTypeLoc().getSourceRange();
    if (TR.isInvalid() || TR.getBegin().isMacroID() || TR.getEnd().isMacroID())
      return {};
    StringRef Written =
        Lexer::getSourceText(CharSourceRange::getTokenRange(TR), SM, LO);
    // Qualified, so that BCEWithLogitsLoss is found where BCELoss was.
    if (!compat::endsWith(Written, "::BCELoss"))
      return {};
    Fix.push_back(FixItHint::CreateReplacement(
        CharSourceRange::getTokenRange(TR.getEnd(), TR.getEnd()),
        "BCEWithLogitsLoss"));
    Where = VD->getLocation();
    return Fix;
  }
  case LossCall::Custom:
    break;
  }
  return {};
}

void BceOnLogitsCheck::checkLossCall(const CallExpr *Call,
                                     const SourceManager &SM,
                                     const LangOptions &LO) {
  LossCall L;
  if (!lossCall(Call, L))
    return;
  Activation A = Analysis->valueOf(L.Input);
  SourceLocation At = L.Input->getBeginLoc();

  if (A.isLogits()) {
    if (!Reported.insert(At.getRawEncoding()).second)
      return;
    diag(At, "%0 expects probabilities in [0, 1], but it is given raw logits "
             "from %1: it "
             "fails at run time on the first logit outside [0, 1] and computes "
             "a wrong loss "
             "for the others; use %2, which applies the sigmoid itself")
        << L.Name << describeActivationSource(A) << L.Instead;
    if (SourceLocation Source = sourceLocation(A, SM); Source.isValid()) {
      if (A.ThroughSequential)
        diag(Source,
             "the last module of the 'torch::nn::Sequential' is %0, which "
             "outputs raw logits",
             DiagnosticIDs::Note)
            << describeActivationOp(A);
      else
        diag(Source, "%0 outputs raw logits here, and no sigmoid follows",
             DiagnosticIDs::Note)
            << describeActivationOp(A);
    }
    SourceLocation Where;
    llvm::SmallVector<FixItHint, 3> Fix =
        withLogitsFix(L, nullptr, SM, LO, Where);
    if (!Fix.empty())
      diag(Where, "use %0 on the logits", DiagnosticIDs::Note)
          << L.Instead << Fix;
    return;
  }

  // A sigmoid written right before the loss: fold it into the loss.
  if (!SuggestWithLogits || !A.isProbabilities() ||
      A.Op != ActivationOp::Sigmoid || A.Via || A.ThroughSequential)
    return;
  if (!Reported.insert(At.getRawEncoding()).second)
    return;
  diag(At, "%0 applied to the output of %1 is numerically unstable: once the "
           "sigmoid "
           "saturates, confidently wrong predictions get no gradient; use %2 "
           "on the logits")
      << L.Name << describeActivationOp(A) << L.Instead;
  const Expr *Logits = sigmoidOperand(L.Input);
  if (!Logits) {
    if (A.Where)
      diag(A.Where->getBeginLoc(), "the sigmoid is applied here",
           DiagnosticIDs::Note);
    return;
  }
  SourceLocation Where;
  llvm::SmallVector<FixItHint, 3> Fix = withLogitsFix(L, Logits, SM, LO, Where);
  if (!Fix.empty())
    diag(Where, "%0 computes the same loss from the logits in one stable step",
         DiagnosticIDs::Note)
        << L.Instead << Fix;
}

} // namespace torch_tidy
