//===--- TrainingLoop.cpp - autograd events of one loop iteration ---------===//
#include "torch-tidy/TrainingLoop.h"
#include "torch-tidy/Anchor.h"
#include "torch-tidy/EvaluationOrder.h"
#include "torch-tidy/WholeProgram.h"

#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/StmtCXX.h"
#include "llvm/ADT/SmallPtrSet.h"

#include <algorithm>

using namespace clang;

namespace torch_tidy {

bool isLoop(const Stmt *S) {
  return S && (isa<ForStmt>(S) || isa<CXXForRangeStmt>(S) ||
               isa<WhileStmt>(S) || isa<DoStmt>(S));
}

const Stmt *loopBody(const Stmt *Loop) {
  if (const auto *F = dyn_cast<ForStmt>(Loop))
    return F->getBody();
  if (const auto *R = dyn_cast<CXXForRangeStmt>(Loop))
    return R->getBody();
  if (const auto *W = dyn_cast<WhileStmt>(Loop))
    return W->getBody();
  if (const auto *D = dyn_cast<DoStmt>(Loop))
    return D->getBody();
  return nullptr;
}

bool clearsGradientsOf(const AutogradEvent &Z, const AutogradEvent &Step,
                       const TypeConfig &Types) {
  if (Z.Kind == EventKind::Opaque)
    // Code that cannot be read here, handed this very optimizer (or an
    // optimizer, when the one that steps cannot be named), may clear it;
    // handed a module, it is not taken to clear it (a loss helper given the
    // model is far more common than one that calls its zero_grad()).
    return Z.Object && isOptimizerClass(Z.ObjectClass, Types) &&
           (!Step.Object || Z.Object == Step.Object);
  if (Z.Kind != EventKind::ZeroGrad)
    return false;
  if (Z.Custom || !Z.Object || !Step.Object || Z.Object == Step.Object)
    return true;
  // A module's zero_grad() clears its parameters, whichever optimizer holds them.
  return isModuleClass(Z.ObjectClass, Types);
}

/// For `p.grad()` or `p.mutable_grad()` of a tensor, that method; else null.
static const CXXMethodDecl *gradientAccessor(const Expr *E) {
  const auto *MC = dyn_cast_or_null<CXXMemberCallExpr>(
      E ? stripExpr(E, Strip::Temporaries) : nullptr);
  const CXXMethodDecl *MD = MC ? MC->getMethodDecl() : nullptr;
  if (MD && (hasName(MD, "grad") || hasName(MD, "mutable_grad")) &&
      isTensorClass(MD->getParent()))
    return MD;
  return nullptr;
}

/// Gradients cleared tensor by tensor, as `zero_grad()` does:
/// `p.grad().zero_()`, `p.mutable_grad().zero_()`, `p.mutable_grad().reset()`,
/// `p.mutable_grad() = torch::Tensor()` (any assignment replaces it).
static bool clearsGradientByHand(const CallExpr *CE) {
  const auto *MD = dyn_cast_or_null<CXXMethodDecl>(CE->getDirectCallee());
  if (!MD || !isTensorClass(MD->getParent()))
    return false;
  const CXXMethodDecl *Of = nullptr;
  if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(CE)) {
    if (OC->getOperator() != OO_Equal || OC->getNumArgs() != 2)
      return false;
    Of = gradientAccessor(OC->getArg(0));
    return Of && hasName(Of, "mutable_grad");
  }
  Of = gradientAccessor(memberCallObject(CE));
  if (hasName(MD, "zero_"))
    return Of != nullptr;
  if (hasName(MD, "reset"))
    return Of && hasName(Of, "mutable_grad");
  return false;
}

