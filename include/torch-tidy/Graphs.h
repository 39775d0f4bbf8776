//===--- Graphs.h - which tensors carry an autograd graph -------*- C++ -*-===//
//
// Which tensor values hold on to an autograd graph recorded by the code: the
// result of a loss (a LibTorch loss module or function, or a configured
// in-house one) or of a module's forward pass (`model->forward(x)`,
// `model(x)` on a holder, a `Sequential`), computed while autograd records
// (GradMode.h), and what is computed from them:
//  * followed through tensor methods and LibTorch functions (`loss.mean()`,
//    `torch::stack({a, b})`, `a + b`), local variables (every write of them,
//    lambdas included), `?:`, and the return values of user functions
//    (memoised summaries on the summary engine, read down to MaxCallDepth),
//    for functions of other translation units from the program summary
//    (WholeProgram.h: what graph a call returns);
//  * `detach()`, `data()`, `item()`, integer and boolean results (`argmax`,
//    `eq`, `a < b`, ...) and anything that is not a tensor end the graph; parameters, members and globals are not followed (unknown, so no
//    graph is claimed).
//
// Also here: whether a variable feeds a backward pass (`backward()`,
// `torch::autograd::backward`/`grad`) anywhere in the function that declares
// it, or leaves it (returned, handed to a user function), i.e. whether a graph
// kept in it may be wanted.
//
// Everything works top-down from a function definition: no parent map.
//
//===----------------------------------------------------------------------===//
#ifndef TORCH_TIDY_GRAPHS_H
#define TORCH_TIDY_GRAPHS_H

#include "torch-tidy/GradMode.h"
#include "torch-tidy/Summaries.h"
#include "torch-tidy/Types.h"

