//===--- MissingZeroGradCheck.cpp - torch-missing-zero-grad ---------------===//
//
// Rule: in one iteration of a training loop, every optimizer that steps after
// a `backward()` must have its gradients cleared in that iteration, and not
// between that `backward()` and that `step()`.
//
//===----------------------------------------------------------------------===//
#include "MissingZeroGradCheck.h"

#include "torch-tidy/Anchor.h"
#include "torch-tidy/Options.h"
#include "torch-tidy/WholeProgram.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Lex/Lexer.h"

using namespace clang;
using namespace clang::ast_matchers;

namespace torch_tidy {

MissingZeroGradCheck::MissingZeroGradCheck(StringRef Name,
                                           tidy::ClangTidyContext *Context)
    : ClangTidyCheck(Name, Context),
      RawOptimizerClasses(
          OptionReader(Options, Name, Context).getNameList("OptimizerClasses")),
      RawZeroGradFunctions(OptionReader(Options, Name, Context)
                               .getNameList("ZeroGradFunctions")) {
  Config.Types.ExtraOptimizerClasses = parseList(RawOptimizerClasses);
  Config.ZeroGradFunctions = parseList(RawZeroGradFunctions);
  Config.MaxCallDepth = OptionReader(Options, Name, Context)
                            .getCount("MaxCallDepth", DefaultMaxCallDepth);
  Config.Program = programSummary(Context);
}

void MissingZeroGradCheck::storeOptions(
    tidy::ClangTidyOptions::OptionMap &Opts) {
  Options.store(Opts, "OptimizerClasses", RawOptimizerClasses);
  Options.store(Opts, "ZeroGradFunctions", RawZeroGradFunctions);
  Options.store(Opts, "MaxCallDepth", Config.MaxCallDepth);
}

void MissingZeroGradCheck::onStartOfTranslationUnit() {
  Events.reset();
  Reported.clear();
}

void MissingZeroGradCheck::registerMatchers(MatchFinder *Finder) {
  registerAnchor(*Finder, *this);
}

void MissingZeroGradCheck::check(const MatchFinder::MatchResult &Result) {
  const FunctionDecl *FD = userFunction(*this, Result);
  if (!FD)
    return;
  if (!Events)
    Events.emplace(Config, *Result.SourceManager);
  LostCode = mayHaveLostCode(*Result.Context);
  forEachLoop(FD, [&](const Stmt *Loop, ArrayRef<const Stmt *> Enclosing,
                      const FunctionDecl *Owner) {
    checkLoop(Loop, Enclosing, Owner, *Result.SourceManager);
  });
}

static std::string objectName(const AutogradEvent &E) {
  if (E.Object && E.Object->getIdentifier())
    return "'" + E.Object->getName().str() + "'";
  return "";
}

void MissingZeroGradCheck::checkLoop(const Stmt *Loop,
                                     ArrayRef<const Stmt *> Enclosing,
                                     const FunctionDecl *Owner,
                                     const SourceManager &SM) {
  EventList Ev = Events->iteration(Loop);
  auto Has = [&](EventKind K) {
    return llvm::any_of(Ev,
                        [K](const AutogradEvent &E) { return E.Kind == K; });
  };
  if (!Has(EventKind::Backward) || !Has(EventKind::OptimizerStep))
    return;

  auto NoteBackwardAndStep = [&](const AutogradEvent &Backward,
                                 const AutogradEvent &Step) {
    if (Backward.Via)
      diag(Backward.Call->getExprLoc(),
           "'backward()' computes gradients here, called from the loop through "
           "%0",
           DiagnosticIDs::Note)
          << describeFunction(Backward.Via);
    else
      diag(Backward.Call->getExprLoc(), "'backward()' computes gradients here",
           DiagnosticIDs::Note);
    if (Step.Via)
      diag(Step.Call->getExprLoc(),
           "the optimizer steps here, called from the loop through %0",
           DiagnosticIDs::Note)
          << describeFunction(Step.Via);
    else
      diag(Step.Call->getExprLoc(), "the optimizer steps here",
           DiagnosticIDs::Note);
  };

  // zero_grad() between a backward() and the next step() of the same optimizer.
  for (size_t I = 0; I < Ev.size(); ++I) {
    if (Ev[I].Kind != EventKind::Backward)
      continue;
    size_t J = I + 1;
    while (J < Ev.size() && Ev[J].Kind != EventKind::OptimizerStep)
      ++J;
    if (J == Ev.size())
      break;
    for (size_t K = I + 1; K < J; ++K) {
      const AutogradEvent &Z = Ev[K];
      if (Z.Kind != EventKind::ZeroGrad || Z.Conditional || !Z.Object)
        continue;
      // The stepping optimizer itself, or a module whose parameters it holds
      // (GAN code clears the other network there on purpose: not reported).
      bool OwnModule =
          Z.Object != Ev[J].Object &&
          isModuleClass(Z.ObjectClass, Config.Types) &&
          llvm::is_contained(optimizedModules(Ev[J].Object, Config.Types),
                             Z.Object);
      if (Z.Object != Ev[J].Object && !OwnModule)
        continue;
      if (!Reported.insert(Z.Site->getExprLoc().getRawEncoding()).second)
        continue;
      diag(Z.Site->getExprLoc(), "'zero_grad()' between 'backward()' and "
                                 "'step()' discards the gradients just "
                                 "computed, so the optimizer steps with zero "
                                 "gradients; clear gradients before "
                                 "'backward()' instead");
      NoteBackwardAndStep(Ev[I], Ev[J]);
      if (OwnModule)
        diag(Ev[J].Object->getLocation(),
             "%0 is built over the parameters of %1, so clearing the module "
             "clears the optimizer's gradients",
             DiagnosticIDs::Note)
            << Ev[J].Object << Z.Object;
    }
  }

  // Optimizers that step with gradients nothing in the iteration clears.
  llvm::SmallVector<const AutogradEvent *, 2> Uncleared;
  for (const AutogradEvent &Step : Ev) {
    if (Step.Kind != EventKind::OptimizerStep)
      continue;
    bool Cleared = llvm::any_of(Ev, [&](const AutogradEvent &Z) {
      return clearsGradientsOf(Z, Step, Config.Types);
    });
    bool Seen = llvm::any_of(Uncleared, [&](const AutogradEvent *U) {
      return U->Object == Step.Object;
    });
    if (!Cleared && !Seen)
      Uncleared.push_back(&Step);
  }
  // "Never cleared" is a claim of absence: not over code clang could not
  // compile, where the clearing call may be the statement it dropped.
  if (Uncleared.empty() || LostCode)
    return;
  if (!Reported.insert(Loop->getBeginLoc().getRawEncoding()).second)
    return;

  const AutogradEvent &Step = *Uncleared.front();
  const AutogradEvent &Backward = *llvm::find_if(
      Ev, [](const AutogradEvent &E) { return E.Kind == EventKind::Backward; });
  const Stmt *Body = loopBody(Loop);
  const auto *Block = dyn_cast_or_null<CompoundStmt>(Body);
  SourceLocation InsertAt = Block && !Block->body_empty()
                                ? Block->body_front()->getBeginLoc()
                                : SourceLocation();
  std::string Access =
      InsertAt.isValid() ? spellObjectAccess(Step, Owner, InsertAt, SM) : "";

  std::string Name = objectName(Step);
  std::string Call = Access.empty() ? "zero_grad()" : Access + "zero_grad()";
  // LBFGS calls its closure several times per step: clearing belongs inside it.
  bool InClosure = Backward.InClosure;
  std::string Action =
      InClosure ? std::string(
                      "call 'zero_grad()' inside the closure given to 'step()'")
                : "call '" + Call + "' at the start of each iteration";
  {
    auto D =
        diag(Loop->getBeginLoc(), "gradients are never cleared in this "
                                  "training loop: 'backward()' adds to "
                                  "the gradients of earlier iterations and %0 "
                                  "steps with their running sum; %1")
        << (Name.empty() ? std::string("the optimizer") : "optimizer " + Name)
        << Action;
    // The fix is certain only when the one optimizer steps on every iteration
    // (no gradient accumulation, under an `if` or after an early `continue`)
    // and can be named at the top of the body.
    bool StepsAlways = llvm::none_of(Ev, [&](const AutogradEvent &E) {
      return E.Kind == EventKind::OptimizerStep && E.Object == Step.Object &&
             (E.Conditional || E.AfterExit);
    });
    if (Uncleared.size() == 1 && StepsAlways && !InClosure && !Access.empty() &&
        !InsertAt.isMacroID()) {
      StringRef Indent = Lexer::getIndentationForLine(InsertAt, SM);
      D << FixItHint::CreateInsertion(InsertAt, Call + ";\n" + Indent.str());
    }
  }
  NoteBackwardAndStep(Backward, Step);
  for (const AutogradEvent &Z : Ev)
    if (Z.Kind == EventKind::ZeroGrad)
      diag(Z.Site->getExprLoc(),
           "'zero_grad()' here clears another optimizer's gradients",
           DiagnosticIDs::Note);
  for (auto It = Enclosing.rbegin(); It != Enclosing.rend(); ++It) {
    EventList Outer = Events->iteration(*It);
    for (const AutogradEvent &Z : Outer)
      if (clearsGradientsOf(Z, Step, Config.Types))
        diag(Z.Site->getExprLoc(),
             "'zero_grad()' is only called in the enclosing loop, so gradients "
             "are cleared "
             "once per pass of that loop, not once per iteration of this one",
             DiagnosticIDs::Note);
  }
}

} // namespace torch_tidy
