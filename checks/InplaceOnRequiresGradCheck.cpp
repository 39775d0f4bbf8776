//===--- InplaceOnRequiresGradCheck.cpp - torch-inplace-on-requires-grad --===//
//
// Rule: an in-place operation must not change a tensor that requires grad (a
// leaf such as a module parameter, or a view of one) while autograd records;
// LibTorch throws "a leaf Variable that requires grad is being used in an
// in-place operation". Updates of such tensors belong in a no-grad scope.
//
// Which tensors require grad: RequiresGrad.h. Whether autograd records at a
// statement, also through the callers of the function: GradMode.h. Both are
// decided once the whole TU is indexed (onEndOfTranslationUnit).
//
//===----------------------------------------------------------------------===//
#include "InplaceOnRequiresGradCheck.h"

#include "torch-tidy/Anchor.h"
#include "torch-tidy/EvaluationOrder.h"
#include "torch-tidy/Inplace.h"
#include "torch-tidy/Options.h"
#include "torch-tidy/TrainingLoop.h"
#include "torch-tidy/Types.h"
#include "torch-tidy/WholeProgram.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Lex/Lexer.h"

using namespace clang;
using namespace clang::ast_matchers;

namespace torch_tidy {

InplaceOnRequiresGradCheck::InplaceOnRequiresGradCheck(
    StringRef Name, tidy::ClangTidyContext *Context)
    : ClangTidyCheck(Name, Context),
      RawNoGradGuardClasses(OptionReader(Options, Name, Context)
                                .getNameList("NoGradGuardClasses")),
      RawParameterFunctions(OptionReader(Options, Name, Context)
                                .getNameList("ParameterFunctions")) {
  GradConfig.NoGradGuardClasses = parseList(RawNoGradGuardClasses);
  GradConfig.Program = programSummary(Context);
  ParamConfig.ParameterFunctions = parseList(RawParameterFunctions);
  ParamConfig.MaxCallDepth = OptionReader(Options, Name, Context)
                                 .getCount("MaxCallDepth", DefaultMaxCallDepth);
  EffectConfig.MaxCallDepth = ParamConfig.MaxCallDepth;
  EffectConfig.Program = programSummary(Context);
}

void InplaceOnRequiresGradCheck::storeOptions(
    tidy::ClangTidyOptions::OptionMap &Opts) {
  Options.store(Opts, "NoGradGuardClasses", RawNoGradGuardClasses);
  Options.store(Opts, "ParameterFunctions", RawParameterFunctions);
  Options.store(Opts, "MaxCallDepth", ParamConfig.MaxCallDepth);
}

void InplaceOnRequiresGradCheck::onStartOfTranslationUnit() {
  Index = nullptr;
  Ctx = nullptr;
  Reported.clear();
}

void InplaceOnRequiresGradCheck::registerMatchers(MatchFinder *Finder) {
  registerAnchor(*Finder, *this);
}

void InplaceOnRequiresGradCheck::check(const MatchFinder::MatchResult &Result) {
  indexUserFunctions(Result, Index, Ctx);
}

void InplaceOnRequiresGradCheck::onEndOfTranslationUnit() {
  if (!Index || !Ctx)
    return;
  GradModeAnalysis GradMode(GradConfig, *Index);
  RequiresGradAnalysis Grad(ParamConfig, *Index, GradMode);
  InplaceEffectAnalysis Effects(EffectConfig, Ctx->getSourceManager(), Grad,
                                GradMode);
  for (const FunctionDecl *FD : Index->functions())
    checkFunction(FD, GradMode, Grad, Effects);
  Index = nullptr;
}

//===----------------------------------------------------------------------===//
// In-place operations.

static StringRef nameOf(const NamedDecl *D) {
  return D && D->getIdentifier() ? D->getName() : StringRef();
}

void InplaceOnRequiresGradCheck::checkFunction(const FunctionDecl *FD,
                                               GradModeAnalysis &GradMode,
                                               RequiresGradAnalysis &Grad,
                                               InplaceEffectAnalysis &Effects) {
  auto Visit = [&](const Expr *E, const Stmt *Statement) {
    std::optional<InplaceOp> Op = matchInplace(E);
    if (!Op) {
      // A function defined in another file (whole-program mode) that changes
      // a tensor it is given; one with a body here is judged in its body.
      if (!EffectConfig.Program)
        return;
      const auto *Call = dyn_cast<CallExpr>(E);
      const FunctionDecl *Callee = Call ? Call->getDirectCallee() : nullptr;
      if (!Callee || Callee->hasBody())
        return;
      for (const RemoteInplace &Effect : Effects.effectsOf(Callee)) {
        const Expr *Arg =
            InplaceEffectAnalysis::argumentFor(Call, Effect.ParamIndex);
        if (!Arg)
          continue;
        std::optional<GradUse> Use =
            Grad.requiresGradWhileRecording(Arg, Call, FD);
        if (Use && Reported.insert(Arg->getExprLoc().getRawEncoding()).second)
          reportRemote(Call, Arg, Effect, *Use, FD, GradMode);
      }
      return;
    }
    // In a chain `w.sub_(a).div_(b)` the first operation is the one reported.
    if (matchInplace(Op->Target->IgnoreParenImpCasts()))
      return;
    std::optional<GradUse> Use =
        Grad.requiresGradWhileRecording(Op->Target, E, FD);
    if (!Use)
      return;
    if (!Reported.insert(Op->Loc.getRawEncoding()).second)
      return;
    report(*Op, Statement, *Use, FD, GradMode);
  };
  forEachBodyPart(FD,
                  [&](const Stmt *S) { forEachExprWithStatement(S, Visit); });
}

//===----------------------------------------------------------------------===//
// Diagnostics.

/// The source text of \p E when it is short and written plainly.
static std::string shortText(const Expr *E, const SourceManager &SM,
                             const LangOptions &LO) {
  // A macro argument maps back to the text written at the call of the macro.
  CharSourceRange R = Lexer::makeFileCharRange(
      CharSourceRange::getTokenRange(E->getSourceRange()), SM, LO);
  if (R.isInvalid())
    return "";
  StringRef Text = Lexer::getSourceText(R, SM, LO);
  if (Text.empty() || Text.size() > 48 || Text.contains('\n'))
    return "";
  return Text.str();
}

static bool isParameterSource(GradSourceKind K) {
  return K == GradSourceKind::ModuleParameters ||
         K == GradSourceKind::RegisteredParameter ||
         K == GradSourceKind::LayerParameter ||
         K == GradSourceKind::OptimizerParameters ||
         K == GradSourceKind::ParameterFunction;
}

/// How to spell `torch::NoGradGuard` in this TU, or empty when no spelling is
/// declared.
static std::string guardSpelling(ASTContext &Ctx) {
  for (const char *NSName : {"torch", "at", "c10"}) {
    for (const NamedDecl *ND :
         Ctx.getTranslationUnitDecl()->lookup(&Ctx.Idents.get(NSName))) {
      const auto *NS = dyn_cast<NamespaceDecl>(ND);
      if (!NS)
        continue;
      if (!NS->lookup(&Ctx.Idents.get("NoGradGuard")).empty())
        return std::string(NSName) + "::NoGradGuard";
    }
  }
  return "";
}

static bool mentionsName(const Stmt *S, StringRef Name) {
  return !forEachDescendant(S, [&](const Stmt *X) {
    if (const auto *DRE = dyn_cast<DeclRefExpr>(X))
      if (nameOf(DRE->getDecl()) == Name)
        return Descend::Stop;
    return Descend::Children;
  });
}

void InplaceOnRequiresGradCheck::report(const InplaceOp &Op,
                                        const Stmt *Statement,
                                        const GradUse &Use,
                                        const FunctionDecl *FD,
                                        GradModeAnalysis &GradMode) {
  const SourceManager &SM = Ctx->getSourceManager();
  const LangOptions &LO = Ctx->getLangOpts();
  bool Param = isParameterSource(Use.Source.Kind);
  const Expr *Named = Op.Target->IgnoreImplicit()->IgnoreParens();
  if (const auto *Arrow = dyn_cast<CXXOperatorCallExpr>(Named))
    if (Arrow->getOperator() == OO_Arrow && Arrow->getNumArgs() == 1)
      Named = Arrow->getArg(0); // `it` in `it->mul_(f)`
  std::string Text = shortText(Named, SM, LO);
  std::string Kind =
      Use.View ? (Param ? "a view of a module parameter"
                        : "a view of a tensor that requires grad")
               : (Param ? "a module parameter" : "a tensor that requires grad");
  std::string What = Text.empty() ? Kind : "'" + Text + "', " + Kind + ",";
  std::string Advice;
  if (Statement)
    Advice = "do the update inside a 'torch::NoGradGuard' scope";
  else if (!Op.OutOfPlace.empty())
    Advice = "do it inside a 'torch::NoGradGuard' scope if it should change "
             "the stored "
             "values, or use the out-of-place '" +
             Op.OutOfPlace + "' if it is part of the computation";
  else
    Advice = "do it inside a 'torch::NoGradGuard' scope";

  {
    auto D = diag(Op.Loc, "in-place '%0' on %1 while autograd is recording: "
                          "autograd cannot record an "
                          "in-place change to %2 that requires grad, so this "
                          "throws at run time; %3")
             << Op.Spelling << What
             << (Use.View ? "a view of a leaf tensor" : "a leaf tensor")
             << Advice;
    // Wrapping the statement is certainly right: its value is discarded, so it
    // is meant to change the stored values, which only works without autograd.
    std::string Guard = guardSpelling(*Ctx);
    const Stmt *S = Statement;
    if (S && !Guard.empty() && !S->getBeginLoc().isMacroID() &&
        !S->getEndLoc().isMacroID() && !mentionsName(S, "no_grad")) {
      SourceLocation AfterSemi = Lexer::findLocationAfterToken(
          S->getEndLoc(), tok::semi, SM, LO, false);
      if (AfterSemi.isValid())
        D << FixItHint::CreateInsertion(S->getBeginLoc(),
                                        "{ " + Guard + " no_grad; ")
          << FixItHint::CreateInsertion(AfterSemi, " }");
    }
  }

  noteWhy(Use, Op.Target, Op.Call, FD, GradMode);
}

void InplaceOnRequiresGradCheck::reportRemote(
    const CallExpr *Call, const Expr *Arg, const RemoteInplace &Effect,
    const GradUse &Use, const FunctionDecl *FD, GradModeAnalysis &GradMode) {
  const SourceManager &SM = Ctx->getSourceManager();
  bool Param = isParameterSource(Use.Source.Kind);
  std::string Text =
      shortText(Arg->IgnoreImplicit()->IgnoreParens(), SM, Ctx->getLangOpts());
  std::string Kind =
      Use.View ? (Param ? "a view of a module parameter"
                        : "a view of a tensor that requires grad")
               : (Param ? "a module parameter" : "a tensor that requires grad");
  std::string What = Text.empty() ? Kind : "'" + Text + "', " + Kind + ",";
  // No fix-it: a guard around the call would also stop autograd from
  // recording whatever else the function computes.
  diag(Arg->getExprLoc(),
       "%0 changes %1 in place ('%2', %3) while autograd is recording: "
       "autograd cannot record an in-place change to %4 that requires grad, "
       "so this throws at run time; call it inside a 'torch::NoGradGuard' "
       "scope, or give it a guard of its own")
      << describeFunction(Call->getDirectCallee()) << What << Effect.Spelling
      << describeRemoteSite(Effect.Site)
      << (Use.View ? "a view of a leaf tensor" : "a leaf tensor");
  SourceLocation There = remoteLocation(SM, Effect.Site);
  if (There.isValid())
    diag(There, "the in-place '%0' is here", DiagnosticIDs::Note)
        << Effect.Spelling;
  noteWhy(Use, Arg, Call, FD, GradMode);
}

void InplaceOnRequiresGradCheck::noteWhy(const GradUse &Use, const Expr *Target,
                                         const Expr *Call,
                                         const FunctionDecl *FD,
                                         GradModeAnalysis &GradMode) {
  const SourceManager &SM = Ctx->getSourceManager();
  for (const CallSite *C : Use.Via)
    diag(C->Site->getExprLoc(), "the tensor is passed to %0 here",
         DiagnosticIDs::Note)
        << describeFunction(C->Callee);

  // Where the tensor started requiring grad.
  const Expr *Where = Use.Source.Where;
  bool SameAsTarget = Where && Where->getExprLoc() == Target->getExprLoc();
  if (Where && !SameAsTarget) {
    const auto *CE = dyn_cast<CallExpr>(Where);
    std::string Callee = CE && CE->getDirectCallee()
                             ? "'" + nameOf(CE->getDirectCallee()).str() + "()'"
                             : "";
    switch (Use.Source.Kind) {
    case GradSourceKind::ModuleParameters:
      diag(Where->getExprLoc(),
           "%0 returns the module's parameters, which require grad",
           DiagnosticIDs::Note)
          << Callee;
      break;
    case GradSourceKind::RegisteredParameter:
      diag(Where->getExprLoc(),
           "'register_parameter()' makes it a parameter that requires grad",
           DiagnosticIDs::Note);
      break;
    case GradSourceKind::LayerParameter:
      diag(Where->getExprLoc(),
           "a layer's weight and bias are parameters that require grad",
           DiagnosticIDs::Note);
      break;
    case GradSourceKind::OptimizerParameters:
      diag(
          Where->getExprLoc(),
          "%0 returns the parameters the optimizer updates, which require grad",
          DiagnosticIDs::Note)
          << Callee;
      break;
    case GradSourceKind::ParameterFunction:
      diag(Where->getExprLoc(),
           "%0 returns parameters (ParameterFunctions option)",
           DiagnosticIDs::Note)
          << Callee;
      break;
    case GradSourceKind::RequiresGradOption:
      diag(Where->getExprLoc(),
           "the tensor is created with 'requires_grad' set here",
           DiagnosticIDs::Note);
      break;
    case GradSourceKind::SetRequiresGrad:
      diag(Where->getExprLoc(), "%0 makes the tensor require grad here",
           DiagnosticIDs::Note)
          << Callee;
      break;
    }
  }
  // Why autograd records there.
  if (Use.Region) {
    const Stmt *Origin = Use.Region->Origin;
    if (Use.Region->Switch == GradSwitch::Enable && Use.Region->Via)
      diag(Origin->getBeginLoc(),
           "autograd is switched back on by this call of %0, and stays on "
           "after it returns",
           DiagnosticIDs::Note)
          << describeFunction(Use.Region->Via);
    else if (Use.Region->Switch == GradSwitch::Enable)
      diag(Origin->getBeginLoc(), "autograd is switched back on here",
           DiagnosticIDs::Note);
    else if (Use.Region->Via)
      diag(Origin->getBeginLoc(),
           "%0 switches grad mode in a way not known when it returns, so "
           "autograd may still record after this call",
           DiagnosticIDs::Note)
          << describeFunction(Use.Region->Via);
    else
      diag(Origin->getBeginLoc(),
           "this grad-mode switch takes a value that is not a literal, so "
           "autograd may "
           "still record",
           DiagnosticIDs::Note);
    return;
  }
  // A no-grad guard earlier in the function whose block has already ended.
  const GradRegion *Ended = nullptr;
  for (const GradRegion &R : GradMode.regions(FD))
    if (R.Switch == GradSwitch::Disable && R.Guard &&
        SM.isBeforeInTranslationUnit(R.Origin->getBeginLoc(),
                                     Call->getBeginLoc()))
      Ended = &R;
  if (Ended && !GradMode.regionAt(FD, Call))
    diag(Ended->Guard->getLocation(),
         "the no-grad guard declared here ends with its block, before this "
         "statement",
         DiagnosticIDs::Note);
  if (Use.EnteredFrom)
    diag(Use.EnteredFrom->Site->getExprLoc(),
         "%0 runs with autograd recording when called here",
         DiagnosticIDs::Note)
        << describeFunction(Use.EnteredFrom->Callee);
  else if (Use.RemoteEntry)
    if (SourceLocation Loc = remoteLocation(SM, Use.RemoteEntry->Site);
        Loc.isValid())
      diag(Loc, "%0 runs with autograd recording when called here",
           DiagnosticIDs::Note)
          << describeFunction(Use.EnteredElsewhere);
}

} // namespace torch_tidy
