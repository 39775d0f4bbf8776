//===--- GradAccumulationCheck.cpp - torch-grad-accumulation --------------===//
//
// Rule: a loop that calls `backward()` on every batch and an optimizer's
// `step()` only every k batches (`if ((i + 1) % k == 0)`, or `continue` on
// the others) accumulates k batches' gradients per step. Two ways to get it
// wrong:
//  * the loss is not divided by k, so the step applies k times the gradient
//    of one batch (the learning rate, in effect, k times larger);
//  * nothing steps after the loop, so when the number of batches is not a
//    multiple of k the gradients of the last batches are never applied.
//
//===----------------------------------------------------------------------===//
#include "GradAccumulationCheck.h"

#include "torch-tidy/Anchor.h"
#include "torch-tidy/Compat.h"
#include "torch-tidy/Options.h"
#include "torch-tidy/WholeProgram.h"

#include "clang/AST/ASTContext.h"
#include "clang/Lex/Lexer.h"

using namespace clang;
using namespace clang::ast_matchers;

namespace torch_tidy {

GradAccumulationCheck::GradAccumulationCheck(StringRef Name,
                                             tidy::ClangTidyContext *Context)
    : ClangTidyCheck(Name, Context),
      RawOptimizerClasses(
          OptionReader(Options, Name, Context).getNameList("OptimizerClasses")),
      RawZeroGradFunctions(OptionReader(Options, Name, Context)
                               .getNameList("ZeroGradFunctions")),
      RawLossScaleFunctions(OptionReader(Options, Name, Context)
                                .getNameList("LossScaleFunctions")) {
  Config.Types.ExtraOptimizerClasses = parseList(RawOptimizerClasses);
  Config.ZeroGradFunctions = parseList(RawZeroGradFunctions);
  Config.MaxCallDepth = OptionReader(Options, Name, Context)
                            .getCount("MaxCallDepth", DefaultMaxCallDepth);
  Config.Program = programSummary(Context);
  AccConfig.LossScaleFunctions = parseList(RawLossScaleFunctions);
  AccConfig.MaxCallDepth = Config.MaxCallDepth;
}

void GradAccumulationCheck::storeOptions(
    tidy::ClangTidyOptions::OptionMap &Opts) {
  Options.store(Opts, "OptimizerClasses", RawOptimizerClasses);
  Options.store(Opts, "ZeroGradFunctions", RawZeroGradFunctions);
  Options.store(Opts, "LossScaleFunctions", RawLossScaleFunctions);
  Options.store(Opts, "MaxCallDepth", Config.MaxCallDepth);
}

void GradAccumulationCheck::onStartOfTranslationUnit() {
  Events.reset();
  Accumulation.reset();
  Reported.clear();
}

void GradAccumulationCheck::registerMatchers(MatchFinder *Finder) {
  registerAnchor(*Finder, *this);
}

void GradAccumulationCheck::check(const MatchFinder::MatchResult &Result) {
  const FunctionDecl *FD = userFunction(*this, Result);
  if (!FD)
    return;
  if (!Events)
    Events.emplace(Config, *Result.SourceManager);
  if (!Accumulation)
    Accumulation.emplace(AccConfig);
  // Both findings are claims of absence (no scaling, no flush): not over code
  // clang could not compile, where the missing statement may be one it dropped.
  LostCode = mayHaveLostCode(*Result.Context);
  if (LostCode)
    return;
  forEachLoop(FD, [&](const Stmt *Loop, ArrayRef<const Stmt *> Enclosing,
                      const FunctionDecl *Owner) {
    checkLoop(Loop, Enclosing, Owner, *Result.SourceManager);
  });
}

static bool sameOptimizer(const AutogradEvent &A, const AutogradEvent &B) {
  return !A.Object || !B.Object || A.Object == B.Object;
}

static bool everyPath(const AutogradEvent &E) {
  return !E.Conditional && !E.AfterExit;
}

/// k as a message says it: `4`, or `'accum_steps'` as written.
static std::string spellEvery(const AccumulationGuard &G,
                              const SourceManager &SM, const LangOptions &LO) {
  if (G.EveryValue)
    return std::to_string(*G.EveryValue);
  StringRef Text = Lexer::getSourceText(
      CharSourceRange::getTokenRange(G.Every->getSourceRange()), SM, LO);
  return Text.empty() ? "k" : "'" + Text.str() + "'";
}

bool GradAccumulationCheck::flushedAfter(const Stmt *Loop,
                                         ArrayRef<const Stmt *> Enclosing,
                                         const FunctionDecl *Owner,
                                         const AutogradEvent &Step,
                                         const AccumulationGuard &G,
                                         const SourceManager &SM) {
  // What runs once per pass of the batch loop, around it: the enclosing
  // loop's body, or the function's.
  const Stmt *Pass =
      Enclosing.empty() ? Owner->getBody() : loopBody(Enclosing.back());
  bool Complete = true;
  EventList Around = Events->straightLine(Pass, &Complete);
  if (!Complete)
    return true; // a helper was left unread: it may flush
  SourceLocation End = compat::endLoc(Loop);
  for (const AutogradEvent &E : Around)
    if (E.Kind == EventKind::OptimizerStep && sameOptimizer(E, Step) &&
        SM.isBeforeInTranslationUnit(End, compat::beginLoc(E.Site)))
      return true;
  // A counter that lives across passes carries the leftover batches into the
  // next pass's first step, unless something clears the gradients in between.
  if (!AccumulationAnalysis::counterOutlives(G, Loop, Enclosing, Owner, SM))
    return false;
  if (Enclosing.empty())
    return true; // the caller's loop is not read: it may carry the batches on
  return llvm::none_of(Around, [&](const AutogradEvent &Z) {
    return clearsGradientsOf(Z, Step, Config.Types);
  });
}

void GradAccumulationCheck::checkLoop(const Stmt *Loop,
                                      ArrayRef<const Stmt *> Enclosing,
                                      const FunctionDecl *Owner,
                                      const SourceManager &SM) {
  EventList Ev = Events->iteration(Loop);
  // The first optimizer step that only every k-th iteration runs.
  const AutogradEvent *Step = nullptr;
  std::optional<AccumulationGuard> Guard;
  for (const AutogradEvent &E : Ev) {
    if (E.Kind != EventKind::OptimizerStep || E.InClosure || everyPath(E))
      continue;
    if ((Guard = Accumulation->guardOf(Loop, E.Site))) {
      Step = &E;
      break;
    }
  }
  if (!Step || Step->Site->getBeginLoc().isMacroID() ||
      Guard->If->getBeginLoc().isMacroID() ||
      Guard->Rem->getBeginLoc().isMacroID() ||
      Guard->Rem->getEndLoc().isMacroID())
    return; // a test written by a macro: what it means is not read
  // Accumulation means: backward() on every batch, the gradients kept from
  // one batch to the next, and this optimizer stepping only under the test.
  const AutogradEvent *Backward = nullptr;
  bool OtherStep = false;
  for (const AutogradEvent &E : Ev) {
    if (E.Kind == EventKind::Backward && !E.Conditional && !E.InClosure &&
        !Backward)
      Backward = &E;
    if (E.Kind == EventKind::ZeroGrad && everyPath(E) &&
        clearsGradientsOf(E, *Step, Config.Types))
      return; // cleared on every batch: nothing accumulates
    if (&E != Step && E.Kind == EventKind::OptimizerStep &&
        sameOptimizer(E, *Step) && E.Site != Step->Site) {
      if (everyPath(E))
        return; // it steps on every batch anyway
      OtherStep = true;
    }
  }
  // The events are in evaluation order: the backward() must come first.
  if (!Backward || Backward > Step)
    return;
  // Gradients cleared between that backward() and the step (a generator
  // trained every n-th batch with its own zero_grad() and backward() in the
  // branch): the step applies what the branch computed, nothing accumulated.
  for (const AutogradEvent *E = Backward + 1; E != Step; ++E)
    if (E->Kind == EventKind::ZeroGrad &&
        clearsGradientsOf(*E, *Step, Config.Types))
      return;
  const LangOptions &LO = Owner->getASTContext().getLangOpts();
  std::string Every = spellEvery(*Guard, SM, LO);
  auto NoteGuard = [&] {
    diag(Guard->Rem->getExprLoc(),
         "the optimizer steps only on the iterations where this test holds",
         DiagnosticIDs::Note);
    if (Step->Via)
      diag(compat::beginLoc(Step->Call),
           "the optimizer steps here, called from the loop through %0",
           DiagnosticIDs::Note)
          << describeFunction(Step->Via);
    else
      diag(compat::beginLoc(Step->Call), "the optimizer steps here",
           DiagnosticIDs::Note);
  };

  // (a) The loss is not divided by k.
  bool Scaled = AccumulationAnalysis::scalesGradients(Loop) ||
                llvm::any_of(Ev, [&](const AutogradEvent &E) {
                  return E.Kind == EventKind::Backward &&
                         (E.Call->getBeginLoc().isMacroID() ||
                          Accumulation->mayBeScaled(E.Call, SM));
                });
  SourceLocation At = compat::beginLoc(Backward->Site);
  if (!Scaled && Reported.insert(At.getRawEncoding()).second) {
    diag(At, "the gradients of %0 batches are added up before each 'step()' "
             "but the loss is not divided by %0, so the optimizer applies %0 "
             "times the gradient of one batch, as if the learning rate were "
             "%0 times larger; divide the loss by %0 before 'backward()'")
        << Every;
    if (Backward->Via)
      diag(compat::beginLoc(Backward->Call),
           "'backward()' is called here, from the loop through %0",
           DiagnosticIDs::Note)
          << describeFunction(Backward->Via);
    NoteGuard();
  }

  // (b) Nothing applies the gradients of the batches after the last step.
  if (Guard->Compound || OtherStep ||
      AccumulationAnalysis::countIsMultiple(Loop, *Guard) ||
      flushedAfter(Loop, Enclosing, Owner, *Step, *Guard, SM))
    return;
  SourceLocation LoopAt = Loop->getBeginLoc();
  if (LoopAt.isMacroID() || !Reported.insert(LoopAt.getRawEncoding()).second)
    return;
  std::string Access = spellObjectAccess(*Step, Owner, Loop->getEndLoc(), SM);
  diag(LoopAt,
       "the gradients of the batches after the last 'step()' of this loop "
       "are never applied: the optimizer steps only every %0 batches and not "
       "after the loop, so when the number of batches is not a multiple of "
       "%0 the last ones are left out of training; call '%1step()' and "
       "'%1zero_grad()' after the loop when batches are left over")
      << Every << Access;
  NoteGuard();
}

} // namespace torch_tidy
