//===--- GraphBreakCheck.cpp - torch-graph-break --------------------------===//
//
// Rule: the tensor given to `backward()` (or `torch::autograd::backward` /
// `grad`) must reach the model's parameters through autograd's graph. When
// every way from the model outputs it is computed from is cut (`detach()`,
// `data()`, `item()` re-wrapped with `torch::tensor`, `from_blob` over
// `data_ptr()`, `argmax`, comparisons, integer casts, a forward pass under
// no-grad), `backward()` throws, or with `round`/`sign` computes zeros. When
// one term of the sum that is the loss is cut, training runs and what only
// that term would train never learns.
//
// A cut term is reported only when the model it comes from is trained by
// this loss anyway (another term reaches it with its graph, or an optimizer
// stepped in the function is built over its parameters): a value detached on
// purpose is a factor or a loss's target (a target network, a teacher, an
// advantage), never a term of its own.
//
// Graph paths: GraphPaths.h; whether autograd records: GradMode.h, decided
// once the whole TU is indexed (onEndOfTranslationUnit).
//
//===----------------------------------------------------------------------===//
#include "GraphBreakCheck.h"

#include "torch-tidy/Anchor.h"
#include "torch-tidy/Compat.h"
#include "torch-tidy/EvaluationOrder.h"
#include "torch-tidy/Options.h"
#include "torch-tidy/TrainingLoop.h"
#include "torch-tidy/Types.h"
#include "torch-tidy/WholeProgram.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/StringExtras.h"

using namespace clang;
using namespace clang::ast_matchers;

