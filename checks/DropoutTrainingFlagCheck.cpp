//===--- DropoutTrainingFlagCheck.cpp - layers stuck in training ----------===//
//
// Rule: a module that calls a functional dropout or batch norm itself must
// pass it the module's mode, `is_training()`. A literal `true` (or options
// whose `training` is true, as `DropoutFuncOptions` has by default) keeps the
// layer in training mode after `eval()`.
//
//===----------------------------------------------------------------------===//
#include "DropoutTrainingFlagCheck.h"

#include "torch-tidy/Anchor.h"
#include "torch-tidy/Compat.h"
#include "torch-tidy/Options.h"
#include "torch-tidy/Types.h"

#include "clang/AST/ASTContext.h"
#include "clang/Lex/Lexer.h"

using namespace clang;
using namespace clang::ast_matchers;

namespace torch_tidy {

namespace {

/// A method of a module whose body runs when the module is used: not a
/// constructor, destructor or static function.
const CXXMethodDecl *moduleMethod(const FunctionDecl *FD) {
  const auto *MD = dyn_cast<CXXMethodDecl>(FD);
  if (!MD || MD->isStatic() || isa<CXXConstructorDecl>(MD) ||
      isa<CXXDestructorDecl>(MD) || MD->getParent()->isLambda())
    return nullptr;
  static const TypeConfig NoConfig;
  return isModuleClass(MD->getParent(), NoConfig) ? MD : nullptr;
}

std::string sourceText(SourceRange R, const SourceManager &SM,
                       const LangOptions &LO) {
  if (R.isInvalid() || R.getBegin().isMacroID() || R.getEnd().isMacroID())
    return "";
  return Lexer::getSourceText(CharSourceRange::getTokenRange(R), SM, LO).str();
}

/// The function as the call writes it (`torch::dropout`, `F::dropout`).
std::string writtenName(const CallExpr *Call, const FunctionDecl *FD,
                        const SourceManager &SM, const LangOptions &LO) {
  std::string Name = FD->getName().str();
  std::string Qualified = FD->getQualifiedNameAsString();
  if (const auto *DRE =
          dyn_cast<DeclRefExpr>(Call->getCallee()->IgnoreParenImpCasts())) {
    std::string Text = sourceText(DRE->getSourceRange(), SM, LO);
    if (!Text.empty() && Text.size() <= 60 &&
        compat::endsWith(StringRef(Text), Name) &&
        !DRE->hasExplicitTemplateArgs())
      return Text;
  }
  return Qualified;
}

/// What the layer keeps doing in evaluation.
std::string effect(const FunctionDecl *FD) {
  StringRef Name = FD->getName();
  if (Name.contains("dropout"))
    return "it keeps zeroing activations at random, and evaluation and "
           "inference outputs stay noisy and worse than the trained model's";
  if (Name.contains("norm"))
    return "it keeps normalising with each batch's own statistics and "
           "updating the running ones, and evaluation outputs depend on the "
           "batch";
  return "evaluation outputs differ from the trained model's";
}

std::string methodName(const CXXMethodDecl *MD) {
  return MD->getParent()->getName().str() + "::" + MD->getNameAsString();
}

} // namespace

DropoutTrainingFlagCheck::DropoutTrainingFlagCheck(
    StringRef Name, tidy::ClangTidyContext *Context)
    : ClangTidyCheck(Name, Context),
      RawTrainingFlagFunctions(OptionReader(Options, Name, Context)
                                   .getNameList("TrainingFlagFunctions")),
      MaxCallDepth(OptionReader(Options, Name, Context)
                       .getCount("MaxCallDepth", DefaultMaxCallDepth)) {
  TrainingFlagFunctions = parseList(RawTrainingFlagFunctions);
}

void DropoutTrainingFlagCheck::storeOptions(
    tidy::ClangTidyOptions::OptionMap &Opts) {
  Options.store(Opts, "TrainingFlagFunctions", RawTrainingFlagFunctions);
  Options.store(Opts, "MaxCallDepth", MaxCallDepth);
}

void DropoutTrainingFlagCheck::onStartOfTranslationUnit() {
  Uses.reset();
  Reported.clear();
}

void DropoutTrainingFlagCheck::registerMatchers(MatchFinder *Finder) {
  registerAnchor(*Finder, *this);
}

void DropoutTrainingFlagCheck::check(const MatchFinder::MatchResult &Result) {
  const FunctionDecl *FD = userFunction(*this, Result);
  if (!FD || !FD->getBody())
    return;
  const CXXMethodDecl *MD = moduleMethod(FD);
  if (!MD)
    return;
  if (!Uses)
    // Methods of modules are analysed on their own, not as helpers.
    Uses.emplace(*Result.SourceManager, TrainingFlagFunctions, MaxCallDepth,
                 [](const FunctionDecl *Callee) {
                   return moduleMethod(Callee) != nullptr;
                 });
  bool InTemplate = FD->getTemplateInstantiationPattern() != nullptr;
  for (const TrainingFlagUse &U : Uses->in(FD))
    report(U, MD, InTemplate, *Result.Context);
}

void DropoutTrainingFlagCheck::report(const TrainingFlagUse &Use,
                                      const CXXMethodDecl *Method,
                                      bool InTemplate, ASTContext &Ctx) {
  const TrainingFlagOn &F = Use.Flag;
  const SourceManager &SM = Ctx.getSourceManager();
  const LangOptions &LO = Ctx.getLangOpts();
  SourceLocation Loc = compat::beginLoc(F.Call);
  // Code written inside a LibTorch macro is LibTorch's.
  if (Loc.isInvalid() || isLibraryCode(SM.getSpellingLoc(Loc), SM))
    return;
  if (!Reported.insert(Loc.getRawEncoding()).second)
    return;

  std::string Param =
      F.Param->getIdentifier() ? F.Param->getName().str() : "training";
  std::string Options =
      F.OptionsClass ? F.OptionsClass->getName().str() : std::string();
  std::string Why;
  switch (F.Source) {
  case FlagSource::Literal:
    Why = "its '" + Param + "' argument is 'true'";
    break;
  case FlagSource::Constant:
    Why = "its '" + Param + "' argument is a constant that is true";
    break;
  case FlagSource::Setter:
  case FlagSource::ConstantSetter:
    Why = "its options set 'training' to true";
    break;
  case FlagSource::Default:
    Why = "'" + Options + "' sets 'training' to true unless told otherwise";
    break;
  }
  bool Direct = !Use.Via;
  std::string Action;
  if (!Direct)
    Action = "pass the module's 'is_training()' down to '" +
             Use.Via->getNameAsString() + "' and on to this call";
  else if (F.Source == FlagSource::Literal || F.Source == FlagSource::Constant)
    Action = "pass 'is_training()'";
  else if (F.Source == FlagSource::Default && !F.Options)
    Action = "pass '" + Options + "().training(is_training())'";
  else
    Action = "set '.training(is_training())'";

  std::string Name = writtenName(F.Call, F.Function, SM, LO);
  {
    auto D = diag(Loc, "'%0' runs in training mode even after 'eval()': %1, so "
                       "%2; %3")
             << Name << Why << effect(F.Function) << Action;

    // The fix-it: only where `is_training()` is the module's, and the text to
    // change is the user's own.
    if (Direct && !Use.InLambda && !InTemplate) {
      auto InFile = [&](SourceRange R) {
        return R.isValid() && !R.getBegin().isMacroID() &&
               !R.getEnd().isMacroID();
      };
      if ((F.Source == FlagSource::Literal || F.Source == FlagSource::Setter) &&
          InFile(F.Value->getSourceRange())) {
        D << FixItHint::CreateReplacement(
            CharSourceRange::getTokenRange(F.Value->getSourceRange()),
            "is_training()");
      } else if (F.Source == FlagSource::Default && F.Options) {
        // Setters chain on a written construction or setter call, not on `{}`.
        const Expr *O = F.Options->IgnoreImplicit();
        bool Chainable = isa<CXXMemberCallExpr>(O) ||
                         isa<CXXTemporaryObjectExpr>(O) ||
                         isa<CXXFunctionalCastExpr>(O);
        if (Chainable && InFile(F.Options->getSourceRange()))
          D << FixItHint::CreateInsertion(
              Lexer::getLocForEndOfToken(F.Options->getEndLoc(), 0, SM, LO),
              ".training(is_training())");
      } else if (F.Source == FlagSource::Default && !F.Options) {
        // `F::dropout(x)`: the options follow the last written argument.
        unsigned Index = F.Param->getFunctionScopeIndex();
        bool Written = true;
        for (unsigned I = 0; I < Index && I < F.Call->getNumArgs(); ++I)
          if (isa<CXXDefaultArgExpr>(F.Call->getArg(I)))
            Written = false;
        const auto *CE = dyn_cast<CallExpr>(F.Call);
        if (Written && Index > 0 && InFile(CE->getSourceRange()))
          D << FixItHint::CreateInsertion(
              CE->getRParenLoc(),
              ", " + F.OptionsClass->getQualifiedNameAsString() +
                  "().training(is_training())");
      }
    }
  } // the warning is emitted before its note
  if (!Direct && Use.ViaCall)
    diag(compat::beginLoc(Use.ViaCall),
         "'%0' is called here, in '%1', a method of a module",
         DiagnosticIDs::Note)
        << Use.Via->getNameAsString() << methodName(Method);
}

} // namespace torch_tidy
