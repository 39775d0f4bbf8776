//===--- EvaluationOrder.h - walk a body in evaluation order ----*- C++ -*-===//
//
// The one walk the flow analyses share: down from a function body, in the
// order the code runs, counting how deeply the current statement is
// conditional. A branch of `if`/`switch`/`?:`, the right operand of `&&`/`||`,
// a `catch` handler and every part of a loop that may run zero or many times
// are conditional; an `if`'s condition, a `for`'s init statement and a
// range-for's range are not.
//
// The walk also knows exits: `return`, `break`, `continue`, `throw`, `goto`,
// `co_return` and calls to `[[noreturn]]` functions. Once one of them may have
// run, the rest of what it leaves (the loop iteration for `continue`, the loop
// for `break`, the `switch` for a `break` in it, the function for the others)
// runs only on some paths: mayHaveLeft() says so. A `break` in a nested loop
// or a `switch` leaves only that; an exit in a lambda stays in the lambda; a
// `throw` in a `try` block is taken to be caught by its handlers. Statements
// after an unconditional exit (unreachable) count as after an exit, not as
// skipped. See docs/architecture.md, "The flow layer".
//
// Two questions, two answers:
//   isConditional()  under a branch or in a nested loop (structural): what a
//                    flow-state analysis needs, since a statement after
//                    `if (c) return;` still reaches everything after it
//   runsOnEveryPath() neither conditional nor after a possible exit: the
//                    statement runs on every path through the walked
//                    iteration or function body
//
// An analysis derives from EvaluationOrderWalker<Self> (CRTP, no virtual
// calls) and supplies only what it records:
//   bool visit(const Stmt *S)      sees every statement first; returns true
//                                  when it has walked S itself (call
//                                  walkChildren or walk on the parts it wants)
//   void loop(const Stmt *L, Parts) a loop's repeated parts, in order; the
//                                  default walks them one level deeper
//   void lambda(const LambdaExpr*)  a lambda written here; the default walks
//                                  its body as a loop (it runs at unknown
//                                  times, maybe repeatedly)
// The walk never climbs the AST, so no parent map is built. It is bounded:
// below MaxWalkDepth nested statements it stops and sets truncated(), so a
// 10,000-term expression degrades to an incomplete walk, never to a stack
// overflow. Plain searches ("is there an X below S") use forEachDescendant,
// which keeps its own stack.
//
//===----------------------------------------------------------------------===//
#ifndef TORCH_TIDY_EVALUATIONORDER_H
#define TORCH_TIDY_EVALUATIONORDER_H

#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/StmtCXX.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"

