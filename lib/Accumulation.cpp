//===--- Accumulation.cpp - gradient accumulation in a loop ---------------===//
#include "torch-tidy/Accumulation.h"
#include "torch-tidy/Compat.h"
#include "torch-tidy/EvaluationOrder.h"
#include "torch-tidy/TrainingLoop.h"
#include "torch-tidy/Types.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/StmtCXX.h"

using namespace clang;

namespace torch_tidy {

namespace {

/// What a condition says about a `counter % k` in it.
struct ModTest {
  const BinaryOperator *Rem = nullptr;
  /// True on the iterations where the counter is at the chosen residue
  /// (`== 0`, `== k - 1`); false for `!= 0` and a bare `i % k`.
  bool TrueOnStep = true;
  bool Compound = false;
};

const BinaryOperator *asIntegerRem(const Expr *E) {
  const auto *BO = dyn_cast_or_null<BinaryOperator>(E->IgnoreParenImpCasts());
  if (!BO || BO->getOpcode() != BO_Rem || !BO->getType()->isIntegerType())
    return nullptr;
  return BO;
}

/// The modulus test in condition \p E, at most a few `!`, `&&`, `||` down.
std::optional<ModTest> parseTest(const Expr *E, unsigned Depth = 0) {
  if (!E || Depth > 8)
    return std::nullopt;
  E = E->IgnoreParenImpCasts();
  if (const BinaryOperator *Rem = asIntegerRem(E))
    return ModTest{Rem, /*TrueOnStep=*/false, false};
  if (const auto *U = dyn_cast<UnaryOperator>(E)) {
    if (U->getOpcode() != UO_LNot)
      return std::nullopt;
    std::optional<ModTest> T = parseTest(U->getSubExpr(), Depth + 1);
    if (T)
      T->TrueOnStep = !T->TrueOnStep;
    return T;
  }
  const auto *BO = dyn_cast<BinaryOperator>(E);
  if (!BO)
    return std::nullopt;
  if (BO->getOpcode() == BO_LAnd || BO->getOpcode() == BO_LOr) {
    std::optional<ModTest> T = parseTest(BO->getLHS(), Depth + 1);
    if (!T)
      T = parseTest(BO->getRHS(), Depth + 1);
    if (T)
      T->Compound = true;
    return T;
  }
  if (BO->getOpcode() != BO_EQ && BO->getOpcode() != BO_NE)
    return std::nullopt;
  const BinaryOperator *Rem = asIntegerRem(BO->getLHS());
  if (!Rem)
    Rem = asIntegerRem(BO->getRHS());
  if (!Rem)
    return std::nullopt;
  return ModTest{Rem, BO->getOpcode() == BO_EQ, false};
}

/// The variable or member an integer expression reads.
const ValueDecl *integerDecl(const Expr *E) {
  E = E->IgnoreParenImpCasts();
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E))
    return isa<VarDecl>(DRE->getDecl()) ? DRE->getDecl() : nullptr;
  if (const auto *ME = dyn_cast<MemberExpr>(E))
    return isa<FieldDecl>(ME->getMemberDecl()) ? ME->getMemberDecl() : nullptr;
  return nullptr;
}

/// The counter of `counter % k`'s left operand: `i`, `(i + 1)`, `++i`, `i++`,
/// `static_cast<int>(i)`; null for anything else (`i + j`).
const ValueDecl *counterOf(const Expr *E) {
  for (unsigned Hops = 0; E && Hops < 8; ++Hops) {
    E = E->IgnoreParenImpCasts();
    if (const auto *C = dyn_cast<ExplicitCastExpr>(E)) {
      E = C->getSubExpr();
      continue;
    }
    if (const auto *U = dyn_cast<UnaryOperator>(E)) {
      if (!U->isIncrementDecrementOp())
        return nullptr;
      E = U->getSubExpr();
      continue;
    }
    if (const auto *BO = dyn_cast<BinaryOperator>(E)) {
      if (BO->getOpcode() != BO_Add && BO->getOpcode() != BO_Sub)
        return nullptr;
      // One side a constant offset: the counter is the other.
      const Expr *L = BO->getLHS()->IgnoreParenImpCasts();
      const Expr *R = BO->getRHS()->IgnoreParenImpCasts();
      if (isa<IntegerLiteral>(R))
        E = L;
      else if (isa<IntegerLiteral>(L) && BO->getOpcode() == BO_Add)
        E = R;
      else
        return nullptr;
      continue;
    }
    return integerDecl(E);
  }
  return nullptr;
}

