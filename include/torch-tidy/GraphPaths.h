//===--- GraphPaths.h - graph paths from model outputs ----------*- C++ -*-===//
//
// The graph paths of a tensor value: which model outputs (`model->forward(x)`,
// `model(x)` on a holder, a `Sequential`, a LibTorch layer called directly)
// it is computed from, and for each, whether the way from that output to the
// value keeps autograd's graph or cuts it, and where:
//  * `detach()`, `data()` (cut: the same values, no graph);
//  * `item()` (a number; re-wrapped with `torch::tensor`, `scalar_tensor`,
//    `full` it is a new leaf), `data_ptr()` under `from_blob` (a new leaf
//    over the same memory);
//  * operations without a gradient (`argmax`, `argmin`, comparisons, ...),
//    integer and boolean casts (`to(torch::kLong)`), and operations whose
//    gradient is zero (`round`, `sign`, `floor`, `ceil`, `trunc`);
//  * a forward pass run while autograd does not record (GradMode.h).
// The value is read backwards from the expression: tensor methods and
// LibTorch functions, numbers and pointers made from tensors, local variables
// (every write of them, lambdas included), `?:`, and the return values of
// user functions, whose parameters are read at the call as the caller's
// arguments (inline, down to MaxCallDepth levels, at most 2,048 expressions
// per question); a function of another translation unit by its graph paths in
// the program summary (WholeProgram.h), its parameters read at the call. A tensor whose origin is not known (a parameter of the
// function asked about, a member, a global, a container, an unread function)
// is reported as Unknown: it may carry a graph; so is a tensor made to
// require grad (`torch::randn(..., torch::requires_grad())`,
// `x.requires_grad_()`), where a graph starts.
//
// termsOf also splits a value into the terms of a sum (`a + b`, `a - b`,
// `c * a` for a number c, `-a`, `a.mean()`, locals written with `+=`,
// helpers returning a sum), the way a loss is built from parts.
//
// Everything works top-down from the expression asked about: no parent map.
//
//===----------------------------------------------------------------------===//
#ifndef TORCH_TIDY_GRAPHPATHS_H
#define TORCH_TIDY_GRAPHPATHS_H

#include "torch-tidy/GradMode.h"
#include "torch-tidy/Graphs.h"
#include "torch-tidy/Summaries.h"
#include "torch-tidy/Types.h"

#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"

#include <memory>
#include <optional>

namespace torch_tidy {

class ProgramSummary;
struct RemoteCut;
struct RemoteGraphPath;

struct GraphPathConfig {
  TypeConfig Types;
  /// How deep user functions are read (Summaries.h: level N is read when
  /// N <= MaxCallDepth).
  unsigned MaxCallDepth = DefaultMaxCallDepth;
  /// The other translation units' summaries (WholeProgram.h), or null: a
  /// function of another file is read by its graph paths there.
  std::shared_ptr<const ProgramSummary> Program;
};

/// How a graph path is cut.
enum class CutKind {
  Detach,       ///< `t.detach()`, `t.detach_()`
  Data,         ///< `t.data()`, `t.variable_data()`
  Item,         ///< `t.item()`, `t.item<T>()`, `t.tolist()`: a number
  DataPtr,      ///< `t.data_ptr<T>()`, `t.data<T>()`: raw memory
  NoGradient,   ///< `argmax`, `argmin`, comparisons, ...: no gradient
  ZeroGradient, ///< `round`, `sign`, `floor`, `ceil`, `trunc`: zero gradient
  IntegerCast,  ///< `to(torch::kLong)`, `toType(torch::kBool)`, ...
  NoGradMode,   ///< the forward pass ran while autograd did not record
};

/// Where a graph path is cut.
struct GraphCut {
  CutKind Kind;
  /// The expression that cuts (the `detach()`/`item()`/`argmax` call or
  /// operator, the `to()` call; for NoGradMode the forward call).
  const clang::Expr *At = nullptr;
  /// The function whose body holds At.
  const clang::FunctionDecl *In = nullptr;
  /// For Item and DataPtr: the call that made a new tensor of the values
  /// (`torch::tensor`, `torch::from_blob`, ...), or null when the number is
  /// used as a number.
  const clang::CallExpr *Rewrap = nullptr;
  /// A cut in a function of another translation unit (a record of the
  /// program summary): At is then the call of that function here.
  const RemoteCut *Remote = nullptr;
};

/// A model output a value is computed from.
struct ModelOutput {
  /// The forward call (inside a helper when reached through one).
  const clang::CallExpr *Call = nullptr;
  /// The function whose body holds Call.
  const clang::FunctionDecl *In = nullptr;
  /// The module class (the Impl for holders).
  const clang::CXXRecordDecl *Module = nullptr;
  /// The module object when it is a plain name (local, parameter, global,
  /// member of `this`), helper parameters replaced by the caller's
  /// arguments; else null.
  const clang::ValueDecl *Object = nullptr;
  /// The outermost helper it was reached through, or null.
  const clang::FunctionDecl *Via = nullptr;
  /// A forward call in a function of another translation unit (a record of
  /// the program summary): Call is then the call of that function here, and
  /// Module is null.
  const RemoteGraphPath *Remote = nullptr;
};

/// One way from a model output to the value.
struct GraphPath {
  ModelOutput Output;
  /// The first cut met going from the value back to the output; none when
  /// the path keeps the graph.
  std::optional<GraphCut> Cut;
};

/// A value (or one term of a sum) and its graph paths.
struct GraphTerm {
  /// The term, and the function whose body holds it.
  const clang::Expr *E = nullptr;
  const clang::FunctionDecl *In = nullptr;
  llvm::SmallVector<GraphPath, 2> Paths;
  /// It is also computed, with no cut on the way, from a tensor whose origin
  /// is not known (which may carry a graph).
  bool Unknown = false;
  /// For returnPathsOf: the parameters of the function asked about that it
  /// is computed from (their index), each with the first cut on the way.
  llvm::SmallVector<std::pair<unsigned, std::optional<GraphCut>>, 1> Parameters;

