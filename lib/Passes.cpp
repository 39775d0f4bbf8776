//===--- Passes.cpp - training and validation passes of an epoch ----------===//
#include "torch-tidy/Passes.h"
#include "torch-tidy/Compat.h"
#include "torch-tidy/EvaluationOrder.h"
#include "torch-tidy/GradMode.h"

#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/StmtCXX.h"
#include "llvm/ADT/DenseSet.h"

using namespace clang;

namespace torch_tidy {

void PassSummary::merge(const PassSummary &O) {
  if (!Backward)
    Backward = O.Backward;
  if (!OptimizerStep)
    OptimizerStep = O.OptimizerStep;
  if (!Eval)
    Eval = O.Eval;
  if (!Forward)
    Forward = O.Forward;
  if (!NoGrad)
    NoGrad = O.NoGrad;
  if (!Loss)
    Loss = O.Loss;
}

bool isDataLoaderLoop(const Stmt *Loop) {
  const auto *R = dyn_cast_or_null<CXXForRangeStmt>(Loop);
  if (!R || !R->getRangeInit())
    return false;
  const CXXRecordDecl *RD = pointeeClass(R->getRangeInit()->getType());
  return RD && isSameOrDerivedFrom(RD, "torch::data::DataLoaderBase");
}

static const CXXConstructExpr *constructionOf(const Expr *E) {
  if (!E)
    return nullptr;
  E = E->IgnoreImplicit();
  if (const auto *F = dyn_cast<CXXFunctionalCastExpr>(E))
    E = F->getSubExpr()->IgnoreImplicit();
  return dyn_cast<CXXConstructExpr>(E);
}

struct PassAnalysis::Impl {
  Impl(const LoopConfig &Config, const SourceManager &SM)
      : Config(Config), SM(SM), Engine(Config.MaxCallDepth), Memo(Engine) {}

  /// Values written to local variables, and tensors `backward()` is called
  /// on, in one function.
  struct OwnerInfo {
    llvm::DenseMap<const VarDecl *, llvm::SmallVector<const Expr *, 2>> Writes;
    llvm::DenseMap<const VarDecl *, const CallExpr *> Backwarded;
  };

  const FunctionDecl *userDefinition(const FunctionDecl *FD) const {
    const FunctionDecl *Def = nullptr;
    if (!FD || !FD->hasBody(Def) || !Def || Def->isDependentContext())
      return nullptr;
    if (isLibraryCode(Def, SM))
      return nullptr;
    return Def;
  }

  /// What the one call \p CE does (a helper's body followed), its arguments
  /// left out. \p Level: the level of the function \p CE is written in.
  PassSummary call(const CallExpr *CE, unsigned Level) {
    PassSummary Out;
    const FunctionDecl *FD = CE->getDirectCallee();
    if (!FD)
      return Out;
    if (const auto *MD = dyn_cast<CXXMethodDecl>(FD)) {
      const CXXRecordDecl *Cls = calleeObjectClass(CE);
      if (const CXXRecordDecl *HImpl = holderImpl(Cls))
        Cls = HImpl;
      if (hasName(MD, "backward") && isTensorClass(MD->getParent())) {
        Out.Backward = CE;
        return Out;
      }
      if (hasName(MD, "step") && isOptimizerClass(Cls, Config.Types)) {
        Out.OptimizerStep = CE;
        return Out;
      }
      if (isModuleClass(Cls, Config.Types)) {
        if (hasName(MD, "eval")) {
          Out.Eval = CE;
          return Out;
        }
        if (hasName(MD, "train")) {
          if (CE->getNumArgs() > 0 && !CE->getArg(0)->isDefaultArgument())
            if (const auto *B = dyn_cast<CXXBoolLiteralExpr>(
                    CE->getArg(0)->IgnoreParenImpCasts()))
              if (!B->getValue())
                Out.Eval = CE;
          return Out;
        }
        if (hasName(MD, "forward") || MD->getOverloadedOperator() == OO_Call) {
          Out.Forward = CE;
          if (isLibTorchLossModule(Cls, SM))
            Out.Loss = CE;
          return Out;
        }
      }
    } else {
      if (hasName(FD, "backward") &&
          hasQualifiedName(FD, "torch::autograd::backward")) {
        Out.Backward = CE;
        return Out;
      }
      if (setEnabledSwitch(CE) == GradSwitch::Disable) {
        Out.NoGrad = CE;
        return Out;
      }
      if (isLibTorchLossFunction(FD, SM)) {
        Out.Loss = CE;
        return Out;
      }
    }
    if (const FunctionDecl *Def = userDefinition(FD))
      Out.merge(summary(Def, Level + 1));
    return Out;
  }