namespace {
/// Walks statements in evaluation order and records autograd events. Loops
/// and lambdas written here are not entered: their calls belong to them.
class EventWalker : public EvaluationOrderWalker<EventWalker> {
  friend class EvaluationOrderWalker<EventWalker>;

public:
  EventWalker(AutogradEventAnalysis &A, EventList &Out, unsigned Depth)
      : A(A), Out(Out), Depth(Depth) {}

private:
  bool visit(const Stmt *S) {
    if (const auto *CE = dyn_cast<CallExpr>(S)) {
      walkChildren(CE);
      classify(CE, isConditional(), mayHaveLeft());
      return true;
    }
    return false;
  }
  /// A loop written here is not entered, except for gradients cleared by
  /// hand: that is done in a loop over the parameters, part of the iteration.
  void loop(const Stmt *, llvm::ArrayRef<const Stmt *> Parts) {
    for (const Stmt *Part : Parts)
      forEachDescendant(Part, [&](const Stmt *S) {
        if (isa<LambdaExpr>(S))
          return Descend::Skip;
        if (const auto *CE = dyn_cast<CallExpr>(S))
          if (clearsGradientByHand(CE))
            addClearedByHand(CE, /*Cond=*/true);
        return Descend::Children;
      });
  }
  void lambda(const LambdaExpr *) {}

  /// Which optimizer's gradients these are is not known: it clears any.
  void addClearedByHand(const CallExpr *CE, bool Cond) {
    add(EventKind::ZeroGrad, CE, Cond);
    Out.back().Object = nullptr;
    Out.back().ObjectClass = nullptr;
  }

  void add(EventKind K, const CallExpr *CE, bool Cond, bool Custom = false) {
    AutogradEvent E;
    E.Kind = K;
    E.Site = E.Call = CE;
    E.Conditional = Cond;
    E.AfterExit = AfterExit;
    E.ExitMark = ExitBase + exitCount();
    E.Custom = Custom;
    E.InClosure = InClosure;
    if (const Expr *Obj = memberCallObject(CE)) {
      E.Object = objectDecl(Obj);
      E.ObjectClass = calleeObjectClass(CE);
    } else if (Custom && CE->getNumArgs() > 0) {
      E.Object = objectDecl(CE->getArg(0));
      E.ObjectClass = pointeeClass(CE->getArg(0)->getType());
    }
    if (E.ObjectClass)
      if (const CXXRecordDecl *Impl = holderImpl(E.ObjectClass))
        E.ObjectClass = Impl;
    Out.push_back(E);
  }

  void classify(const CallExpr *CE, bool Cond, bool Exited) {
    AfterExit = Exited;
    const FunctionDecl *FD = CE->getDirectCallee();
    if (!FD)
      return;
    const TypeConfig &Types = A.config().Types;
    if (matchesFunctionList(FD, A.config().ZeroGradFunctions)) {
      add(EventKind::ZeroGrad, CE, Cond, /*Custom=*/true);
      return;
    }
    if (clearsGradientByHand(CE)) {
      addClearedByHand(CE, Cond);
      return;
    }
    if (const auto *MD = dyn_cast<CXXMethodDecl>(FD)) {
      const CXXRecordDecl *Cls = calleeObjectClass(CE);
      if (const CXXRecordDecl *Impl = holderImpl(Cls))
        Cls = Impl;
      if (hasName(MD, "backward") && isTensorClass(MD->getParent())) {
        add(EventKind::Backward, CE, Cond);
        return;
      }
      if (hasName(MD, "step")) {
        if (isOptimizerClass(Cls, Types)) {
          // A closure given to step() (LBFGS) runs inside step(), before it updates.
          if (CE->getNumArgs() > 0 && !isa<CXXOperatorCallExpr>(CE))
            if (const LambdaExpr *L = lambdaOf(CE->getArg(0))) {
              bool Saved = InClosure;
              InClosure = true;
              walkCalledBody(L->getBody());
              InClosure = Saved;
              AfterExit = Exited;
            }
          add(EventKind::OptimizerStep, CE, Cond);
          return;
        }
        if (isSchedulerClass(Cls) || isPlateauSchedulerClass(Cls)) {
          add(EventKind::SchedulerStep, CE, Cond);
          return;
        }
      }
      if (hasName(MD, "zero_grad") &&
          (isOptimizerClass(Cls, Types) || isModuleClass(Cls, Types))) {
        add(EventKind::ZeroGrad, CE, Cond);
        return;
      }
      if ((hasName(MD, "eval") || hasName(MD, "train")) &&
          isModuleClass(Cls, Types)) {
        bool Eval = hasName(MD, "eval");
        if (!Eval && CE->getNumArgs() > 0 &&
            !CE->getArg(0)->isDefaultArgument()) {
          bool On = true;
          if (const auto *B = dyn_cast<CXXBoolLiteralExpr>(
                  CE->getArg(0)->IgnoreParenImpCasts()))
            On = B->getValue();
          Eval = !On;
        }
        add(Eval ? EventKind::Eval : EventKind::Train, CE, Cond);
        return;
      }
      if ((hasName(MD, "forward") || MD->getOverloadedOperator() == OO_Call) &&
          isModuleClass(Cls, Types)) {
        // What the module's forward() does inside (its submodules' calls) is
        // its own: it is not followed.
        add(EventKind::Forward, CE, Cond);
        return;
      }
    } else if (hasName(FD, "backward") &&
               hasQualifiedName(FD, "torch::autograd::backward")) {
      add(EventKind::Backward, CE, Cond);
      return;
    }
    inlineCallee(CE, FD, Cond);
  }