/// Whether \p E (an lvalue) reads \p D.
bool designates(const Expr *E, const ValueDecl *D) {
  return integerDecl(E) == D;
}

/// Whether the counter \p D advances in \p Loop: `++i`, `i++`, `i += n`,
/// `i = i + 1`, in its increment, condition or body.
bool advancesIn(const Stmt *Loop, const ValueDecl *D) {
  bool Found = false;
  forEachDescendant(Loop, [&](const Stmt *S) {
    if (isa<LambdaExpr>(S))
      return Descend::Skip;
    if (const auto *U = dyn_cast<UnaryOperator>(S)) {
      if (U->isIncrementOp() && designates(U->getSubExpr(), D))
        Found = true;
    } else if (const auto *CA = dyn_cast<CompoundAssignOperator>(S)) {
      if (CA->getOpcode() == BO_AddAssign && designates(CA->getLHS(), D))
        Found = true;
    } else if (const auto *BO = dyn_cast<BinaryOperator>(S)) {
      if (BO->getOpcode() == BO_Assign && designates(BO->getLHS(), D) &&
          counterOf(BO->getRHS()) == D)
        Found = true;
    }
    return Found ? Descend::Stop : Descend::Children;
  });
  return Found;
}

bool contains(const Stmt *Root, const Stmt *Target) {
  if (!Root)
    return false;
  bool Found = false;
  forEachDescendant(Root, [&](const Stmt *S) {
    if (S == Target)
      Found = true;
    return Found ? Descend::Stop : Descend::Children;
  });
  return Found;
}

/// A branch that leaves the iteration: `continue;` or `{ ...; continue; }`.
bool continues(const Stmt *S) {
  if (!S)
    return false;
  if (isa<ContinueStmt>(S))
    return true;
  if (const auto *CS = dyn_cast<CompoundStmt>(S))
    return !CS->body_empty() && isa<ContinueStmt>(CS->body_back());
  return false;
}

/// Tensor methods and ATen functions that scale their tensor.
bool isScalingName(const NamedDecl *D) {
  for (llvm::StringRef N :
       {"div", "div_", "mul", "mul_", "true_divide", "true_divide_", "divide",
        "divide_", "multiply", "multiply_"})
    if (hasName(D, N))
      return true;
  return false;
}

bool isScalingOperator(OverloadedOperatorKind K) {
  return K == OO_Slash || K == OO_Star || K == OO_SlashEqual ||
         K == OO_StarEqual;
}

} // namespace

std::optional<AccumulationGuard>
AccumulationAnalysis::guardOf(const Stmt *Loop, const CallExpr *Site) const {
  const Stmt *Body = loopBody(Loop);
  if (!Body || !Site)
    return std::nullopt;
  // Statements of the body that a `continue` before them may skip: those of
  // the body's own block (a `continue` nested deeper guards its own block).
  const auto *Block = dyn_cast<CompoundStmt>(Body);
  std::optional<AccumulationGuard> Found;
  forEachDescendant(Body, [&](const Stmt *S) {
    if (isa<LambdaExpr>(S) || isLoop(S))
      return Descend::Skip;
    const auto *If = dyn_cast<IfStmt>(S);
    if (!If || If->getInit() || If->getConditionVariable())
      return Descend::Children;
    std::optional<ModTest> T = parseTest(If->getCond());
    if (!T)
      return Descend::Children;
    bool Gates = false;
    if (T->TrueOnStep)
      Gates = contains(If->getThen(), Site);
    else if (contains(If->getElse(), Site))
      Gates = true;
    else if (continues(If->getThen()) && !If->getElse() && Block) {
      // `if (i % k != 0) continue;` in the body's own block, before the call.
      auto It = llvm::find(Block->body(), If);
      for (; !Gates && It != Block->body_end(); ++It)
        Gates = *It != If && contains(*It, Site);
    }
    if (!Gates)
      return Descend::Children;
    AccumulationGuard G;
    G.If = If;
    G.Rem = T->Rem;
    G.Compound = T->Compound;
    G.Counter = counterOf(T->Rem->getLHS());
    G.Every = T->Rem->getRHS()->IgnoreParenImpCasts();
    if (!G.Counter || !advancesIn(Loop, G.Counter))
      return Descend::Stop;
    const ASTContext &Ctx = G.Counter->getASTContext();
    if (G.Every->isValueDependent() || G.Every->isTypeDependent())
      return Descend::Stop;
    Expr::EvalResult R;
    if (G.Every->EvaluateAsInt(R, Ctx)) {
      int64_t K = R.Val.getInt().getExtValue();
      if (K <= 1)
        return Descend::Stop; // stepping every iteration: no accumulation
      G.EveryValue = K;
    } else if (const ValueDecl *D = integerDecl(G.Every)) {
      G.EveryDecl = D;
    } else {
      return Descend::Stop; // k from a call or an expression: not known
    }
    Found = G;
    return Descend::Stop;
  });
  return Found;
}

