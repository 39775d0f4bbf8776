//===--- BlobLifetime.h - tensors that outlive borrowed storage -*- C++ -*-===//
//
// `torch::from_blob(ptr, sizes, ...)` (and `at::from_blob`) builds a tensor
// over memory it does not own. This room finds, in one function, the
// from_blob tensors whose storage dies while the tensor is still alive:
//
//   storage   a local (automatic) `std::vector`, `std::array`, `std::string`,
//             `std::unique_ptr`, C array or scalar, a parameter of such a
//             class taken by value, or a temporary of such a class
//             (`make_buffer().data()`); classes added by the user count too
//   tensor    followed through local variables (strong updates on every
//             path, weak ones under branches and in loops), views and
//             in-place calls (`view`, `permute`, `div_`, ...), aggregates,
//             `std::pair`/`std::tuple`/`torch::data::Example`, local
//             containers it is added to and lambdas that capture it by copy;
//             `clone()`, `to()`, `cpu()`, `cuda()`, arithmetic and every other
//             call end the trail (a new tensor, or one we cannot be sure of)
//   escapes   returned; stored in a member, a global, a static or a reference;
//             added to such a container; or kept in a local variable
//             declared outside the storage's scope and read after the
//             storage died (a temporary dies at the end of its statement)
//
// A call with a deleter (a `std::function` argument) hands ownership over and
// is never reported. One walk in evaluation order (EvaluationOrderWalker);
// nothing climbs the AST; a truncated walk reports nothing.
//
//===----------------------------------------------------------------------===//
#ifndef TORCH_TIDY_BLOBLIFETIME_H
#define TORCH_TIDY_BLOBLIFETIME_H

#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "clang/Basic/SourceLocation.h"

#include <string>
#include <vector>

namespace torch_tidy {

/// What the user adds to the built-in knowledge (`CheckOptions`).
struct BlobConfig {
  /// In-house factories that wrap a buffer like from_blob: the first argument
  /// is the data pointer, a `std::function` argument is a deleter.
  std::vector<std::string> ExtraFactories;
  /// Classes that own the buffer their `data()`, `c_str()`, `get()` or a
  /// pointer data member gives (`cv::Mat`, an in-house image class).
  std::vector<std::string> ExtraStorageClasses;
};

/// How the storage of a from_blob tensor dies.
enum class BlobStorage {
  Local,     ///< a local variable, at the end of its scope
  Parameter, ///< a parameter taken by value, when the function returns
  Temporary, ///< a temporary, at the end of its full-expression
};

/// How the tensor outlives its storage.
enum class BlobEscapeKind {
  Returned,  ///< returned from the function
  Member,    ///< stored in a data member
  NonLocal,  ///< stored in a global, a static or through a reference
  UsedAfter, ///< kept in a local variable that is read after the storage died
};

/// What carries the tensor out.
enum class BlobCarrier {
  Tensor,    ///< the tensor itself (or a view of it)
  Container, ///< a local container it was added to
  Lambda,    ///< a lambda that captured it by copy
  Aggregate, ///< a pair, tuple, Example or aggregate holding it
};

struct BlobEscape {
  BlobEscapeKind Kind;
  BlobCarrier Carrier;
  /// Where it escapes: the returned or stored expression, or for UsedAfter
  /// the read of the variable.
  const clang::Expr *Where;
  /// The tensor expression to append `.clone()` to so that this escape is
  /// gone (for UsedAfter, the value stored into the variable), or null when no
  /// such expression is written here.
  const clang::Expr *CloneAt;
  /// The member, variable or container it goes into; for UsedAfter the
  /// variable read.
  const clang::NamedDecl *Into;
};

struct BlobLifetimeIssue {
  const clang::CallExpr *Call; ///< the from_blob call
  BlobStorage Storage;
  /// The storage variable (Local, Parameter) or null (Temporary).
  const clang::VarDecl *Var;
  /// The temporary (Temporary) or null.
  const clang::Expr *TemporaryExpr;
  /// Where a Local storage dies when that is before the function returns:
  /// the `}` of its scope; invalid otherwise.
  clang::SourceLocation DiesAt;
  /// Every escape found, in evaluation order (at least one).
  std::vector<BlobEscape> Escapes;
};

/// The from_blob calls of \p FD (its body and, for a constructor, its member
/// initialisers; lambdas written in it are functions of their own) whose
/// tensor outlives its storage.
std::vector<BlobLifetimeIssue>
findBlobLifetimeIssues(const clang::FunctionDecl *FD, const BlobConfig &Config);

} // namespace torch_tidy

#endif
