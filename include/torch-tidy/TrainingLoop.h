//===--- TrainingLoop.h - autograd events of one loop iteration -*- C++ -*-===//
//
// For one iteration of a loop, the ordered list of calls that matter to
// training: `backward()`, optimizer `step()` and `zero_grad()`, scheduler
// `step()`, module `eval()`/`train()`, module forward calls. Helpers, member functions and lambdas
// defined in the translation unit are followed (to a depth bound) through
// memoised per-function summaries, so each function body is read once per TU.
// Calls inside nested loops belong to those loops and are left out.
//
// Everything works top-down from a function definition: no parent map is ever
// built (see docs/performance.md).
//
//===----------------------------------------------------------------------===//
#ifndef TORCH_TIDY_TRAININGLOOP_H
#define TORCH_TIDY_TRAININGLOOP_H

#include "torch-tidy/Summaries.h"
#include "torch-tidy/Types.h"

#include "clang/AST/Expr.h"
#include "clang/AST/Stmt.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallVector.h"

#include <memory>
#include <string>
#include <vector>

namespace torch_tidy {

class ProgramSummary;
struct RemoteSite;

enum class EventKind {
  Backward,      ///< `loss.backward()`, `torch::autograd::backward(...)`
  OptimizerStep, ///< `step()` on a `torch::optim::Optimizer`
  ZeroGrad, ///< `zero_grad()` on an optimizer or a module, or a configured function
  SchedulerStep, ///< `step()` on a `torch::optim::LRScheduler` or a
                 ///< `ReduceLROnPlateauScheduler` (ObjectClass tells which)
  Eval,          ///< `module->eval()`, `module->train(false)`
  Train,         ///< `module->train()`
  Forward, ///< `module->forward(x)`, `module(x)` on a holder (the module's
           ///< own forward() is not followed)
};

/// One call reached from the analysed statements, in evaluation order.
struct AutogradEvent {
  EventKind Kind;
  /// The call written in the analysed statements: the call itself, or the
  /// helper call through which it was reached.
  const clang::CallExpr *Site = nullptr;
  /// The call that does it (inside a helper when reached through one).
  const clang::CallExpr *Call = nullptr;
  /// The object acted on (optimizer, module, scheduler) when it is a plain name,
  /// with helper parameters replaced by the caller's arguments; else null
  /// (always for gradients cleared tensor by tensor, `p.grad().zero_()`).
  const clang::ValueDecl *Object = nullptr;
  /// The object's class (the module Impl for holders), when known.
  const clang::CXXRecordDecl *ObjectClass = nullptr;
  /// Reached only on some paths: under `if`, `switch`, `?:`, `&&`, `||`, `catch`.
  bool Conditional = false;
  /// After a `continue`, `break`, `return`, `throw` or `[[noreturn]]` call that
  /// may run first in the iteration (or the helper it was reached through), so
  /// skipped on some paths even when not under a branch. The event runs on
  /// every path through the iteration when neither this nor Conditional is set.
  bool AfterExit = false;
  /// The exits the walked unit passed before the event (the flow layer's
  /// exitCount()), helpers' exits included, on one scale for all the events
  /// of one walk: two events with the same mark have no exit between them.
  unsigned ExitMark = 0;
  /// The outermost helper it was reached through, or null when written here.
  const clang::FunctionDecl *Via = nullptr;
  /// A configured in-house function (ZeroGradFunctions) rather than the API.
  bool Custom = false;
  /// Inside a closure given to an optimizer's `step()` (LBFGS), which calls it
  /// several times per step.
  bool InClosure = false;
  /// Done in a helper defined in another translation unit (WholeProgram.h):
  /// its place there. Call is then the helper call written here, as Site.
  const RemoteSite *Remote = nullptr;
};

using EventList = llvm::SmallVector<AutogradEvent, 8>;

/// Whether \p Z (any event) clears the gradients that \p Step (an optimizer
/// step) applies: a `zero_grad()` of the same optimizer, of an unknown one, a
/// configured clearing function, or a module's `zero_grad()` (it clears its
/// parameters, whichever optimizer holds them).
bool clearsGradientsOf(const AutogradEvent &Z, const AutogradEvent &Step,
                       const TypeConfig &Types);

struct LoopConfig {
  TypeConfig Types;
  /// Functions or methods that clear gradients, besides `zero_grad()`.
  std::vector<std::string> ZeroGradFunctions;
  /// How many calls below the analysed function helpers are followed
  /// (Summaries.h: a helper N calls down is read when N <= MaxCallDepth).
  unsigned MaxCallDepth = DefaultMaxCallDepth;
  /// The other translation units' summaries (WholeProgram.h), or null.
  std::shared_ptr<const ProgramSummary> Program;
};

class AutogradEventAnalysis {
public:
  AutogradEventAnalysis(const LoopConfig &Config,
                        const clang::SourceManager &SM)
      : Config(Config), SM(SM), Engine(Config.MaxCallDepth), Memo(Engine) {}