bool AccumulationAnalysis::mayBeScaled(const CallExpr *Backward,
                                       const SourceManager &SM) {
  const Expr *Obj = memberCallObject(Backward);
  if (!Obj)
    return true; // torch::autograd::backward({...}): not read
  unsigned Budget = 64;
  return scaled(Obj, 0, Budget, SM);
}

bool AccumulationAnalysis::scaled(const Expr *E, unsigned Level,
                                  unsigned &Budget, const SourceManager &SM) {
  if (!E || Budget == 0)
    return true;
  --Budget;
  E = stripExpr(E, Strip::Temporaries | Strip::Conversions | Strip::Copies |
                       Strip::Moves)
          ->IgnoreParenImpCasts();
  if (const auto *BO = dyn_cast<BinaryOperator>(E)) {
    switch (BO->getOpcode()) {
    case BO_Div:
    case BO_Mul:
    case BO_DivAssign:
    case BO_MulAssign:
      return true;
    case BO_Add:
    case BO_Sub:
      return scaled(BO->getLHS(), Level, Budget, SM) ||
             scaled(BO->getRHS(), Level, Budget, SM);
    case BO_Comma:
    case BO_Assign:
      return scaled(BO->getRHS(), Level, Budget, SM);
    default:
      return true;
    }
  }
  if (const auto *CO = dyn_cast<ConditionalOperator>(E))
    return scaled(CO->getTrueExpr(), Level, Budget, SM) ||
           scaled(CO->getFalseExpr(), Level, Budget, SM);
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
    const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
    if (!VD || isa<ParmVarDecl>(VD) || !VD->hasLocalStorage())
      return true; // a parameter, a global: where it comes from is unknown
    return scaledVar(VD, Level, Budget, SM);
  }
  if (const auto *CE = dyn_cast<CallExpr>(E))
    return scaledCall(CE, Level, Budget, SM);
  return true; // a member, anything else: not known
}

bool AccumulationAnalysis::scaledVar(const VarDecl *VD, unsigned Level,
                                     unsigned &Budget,
                                     const SourceManager &SM) {
  if (VD->getType()->isReferenceType())
    return true; // bound to something else: not followed
  if (!Engine.enter(VD))
    return false; // `loss = loss + reg`: the cycle adds nothing new
  bool Scaled = scaledWrites(VD, Level, Budget, SM);
  Engine.leave(VD);
  return Scaled;
}

bool AccumulationAnalysis::scaledWrites(const VarDecl *VD, unsigned Level,
                                        unsigned &Budget,
                                        const SourceManager &SM) {
  if (VD->getInit() && scaled(VD->getInit(), Level, Budget, SM))
    return true;
  // Writes anywhere in the function that declares it (lambdas included).
  const auto *Owner = dyn_cast<FunctionDecl>(VD->getDeclContext());
  if (!Owner || !Owner->getBody())
    return true;
  bool Scaled = false;
  forEachDescendant(Owner->getBody(), [&](const Stmt *S) {
    const auto *CE = dyn_cast<CallExpr>(S);
    if (!CE)
      return Descend::Children;
    const auto *OC = dyn_cast<CXXOperatorCallExpr>(CE);
    if (OC && OC->getNumArgs() == 2 &&
        objectDecl(OC->getArg(0)) == VD) { // `loss = ...`, `loss /= k`
      if (isScalingOperator(OC->getOperator()) ||
          (OC->getOperator() == OO_Equal &&
           scaled(OC->getArg(1), Level, Budget, SM)))
        Scaled = true;
    } else if (const auto *MC = dyn_cast<CXXMemberCallExpr>(CE)) {
      // `loss.div_(k)`, `loss.mul_(scale)`
      if (isScalingName(MC->getMethodDecl()) &&
          objectDecl(MC->getImplicitObjectArgument()) == VD)
        Scaled = true;
    }
    return Scaled ? Descend::Stop : Descend::Children;
  });
  return Scaled;
}