  /// A declaration of a guard that turns autograd off.
  const Stmt *noGradGuard(const DeclStmt *DS) const {
    GradModeConfig GM;
    for (const Decl *D : DS->decls())
      if (const auto *VD = dyn_cast<VarDecl>(D))
        if (VD->hasLocalStorage() && !VD->getType()->isReferenceType() &&
            guardSwitch(constructionOf(VD->getInit()), GM) ==
                GradSwitch::Disable)
          return DS;
    return nullptr;
  }

  PassSummary walk(const Stmt *S, unsigned Level) {
    PassSummary Out;
    forEachDescendant(S, [&](const Stmt *X) {
      if (const auto *CE = dyn_cast<CallExpr>(X))
        Out.merge(call(CE, Level));
      else if (const auto *DS = dyn_cast<DeclStmt>(X))
        if (const Stmt *G = noGradGuard(DS))
          if (!Out.NoGrad)
            Out.NoGrad = G;
      return Descend::Children;
    });
    return Out;
  }

  PassSummary summary(const FunctionDecl *FD, unsigned Level) {
    return Memo.get(FD, Level, [&]() -> PassSummary {
      if (!FD->getBody())
        return {};
      return walk(FD->getBody(), Level);
    });
  }

  const OwnerInfo &owner(const FunctionDecl *FD) {
    auto It = Owners.find(FD);
    if (It != Owners.end())
      return It->second;
    OwnerInfo &Info = Owners[FD];
    auto VarOf = [](const Expr *E) -> const VarDecl * {
      if (const auto *DRE = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts()))
        return dyn_cast<VarDecl>(DRE->getDecl());
      return nullptr;
    };
    forEachDescendant(FD->getBody(), [&](const Stmt *X) {
      if (const auto *DS = dyn_cast<DeclStmt>(X)) {
        for (const Decl *D : DS->decls())
          if (const auto *VD = dyn_cast<VarDecl>(D))
            if (VD->getInit())
              Info.Writes[VD].push_back(VD->getInit());
      } else if (const auto *BO = dyn_cast<BinaryOperator>(X)) {
        if (BO->isAssignmentOp())
          if (const VarDecl *VD = VarOf(BO->getLHS()))
            Info.Writes[VD].push_back(BO->getRHS());
      } else if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(X)) {
        if (OC->isAssignmentOp() && OC->getNumArgs() == 2)
          if (const VarDecl *VD = VarOf(OC->getArg(0)))
            Info.Writes[VD].push_back(OC->getArg(1));
      } else if (const auto *MC = dyn_cast<CXXMemberCallExpr>(X)) {
        const CXXMethodDecl *MD = MC->getMethodDecl();
        if (MD && hasName(MD, "backward") && isTensorClass(MD->getParent()))
          forEachDescendant(
              MC->getImplicitObjectArgument(), [&](const Stmt *Y) {
                if (const auto *DRE = dyn_cast<DeclRefExpr>(Y))
                  if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl()))
                    Info.Backwarded.try_emplace(VD, MC);
                return Descend::Children;
              });
      }
      return Descend::Children;
    });
    return Info;
  }

  bool within(const Stmt *S, const Stmt *Region) const {
    SourceLocation L = SM.getExpansionLoc(S->getBeginLoc());
    SourceLocation B = SM.getExpansionLoc(Region->getBeginLoc());
    SourceLocation E = SM.getExpansionLoc(Region->getEndLoc());
    if (L.isInvalid() || B.isInvalid() || E.isInvalid())
      return false;
    return !SM.isBeforeInTranslationUnit(L, B) &&
           !SM.isBeforeInTranslationUnit(E, L);
  }

  const LoopConfig &Config;
  const SourceManager &SM;
  SummaryEngine Engine;
  Summaries<const FunctionDecl *, PassSummary> Memo;
  llvm::DenseMap<const FunctionDecl *, OwnerInfo> Owners;
};

PassAnalysis::PassAnalysis(const LoopConfig &Config, const SourceManager &SM)
    : I(std::make_unique<Impl>(Config, SM)) {}

PassAnalysis::~PassAnalysis() = default;

PassSummary PassAnalysis::of(const Stmt *S) { return I->walk(S, 0); }