  /// An Opaque event for each optimizer or module that \p CE hands \p FD
  /// (not read here) so that it may act on it: by non-const reference or
  /// pointer, or a holder or shared_ptr by value (a copy shares the module).
  void addOpaque(const CallExpr *CE, const FunctionDecl *FD, bool Cond) {
    const TypeConfig &Types = A.config().Types;
    unsigned Offset =
        isa<CXXOperatorCallExpr>(CE) && isa<CXXMethodDecl>(FD) ? 1 : 0;
    llvm::SmallVector<std::pair<const Expr *, QualType>, 4> Handed;
    const auto *MD = dyn_cast<CXXMethodDecl>(FD);
    if (const Expr *Obj = memberCallObject(CE)) {
      Handed.push_back({Obj, QualType()});
      // A method of a class of the project (a trainer) may act on the
      // optimizers and modules it holds.
      const CXXRecordDecl *Cls =
          MD ? MD->getParent()->getDefinition() : nullptr;
      if (Cls && !MD->isConst() && !isLibraryCode(Cls, A.sourceManager()))
        for (const FieldDecl *F : Cls->fields()) {
          const CXXRecordDecl *FC = pointeeClass(F->getType());
          if (const CXXRecordDecl *Impl = holderImpl(FC))
            FC = Impl;
          if (isOptimizerClass(FC, Types) || isModuleClass(FC, Types))
            addOpaqueEvent(CE, F, FC, Cond);
        }
    }
    for (unsigned I = Offset; I < CE->getNumArgs(); ++I)
      if (I - Offset < FD->getNumParams())
        Handed.push_back(
            {CE->getArg(I), FD->getParamDecl(I - Offset)->getType()});
    for (const auto &[Arg, ParamType] : Handed) {
      if (!ParamType.isNull()) {
        QualType Pointee = ParamType->getPointeeType();
        if (!Pointee.isNull() ? Pointee.isConstQualified()
                              : !isHandleType(ParamType))
          continue; // a const view, or a copy of the object
      }
      const ValueDecl *Object = objectDecl(Arg);
      const CXXRecordDecl *Cls = pointeeClass(Arg->getType());
      if (const CXXRecordDecl *Impl = holderImpl(Cls))
        Cls = Impl;
      if (Object && (isOptimizerClass(Cls, Types) || isModuleClass(Cls, Types)))
        addOpaqueEvent(CE, Object, Cls, Cond);
    }
  }

  void addOpaqueEvent(const CallExpr *CE, const ValueDecl *Object,
                      const CXXRecordDecl *Cls, bool Cond) {
    AutogradEvent E;
    E.Kind = EventKind::Opaque;
    E.Site = E.Call = CE;
    E.Object = Object;
    E.ObjectClass = Cls;
    E.Conditional = Cond;
    E.AfterExit = AfterExit;
    E.ExitMark = ExitBase + exitCount();
    E.InClosure = InClosure;
    Out.push_back(E);
  }

  /// A module holder or a smart pointer: a copy designates the same object.
  static bool isHandleType(QualType T) {
    const CXXRecordDecl *RD = T->getAsCXXRecordDecl();
    return RD && (isModuleHolderClass(RD) || pointeeClass(T) != RD);
  }