  /// The events of one iteration of \p Loop (a for, range-for, while or do
  /// statement): its condition, body and increment.
  EventList iteration(const clang::Stmt *Loop);

  /// The events of \p S run once, nested loops left out. \p Complete, when
  /// given, is set to false when the depth bound left a helper below \p S
  /// unread (what it does is unknown, not absent).
  EventList straightLine(const clang::Stmt *S, bool *Complete = nullptr);

  /// The events of one call of \p FD (its definition's body), memoised per
  /// function unless the depth bound cut the walk short.
  EventList summary(const clang::FunctionDecl *FD, unsigned Depth = 0);

  const LoopConfig &config() const { return Config; }
  const clang::SourceManager &sourceManager() const { return SM; }

private:
  /// The events of a call of \p FD, defined in another translation unit,
  /// from the program summary (parameters and members as \p FD's own).
  EventList remoteSummary(const clang::FunctionDecl *FD) const;

  const LoopConfig &Config;
  const clang::SourceManager &SM;
  SummaryEngine Engine;
  Summaries<const clang::FunctionDecl *, EventList> Memo;
};

bool isLoop(const clang::Stmt *S);
const clang::Stmt *loopBody(const clang::Stmt *Loop);

/// Calls \p Fn for every loop in \p Body, outer loops first, with the loops
/// that enclose it (innermost last) and the function whose body holds it (a
/// lambda's call operator for loops written inside a lambda).
void forEachLoop(
    const clang::FunctionDecl *FD,
    llvm::function_ref<void(const clang::Stmt *Loop,
                            llvm::ArrayRef<const clang::Stmt *> Enclosing,
                            const clang::FunctionDecl *Owner)>
        Fn);

/// How a diagnostic names a function it went through: `'train_step'`,
/// `'Trainer::fit'`, or `a lambda`.
std::string describeFunction(const clang::FunctionDecl *FD);

/// How to write the object of \p E (optimizer, module) at a statement inside
/// \p Owner before \p Before: `name.` or `name->`; empty when it is not a name
/// visible there.
std::string spellObjectAccess(const AutogradEvent &E,
                              const clang::FunctionDecl *Owner,
                              clang::SourceLocation Before,
                              const clang::SourceManager &SM);

/// The modules whose parameters the optimizer \p Optimizer was built over:
/// the objects of `parameters()` / `named_parameters()` calls of modules in
/// its initialiser (a variable's, a member's default initialiser or its
/// constructors' member initialisers; through parameter groups, one local
/// variable holding the list, and `std::make_shared`). Empty when unknown,
/// e.g. for an optimizer handed in as a parameter.
llvm::SmallVector<const clang::ValueDecl *, 2>
optimizedModules(const clang::ValueDecl *Optimizer, const TypeConfig &Types);

} // namespace torch_tidy

#endif