namespace torch_tidy {

template <class Derived> class EvaluationOrderWalker {
public:
  /// How many statements deep the walk goes before it stops (truncated()).
  static constexpr unsigned MaxWalkDepth = 1500;

  void walk(const clang::Stmt *S) {
    if (!S)
      return;
    if (Depth >= MaxWalkDepth) {
      Truncated = true;
      return;
    }
    ++Depth;
    ExitScope Scope = enter(S);
    if (!self().visit(S))
      dispatch(S);
    leave(S, Scope);
    --Depth;
  }

  /// Walks one iteration of \p Loop (a for, range-for, while or do statement)
  /// as the walked unit: its condition, body and increment. A `continue` in the
  /// body still reaches the increment (a `do`'s condition); a `break` does not.
  void walkIteration(const clang::Stmt *Loop) {
    using namespace clang;
    unsigned Saved = Left;
    Breakable SavedInner = Innermost;
    Innermost = Breakable::Loop;
    auto Body = [&](const Stmt *B) {
      walk(B);
      Left = Saved | (Left & ~ExitContinue);
    };
    if (const auto *F = dyn_cast<ForStmt>(Loop)) {
      walk(F->getConditionVariableDeclStmt());
      walk(F->getCond());
      Body(F->getBody());
      walk(F->getInc());
    } else if (const auto *R = dyn_cast<CXXForRangeStmt>(Loop)) {
      Body(R->getBody());
    } else if (const auto *W = dyn_cast<WhileStmt>(Loop)) {
      walk(W->getConditionVariableDeclStmt());
      walk(W->getCond());
      Body(W->getBody());
    } else if (const auto *D = dyn_cast<DoStmt>(Loop)) {
      Body(D->getBody());
      walk(D->getCond());
    }
    Innermost = SavedInner;
    Left = Saved | (Left & (ExitReturn | ExitThrow));
  }

  /// Walks the body of a function called here (a closure run by the call):
  /// its exits return to the call and leave nothing here.
  void walkCalledBody(const clang::Stmt *Body) {
    unsigned Saved = Left;
    Breakable SavedInner = Innermost;
    Innermost = Breakable::None;
    walk(Body);
    Innermost = SavedInner;
    Left = Saved;
  }

  /// True when a statement was left unwalked because the walk went deeper
  /// than MaxWalkDepth: what the walk recorded is incomplete.
  bool truncated() const { return Truncated; }

private:
  void dispatch(const clang::Stmt *S) {
    using namespace clang;
    if (const auto *F = dyn_cast<ForStmt>(S)) {
      walk(F->getInit()); // runs once, before the loop
      self().loop(F, {F->getConditionVariableDeclStmt(), F->getCond(),
                      F->getBody(), F->getInc()});
      return;
    }
    if (const auto *R = dyn_cast<CXXForRangeStmt>(S)) {
      walk(R->getInit());
      walk(R->getRangeInit());
      self().loop(R, {R->getLoopVarStmt(), R->getBody()});
      return;
    }
    if (const auto *W = dyn_cast<WhileStmt>(S)) {
      self().loop(
          W, {W->getConditionVariableDeclStmt(), W->getCond(), W->getBody()});
      return;
    }
    if (const auto *D = dyn_cast<DoStmt>(S)) {
      self().loop(D, {D->getBody(), D->getCond()});
      return;
    }
    if (const auto *L = dyn_cast<LambdaExpr>(S)) {
      self().lambda(L);
      return;
    }
    if (const auto *If = dyn_cast<IfStmt>(S)) {
      walk(If->getInit());
      walk(If->getConditionVariableDeclStmt());
      walk(If->getCond());
      conditional(If->getThen());
      conditional(If->getElse());
      return;
    }
    if (const auto *Sw = dyn_cast<SwitchStmt>(S)) {
      walk(Sw->getInit());
      walk(Sw->getConditionVariableDeclStmt());
      walk(Sw->getCond());
      conditional(Sw->getBody());
      return;
    }
    if (const auto *CO = dyn_cast<AbstractConditionalOperator>(S)) {
      walk(CO->getCond());
      conditional(CO->getTrueExpr());
      conditional(CO->getFalseExpr());
      return;
    }
    if (const auto *BO = dyn_cast<BinaryOperator>(S)) {
      if (BO->isLogicalOp()) {
        walk(BO->getLHS());
        conditional(BO->getRHS());
        return;
      }
    }
    if (const auto *Try = dyn_cast<CXXTryStmt>(S)) {
      unsigned Saved = Left;
      walk(Try->getTryBlock());
      // A throw in the try block lands in a handler.
      unsigned After = Saved | (Left & ~ExitThrow);
      for (unsigned I = 0; I < Try->getNumHandlers(); ++I) {
        Left = After;
        conditional(Try->getHandler(I));
        After |= Left;
      }
      Left = After;
      return;
    }
    if (const auto *DS = dyn_cast<DeclStmt>(S)) {
      for (const Decl *D : DS->decls())
        if (const auto *VD = dyn_cast<VarDecl>(D))
          walk(VD->getInit());
      return;
    }
    walkChildren(S);
  }

public:
  /// Walks the children of \p S in order (the default for other statements).
  void walkChildren(const clang::Stmt *S) {
    for (const clang::Stmt *Child : S->children())
      walk(Child);
  }

protected:
  /// Default hooks; a derived class hides the ones it needs.
  bool visit(const clang::Stmt *) { return false; }
  void loop(const clang::Stmt *, llvm::ArrayRef<const clang::Stmt *> Parts) {
    ++CondDepth;
    for (const clang::Stmt *P : Parts)
      walk(P);
    --CondDepth;
  }
  void lambda(const clang::LambdaExpr *L) { self().loop(L, {L->getBody()}); }

  /// Walks \p S as code that may not run.
  void conditional(const clang::Stmt *S) {
    ++CondDepth;
    walk(S);
    --CondDepth;
  }

  /// Under a branch or in a nested loop (structural; exits aside).
  bool isConditional() const { return CondDepth > 0; }

  /// Some path through the walked iteration or function may have left it
  /// before the statement being walked (or the statement is unreachable).
  /// Branches are walked one after the other, so in an `else` (or the false
  /// arm of `?:`) an exit taken in the `then` arm counts too; such statements
  /// are conditional anyway, so runsOnEveryPath() is not affected.
  bool mayHaveLeft() const { return Left != 0; }

  /// The statement being walked runs on every path through the walked
  /// iteration or function body.
  bool runsOnEveryPath() const { return !isConditional() && !mayHaveLeft(); }

  /// How many exits the walk has passed so far, conditional or not: two
  /// statements walked at the same count have no exit between them, so a
  /// path that reaches the first one and does not branch reaches the second.
  unsigned exitCount() const { return Exits; }

  /// How many conditional constructs enclose the statement being walked.
  unsigned CondDepth = 0;

private:
  /// The ways a path may have left before the current statement.
  enum : unsigned {
    ExitBreakLoop = 1,   ///< `break` out of the innermost loop
    ExitBreakSwitch = 2, ///< `break` out of the innermost `switch`
    ExitContinue = 4,    ///< `continue` to the next iteration
    ExitReturn = 8,      ///< `return`, `co_return`, `goto`
    ExitThrow = 16,      ///< `throw`, a call to a `[[noreturn]]` function
  };
  enum class Breakable { None, Loop, Switch };
  struct ExitScope {
    unsigned Left;
    Breakable Innermost;
  };

  static bool isLoopStmt(const clang::Stmt *S) {
    using namespace clang;
    return isa<ForStmt>(S) || isa<CXXForRangeStmt>(S) || isa<WhileStmt>(S) ||
           isa<DoStmt>(S);
  }

  /// Opens the exit scope of a loop, `switch` or lambda.
  ExitScope enter(const clang::Stmt *S) {
    ExitScope Scope{Left, Innermost};
    if (isLoopStmt(S)) {
      Innermost = Breakable::Loop;
    } else if (llvm::isa<clang::SwitchStmt>(S)) {
      Innermost = Breakable::Switch;
    } else if (llvm::isa<clang::LambdaExpr>(S)) {
      Innermost = Breakable::None;
      Left = 0; // its body is its own function
    }
    return Scope;
  }

  /// Closes the scope \p S opened and records the exit \p S is.
  void leave(const clang::Stmt *S, const ExitScope &Scope) {
    using namespace clang;
    if (isLoopStmt(S)) {
      Innermost = Scope.Innermost;
      Left = Scope.Left | (Left & (ExitReturn | ExitThrow));
    } else if (isa<SwitchStmt>(S)) {
      Innermost = Scope.Innermost;
      Left = Scope.Left | (Left & ~ExitBreakSwitch);
    } else if (isa<LambdaExpr>(S)) {
      Innermost = Scope.Innermost;
      Left = Scope.Left;
    } else if (isa<ReturnStmt>(S) || isa<CoreturnStmt>(S) || isa<GotoStmt>(S) ||
               isa<IndirectGotoStmt>(S)) {
      Left |= ExitReturn;
    } else if (isa<BreakStmt>(S)) {
      if (Innermost == Breakable::Switch)
        Left |= ExitBreakSwitch;
      else if (Innermost == Breakable::Loop)
        Left |= ExitBreakLoop;
    } else if (isa<ContinueStmt>(S)) {
      if (Innermost != Breakable::None)
        Left |= ExitContinue;
    } else if (isa<CXXThrowExpr>(S)) {
      Left |= ExitThrow;
    } else if (const auto *CE = dyn_cast<CallExpr>(S)) {
      if (const FunctionDecl *FD = CE->getDirectCallee())
        if (FD->isNoReturn())
          Left |= ExitThrow;
    }
    if (isExit(S))
      ++Exits;
  }

  static bool isExit(const clang::Stmt *S) {
    using namespace clang;
    if (isa<ReturnStmt>(S) || isa<CoreturnStmt>(S) || isa<GotoStmt>(S) ||
        isa<IndirectGotoStmt>(S) || isa<BreakStmt>(S) || isa<ContinueStmt>(S) ||
        isa<CXXThrowExpr>(S))
      return true;
    if (const auto *CE = dyn_cast<CallExpr>(S))
      if (const FunctionDecl *FD = CE->getDirectCallee())
        return FD->isNoReturn();
    return false;
  }

  Derived &self() { return static_cast<Derived &>(*this); }

  unsigned Left = 0;
  unsigned Exits = 0;
  Breakable Innermost = Breakable::None;
  unsigned Depth = 0;
  bool Truncated = false;
};

/// What forEachDescendant does after calling its first callback on a statement.
enum class Descend {
  Children, ///< go on into its children
  Skip,     ///< leave its children out
  Stop,     ///< end the whole walk
};

/// Calls \p Pre on \p Root and every statement below it, depth first in the
/// order of children() (the order of the plain recursive walk it replaces), and
/// \p Post on a statement after its children when Pre returned
/// Descend::Children. For searches ("is there an X below S"), not flow: the
/// order is the AST's, not evaluation order. It keeps its own stack, so any
/// depth of nesting is safe. Returns false when Pre stopped the walk.
template <class PreFn, class PostFn>
bool forEachDescendant(const clang::Stmt *Root, PreFn Pre, PostFn Post) {
  struct Frame {
    const clang::Stmt *S;
    clang::Stmt::const_child_iterator It, End;
  };
  llvm::SmallVector<Frame, 32> Stack;
  auto Enter = [&](const clang::Stmt *S) {
    Descend D = Pre(S);
    if (D == Descend::Children) {
      auto Children = S->children();
      Stack.push_back({S, Children.begin(), Children.end()});
    }
    return D != Descend::Stop;
  };
  if (!Root)
    return true;
  if (!Enter(Root))
    return false;
  while (!Stack.empty()) {
    Frame &F = Stack.back();
    if (F.It == F.End) {
      const clang::Stmt *S = F.S;
      Stack.pop_back();
      Post(S);
      continue;
    }
    const clang::Stmt *Child = *F.It;
    ++F.It; // before Enter, which may grow the stack
    if (Child && !Enter(Child))
      return false;
  }
  return true;
}

template <class PreFn>
bool forEachDescendant(const clang::Stmt *Root, PreFn Pre) {
  return forEachDescendant(Root, Pre, [](const clang::Stmt *) {});
}

/// Calls \p F on every call below \p Body, innermost first (after its
/// arguments), the calls in the bodies of lambdas written there included, each
/// where its lambda stands (a lambda of dependent type is left out). The walk
/// of the checks that look at calls one by one (torch-bce-on-logits,
/// torch-loss-activation-mismatch).
template <class Fn> void forEachCallBelow(const clang::Stmt *Body, Fn F) {
  forEachDescendant(
      Body,
      [&](const clang::Stmt *X) {
        if (const auto *L = llvm::dyn_cast<clang::LambdaExpr>(X)) {
          if (!L->getCallOperator()->isDependentContext())
            forEachCallBelow(L->getBody(), F);
          return Descend::Skip;
        }
        return Descend::Children;
      },
      [&](const clang::Stmt *X) {
        if (const auto *CE = llvm::dyn_cast<clang::CallExpr>(X))
          F(CE);
      });
}

/// Where a discarded value stands (forEachDiscardedValue).
struct DiscardedValue {
  /// The expression as it stands in the code (implicit nodes not stripped).
  const clang::Expr *E;
  /// \p E is a whole statement (not a comma operand or a `?:` arm).
  bool Statement;
  /// ... and a direct child of a `{ }` block (not the body of an `if`, a
  /// loop or a `case` without braces).
  bool InBlock;
};

/// Calls \p Fn(const DiscardedValue &) for every expression below \p Body
/// whose value is discarded: expression statements (in a block, as the body of
/// an `if`, a loop, a `switch`, a `case` or a label, a `for` initialiser or
/// increment), the left operand of every comma operator, the right operand of
/// a discarded one, and both arms of a discarded `?:`. The last statement of a
/// GNU statement expression is its value and is left out, and so is an
/// explicit `(void)` cast. Lambda bodies are not entered (the anchor hands
/// their call operators over as functions of their own). Built on
/// forEachDescendant, so any depth of nesting is safe.
template <class Fn> void forEachDiscardedValue(const clang::Stmt *Body, Fn F) {
  using namespace clang;
  llvm::SmallVector<const Stmt *, 4> ValueBlocks;
  auto Discard = [&](const Stmt *S, bool Statement, bool InBlock) {
    const auto *E = dyn_cast_or_null<Expr>(S);
    if (!E)
      return;
    struct Item {
      const Expr *E;
      bool Statement;
    };
    llvm::SmallVector<Item, 4> Work = {{E, Statement}};
    while (!Work.empty()) {
      Item I = Work.pop_back_val();
      const Expr *X = I.E->IgnoreParens();
      if (const auto *FE = dyn_cast<FullExpr>(X))
        X = FE->getSubExpr()->IgnoreParens();
      if (const auto *BO = dyn_cast<BinaryOperator>(X)) {
        // `a, b`: the left operand is visited from the comma itself.
        if (BO->getOpcode() == BO_Comma)
          Work.push_back({BO->getRHS(), false});
        continue;
      }
      if (const auto *CO = dyn_cast<AbstractConditionalOperator>(X)) {
        Work.push_back({CO->getFalseExpr(), false});
        Work.push_back({CO->getTrueExpr(), false});
        continue;
      }
      F(DiscardedValue{I.E, I.Statement, I.Statement && InBlock});
    }
  };
  forEachDescendant(Body, [&](const Stmt *S) {
    if (isa<LambdaExpr>(S))
      return Descend::Skip;
    if (const auto *SE = dyn_cast<StmtExpr>(S)) {
      ValueBlocks.push_back(SE->getSubStmt());
    } else if (const auto *CS = dyn_cast<CompoundStmt>(S)) {
      bool Value = llvm::is_contained(ValueBlocks, CS);
      for (const Stmt *Child : CS->body())
        if (!(Value && Child == CS->body_back()))
          Discard(Child, true, true);
    } else if (const auto *If = dyn_cast<IfStmt>(S)) {
      Discard(If->getInit(), true, false);
      Discard(If->getThen(), true, false);
      Discard(If->getElse(), true, false);
    } else if (const auto *For = dyn_cast<ForStmt>(S)) {
      Discard(For->getInit(), true, false);
      Discard(For->getInc(), true, false);
      Discard(For->getBody(), true, false);
    } else if (const auto *RF = dyn_cast<CXXForRangeStmt>(S)) {
      Discard(RF->getBody(), true, false);
    } else if (const auto *W = dyn_cast<WhileStmt>(S)) {
      Discard(W->getBody(), true, false);
    } else if (const auto *Do = dyn_cast<DoStmt>(S)) {
      Discard(Do->getBody(), true, false);
    } else if (const auto *Sw = dyn_cast<SwitchStmt>(S)) {
      Discard(Sw->getInit(), true, false);
      Discard(Sw->getBody(), true, false);
    } else if (const auto *SC = dyn_cast<SwitchCase>(S)) {
      Discard(SC->getSubStmt(), true, false);
    } else if (const auto *L = dyn_cast<LabelStmt>(S)) {
      Discard(L->getSubStmt(), true, false);
    } else if (const auto *A = dyn_cast<AttributedStmt>(S)) {
      Discard(A->getSubStmt(), true, false);
    } else if (const auto *BO = dyn_cast<BinaryOperator>(S)) {
      // The left operand of a comma is discarded wherever the comma is.
      if (BO->getOpcode() == BO_Comma)
        Discard(BO->getLHS(), false, false);
    }
    return Descend::Children;
  });
}

} // namespace torch_tidy

#endif
