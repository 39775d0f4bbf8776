//===--- SavedTensors.h - tensors saved for a backward pass -----*- C++ -*-===//
//
// Which tensors an operation recorded by autograd keeps for its backward pass,
// and the in-place changes made to them before that pass, one function at a
// time, in evaluation order (EvaluationOrder.h):
//  * the output of `sigmoid`, `tanh`, `exp`, `softmax` and `relu` (tensor
//    methods, `at::`/`torch::` functions, `torch::nn::functional`, the
//    `torch::nn::ReLU`/`Sigmoid`/`Tanh`/`Softmax` modules applied, and the
//    in-place forms `sigmoid_`, `tanh_`, `exp_`, `relu_`), when its input is
//    part of what autograd records: the variable the output is written to;
//  * an operand of `mul`, `div`, `matmul`, `mm` and `pow` (methods, functions,
//    the operators `*` and `/`) whose other operand is part of it, and the base
//    of `pow` with a scalar exponent when the base is part of it: the operand's
//    variable.
// "Part of what autograd records" is Graphs.h's graphOrLeafOf with
// RequiresGrad.h's leaves; the saving operation must run while autograd
// records (GradMode.h). A saved variable stops being saved when it is written
// (`x = ...`: a new tensor), handed by non-const reference to a function that
// is not LibTorch's, or changed in place (reported once), and every saved
// variable does when a backward pass (`backward()`, `torch::autograd::grad`)
// runs. Only the variable itself is followed, not views or copies of it.
//
// Everything works top-down from a function definition: no parent map.
//
//===----------------------------------------------------------------------===//
#ifndef TORCH_TIDY_SAVEDTENSORS_H
#define TORCH_TIDY_SAVEDTENSORS_H

#include "torch-tidy/GradMode.h"
#include "torch-tidy/Graphs.h"
#include "torch-tidy/Inplace.h"
#include "torch-tidy/RequiresGrad.h"

#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"

#include <string>
#include <vector>

namespace torch_tidy {

/// An operation that keeps a tensor for its backward pass.
struct SavingOp {
  /// The call (the operator call for `a * b`, the module call for `relu(x)`).
  const clang::CallExpr *Call = nullptr;
  /// `sigmoid`, `mul`, `*`, ...
  std::string Name;
  /// It keeps its output (rather than an operand).
  bool Output = false;
  /// It keeps an operand for that operand's own gradient (`pow`'s base),
  /// rather than for the other operand's.
  bool OwnGradient = false;
};

/// An in-place change of a tensor that an earlier recorded operation saved.
struct SavedInplace {
  InplaceOp Op;
  /// The saved variable it changes, or null when it changes the fresh result
  /// of the saving operation itself (`x.sigmoid().mul_(2)`).
  const clang::VarDecl *Var = nullptr;
  SavingOp Save;
  /// The variable the in-place operation's value (or a value computed from
  /// it) is written to: `z` in `auto z = y.mul_(2) * 3;`; null when none.
  const clang::VarDecl *Dest = nullptr;
  /// The in-place call is the whole value written to Dest, or the whole
  /// returned value.
  bool WholeValue = false;
  /// It stands in a `return` statement.
  bool Returned = false;
  /// Var is a local (not a parameter, not a reference) holding a saved
  /// output, named nowhere after the saving call but as the tensor the
  /// in-place call changes, and no loop runs the call again without running
  /// Var's declaration again: replacing the call with its out-of-place form
  /// changes no other value.
  bool OnlyUse = false;
};

class SavedTensorAnalysis {
public:
  /// \p Graphs reads leaves with RequiresGrad.h's test (its LeafTest).
  SavedTensorAnalysis(GradModeAnalysis &GradMode, GraphAnalysis &Graphs)
      : GradMode(GradMode), Graphs(Graphs) {}

  /// The in-place changes of saved tensors in \p FD's own body (lambdas are
  /// functions of their own), in evaluation order. Empty when the walk was
  /// cut by its depth bound.
  std::vector<SavedInplace> inplaceOnSaved(const clang::FunctionDecl *FD);

  /// Whether \p E (in \p FD) is part of what autograd records: computed, while
  /// autograd records, from a tensor that requires grad or from a module's
  /// forward pass or a loss.
  bool recorded(const clang::Expr *E, const clang::FunctionDecl *FD);

  /// Whether autograd records at \p S in \p FD.
  bool recordsAt(const clang::FunctionDecl *FD, const clang::Stmt *S) {
    return GradMode.at(FD, S).Records;
  }

private:
  class Walker;
  GradModeAnalysis &GradMode;
  GraphAnalysis &Graphs;
};

/// When \p CE keeps its output for the backward pass: the operation's name
/// and the tensor it is applied to; std::nullopt otherwise.
std::optional<std::pair<std::string, const clang::Expr *>>
savesOutput(const clang::CallExpr *CE);

} // namespace torch_tidy

#endif