bool AccumulationAnalysis::scaledCall(const CallExpr *CE, unsigned Level,
                                      unsigned &Budget,
                                      const SourceManager &SM) {
  const FunctionDecl *FD = CE->getDirectCallee();
  if (!FD)
    return true;
  if (matchesFunctionList(FD, Config.LossScaleFunctions))
    return true;
  if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(CE)) {
    if (isScalingOperator(OC->getOperator()))
      return true; // `loss / k`, `loss * scale` on a tensor
    if ((OC->getOperator() == OO_Plus || OC->getOperator() == OO_Minus) &&
        OC->getNumArgs() == 2)
      return scaled(OC->getArg(0), Level, Budget, SM) ||
             scaled(OC->getArg(1), Level, Budget, SM);
  }
  const auto *MD = dyn_cast<CXXMethodDecl>(FD);
  if (isScalingName(FD) &&
      (MD ? isTensorClass(MD->getParent()) : isLibraryCode(FD, SM)))
    return true; // `loss.div(k)`, `torch::div(loss, k)`
  const FunctionDecl *Def = nullptr;
  if (!FD->hasBody(Def) || !Def || isLibraryCode(Def, SM)) {
    // A library call computes a new loss (`criterion(out, y)`, `x.mean()`):
    // unscaled, unless it is a tensor method on a scaled tensor.
    if (MD && isTensorClass(MD->getParent()) && isa<CXXMemberCallExpr>(CE))
      return scaled(cast<CXXMemberCallExpr>(CE)->getImplicitObjectArgument(),
                    Level, Budget, SM);
    return FD->getBuiltinID() == 0 && !isLibraryCode(FD, SM);
  }
  // A helper defined here: what it returns, read within MaxCallDepth.
  char Unscaled = Returns.get(Def, Level + 1, [&]() -> char {
    bool Any = false, Scaled = false;
    forEachDescendant(Def->getBody(), [&](const Stmt *S) {
      if (isa<LambdaExpr>(S))
        return Descend::Skip;
      if (const auto *R = dyn_cast<ReturnStmt>(S)) {
        Any = true;
        unsigned Inner = 64;
        if (!R->getRetValue() || scaled(R->getRetValue(), Level + 1, Inner, SM))
          Scaled = true;
      }
      return Scaled ? Descend::Stop : Descend::Children;
    });
    return Any && !Scaled;
  });
  return !Unscaled;
}

bool AccumulationAnalysis::scalesGradients(const Stmt *Loop) {
  bool Found = false;
  forEachDescendant(Loop, [&](const Stmt *S) {
    const auto *MC = dyn_cast<CXXMemberCallExpr>(S);
    if (!MC || !isScalingName(MC->getMethodDecl()) ||
        !isTensorClass(MC->getMethodDecl()->getParent()))
      return Descend::Children;
    const auto *Of = dyn_cast_or_null<CXXMemberCallExpr>(
        stripExpr(MC->getImplicitObjectArgument(), Strip::Temporaries)
            ->IgnoreParenImpCasts());
    if (Of && (hasName(Of->getMethodDecl(), "grad") ||
               hasName(Of->getMethodDecl(), "mutable_grad")))
      Found = true;
    return Found ? Descend::Stop : Descend::Children;
  });
  return Found;
}

