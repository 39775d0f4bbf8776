//===--- Passes.h - training and validation passes of an epoch --*- C++ -*-===//
//
// What a statement does anywhere below it, nested loops and lambdas included,
// helpers defined in the translation unit followed (to MaxCallDepth, through
// the summary engine): whether it computes gradients, steps an optimizer, runs
// a module, switches a module to eval() or autograd off. On top of that, the
// questions the scheduler checks ask of one epoch loop:
//
//  * a validation pass in its body: a nested loop, a helper call or a block
//    that runs a module with no `backward()`, with autograd off
//    (`torch::NoGradGuard`, ...) or after `eval()`;
//  * where a value comes from training: a tensor `backward()` is called on,
//    or the result of a helper that trains (calls `backward()` and steps an
//    optimizer), followed through the local variables it is computed from;
//  * whether a loop iterates over a `torch::data` data loader.
//
// Everything works top-down from a function definition or a loop: no parent
// map is ever built (see docs/performance.md).
//
//===----------------------------------------------------------------------===//
#ifndef TORCH_TIDY_PASSES_H
#define TORCH_TIDY_PASSES_H

#include "torch-tidy/Summaries.h"
#include "torch-tidy/TrainingLoop.h"
#include "torch-tidy/Types.h"

#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "clang/AST/Stmt.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"

#include <memory>

namespace torch_tidy {

/// What a statement or function does anywhere below it: the first call of
/// each kind found (inside a helper when reached through one), or null.
struct PassSummary {
  const clang::CallExpr *Backward = nullptr;
  const clang::CallExpr *OptimizerStep = nullptr;
  /// `eval()` / `train(false)` on a module.
  const clang::CallExpr *Eval = nullptr;
  /// A `forward()` or call operator of a module (losses included).
  const clang::CallExpr *Forward = nullptr;
  /// A guard or `set_enabled(false)` that turns autograd off.
  const clang::Stmt *NoGrad = nullptr;
  /// A LibTorch loss: a `torch::nn::XxxLoss` module or an `at::` /
  /// `torch::nn::functional::` loss function.
  const clang::CallExpr *Loss = nullptr;

  /// Computes gradients and applies them.
  bool trains() const { return Backward && OptimizerStep; }
  /// Runs a module and computes a loss without `backward()`, with autograd
  /// off or in eval mode.
  bool validates() const {
    return Forward && Loss && !Backward && (NoGrad || Eval);
  }
  void merge(const PassSummary &O);
};

/// Whether \p Loop is a range-for over a `torch::data` data loader (held by
/// value, reference or smart pointer).
bool isDataLoaderLoop(const clang::Stmt *Loop);

class PassAnalysis {
public:
  /// \p Config: the optimizer and module classes, and MaxCallDepth.
  PassAnalysis(const LoopConfig &Config, const clang::SourceManager &SM);
  ~PassAnalysis();

  /// What \p S does anywhere below it (level 0: written in the function asked
  /// about; helpers it calls are level 1).
  PassSummary of(const clang::Stmt *S);

  /// The validation passes written in the body of \p Loop, in the order
  /// written: nested loops, calls of helpers, and blocks holding a no-grad
  /// guard, that run a module and compute a loss without `backward()`, with
  /// autograd off or after an `eval()` of \p Events (the events of one
  /// iteration of \p Loop).
  llvm::SmallVector<const clang::Stmt *, 2>
  validationPasses(const clang::Stmt *Loop,
                   llvm::ArrayRef<AutogradEvent> Events);

  /// Where \p Value, an expression of \p Owner, comes from training (a
  /// CallExpr): the
  /// `backward()` call on a tensor it is computed from, or the call of a helper
  /// that trains whose result it is, followed through the local numbers and
  /// tensors it is computed from. Null when not known to come from training,
  /// or when part of it comes from a validation pass (one of \p Validation,
  /// what validationPasses() found, or the result of a helper that validates).
  const clang::Stmt *
  trainingSource(const clang::Expr *Value, const clang::FunctionDecl *Owner,
                 llvm::ArrayRef<const clang::Stmt *> Validation);

  /// The statements of \p Loop's body (nested loops, helper calls, calls of
  /// an optimizer's `step()`) that step an optimizer, in the order written.
  llvm::SmallVector<const clang::Stmt *, 4>
  optimizerSteps(const clang::Stmt *Loop);

private:
  struct Impl;
  std::unique_ptr<Impl> I;
};

} // namespace torch_tidy

#endif
