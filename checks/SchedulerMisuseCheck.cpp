//===--- SchedulerMisuseCheck.cpp - torch-scheduler-misuse ----------------===//
//
// Rule: a learning-rate scheduler steps once per epoch, after the optimizer,
// on the metric it is meant to watch. Three ways to get it wrong:
//  * a ReduceLROnPlateauScheduler stepped with the training loss while a
//    validation loss is computed in the same epoch;
//  * an epoch-based scheduler (an LRScheduler such as StepLR) stepped in the
//    per-batch loop (a loop nested in another that steps an optimizer, or a
//    loop over a data loader);
//  * a scheduler stepped before the optimizer's first step() in an iteration.
//
//===----------------------------------------------------------------------===//
#include "SchedulerMisuseCheck.h"

#include "torch-tidy/Anchor.h"
#include "torch-tidy/Compat.h"
#include "torch-tidy/Options.h"
#include "torch-tidy/WholeProgram.h"

#include "clang/AST/ASTContext.h"

using namespace clang;
using namespace clang::ast_matchers;

namespace torch_tidy {

SchedulerMisuseCheck::SchedulerMisuseCheck(StringRef Name,
                                           tidy::ClangTidyContext *Context)
    : ClangTidyCheck(Name, Context),
      RawOptimizerClasses(
          OptionReader(Options, Name, Context).getNameList("OptimizerClasses")),
      RawPerBatchSchedulerClasses(
          OptionReader(Options, Name, Context)
              .getNameList("PerBatchSchedulerClasses")) {
  Config.Types.ExtraOptimizerClasses = parseList(RawOptimizerClasses);
  PerBatchSchedulerClasses = parseList(RawPerBatchSchedulerClasses);
  Config.MaxCallDepth = OptionReader(Options, Name, Context)
                            .getCount("MaxCallDepth", DefaultMaxCallDepth);
  Config.Program = programSummary(Context);
}

void SchedulerMisuseCheck::storeOptions(
    tidy::ClangTidyOptions::OptionMap &Opts) {
  Options.store(Opts, "OptimizerClasses", RawOptimizerClasses);
  Options.store(Opts, "PerBatchSchedulerClasses", RawPerBatchSchedulerClasses);
  Options.store(Opts, "MaxCallDepth", Config.MaxCallDepth);
}

void SchedulerMisuseCheck::onStartOfTranslationUnit() {
  Events.reset();
  Passes.reset();
  Reported.clear();
}

void SchedulerMisuseCheck::registerMatchers(MatchFinder *Finder) {
  registerAnchor(*Finder, *this);
}

void SchedulerMisuseCheck::check(const MatchFinder::MatchResult &Result) {
  const FunctionDecl *FD = userFunction(*this, Result);
  if (!FD)
    return;
  if (!Events)
    Events.emplace(Config, *Result.SourceManager);
  if (!Passes)
    Passes.emplace(Config, *Result.SourceManager);
  LostCode = mayHaveLostCode(*Result.Context);
  forEachLoop(FD, [&](const Stmt *Loop, ArrayRef<const Stmt *> Enclosing,
                      const FunctionDecl *Owner) {
    checkLoop(Loop, Enclosing, Owner);
  });
}

bool SchedulerMisuseCheck::perBatchScheduler(const CXXRecordDecl *Cls) const {
  return llvm::any_of(PerBatchSchedulerClasses, [&](const std::string &N) {
    return isSameOrDerivedFrom(Cls, StringRef(N).ltrim(':'));
  });
}

/// The scheduler's class as declared for its object (`StepLR` rather than the
/// `LRScheduler` that declares `step()`), else the class of the call.
static const CXXRecordDecl *schedulerClass(const AutogradEvent &E) {
  if (E.Object)
    if (const CXXRecordDecl *Cls = pointeeClass(E.Object->getType()))
      return Cls;
  return E.ObjectClass;
}

/// How a message names the scheduler of \p E: `scheduler 'sched' ('StepLR')`.
static std::string schedulerName(const AutogradEvent &E) {
  std::string Out = "scheduler";
  if (E.Object && E.Object->getIdentifier())
    Out += " '" + E.Object->getName().str() + "'";
  const CXXRecordDecl *Cls = schedulerClass(E);
  if (Cls && Cls->getIdentifier())
    Out += " ('" + Cls->getName().str() + "')";
  return Out;
}

void SchedulerMisuseCheck::checkLoop(const Stmt *Loop,
                                     ArrayRef<const Stmt *> Enclosing,
                                     const FunctionDecl *Owner) {
  EventList Ev = Events->iteration(Loop);
  if (llvm::none_of(Ev, [](const AutogradEvent &E) {
        return E.Kind == EventKind::SchedulerStep;
      }))
    return;
  const SourceManager &SM = Events->sourceManager();
  bool StepsOptimizer = llvm::any_of(Ev, [](const AutogradEvent &E) {
    return E.Kind == EventKind::OptimizerStep;
  });
  bool BatchLoop =
      isDataLoaderLoop(Loop) || (!Enclosing.empty() && StepsOptimizer);

  auto NoteCall = [&](const AutogradEvent &S) {
    if (S.Via)
      diag(S.Call->getExprLoc(),
           "the scheduler steps here, called from the loop through %0",
           DiagnosticIDs::Note)
          << describeFunction(S.Via);
  };

  for (const AutogradEvent &S : Ev) {
    if (S.Kind != EventKind::SchedulerStep)
      continue;
    const CXXRecordDecl *Cls = schedulerClass(S);
    bool Plateau =
        isPlateauSchedulerClass(S.ObjectClass) || isPlateauSchedulerClass(Cls);
    SourceLocation Loc = S.Site->getExprLoc();

    // An epoch-based scheduler in the per-batch loop. A scheduler declared in
    // the enclosing loop lives for one pass of it: that pass is its schedule
    // (a model trained full-batch per pass of an outer loop), not an epoch.
    bool OwnSchedule = false;
    if (const auto *VD = dyn_cast_or_null<VarDecl>(S.Object))
      OwnSchedule = !Enclosing.empty() && VD->hasLocalStorage() &&
                    isWrittenWithin(VD->getLocation(), Enclosing.back(), SM);
    if (!Plateau && BatchLoop && !S.Conditional && !perBatchScheduler(Cls) &&
        (isDataLoaderLoop(Loop) || !OwnSchedule)) {
      if (!Reported.insert(Loc.getRawEncoding()).second)
        continue;
      diag(Loc, "epoch-based %0 is stepped in the per-batch loop: it decays "
                "the learning rate after every batch, as many times too fast "
                "as an epoch has batches; step it once per epoch, after the "
                "batch loop")
          << schedulerName(S);
      NoteCall(S);
      diag(Loop->getBeginLoc(), "the per-batch loop is here",
           DiagnosticIDs::Note);
      continue;
    }

    // ReduceLROnPlateauScheduler given the training loss.
    if (Plateau) {
      if (S.Via || S.Call->getNumArgs() < 1)
        continue;
      llvm::SmallVector<const Stmt *, 2> Vals =
          Passes->validationPasses(Loop, Ev);
      if (Vals.empty())
        continue;
      const Stmt *Src = Passes->trainingSource(S.Call->getArg(0), Owner, Vals);
      if (!Src || !Reported.insert(Loc.getRawEncoding()).second)
        continue;
      diag(Loc, "%0 is stepped with the training loss while a validation "
                "loss is computed in the same epoch: the training loss keeps "
                "falling as the model overfits, so the learning rate is cut "
                "when training stalls, not when the model stops improving on "
                "unseen data; pass the validation loss to 'step()'")
          << schedulerName(S);
      const auto *SrcCall = cast<CallExpr>(Src);
      const FunctionDecl *Callee = SrcCall->getDirectCallee();
      if (Callee && Callee->getIdentifier() && Callee->getName() == "backward")
        diag(SrcCall->getExprLoc(),
             "the metric is computed from the loss 'backward()' is called on "
             "here",
             DiagnosticIDs::Note);
      else
        diag(compat::beginLoc(SrcCall),
             "the metric is the result of %0, which trains the model",
             DiagnosticIDs::Note)
            << describeFunction(Callee);
      // A loop or a call says more than the block holding a no-grad guard.
      const Stmt *Val = Vals.front();
      for (const Stmt *V : Vals)
        if (!isa<CompoundStmt>(V)) {
          Val = V;
          break;
        }
      diag(Val->getBeginLoc(), "a validation loss is computed here",
           DiagnosticIDs::Note);
      continue;
    }

    // Stepped before the optimizer in the iteration. "No step() before it" is
    // a claim of absence: not over code clang could not compile.
    if (S.Conditional || LostCode)
      continue;
    if (S.Via && Passes->of(S.Site).OptimizerStep)
      continue; // the order inside the helper is not known
    const Stmt *After = nullptr;
    bool Before = false;
    for (const Stmt *Step : Passes->optimizerSteps(Loop)) {
      if (Step == S.Site)
        continue;
      if (SM.isBeforeInTranslationUnit(Step->getBeginLoc(),
                                       compat::beginLoc(S.Site)))
        Before = true;
      else if (!After)
        After = Step;
    }
    if (Before || !After || !Reported.insert(Loc.getRawEncoding()).second)
      continue;
    diag(Loc, "%0 is stepped before the optimizer's first 'step()' in this "
              "iteration: the learning rate changes before the optimizer has "
              "used the current one, so the schedule runs one step ahead; "
              "step the scheduler after the optimizer")
        << schedulerName(S);
    NoteCall(S);
    diag(After->getBeginLoc(), "the optimizer steps here, after the scheduler",
         DiagnosticIDs::Note);
  }
}

} // namespace torch_tidy
