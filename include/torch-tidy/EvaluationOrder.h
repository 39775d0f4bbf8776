//===--- EvaluationOrder.h - walk a body in evaluation order ---*- C++ -*-===//
//
// The one walk the flow analyses share: down from a function body, in the
// order the code runs, counting how deeply the current statement is
// conditional. A branch of `if`/`switch`/`?:`, the right operand of `&&`/`||`,
// a `catch` handler and every part of a loop that may run zero or many times
// are conditional; an `if`'s condition, a `for`'s init statement and a
// range-for's range are not.
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
// The walk never climbs the AST, so no parent map is built.
//
//===----------------------------------------------------------------------===//
#ifndef TORCH_TIDY_EVALUATIONORDER_H
#define TORCH_TIDY_EVALUATIONORDER_H

#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/StmtCXX.h"
#include "llvm/ADT/ArrayRef.h"

namespace torch_tidy {

template <class Derived> class EvaluationOrderWalker {
public:
  void walk(const clang::Stmt *S) {
    using namespace clang;
    if (!S)
      return;
    if (self().visit(S))
      return;
    if (const auto *F = dyn_cast<ForStmt>(S)) {
      walk(F->getInit()); // runs once, before the loop
      self().loop(F, {F->getConditionVariableDeclStmt(), F->getCond(), F->getBody(),
                      F->getInc()});
      return;
    }
    if (const auto *R = dyn_cast<CXXForRangeStmt>(S)) {
      walk(R->getInit());
      walk(R->getRangeInit());
      self().loop(R, {R->getLoopVarStmt(), R->getBody()});
      return;
    }
    if (const auto *W = dyn_cast<WhileStmt>(S)) {
      self().loop(W, {W->getConditionVariableDeclStmt(), W->getCond(), W->getBody()});
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
      walk(Try->getTryBlock());
      for (unsigned I = 0; I < Try->getNumHandlers(); ++I)
        conditional(Try->getHandler(I));
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

  bool isConditional() const { return CondDepth > 0; }

  /// How many conditional constructs enclose the statement being walked.
  unsigned CondDepth = 0;

private:
  Derived &self() { return static_cast<Derived &>(*this); }
};

} // namespace torch_tidy

#endif