  /// Appends the summary of a helper defined in this TU, with its parameters
  /// replaced by the caller's arguments.
  void inlineCallee(const CallExpr *CE, const FunctionDecl *FD, bool Cond) {
    const FunctionDecl *Def = nullptr;
    if (!FD->hasBody(Def) || !Def) {
      // Defined in another translation unit: its summary when the program
      // summary has it (whole-program mode), else what it is handed.
      if (!mayBeElsewhere(FD, A.sourceManager()))
        return;
      if (!A.config().Program || !A.config().Program->find(FD)) {
        addOpaque(CE, FD, Cond);
        return;
      }
      Def = FD->getCanonicalDecl();
    } else if (isLibraryCode(Def, A.sourceManager())) {
      return;
    }
    EventList Callee = A.summary(Def, Depth + 1);
    if (Callee.empty())
      return;
    // Operator calls on methods (a lambda's `()`) pass the object as argument 0.
    unsigned Offset =
        isa<CXXOperatorCallExpr>(CE) && isa<CXXMethodDecl>(FD) ? 1 : 0;
    // The helper's marks continue this walk's: its exits end the helper
    // only, so what follows the call comes after all of them.
    unsigned Mark = ExitBase + exitCount(), Last = 0;
    for (AutogradEvent E : Callee) {
      Last = std::max(Last, E.ExitMark);
      E.ExitMark += Mark;
      E.Site = CE;
      if (!E.Call) // done in another translation unit: this call does it
        E.Call = CE;
      E.Via = Def;
      E.Conditional = E.Conditional || Cond;
      E.AfterExit = E.AfterExit || AfterExit;
      E.InClosure = E.InClosure || InClosure;
      if (const auto *P = dyn_cast_or_null<ParmVarDecl>(E.Object)) {
        if (P->getDeclContext() == Def) {
          unsigned I = P->getFunctionScopeIndex() + Offset;
          E.Object = I < CE->getNumArgs() ? objectDecl(CE->getArg(I)) : nullptr;
        }
      }
      Out.push_back(E);
    }
    ExitBase += Last;
  }

  AutogradEventAnalysis &A;
  EventList &Out;
  unsigned Depth;
  bool InClosure = false;
  /// The call being classified may run after an exit of the walked unit.
  bool AfterExit = false;
  /// The exits of the helpers inlined so far (ExitMark's scale).
  unsigned ExitBase = 0;
};
} // namespace

EventList AutogradEventAnalysis::straightLine(const Stmt *S, bool *Complete) {
  EventList Out;
  EventWalker W(*this, Out, 0);
  bool Whole = Engine.complete([&] { W.walk(S); });
  if (Complete)
    *Complete = Whole && !W.truncated();
  if (W.truncated())
    return {}; // too deep to read whole: say nothing
  return Out;
}

EventList AutogradEventAnalysis::iteration(const Stmt *Loop) {
  EventList Out;
  EventWalker W(*this, Out, 0);
  W.walkIteration(Loop);
  if (W.truncated())
    return {}; // too deep to read whole: say nothing
  return Out;
}

EventList AutogradEventAnalysis::summary(const FunctionDecl *FD,
                                         unsigned Depth) {
  return Memo.get(FD, Depth, [&]() -> EventList {
    if (!FD->getBody())
      return remoteSummary(FD);
    EventList Out;
    EventWalker W(*this, Out, Depth);
    W.walk(FD->getBody());
    if (W.truncated())
      Out.clear(); // too deep to read whole: it contributes nothing
    return Out;
  });
}

EventList AutogradEventAnalysis::remoteSummary(const FunctionDecl *FD) const {
  const RemoteFunction *R = Config.Program ? Config.Program->find(FD) : nullptr;
  if (!R)
    return {};
  EventList Out;
  const auto *MD = dyn_cast<CXXMethodDecl>(FD);
  for (const RemoteEvent &RE : R->Events) {
    AutogradEvent E;
    E.Kind = RE.Kind;
    E.Conditional = RE.Conditional;
    E.AfterExit = RE.AfterExit;
    E.ExitMark = RE.ExitMark;
    E.Custom = RE.Custom;
    E.InClosure = RE.InClosure;
    E.Remote = &RE.Site;
    // Objects as the helper's own declarations, which the caller maps to its
    // arguments as for a helper defined here.
    if (RE.Object == RemoteEvent::ObjectKind::Parameter &&
        RE.ParamIndex < FD->getNumParams()) {
      E.Object = FD->getParamDecl(RE.ParamIndex);
    } else if (RE.Object == RemoteEvent::ObjectKind::Field && MD &&
               MD->getParent()->hasDefinition()) {
      for (const FieldDecl *F : MD->getParent()->getDefinition()->fields())
        if (F->getName() == RE.FieldName)
          E.Object = F;
    }
    if (E.Object) {
      E.ObjectClass = pointeeClass(E.Object->getType());
      if (const CXXRecordDecl *Impl = holderImpl(E.ObjectClass))
        E.ObjectClass = Impl;
    }
    Out.push_back(E);
  }
  return Out;
}