#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/Hashing.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallVector.h"

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace torch_tidy {

class ProgramSummary;
struct RemoteSite;

struct GraphConfig {
  TypeConfig Types;
  /// Functions or methods (qualified names) whose result is a loss carrying
  /// a graph, besides LibTorch's losses.
  std::vector<std::string> LossFunctions;
  /// How deep user functions are read for what they return (Summaries.h).
  unsigned MaxCallDepth = DefaultMaxCallDepth;
  /// The other translation units' summaries (WholeProgram.h), or null.
  std::shared_ptr<const ProgramSummary> Program;
};

/// Where a tensor's graph was recorded.
struct GraphOrigin {
  /// The loss or forward call that recorded it (inside a helper when reached
  /// through one); null when that helper is in another translation unit.
  const clang::CallExpr *Call = nullptr;
  /// The call written in the function asked about through which it was
  /// reached: Call itself, or the helper call.
  const clang::CallExpr *Site = nullptr;
  /// A loss rather than a module's forward pass.
  bool Loss = false;
  /// The outermost helper it was reached through, or null.
  const clang::FunctionDecl *Via = nullptr;
  /// For graphOrLeafOf: the tensor that requires grad the value was computed
  /// from (Call and Site are null then).
  const clang::Expr *Leaf = nullptr;
  /// When Via is a function of another translation unit: where its loss or
  /// forward call is (a record of the program summary); Call is null then.
  const RemoteSite *Remote = nullptr;
};

/// LibTorch operations whose result is integer or boolean, which autograd
/// does not record (`output.argmax(1)`, `torch::eq(a, b)`, `a == b`).
bool hasNoGraphResult(const clang::CallExpr *CE,
                      const clang::FunctionDecl *Callee);

/// A backward pass: `t.backward()` on a tensor, `torch::autograd::backward`,
/// `torch::autograd::grad`.
bool isBackwardCall(const clang::CallExpr *CE);

/// The values written to each local variable of a body, packed: a sorted
/// array, 16 bytes a write (analyses keep one per function they read until
/// the end of the translation unit, and a DenseMap takes 2.5 KB at its first
/// variable).
class LocalWrites {
public:
  /// The values written to the local variables declared in \p Body (lambdas
  /// included): initialisers, assignments and compound assignments (built-in
  /// and overloaded), the range of a range-for for its loop variable. With
  /// \p LeafCalls, `x.requires_grad_()` and `x.set_requires_grad(...)` count
  /// as writes of x (the call is the value): they make x a leaf that requires
  /// grad.
  static LocalWrites collect(const clang::Stmt *Body, bool LeafCalls);

  /// The values written to \p VD, in the order they are written.
  llvm::ArrayRef<const clang::Expr *> of(const clang::VarDecl *VD) const;

private:
  std::vector<const clang::VarDecl *> Vars;
  std::vector<const clang::Expr *> Values;
};

class GraphAnalysis {
public:
  /// Whether a tensor expression of a function's body requires grad (a
  /// parameter, a tensor made with `requires_grad`: RequiresGrad.h).
  using LeafTest =
      std::function<bool(const clang::Expr *, const clang::FunctionDecl *)>;

  /// \p Leaf is the test graphOrLeafOf reads leaves with; an analysis that
  /// only asks graphOf needs none.
  GraphAnalysis(const GraphConfig &Config, const clang::SourceManager &SM,
                GradModeAnalysis &GradMode, LeafTest Leaf = nullptr)
      : Config(Config), SM(SM), GradMode(GradMode), Leaf(std::move(Leaf)),
        Engine(Config.MaxCallDepth), Returns(Engine) {}

  /// Whether \p E, an expression of \p FD's body, is a tensor that carries a
  /// graph recorded by a loss or a forward pass; std::nullopt when it does
  /// not or is not known to.
  std::optional<GraphOrigin> graphOf(const clang::Expr *E,
                                     const clang::FunctionDecl *FD);

  /// As graphOf, but a tensor the leaf test says requires grad, read while
  /// autograd records, counts as a start too: whether \p E is part of what
  /// autograd records (PyTorch's `requires_grad`, leaves and results alike).
  /// Null without a leaf test.
  std::optional<GraphOrigin> graphOrLeafOf(const clang::Expr *E,
                                           const clang::FunctionDecl *FD);

  /// Whether \p V (a local variable, or a member of a class) may be wanted
  /// with its graph: in \p Scope (the function declaring the variable, or for
  /// a member each method of its class), it is read by a backward pass
  /// (`x.backward()`, `torch::autograd::backward`/`grad`) directly or through
  /// local variables or parameters computed from it (`x = torch::cat(v, 1)`
  /// in a forward()), returned, or handed to a user function or a function
  /// that is not LibTorch's or the standard library's.
  bool mayBeWanted(const clang::ValueDecl *V,
                   llvm::ArrayRef<const clang::FunctionDecl *> Scope);

  /// The graph a call of \p FD returns when it is entered as \p FD's calls
  /// here enter it (the summary pass: what another translation unit's call
  /// gets), read one call below the caller.
  std::optional<GraphOrigin> returnedGraph(const clang::FunctionDecl *FD) {
    return returned(FD, 1);
  }

private:
  /// The first origin met reading \p E backwards (depth first, writes of a
  /// variable in the order written), with leaves when \p WithLeaves. What a
  /// local variable's values hold is kept once known (VarOrigins), so a chain
  /// of N statements costs N reads, not N times the budget.
  std::optional<GraphOrigin> eval(const clang::Expr *E,
                                  const clang::FunctionDecl *FD, unsigned Level,
                                  bool WithLeaves = false);
  bool isLeaf(const clang::Expr *E, const clang::FunctionDecl *FD);
  std::optional<GraphOrigin> returned(const clang::FunctionDecl *FD,
                                      unsigned Level);
  /// LocalWrites::collect of \p FD's body, once.
  const LocalWrites &writes(const clang::FunctionDecl *FD);
  bool mentions(const clang::Expr *E, const clang::ValueDecl *V);
  /// Memoised per declaration or type: eval asks these of every expression
  /// it reads, and a question reads up to its budget of expressions.
  bool isTensor(clang::QualType T);
  bool isLibrary(const clang::Decl *D);
  bool isLossFunction(const clang::FunctionDecl *FD);

  const GraphConfig &Config;
  const clang::SourceManager &SM;
  GradModeAnalysis &GradMode;
  LeafTest Leaf;
  SummaryEngine Engine;
  Summaries<const clang::FunctionDecl *, std::optional<GraphOrigin>> Returns;
  llvm::DenseMap<const clang::FunctionDecl *, LocalWrites> Writes;
  llvm::DenseMap<const clang::Type *, bool> TensorTypes;
  llvm::DenseMap<const clang::Decl *, bool> LibraryDecls;
  llvm::DenseMap<const clang::FunctionDecl *, bool> LossFunctions;
  llvm::DenseMap<std::pair<const clang::Expr *, const clang::FunctionDecl *>,
                 bool>
      Leaves;
  /// What eval found reading a variable's values: (variable, level, with
  /// leaves) to the first origin, or none. Only exact answers are kept: a
  /// variable whose reading was cut by the budget, or skipped a variable
  /// still being read (a cycle through an assignment), is read again.
  struct VarKey {
    const clang::VarDecl *VD;
    unsigned Level;
    bool WithLeaves;
  };
  struct VarKeyInfo {
    static VarKey getEmptyKey() {
      return {llvm::DenseMapInfo<const clang::VarDecl *>::getEmptyKey(), 0,
              false};
    }
    static VarKey getTombstoneKey() {
      return {llvm::DenseMapInfo<const clang::VarDecl *>::getTombstoneKey(), 0,
              false};
    }
    static unsigned getHashValue(const VarKey &K) {
      return llvm::hash_combine(K.VD, K.Level, K.WithLeaves);
    }
    static bool isEqual(const VarKey &A, const VarKey &B) {
      return A.VD == B.VD && A.Level == B.Level && A.WithLeaves == B.WithLeaves;
    }
  };
  llvm::DenseMap<VarKey, std::optional<GraphOrigin>, VarKeyInfo> VarOrigins;
};

} // namespace torch_tidy

#endif