namespace torch_tidy {

GraphBreakCheck::GraphBreakCheck(StringRef Name,
                                 tidy::ClangTidyContext *Context)
    : ClangTidyCheck(Name, Context),
      RawNoGradGuardClasses(OptionReader(Options, Name, Context)
                                .getNameList("NoGradGuardClasses")) {
  GradConfig.NoGradGuardClasses = parseList(RawNoGradGuardClasses);
  GradConfig.Program = programSummary(Context);
  Config.Program = GradConfig.Program;
  Config.MaxCallDepth = OptionReader(Options, Name, Context)
                            .getCount("MaxCallDepth", DefaultMaxCallDepth);
}

void GraphBreakCheck::storeOptions(tidy::ClangTidyOptions::OptionMap &Opts) {
  Options.store(Opts, "NoGradGuardClasses", RawNoGradGuardClasses);
  Options.store(Opts, "MaxCallDepth", Config.MaxCallDepth);
}

void GraphBreakCheck::onStartOfTranslationUnit() {
  Index = nullptr;
  Ctx = nullptr;
  Reported.clear();
}

void GraphBreakCheck::registerMatchers(MatchFinder *Finder) {
  registerAnchor(*Finder, *this);
}

void GraphBreakCheck::check(const MatchFinder::MatchResult &Result) {
  indexUserFunctions(Result, Index, Ctx);
}

void GraphBreakCheck::onEndOfTranslationUnit() {
  if (!Index || !Ctx)
    return;
  GradModeAnalysis GradMode(GradConfig, *Index);
  GraphPathAnalysis Paths(Config, Ctx->getSourceManager(), GradMode);
  for (const FunctionDecl *FD : Index->functions())
    checkFunction(FD, Paths);
  Index = nullptr;
}

/// The tensor whose graph a backward pass walks: `x` of `x.backward()`, the
/// first argument of `torch::autograd::backward`/`grad`; else null.
static const Expr *backwardValue(const CallExpr *CE) {
  const FunctionDecl *FD = CE->getDirectCallee();
  if (!FD)
    return nullptr;
  if (const auto *MD = dyn_cast<CXXMethodDecl>(FD)) {
    if (hasName(MD, "backward") && isTensorClass(MD->getParent()))
      return memberCallObject(CE);
    return nullptr;
  }
  if ((hasQualifiedName(FD, "torch::autograd::backward") ||
       hasQualifiedName(FD, "torch::autograd::grad")) &&
      CE->getNumArgs() > 0)
    return CE->getArg(0);
  return nullptr;
}

/// How the diagnostics name a model output: its call as written when short,
/// else its module class.
static std::string describeOutput(const ModelOutput &O, const ASTContext &Ctx) {
  if (O.Remote) // Call is the call of the function of another file
    return "of '" + O.Remote->Module + "'";
  const SourceManager &SM = Ctx.getSourceManager();
  SourceLocation B = compat::beginLoc(O.Call), E = compat::endLoc(O.Call);
  if (B.isValid() && E.isValid() && !B.isMacroID() && !E.isMacroID()) {
    StringRef Text = Lexer::getSourceText(CharSourceRange::getTokenRange(B, E),
                                          SM, Ctx.getLangOpts());
    if (!Text.empty() && Text.size() <= 48 && !Text.contains('\n'))
      return "'" + Text.str() + "'";
  }
  return "of '" + (O.Module ? O.Module->getNameAsString() : "") + "'";
}

/// What cut the path, for the diagnostics.
static std::string describeCut(const GraphCut &C) {
  std::string Name = GraphPathAnalysis::cutName(C).str();
  std::string Rewrap = GraphPathAnalysis::rewrapName(C);
  // A cut of another file is known by its names only.
  bool Rewrapped = C.Remote ? !Rewrap.empty() : C.Rewrap != nullptr;
  bool ByRewrap = C.Remote ? Rewrapped && compat::endsWith(Rewrap, "::" + Name)
                           : C.At == C.Rewrap;
  bool Operator =
      C.Remote ? !Name.empty() && !llvm::isAlpha(Name[0]) && Name[0] != '_'
               : isa<CXXOperatorCallExpr>(C.At);
  switch (C.Kind) {
  case CutKind::Detach:
  case CutKind::Data:
    return "'" + Name + "()'";
  case CutKind::Item:
    if (ByRewrap)
      return "a copy of its values made by '" + Rewrap + "'";
    if (Rewrapped)
      return "'" + Name + "()' re-wrapped with '" + Rewrap + "'";
    return "'" + Name + "()'";
  case CutKind::DataPtr:
    if (Rewrapped)
      return "'" + Rewrap + "' over its '" + Name + "()'";
    return "'" + Name + "()'";
  case CutKind::NoGradient:
    if (Operator)
      return "the comparison '" + Name + "', which has no gradient";
    return "'" + Name + "', which has no gradient";
  case CutKind::ZeroGradient:
    return "'" + Name + "', whose gradient is zero";
  case CutKind::IntegerCast:
    return "a cast to an integer type, which has no gradient";
  case CutKind::NoGradMode:
    return "running it while autograd does not record";
  }
  return "";
}

/// What to do instead, for the diagnostics.
static const char *advice(const GraphCut &C) {
  switch (C.Kind) {
  case CutKind::Detach:
  case CutKind::Data:
    return "compute it from the model output itself, without the detached "
           "copy";
  case CutKind::Item:
  case CutKind::DataPtr:
    return "compute it with tensor operations on the model output, not on a "
           "copy of its values";
  case CutKind::NoGradient:
  case CutKind::IntegerCast:
  case CutKind::ZeroGradient:
    return "compute it from a differentiable value (the scores or "
           "probabilities the model gives, not indices, signs, rounded or "
           "integer values)";
  case CutKind::NoGradMode:
    return "run the forward pass outside the no-grad scope";
  }
  return "";
}

void GraphBreakCheck::cutNote(const GraphCut &C, bool WarnedAtCut) {
  if (C.Remote) {
    // In another file: at the cut there when it can be read, else at the
    // call here, naming the place. A forward pass without autograd is
    // shown by the note on the model output.
    if (C.Kind == CutKind::NoGradMode)
      return;
    SourceLocation At = remoteLocation(Ctx->getSourceManager(), C.Remote->Site);
    if (At.isValid())
      diag(At, "the graph is cut here", DiagnosticIDs::Note);
    else
      diag(C.At->getExprLoc(),
           "the graph is cut in the function called here (%0)",
           DiagnosticIDs::Note)
          << describeRemoteSite(C.Remote->Site);
    return;
  }
  if (C.Kind != CutKind::NoGradMode && !WarnedAtCut)
    diag(C.At->getExprLoc(), "the graph is cut here", DiagnosticIDs::Note);
  if (C.Rewrap && C.Rewrap != C.At)
    diag(C.Rewrap->getExprLoc(),
         "the values are made a new tensor here, with no autograd history",
         DiagnosticIDs::Note);
}

void GraphBreakCheck::outputNote(const ModelOutput &O) {
  SourceLocation At = O.Call->getExprLoc();
  if (O.Remote) {
    SourceLocation There =
        remoteLocation(Ctx->getSourceManager(), O.Remote->Forward);
    if (There.isInvalid()) {
      diag(At,
           "the model output comes from a forward pass in %0 (%1), called "
           "here",
           DiagnosticIDs::Note)
          << describeFunction(O.Via) << describeRemoteSite(O.Remote->Forward);
      return;
    }
    At = There;
  }
  if (O.Via)
    diag(At,
         "the model output comes from this forward pass, reached through %0",
         DiagnosticIDs::Note)
        << describeFunction(O.Via);
  else
    diag(At, "the model output comes from this forward pass",
         DiagnosticIDs::Note);
}

void GraphBreakCheck::notes(const GraphPath &P) {
  cutNote(*P.Cut);
  outputNote(P.Output);
}

void GraphBreakCheck::reportWhole(const CallExpr *Backward,
                                  const GraphPath &P) {
  const GraphCut &C = *P.Cut;
  bool Zero = C.Kind == CutKind::ZeroGradient;
  diag(Backward->getExprLoc(),
       "the tensor given to the backward pass is cut from the graph of the "
       "model output %0 by %1: %select{the backward pass throws ('element 0 "
       "of tensors does not require grad')|every gradient it sends is zero}2 "
       "and the model never learns from it; %3")
      << describeOutput(P.Output, *Ctx) << describeCut(C) << (Zero ? 1 : 0)
      << advice(C);
  notes(P);
}

void GraphBreakCheck::reportTerm(const GraphTerm &T, const GraphPath &P,
                                 const CallExpr *Backward) {
  const GraphCut &C = *P.Cut;
  diag(C.At->getExprLoc(),
       "a term of the loss is cut from the graph of the model output %0 by "
       "%1: training runs, but no gradient flows through this term, so what "
       "only it would train never learns; %2")
      << describeOutput(P.Output, *Ctx) << describeCut(C) << advice(C);
  cutNote(C, /*WarnedAtCut=*/true);
  outputNote(P.Output);
  diag(Backward->getExprLoc(), "the loss reaches the backward pass here",
       DiagnosticIDs::Note);
}

void GraphBreakCheck::checkFunction(const FunctionDecl *FD,
                                    GraphPathAnalysis &Paths) {
  if (!FD->getBody() || FD->isDependentContext())
    return;
  llvm::SmallVector<const CallExpr *, 2> Backwards;
  llvm::SmallVector<const ValueDecl *, 2> Optimized;
  forEachDescendant(FD->getBody(), [&](const Stmt *X) {
    // A lambda is a function of its own in the index.
    if (isa<LambdaExpr>(X))
      return Descend::Skip;
    const auto *CE = dyn_cast<CallExpr>(X);
    if (!CE)
      return Descend::Children;
    if (backwardValue(CE))
      Backwards.push_back(CE);
    const auto *MD = dyn_cast_or_null<CXXMethodDecl>(CE->getDirectCallee());
    if (MD && hasName(MD, "step"))
      if (const Expr *Obj = memberCallObject(CE))
        if (optimizerClassOf(Obj->getType(), Config.Types))
          if (const ValueDecl *Opt = objectDecl(Obj))
            for (const ValueDecl *M : optimizedModules(Opt, Config.Types))
              Optimized.push_back(M);
    return Descend::Children;
  });

  for (const CallExpr *Backward : Backwards) {
    GraphTerms Terms = Paths.termsOf(backwardValue(Backward), FD);
    if (!Terms.Complete || Terms.Terms.empty())
      continue;
    bool Graph = llvm::any_of(
        Terms.Terms, [](const GraphTerm &T) { return T.mayCarryGraph(); });
    if (!Graph) {
      // The whole value is cut: name the first way.
      for (const GraphTerm &T : Terms.Terms)
        if (!T.Paths.empty()) {
          if (Reported.insert(Backward).second)
            reportWhole(Backward, T.Paths.front());
          break;
        }
      continue;
    }
    // One term cut while others carry the graph of the same model, or of a
    // model the optimizer steps.
    for (const GraphTerm &T : Terms.Terms) {
      if (!T.isCut())
        continue;
      llvm::SmallVector<const ValueDecl *, 4> Trained(Optimized.begin(),
                                                      Optimized.end());
      for (const GraphTerm &Other : Terms.Terms)
        if (&Other != &T)
          for (const GraphPath &P : Other.Paths)
            if (!P.Cut && P.Output.Object)
              Trained.push_back(P.Output.Object);
      for (const GraphPath &P : T.Paths) {
        if (!P.Output.Object || !llvm::is_contained(Trained, P.Output.Object))
          continue;
        if (Reported.insert(P.Cut->At).second)
          reportTerm(T, P, Backward);
        break;
      }
    }
  }
}

} // namespace torch_tidy