namespace {
class LoopFinder {
public:
  using Callback = llvm::function_ref<void(
      const Stmt *, llvm::ArrayRef<const Stmt *>, const FunctionDecl *)>;
  LoopFinder(Callback Fn) : Fn(Fn) {}

  void walk(const Stmt *Root, const FunctionDecl *Owner) {
    forEachDescendant(
        Root,
        [&](const Stmt *S) {
          if (const auto *L = dyn_cast<LambdaExpr>(S)) {
            llvm::SmallVector<const Stmt *, 4> Saved;
            Saved.swap(Stack);
            walk(L->getBody(), L->getCallOperator());
            Stack.swap(Saved);
            return Descend::Skip;
          }
          if (isLoop(S)) {
            Fn(S, Stack, Owner);
            Stack.push_back(S);
          }
          return Descend::Children;
        },
        [&](const Stmt *S) {
          if (isLoop(S))
            Stack.pop_back();
        });
  }

private:
  Callback Fn;
  llvm::SmallVector<const Stmt *, 4> Stack;
};
} // namespace

namespace {
/// The loops of each function asked about, found by one walk and kept for the
/// translation unit: four checks ask for the loops of every function.
class LoopIndex {
public:
  explicit LoopIndex(ASTContext &) {}

  struct Loop {
    const Stmt *S;
    const FunctionDecl *Owner;
    /// The enclosing loops: Enclosing[First, First + Count).
    unsigned First, Count;
  };

  /// The loops of \p FD in the order the walk meets them.
  ArrayRef<Loop> of(const FunctionDecl *FD) {
    auto [It, New] = ByFunction.try_emplace(FD);
    if (New) {
      unsigned Begin = Loops.size();
      LoopFinder([&](const Stmt *S, ArrayRef<const Stmt *> Stack,
                     const FunctionDecl *Owner) {
        Loops.push_back({S, Owner, static_cast<unsigned>(Enclosing.size()),
                         static_cast<unsigned>(Stack.size())});
        Enclosing.insert(Enclosing.end(), Stack.begin(), Stack.end());
      }).walk(FD->getBody(), FD);
      It->second = {Begin, static_cast<unsigned>(Loops.size())};
    }
    return ArrayRef<Loop>(Loops).slice(It->second.first,
                                       It->second.second - It->second.first);
  }
  ArrayRef<const Stmt *> enclosing(const Loop &L) const {
    return ArrayRef<const Stmt *>(Enclosing).slice(L.First, L.Count);
  }

private:
  /// Each function's loops: Loops[first, second).
  llvm::DenseMap<const FunctionDecl *, std::pair<unsigned, unsigned>>
      ByFunction;
  std::vector<Loop> Loops;
  std::vector<const Stmt *> Enclosing;
};
} // namespace

void forEachLoop(
    const FunctionDecl *FD,
    llvm::function_ref<void(const Stmt *, llvm::ArrayRef<const Stmt *>,
                            const FunctionDecl *)>
        Fn) {
  if (!FD || !FD->getBody())
    return;
  ASTContext &Ctx = FD->getASTContext();
  LoopIndex &Index = UserCodeIndex::of(Ctx).shared<LoopIndex>(Ctx);
  // Fn may ask for another function's loops, which grows the index: copies.
  ArrayRef<LoopIndex::Loop> Found = Index.of(FD);
  llvm::SmallVector<LoopIndex::Loop, 4> Loops(Found.begin(), Found.end());
  for (const LoopIndex::Loop &L : Loops) {
    ArrayRef<const Stmt *> Stack = Index.enclosing(L);
    llvm::SmallVector<const Stmt *, 4> Enclosing(Stack.begin(), Stack.end());
    Fn(L.S, Enclosing, L.Owner);
  }
}