  /// It may carry a graph: an uncut path, or an unknown tensor.
  bool mayCarryGraph() const;
  /// It comes from model outputs, and every way from them is cut.
  bool isCut() const { return !mayCarryGraph() && !Paths.empty(); }
};

struct GraphTerms {
  llvm::SmallVector<GraphTerm, 4> Terms;
  /// False when the bound on expressions read was reached: nothing is known.
  bool Complete = true;
};

class GraphPathAnalysis {
public:
  GraphPathAnalysis(const GraphPathConfig &Config,
                    const clang::SourceManager &SM, GradModeAnalysis &GradMode)
      : Config(Config), SM(SM), GradMode(GradMode) {}

  /// The graph paths of \p E, an expression of \p FD's body, as one term;
  /// std::nullopt when the bound on expressions read was reached.
  std::optional<GraphTerm> pathsOf(const clang::Expr *E,
                                   const clang::FunctionDecl *FD);

  /// \p E split into the terms of a sum, each with its graph paths.
  GraphTerms termsOf(const clang::Expr *E, const clang::FunctionDecl *FD);

  /// The graph paths of what \p FD returns, as one term, read as if its call
  /// records (only its own no-grad scopes cut a forward pass), with its
  /// parameters apart (GraphTerm::Parameters) rather than unknown: the
  /// summary pass (WholeProgram.h). std::nullopt when the bound was reached.
  std::optional<GraphTerm> returnPathsOf(const clang::FunctionDecl *FD);

  /// The name of the operation that cuts (`detach`, `item`, `argmax`, ...).
  static llvm::StringRef cutName(const GraphCut &Cut);
  /// The qualified name of the call that made the cut values a new tensor
  /// (`torch::tensor`), or "" when there is none.
  static std::string rewrapName(const GraphCut &Cut);
  /// How the program summary spells \p Kind (`detach`, `no_grad_mode`, ...).
  static llvm::StringRef cutSpelling(CutKind Kind);

private:
  class Reader;
  /// LocalWrites::collect of \p FD's body, `requires_grad_()` counted,
  /// once.
  const LocalWrites &writes(const clang::FunctionDecl *FD);

  const GraphPathConfig &Config;
  const clang::SourceManager &SM;
  GradModeAnalysis &GradMode;
  llvm::DenseMap<const clang::FunctionDecl *, LocalWrites> Writes;
};

} // namespace torch_tidy

#endif
