//===--- DropoutTrainingFlagCheck.cpp - layers stuck in training ----------===//
//
// Rule: a module that calls a functional dropout or batch norm itself must
// pass it the module's mode, `is_training()`. A literal `true` (or options
// whose `training` is true, as `DropoutFuncOptions` has by default) keeps the
// layer in training mode after `eval()`. A helper whose body is in another
// file is read from the program summary, and reported at its call here.
//
//===----------------------------------------------------------------------===//
#include "DropoutTrainingFlagCheck.h"

#include "torch-tidy/Anchor.h"
#include "torch-tidy/Compat.h"
#include "torch-tidy/Options.h"
#include "torch-tidy/Types.h"
#include "torch-tidy/WholeProgram.h"

#include "clang/AST/ASTContext.h"
#include "clang/Lex/Lexer.h"

using namespace clang;
using namespace clang::ast_matchers;

namespace torch_tidy {

namespace {

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
  Program = programSummary(Context);
}

void DropoutTrainingFlagCheck::storeOptions(
    tidy::ClangTidyOptions::OptionMap &Opts) {
  Options.store(Opts, "TrainingFlagFunctions", RawTrainingFlagFunctions);
  Options.store(Opts, "MaxCallDepth", MaxCallDepth);
}

void DropoutTrainingFlagCheck::onStartOfTranslationUnit() {
  Uses.reset();
  Reported.clear();
  ReportedRemote.clear();
}

void DropoutTrainingFlagCheck::registerMatchers(MatchFinder *Finder) {
  registerAnchor(*Finder, *this);
}

void DropoutTrainingFlagCheck::check(const MatchFinder::MatchResult &Result) {
  const FunctionDecl *FD = userFunction(*this, Result);
  if (!FD || !FD->getBody())
    return;
  const CXXMethodDecl *MD = runningModuleMethod(FD);
  if (!MD)
    return;
  if (!Uses)
    // Methods of modules are analysed on their own, not as helpers.
    Uses.emplace(
        *Result.SourceManager, TrainingFlagFunctions, MaxCallDepth,
        [](const FunctionDecl *Callee) {
          return runningModuleMethod(Callee) != nullptr;
        },
        Program);
  bool InTemplate = FD->getTemplateInstantiationPattern() != nullptr;
  for (const TrainingFlagUse &U : Uses->in(FD))
    report(U, MD, InTemplate, *Result.Context);
}

void DropoutTrainingFlagCheck::report(const TrainingFlagUse &Use,
                                      const CXXMethodDecl *Method,
                                      bool InTemplate, ASTContext &Ctx) {
  if (Use.Remote)
    return reportRemote(Use, Ctx);
  const TrainingFlagOn &F = Use.Flag;
  const SourceManager &SM = Ctx.getSourceManager();
  const LangOptions &LO = Ctx.getLangOpts();
  SourceLocation Loc = compat::beginLoc(F.Call);
  // Code written inside a LibTorch macro is LibTorch's.
  if (Loc.isInvalid() || isLibraryCode(SM.getSpellingLoc(Loc), SM))
    return;
  if (!Reported.insert(Loc.getRawEncoding()).second)
    return;

  std::string Options =
      F.OptionsClass ? F.OptionsClass->getName().str() : std::string();
  std::string Why = describeFlagOn(
      F.Source, F.Param->getIdentifier() ? F.Param->getName() : "", Options);
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

  std::string Name = flagCallSpelling(F, SM, LO);
  {
    auto D = diag(Loc, "'%0' runs in training mode even after 'eval()': %1, so "
                       "%2; %3")
             << Name << Why << flagOnEffect(F.Function->getName()) << Action;

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

void DropoutTrainingFlagCheck::reportRemote(const TrainingFlagUse &Use,
                                            ASTContext &Ctx) {
  const RemoteTrainingFlag &R = *Use.Remote;
  const SourceManager &SM = Ctx.getSourceManager();
  SourceLocation Loc = compat::beginLoc(Use.ViaCall);
  if (Loc.isInvalid() || isLibraryCode(SM.getSpellingLoc(Loc), SM))
    return;
  // One warning per call here and call there.
  std::string Key = std::to_string(Loc.getRawEncoding()) + "@" + R.Site.File +
                    ":" + std::to_string(R.Site.Line) + ":" +
                    std::to_string(R.Site.Column);
  if (!ReportedRemote.insert(Key).second)
    return;
  std::optional<FlagSource> Source = flagSourceOf(R.Source);
  if (!Source)
    return;
  std::string Via = Use.Via->getNameAsString();
  diag(Loc, "'%0' at %1, reached through '%2', runs in training mode even "
            "after 'eval()': %3, so %4; pass the module's 'is_training()' "
            "down to '%2' and on to that call")
      << R.Function << describeRemoteSite(R.Site) << Via
      << describeFlagOn(*Source, R.Param, R.Options) << flagOnEffect(R.Name);
  SourceLocation There = remoteLocation(SM, R.Site);
  if (There.isValid())
    diag(There, "'%0' is called here with its training flag on",
         DiagnosticIDs::Note)
        << R.Function;
}

} // namespace torch_tidy