bool AccumulationAnalysis::countIsMultiple(const Stmt *Loop,
                                           const AccumulationGuard &G) {
  const auto *For = dyn_cast<ForStmt>(Loop);
  if (!For || !For->getCond() || !G.Counter)
    return false;
  const ASTContext &Ctx = G.Counter->getASTContext();
  // The counter starts at a constant: `int i = 0` or `i = 0`.
  std::optional<int64_t> Start;
  auto ConstOf = [&](const Expr *E) -> std::optional<int64_t> {
    Expr::EvalResult R;
    if (E && !E->isValueDependent() && E->EvaluateAsInt(R, Ctx))
      return R.Val.getInt().getExtValue();
    return std::nullopt;
  };
  if (const auto *DS = dyn_cast_or_null<DeclStmt>(For->getInit())) {
    if (DS->isSingleDecl() && DS->getSingleDecl() == G.Counter)
      Start = ConstOf(cast<VarDecl>(G.Counter)->getInit());
  } else if (const auto *BO =
                 dyn_cast_or_null<BinaryOperator>(For->getInit())) {
    if (BO->getOpcode() == BO_Assign && designates(BO->getLHS(), G.Counter))
      Start = ConstOf(BO->getRHS());
  }
  if (!Start)
    return false;
  // The increment is `++i`, `i++` or `i += 1`.
  const auto *Inc = dyn_cast_or_null<Expr>(For->getInc());
  if (!Inc)
    return false;
  Inc = Inc->IgnoreParenImpCasts();
  bool ByOne = false;
  if (const auto *U = dyn_cast<UnaryOperator>(Inc))
    ByOne = U->isIncrementOp() && designates(U->getSubExpr(), G.Counter);
  else if (const auto *CA = dyn_cast<CompoundAssignOperator>(Inc))
    ByOne = CA->getOpcode() == BO_AddAssign &&
            designates(CA->getLHS(), G.Counter) && ConstOf(CA->getRHS()) == 1;
  if (!ByOne)
    return false;
  // The condition is `i < N` or `i != N`.
  const auto *Cond =
      dyn_cast<BinaryOperator>(For->getCond()->IgnoreParenImpCasts());
  if (!Cond || (Cond->getOpcode() != BO_LT && Cond->getOpcode() != BO_NE) ||
      !designates(Cond->getLHS(), G.Counter))
    return false;
  const Expr *Bound = Cond->getRHS()->IgnoreParenImpCasts();
  if (G.EveryValue) {
    std::optional<int64_t> N = ConstOf(Bound);
    return N && *N > *Start && (*N - *Start) % *G.EveryValue == 0;
  }
  // `i < steps * k` with the k of the test, counted from 0.
  const auto *Mul = dyn_cast<BinaryOperator>(Bound);
  if (*Start != 0 || !Mul || Mul->getOpcode() != BO_Mul || !G.EveryDecl)
    return false;
  return integerDecl(Mul->getLHS()) == G.EveryDecl ||
         integerDecl(Mul->getRHS()) == G.EveryDecl;
}

bool AccumulationAnalysis::counterOutlives(const AccumulationGuard &G,
                                           const Stmt *Loop,
                                           ArrayRef<const Stmt *> Enclosing,
                                           const FunctionDecl *Owner,
                                           const SourceManager &SM) {
  const Stmt *Pass = Enclosing.empty() ? Owner->getBody() : Enclosing.back();
  const auto *VD = dyn_cast<VarDecl>(G.Counter);
  bool Local = VD && VD->hasLocalStorage() &&
               !VD->getType()->isReferenceType() && !isa<ParmVarDecl>(VD) &&
               VD->getDeclContext() == Owner;
  if (Local && Pass &&
      !SM.isBeforeInTranslationUnit(VD->getLocation(), Pass->getBeginLoc()) &&
      !SM.isBeforeInTranslationUnit(Pass->getEndLoc(), VD->getLocation()))
    return false;
  if (Enclosing.empty())
    return true;
  bool Reset = false;
  forEachDescendant(loopBody(Pass), [&](const Stmt *S) {
    if (S == Loop || isa<LambdaExpr>(S))
      return Descend::Skip;
    if (const auto *BO = dyn_cast<BinaryOperator>(S))
      Reset =
          BO->getOpcode() == BO_Assign && designates(BO->getLHS(), G.Counter);
    return Reset ? Descend::Stop : Descend::Children;
  });
  return !Reset;
}

} // namespace torch_tidy