std::string describeFunction(const FunctionDecl *FD) {
  if (!FD)
    return "a function";
  if (const auto *MD = dyn_cast<CXXMethodDecl>(FD))
    if (MD->getParent()->isLambda())
      return "a lambda";
  return "'" + FD->getNameAsString() + "'";
}

std::string spellObjectAccess(const AutogradEvent &E, const FunctionDecl *Owner,
                              SourceLocation Before, const SourceManager &SM) {
  const ValueDecl *D = E.Object;
  if (!D || !D->getIdentifier() || !Owner)
    return "";
  bool Visible = false;
  if (const auto *VD = dyn_cast<VarDecl>(D)) {
    if (VD->isFileVarDecl())
      Visible = true;
    else if (VD->getDeclContext() == Owner)
      Visible = SM.isBeforeInTranslationUnit(VD->getLocation(), Before);
  } else if (const auto *FieldD = dyn_cast<FieldDecl>(D)) {
    const auto *FieldClass = dyn_cast<CXXRecordDecl>(FieldD->getParent());
    if (const auto *MD = dyn_cast<CXXMethodDecl>(Owner))
      Visible = FieldClass && !MD->isStatic() &&
                (MD->getParent() == FieldClass ||
                 MD->getParent()->isDerivedFrom(FieldClass));
  }
  if (!Visible)
    return "";
  Access How = Access::Value;
  if (!pointeeClass(D->getType(), &How))
    return "";
  return D->getName().str() + (How == Access::Pointer ? "->" : ".");
}

llvm::SmallVector<const ValueDecl *, 2>
optimizedModules(const ValueDecl *Optimizer, const TypeConfig &Types) {
  llvm::SmallVector<const ValueDecl *, 2> Modules;
  llvm::SmallVector<const Expr *, 4> Inits;
  if (!Optimizer || isa<ParmVarDecl>(Optimizer))
    return Modules;
  if (const auto *VD = dyn_cast<VarDecl>(Optimizer)) {
    if (const Expr *Init = VD->getInit())
      Inits.push_back(Init);
  } else if (const auto *FD = dyn_cast<FieldDecl>(Optimizer)) {
    if (const Expr *Init = FD->getInClassInitializer())
      Inits.push_back(Init);
    // Reached through the class's declarations, so constructors defined in
    // another file of the TU (or clangd's preamble) count as well.
    if (const auto *RD = dyn_cast<CXXRecordDecl>(FD->getParent()))
      for (const CXXConstructorDecl *Ctor : RD->ctors()) {
        const auto *Def =
            dyn_cast_or_null<CXXConstructorDecl>(Ctor->getDefinition());
        if (!Def)
          continue;
        for (const CXXCtorInitializer *CI : Def->inits())
          if (CI->isWritten() && CI->getMember() == FD && CI->getInit())
            Inits.push_back(CI->getInit());
      }
  }
  // A local list of parameters is followed once: `auto ps =
  // model->parameters(); SGD opt(ps, ...)`.
  llvm::SmallPtrSet<const VarDecl *, 4> Followed;
  for (size_t I = 0; I < Inits.size(); ++I)
    forEachDescendant(
        Inits[I],
        [&](const Stmt *S) {
          if (const auto *MCE = dyn_cast<CXXMemberCallExpr>(S)) {
            const CXXMethodDecl *MD = MCE->getMethodDecl();
            if (MD &&
                (hasName(MD, "parameters") ||
                 hasName(MD, "named_parameters")) &&
                isModuleClass(MD->getParent(), Types))
              if (const ValueDecl *M =
                      objectDecl(MCE->getImplicitObjectArgument()))
                if (!llvm::is_contained(Modules, M))
                  Modules.push_back(M);
          } else if (const auto *DRE = dyn_cast<DeclRefExpr>(S)) {
            const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
            if (VD && VD->isLocalVarDecl() && VD->getInit() &&
                Followed.size() < 4 && Followed.insert(VD).second)
              Inits.push_back(VD->getInit());
          }
          return Descend::Children;
        },
        [](const Stmt *) {});
  return Modules;
}

} // namespace torch_tidy
