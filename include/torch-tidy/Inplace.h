//===--- Inplace.h - in-place operations on tensors -------------*- C++ -*-===//
//
// Which expressions change a tensor in place, known by their declarations: the
// methods of `at::Tensor` whose name ends in `_` (`mul_`, `clamp_`, ...; not the
// ones that change only metadata, such as `requires_grad_`), the compound
// assignments `+=`, `-=`, `*=`, `/=`, `&=`, `|=`, `^=` on a tensor, a write
// into a temporary view (`w[0] = v`: `Tensor::operator=() &&`), and ATen's
// in-place functions (`at::relu_(t)`, `torch::sigmoid_(t)`), which take the
// tensor by non-const reference.
//
//===----------------------------------------------------------------------===//
#ifndef TORCH_TIDY_INPLACE_H
#define TORCH_TIDY_INPLACE_H

#include "clang/AST/Expr.h"
#include "clang/Basic/SourceLocation.h"
#include "llvm/ADT/STLFunctionalExtras.h"

#include <optional>
#include <string>

namespace torch_tidy {

/// An in-place operation on a tensor.
struct InplaceOp {
  /// The whole operation (the member call, operator call or function call).
  const clang::Expr *Call = nullptr;
  /// The tensor it changes (the object of a method, the left operand, the
  /// first argument of a function).
  const clang::Expr *Target = nullptr;
  /// Where a diagnostic points: the method's or function's name, the
  /// operator.
  clang::SourceLocation Loc;
  /// The name of the name token of a method or function (`relu_` in
  /// `torch::relu_(p)`); invalid for an operator.
  clang::SourceLocation NameLoc;
  /// As written: `sub_`, `-=`.
  std::string Spelling;
  /// The out-of-place form: `sub` for a method, `-` for an operator,
  /// `torch::relu` for a function; empty when there is none (`w[0] = v`).
  std::string OutOfPlace;
};

/// \p E as an in-place operation on a tensor, or std::nullopt.
std::optional<InplaceOp> matchInplace(const clang::Expr *E);

/// Whether the out-of-place form of \p Op is declared next to it: a method of
/// the same class, or a function of the same namespace, named as \p Op
/// without its trailing `_` (`mul` for `mul_`). False for operators.
bool hasOutOfPlaceForm(const InplaceOp &Op);

/// Calls \p Fn for \p Root and every expression below it (the bodies of
/// lambdas excluded: they are functions of their own), in the order of a
/// recursive walk, with the statement the expression makes up (a statement
/// of a block, a branch or a loop body, once the implicit nodes around it are
/// peeled), or null when it is part of a larger one. Any depth of nesting is
/// safe.
void forEachExprWithStatement(
    const clang::Stmt *Root,
    llvm::function_ref<void(const clang::Expr *, const clang::Stmt *)> Fn);

} // namespace torch_tidy

#endif
