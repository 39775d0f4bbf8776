//===--- Accumulation.h - gradient accumulation in a loop -------*- C++ -*-===//
//
// Gradient accumulation: a loop calls `backward()` on every iteration and an
// optimizer's `step()` only when a counter reaches a multiple of k,
//
//   if ((i + 1) % k == 0) { opt.step(); opt.zero_grad(); }
//   if (++i % k != 0) continue;  opt.step(); ...
//
// This room answers the three questions such a loop raises: which modulus
// test gates a call of the iteration (the counter, k, and whether the test
// can let other iterations through), whether the tensor `backward()` is
// called on was scaled (divided or multiplied by a scalar, directly, through a
// variable, or in a helper that returns it), and whether the loop's count is
// known to be a multiple of k.
//
// Everything works top-down from the loop or from the declarations held: no
// parent map is built (see docs/performance.md).
//
//===----------------------------------------------------------------------===//
#ifndef TORCH_TIDY_ACCUMULATION_H
#define TORCH_TIDY_ACCUMULATION_H

#include "torch-tidy/Summaries.h"

#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "clang/AST/Stmt.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/ArrayRef.h"

#include <optional>
#include <string>
#include <vector>

namespace torch_tidy {

/// The modulus test that lets a call run only every k-th iteration.
struct AccumulationGuard {
  /// The `if` whose test it is.
  const clang::IfStmt *If = nullptr;
  /// The `counter % k` expression.
  const clang::BinaryOperator *Rem = nullptr;
  /// The counter (a variable or a member) and k as written.
  const clang::ValueDecl *Counter = nullptr;
  const clang::Expr *Every = nullptr;
  /// k, when it is an integer constant.
  std::optional<int64_t> EveryValue;
  /// k's declaration, when it is a variable or a member.
  const clang::ValueDecl *EveryDecl = nullptr;
  /// The test is joined with other conditions (`... || last_batch`): some
  /// other iteration may run the call too.
  bool Compound = false;
};

struct AccumulationConfig {
  /// In-house functions that scale a loss (`mylib::scale_loss(loss, k)`).
  std::vector<std::string> LossScaleFunctions;
  /// How many calls below the function that calls `backward()` a helper that
  /// returns the loss is read (Summaries.h).
  unsigned MaxCallDepth = DefaultMaxCallDepth;
};

class AccumulationAnalysis {
public:
  explicit AccumulationAnalysis(const AccumulationConfig &Config)
      : Config(Config), Engine(Config.MaxCallDepth), Returns(Engine) {}

  /// The modulus test that gates \p Site, a call written in one iteration of
  /// \p Loop (not in a nested loop): \p Site is in the branch the test takes
  /// on every k-th iteration, or after a `continue` taken on the others. The
  /// counter must advance in the loop and k must be an integer constant above
  /// 1, a variable or a member; else none.
  std::optional<AccumulationGuard> guardOf(const clang::Stmt *Loop,
                                           const clang::CallExpr *Site) const;

  /// Whether the tensor that \p Backward (a `backward()` call) is called on
  /// may have been scaled: divided or multiplied by anything (`loss / k`,
  /// `loss.div_(k)`, `loss * scale`, a configured function), in its
  /// expression, a variable's initialiser or writes, or the returns of a
  /// helper read within MaxCallDepth. Unknown origins (a parameter, a member,
  /// an unread helper) count as scaled: the check stays silent on them.
  bool mayBeScaled(const clang::CallExpr *Backward,
                   const clang::SourceManager &SM);

  /// Whether \p Loop scales the gradients by hand (`p.grad().div_(k)`,
  /// `p.mutable_grad().mul_(s)`), in itself or a loop inside it.
  static bool scalesGradients(const clang::Stmt *Loop);

  /// Whether \p Loop, a `for` counting \p G's counter from a constant up to a
  /// bound, certainly runs a multiple of k times: constant bound and k, or a
  /// bound written as a product with k's own variable.
  static bool countIsMultiple(const clang::Stmt *Loop,
                              const AccumulationGuard &G);

  /// Whether \p G's counter outlives one pass of \p Loop: it is not a local
  /// declared in the enclosing loop's body (the innermost of \p Enclosing)
  /// or, with no enclosing loop, in \p Owner, and, in an enclosing loop, it
  /// is not assigned there outside \p Loop.
  static bool counterOutlives(const AccumulationGuard &G,
                              const clang::Stmt *Loop,
                              llvm::ArrayRef<const clang::Stmt *> Enclosing,
                              const clang::FunctionDecl *Owner,
                              const clang::SourceManager &SM);

private:
  bool scaled(const clang::Expr *E, unsigned Level, unsigned &Budget,
              const clang::SourceManager &SM);
  bool scaledVar(const clang::VarDecl *VD, unsigned Level, unsigned &Budget,
                 const clang::SourceManager &SM);
  bool scaledWrites(const clang::VarDecl *VD, unsigned Level, unsigned &Budget,
                    const clang::SourceManager &SM);
  bool scaledCall(const clang::CallExpr *CE, unsigned Level, unsigned &Budget,
                  const clang::SourceManager &SM);

  const AccumulationConfig &Config;
  SummaryEngine Engine;
  /// Per helper: whether a value it returns may be scaled (1) or not (0).
  Summaries<const clang::FunctionDecl *, char> Returns;
};

} // namespace torch_tidy

#endif