llvm::SmallVector<const Stmt *, 2>
PassAnalysis::validationPasses(const Stmt *Loop,
                               llvm::ArrayRef<AutogradEvent> Events) {
  llvm::SmallVector<const Stmt *, 2> Out;
  const SourceManager &SM = I->SM;
  auto EvalBefore = [&](const Stmt *S) {
    return llvm::any_of(Events, [&](const AutogradEvent &E) {
      return E.Kind == EventKind::Eval &&
             SM.isBeforeInTranslationUnit(compat::beginLoc(E.Site),
                                          S->getBeginLoc());
    });
  };
  // One entry per block being walked: whether a no-grad guard is in force.
  llvm::SmallVector<bool, 8> NoGrad;
  auto NoGradHere = [&] { return llvm::is_contained(NoGrad, true); };
  auto Validates = [&](const PassSummary &P, const Stmt *S) {
    return P.Forward && P.Loss && !P.Backward &&
           (P.NoGrad || P.Eval || NoGradHere() || EvalBefore(S));
  };
  llvm::SmallVector<const CompoundStmt *, 8> Blocks;
  forEachDescendant(
      loopBody(Loop),
      [&](const Stmt *X) {
        if (isa<LambdaExpr>(X))
          return Descend::Skip;
        if (const auto *CS = dyn_cast<CompoundStmt>(X)) {
          Blocks.push_back(CS);
          NoGrad.push_back(false);
          return Descend::Children;
        }
        if (isLoop(X)) {
          if (Validates(I->walk(X, 0), X))
            Out.push_back(X);
          return Descend::Skip;
        }
        if (const auto *DS = dyn_cast<DeclStmt>(X)) {
          if (I->noGradGuard(DS) && !Blocks.empty() && !NoGrad.back()) {
            NoGrad.back() = true;
            PassSummary P = I->walk(Blocks.back(), 0);
            if (P.Forward && P.Loss && !P.Backward)
              Out.push_back(Blocks.back());
          }
          return Descend::Children;
        }
        if (const auto *CE = dyn_cast<CallExpr>(X)) {
          if (const FunctionDecl *Def =
                  I->userDefinition(CE->getDirectCallee()))
            if (Validates(I->summary(Def, 1), CE))
              Out.push_back(CE);
        }
        return Descend::Children;
      },
      [&](const Stmt *X) {
        if (isa<CompoundStmt>(X)) {
          Blocks.pop_back();
          NoGrad.pop_back();
        }
      });
  return Out;
}

const Stmt *
PassAnalysis::trainingSource(const Expr *Value, const FunctionDecl *Owner,
                             llvm::ArrayRef<const Stmt *> Validation) {
  if (!Value || !Owner || !Owner->getBody())
    return nullptr;
  const Impl::OwnerInfo &Info = I->owner(Owner);
  const Stmt *Hit = nullptr;
  bool Mixed = false;
  llvm::DenseSet<const VarDecl *> Seen;
  llvm::SmallVector<const Expr *, 8> Work{Value};
  unsigned Budget = 64; // values read: a bound, not a depth
  while (!Work.empty() && !Mixed && Budget--) {
    const Expr *E = Work.pop_back_val();
    forEachDescendant(E, [&](const Stmt *X) {
      if (isa<LambdaExpr>(X))
        return Descend::Skip;
      if (const auto *DRE = dyn_cast<DeclRefExpr>(X)) {
        const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
        if (!VD || !Seen.insert(VD).second)
          return Descend::Children;
        auto B = Info.Backwarded.find(VD);
        if (B != Info.Backwarded.end()) {
          if (!Hit)
            Hit = B->second;
          return Descend::Children;
        }
        QualType T = VD->getType().getNonReferenceType();
        if (!T->isArithmeticType() && !isTensorType(T))
          return Descend::Children;
        auto W = Info.Writes.find(VD);
        if (W == Info.Writes.end())
          return Descend::Children;
        for (const Expr *Write : W->second) {
          if (llvm::any_of(Validation,
                           [&](const Stmt *V) { return I->within(Write, V); }))
            Mixed = true;
          Work.push_back(Write);
        }
        return Descend::Children;
      }
      if (const auto *CE = dyn_cast<CallExpr>(X)) {
        if (const FunctionDecl *Def =
                I->userDefinition(CE->getDirectCallee())) {
          PassSummary P = I->summary(Def, 1);
          if (P.validates())
            Mixed = true;
          else if (P.trains() && !Hit)
            Hit = CE;
        }
      }
      return Descend::Children;
    });
  }
  return Mixed ? nullptr : Hit;
}

llvm::SmallVector<const Stmt *, 4>
PassAnalysis::optimizerSteps(const Stmt *Loop) {
  llvm::SmallVector<const Stmt *, 4> Out;
  forEachDescendant(loopBody(Loop), [&](const Stmt *X) {
    if (isa<LambdaExpr>(X))
      return Descend::Skip;
    if (isLoop(X)) {
      if (I->walk(X, 0).OptimizerStep)
        Out.push_back(X);
      return Descend::Skip;
    }
    if (const auto *CE = dyn_cast<CallExpr>(X))
      if (I->call(CE, 0).OptimizerStep)
        Out.push_back(CE);
    return Descend::Children;
  });
  return Out;
}

} // namespace torch_tidy
