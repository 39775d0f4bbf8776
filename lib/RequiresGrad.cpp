//===--- RequiresGrad.cpp - which tensors require grad --------------------===//
#include "torch-tidy/RequiresGrad.h"
#include "torch-tidy/Compat.h"
#include "torch-tidy/EvaluationOrder.h"
#include "torch-tidy/WholeProgram.h"

#include "torch-tidy/Types.h"

#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/StmtCXX.h"

#include <functional>

using namespace clang;

namespace torch_tidy {

void GradFlow::merge(const GradFlow &Other) {
  for (const GradSource &S : Other.Sources)
    if (llvm::none_of(Sources, [&](const GradSource &Mine) {
          return Mine.Where == S.Where;
        }))
      Sources.push_back(S);
  for (const ParmVarDecl *P : Other.Params)
    if (!llvm::is_contained(Params, P))
      Params.push_back(P);
  View = View || Other.View;
}

static bool isOneOf(llvm::StringRef N,
                    std::initializer_list<llvm::StringRef> Names) {
  return llvm::is_contained(Names, N);
}

static llvm::StringRef nameOf(const NamedDecl *D) {
  return D && D->getIdentifier() ? D->getName() : llvm::StringRef();
}

/// The `requires_grad` argument of a call (argument \p I, or its default).
static std::optional<bool> flagArgument(const CallExpr *CE, unsigned I,
                                        bool Default) {
  if (CE->getNumArgs() <= I)
    return Default;
  return literalBool(CE->getArg(I));
}

static bool isTensorExpr(const Expr *E) {
  return E && isTensorClass(pointeeClass(E->getType()));
}

/// The parameters of LibTorch's layers, as declared in torch/nn/modules.
static bool isLayerParameter(const FieldDecl *F) {
  llvm::StringRef N = nameOf(F);
  if (!isOneOf(N,
               {"weight", "bias", "weight_ih", "weight_hh", "bias_ih",
                "bias_hh", "in_proj_weight", "in_proj_bias", "bias_k", "bias_v",
                "q_proj_weight", "k_proj_weight", "v_proj_weight"}))
    return false;
  const auto *RD = dyn_cast<CXXRecordDecl>(F->getParent());
  static const char *const Layers[] = {"torch::nn::LinearImpl",
                                       "torch::nn::BilinearImpl",
                                       "torch::nn::ConvNdImpl",
                                       "torch::nn::PReLUImpl",
                                       "torch::nn::MultiheadAttentionImpl",
                                       "torch::nn::NormImplBase",
                                       "torch::nn::LayerNormImpl",
                                       "torch::nn::GroupNormImpl",
                                       "torch::nn::EmbeddingImpl",
                                       "torch::nn::EmbeddingBagImpl",
                                       "torch::nn::RNNCellImplBase"};
  for (const char *L : Layers)
    if (hasQualifiedName(RD, L))
      return true;
  return false;
}

/// Tensor methods that return a view of the tensor.
static bool isViewMethod(llvm::StringRef N) {
  return isOneOf(
      N, {"view",      "view_as",    "reshape",      "reshape_as", "flatten",
          "unflatten", "narrow",     "select",       "slice",      "index",
          "diagonal",  "as_strided", "transpose",    "t",          "permute",
          "movedim",   "swapaxes",   "swapdims",     "squeeze",    "unsqueeze",
          "expand",    "expand_as",  "unfold",       "alias",      "chunk",
          "split",     "unbind",     "tensor_split", "real",       "imag"});
}

/// Methods of containers (std::vector, torch::OrderedDict and its items,
/// iterators, optionals) that give access to what the container holds.
static bool isAccessor(llvm::StringRef N) {
  return isOneOf(N, {"at", "front", "back", "value", "values", "pair", "items",
                     "find", "get", "begin", "end", "cbegin", "cend", "rbegin",
                     "rend"});
}

bool RequiresGradAnalysis::isGradAccessor(const CallExpr *CE) {
  const auto *MD =
      dyn_cast_or_null<CXXMethodDecl>(CE ? CE->getDirectCallee() : nullptr);
  if (!MD || !isTensorClass(MD->getParent()))
    return false;
  llvm::StringRef N = nameOf(MD);
  return N == "grad" || N == "mutable_grad";
}

static GradFlow sourceFlow(GradSourceKind K, const Expr *Where) {
  GradFlow F;
  F.Sources.push_back(GradSource{K, Where});
  return F;
}

//===----------------------------------------------------------------------===//
// Evaluating expressions.

GradFlow RequiresGradAnalysis::eval(const Expr *E, const Facts &F,
                                    unsigned Depth) {
  if (!E || Depth > 48)
    return {};
  E = E->IgnoreParens();
  if (const auto *C = dyn_cast<ExprWithCleanups>(E))
    return eval(C->getSubExpr(), F, Depth + 1);
  if (const auto *M = dyn_cast<MaterializeTemporaryExpr>(E))
    return eval(M->getSubExpr(), F, Depth + 1);
  if (const auto *B = dyn_cast<CXXBindTemporaryExpr>(E))
    return eval(B->getSubExpr(), F, Depth + 1);
  if (const auto *D = dyn_cast<CXXDefaultInitExpr>(E))
    return eval(D->getExpr(), F, Depth + 1);
  if (const auto *IC = dyn_cast<ImplicitCastExpr>(E))
    return eval(IC->getSubExpr(), F, Depth + 1);
  if (const auto *EC = dyn_cast<ExplicitCastExpr>(E)) {
    switch (EC->getCastKind()) {
    case CK_NoOp:
    case CK_LValueToRValue:
    case CK_DerivedToBase:
    case CK_UncheckedDerivedToBase:
    case CK_ConstructorConversion:
    case CK_Dependent:
      return eval(EC->getSubExpr(), F, Depth + 1);
    default:
      return {};
    }
  }
  if (const auto *CE = dyn_cast<CXXConstructExpr>(E)) {
    const CXXConstructorDecl *Ctor = CE->getConstructor();
    if (!Ctor)
      return {};
    if (isTensorClass(Ctor->getParent())) {
      // Copies of a handle share the tensor; other constructors make new ones.
      if (CE->getNumArgs() == 1 && isTensorExpr(CE->getArg(0)))
        return eval(CE->getArg(0), F, Depth + 1);
      return {};
    }
    // Containers (and other objects) built from such tensors hold them.
    GradFlow Out;
    for (const Expr *Arg : CE->arguments())
      Out.merge(eval(Arg, F, Depth + 1));
    return Out;
  }
  if (const auto *IL = dyn_cast<InitListExpr>(E)) {
    GradFlow Out;
    for (const Expr *Init : IL->inits())
      Out.merge(eval(Init, F, Depth + 1));
    return Out;
  }
  if (const auto *SIL = dyn_cast<CXXStdInitializerListExpr>(E))
    return eval(SIL->getSubExpr(), F, Depth + 1);
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
    auto It = F.Refs.find(DRE);
    return It == F.Refs.end() ? GradFlow() : It->second;
  }
  if (const auto *ME = dyn_cast<MemberExpr>(E)) {
    const auto *Field = dyn_cast<FieldDecl>(ME->getMemberDecl());
    if (!Field)
      return {};
    if (isLayerParameter(Field))
      return sourceFlow(GradSourceKind::LayerParameter, ME);
    if (nameOf(Field) == "second" &&
        hasQualifiedName(Field->getParent(), "std::pair"))
      return eval(ME->getBase(), F, Depth + 1);
    return fieldFlow(Field);
  }
  if (const auto *CO = dyn_cast<AbstractConditionalOperator>(E)) {
    GradFlow Out = eval(CO->getTrueExpr(), F, Depth + 1);
    Out.merge(eval(CO->getFalseExpr(), F, Depth + 1));
    return Out;
  }
  if (const auto *BO = dyn_cast<BinaryOperator>(E)) {
    if (BO->getOpcode() == BO_Comma)
      return eval(BO->getRHS(), F, Depth + 1);
    return {};
  }
  if (const auto *UO = dyn_cast<UnaryOperator>(E)) {
    if (UO->getOpcode() == UO_Deref || UO->getOpcode() == UO_AddrOf)
      return eval(UO->getSubExpr(), F, Depth + 1);
    return {};
  }
  if (const auto *CE = dyn_cast<CallExpr>(E))
    return callFlow(CE, F, Depth + 1);
  return {};
}

GradFlow RequiresGradAnalysis::callFlow(const CallExpr *CE, const Facts &F,
                                        unsigned Depth) {
  const FunctionDecl *Callee = CE->getDirectCallee();
  if (!Callee)
    return {};
  if (matchesFunctionList(Callee, Config.ParameterFunctions))
    return sourceFlow(GradSourceKind::ParameterFunction, CE);
  const FunctionDecl *UserDef = Index.userDefinition(Callee);

  auto ReturnOf = [&](const FunctionDecl *Def) -> GradFlow {
    std::shared_ptr<const Facts> DefFacts = facts(Def, Level + 1);
    if (!DefFacts)
      return {};
    const GradFlow &Ret = DefFacts->Return;
    GradFlow Out;
    Out.Sources = Ret.Sources;
    Out.View = Ret.View;
    CallSite Site{CE, nullptr, Def};
    for (const ParmVarDecl *P : Ret.Params) {
      if (P->getDeclContext() != Def) {
        Out.Params.push_back(P);
        continue;
      }
      if (const Expr *Arg = Site.argumentFor(P))
        Out.merge(eval(Arg, F, Depth + 1));
    }
    return Out;
  };

  if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(CE)) {
    if (OC->getNumArgs() == 0)
      return {};
    switch (OC->getOperator()) {
    case OO_Star:
    case OO_Arrow:
      if (OC->getNumArgs() == 1)
        return eval(OC->getArg(0), F, Depth + 1);
      return {};
    case OO_Subscript: {
      GradFlow Out = eval(OC->getArg(0), F, Depth + 1);
      if (isTensorExpr(OC->getArg(0)))
        Out.View = true;
      return Out;
    }
    case OO_PlusEqual:
    case OO_MinusEqual:
    case OO_StarEqual:
    case OO_SlashEqual:
    case OO_AmpEqual:
    case OO_PipeEqual:
    case OO_CaretEqual:
      if (isTensorExpr(OC->getArg(0)))
        return eval(OC->getArg(0), F, Depth + 1);
      return UserDef ? ReturnOf(UserDef) : GradFlow();
    default:
      return UserDef ? ReturnOf(UserDef) : GradFlow();
    }
  }

  llvm::StringRef Name = nameOf(Callee);
  if (const auto *MC = dyn_cast<CXXMemberCallExpr>(CE)) {
    const auto *MD = dyn_cast<CXXMethodDecl>(Callee);
    const Expr *Obj = MC->getImplicitObjectArgument();
    const CXXRecordDecl *Cls = MD->getParent();
    if (isSameOrDerivedFrom(Cls, "torch::nn::Module")) {
      if (Name == "parameters" || Name == "named_parameters")
        return sourceFlow(GradSourceKind::ModuleParameters, CE);
      if (Name == "register_parameter") {
        if (flagArgument(CE, 2, true) == std::optional<bool>(true))
          return sourceFlow(GradSourceKind::RegisteredParameter, CE);
        return {};
      }
    }
    if ((Name == "parameters" &&
         isSameOrDerivedFrom(Cls, "torch::optim::Optimizer")) ||
        (Name == "params" &&
         hasQualifiedName(Cls, "torch::optim::OptimizerParamGroup")))
      return sourceFlow(GradSourceKind::OptimizerParameters, CE);
    if (isTensorClass(Cls)) {
      if (Name == "requires_grad_" || Name == "set_requires_grad") {
        std::optional<bool> On = flagArgument(CE, 0, true);
        if (!On)
          return eval(Obj, F, Depth + 1);
        return *On ? sourceFlow(GradSourceKind::SetRequiresGrad, CE)
                   : GradFlow();
      }
      if (isViewMethod(Name)) {
        GradFlow Out = eval(Obj, F, Depth + 1);
        Out.View = true;
        return Out;
      }
      // In-place methods return the tensor itself.
      if (compat::endsWith(Name, "_") && !compat::startsWith(Name, "_"))
        return eval(Obj, F, Depth + 1);
      return {};
    }
    if (hasQualifiedName(Cls, "c10::TensorOptions")) {
      if (Name == "requires_grad") {
        if (flagArgument(CE, 0, false) == std::optional<bool>(true))
          return sourceFlow(GradSourceKind::RequiresGradOption, CE);
        return {};
      }
      if (hasQualifiedName(pointeeClass(CE->getType()), "c10::TensorOptions"))
        return eval(Obj, F, Depth + 1); // dtype(), device(), ... keep the flag
      return {};
    }
    if (UserDef)
      return ReturnOf(UserDef);
    if (isAccessor(Name))
      return eval(Obj, F, Depth + 1);
    return {};
  }

  // Free functions.
  if (Callee->isInStdNamespace() &&
      (Name == "move" || Name == "forward" || Name == "as_const" ||
       Name == "ref" || Name == "cref") &&
      CE->getNumArgs() == 1)
    return eval(CE->getArg(0), F, Depth + 1);
  if (hasQualifiedName(Callee, "c10::requires_grad")) {
    if (flagArgument(CE, 0, true) == std::optional<bool>(true))
      return sourceFlow(GradSourceKind::RequiresGradOption, CE);
    return {};
  }
  if (UserDef)
    return ReturnOf(UserDef);
  // at::relu_(t) and friends return their first argument.
  if (compat::endsWith(Name, "_") && CE->getNumArgs() > 0 &&
      Callee->getNumParams() > 0 && isTensorExpr(CE->getArg(0)) &&
      Callee->getParamDecl(0)->getType()->isLValueReferenceType())
    return eval(CE->getArg(0), F, Depth + 1);
  // Factories: a new tensor requires grad when its options say so.
  if (isTensorType(CE->getType()) &&
      !Callee->getReturnType()->isReferenceType()) {
    GradFlow Out;
    for (const Expr *Arg : CE->arguments())
      if (hasQualifiedName(pointeeClass(Arg->getType()), "c10::TensorOptions"))
        Out.merge(eval(Arg, F, Depth + 1));
    return Out;
  }
  return {};
}

llvm::SmallVector<const FunctionDecl *, 8>
RequiresGradAnalysis::methodDefinitions(const CXXRecordDecl *RD) {
  auto [It, New] = MethodDefinitions.try_emplace(RD);
  if (New)
    for (const CXXMethodDecl *M : RD->methods())
      if (const FunctionDecl *Def = Index.userDefinition(M))
        It->second.push_back(Def);
  // A copy: reading the methods may list another class's.
  return It->second;
}

GradFlow RequiresGradAnalysis::fieldFlow(const FieldDecl *Field) {
  return FieldFlows.getAt(Field, Field, [&] {
    GradFlow Out;
    Facts Empty;
    if (Field->hasInClassInitializer())
      Out.merge(eval(Field->getInClassInitializer(), Empty));
    if (const auto *RD = dyn_cast<CXXRecordDecl>(Field->getParent())) {
      if (RD->hasDefinition()) {
        for (const FunctionDecl *Def : methodDefinitions(RD)) {
          std::shared_ptr<const Facts> MF = facts(Def, Level + 1);
          if (!MF)
            continue;
          auto S = MF->FieldStores.find(Field);
          if (S != MF->FieldStores.end())
            Out.merge(S->second);
        }
      }
    }
    // What a constructor argument holds is not followed into members.
    Out.Params.clear();
    return Out;
  });
}

//===----------------------------------------------------------------------===//
// Reading a function body in evaluation order.

class RequiresGradAnalysis::Walker
    : public EvaluationOrderWalker<RequiresGradAnalysis::Walker> {
  friend class EvaluationOrderWalker<Walker>;

public:
  Walker(RequiresGradAnalysis &A, const FunctionDecl *FD,
         RequiresGradAnalysis::Facts &Out)
      : A(A), FD(FD), Out(Out) {}

  void run() {
    for (const ParmVarDecl *P : FD->parameters()) {
      QualType T = P->getType().getNonReferenceType();
      if (T->isRecordType() || T->isPointerType()) {
        GradFlow F;
        F.Params.push_back(P);
        State[P] = F;
      }
    }
    if (const LambdaSite *LS = A.Index.lambdaSite(FD)) {
      const CXXRecordDecl *Closure = cast<CXXMethodDecl>(FD)->getParent();
      for (const LambdaCapture &C : LS->Lambda->captures()) {
        if (!C.capturesVariable())
          continue;
        auto It = A.Captures.find({Closure, C.getCapturedVar()});
        if (It != A.Captures.end())
          State[C.getCapturedVar()] = It->second;
      }
    }
    if (const auto *Ctor = dyn_cast<CXXConstructorDecl>(FD)) {
      for (const CXXCtorInitializer *Init : Ctor->inits()) {
        if (!Init || !Init->getInit())
          continue;
        walk(Init->getInit());
        if (const FieldDecl *Field = Init->getAnyMember())
          store(Field, eval(Init->getInit()));
      }
    }
    walk(FD->getBody());
  }

private:
  GradFlow eval(const Expr *E) { return A.eval(E, Out); }

  /// An assignment replaces what \p V holds when it runs wherever \p V
  /// lives: outside every branch, or in the branch or loop body that declares
  /// \p V (a range-for's variable, a local of a loop body).
  void set(const ValueDecl *V, const GradFlow &F, bool Replace) {
    auto Scope = DeclaredAt.find(V);
    bool EveryPath = !isConditional() ||
                     (Scope != DeclaredAt.end() && Scope->second == CondDepth);
    if (Replace && EveryPath)
      State[V] = F;
    else
      State[V].merge(F);
  }

  void store(const FieldDecl *Field, const GradFlow &F) {
    if (!F.empty())
      Out.FieldStores[Field].merge(F);
  }

  /// An assignment to (or a change of) what \p Target designates.
  void assign(const Expr *Target, const GradFlow &F, bool Replace) {
    if (!Target)
      return;
    Target = Target->IgnoreParenImpCasts();
    if (const auto *DRE = dyn_cast<DeclRefExpr>(Target)) {
      if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl()))
        set(VD, F, Replace);
      return;
    }
    if (const auto *ME = dyn_cast<MemberExpr>(Target))
      if (const auto *Field = dyn_cast<FieldDecl>(ME->getMemberDecl()))
        if (isa<CXXThisExpr>(ME->getBase()->IgnoreParenImpCasts()))
          store(Field, F);
  }

  /// A lambda is not read here (it is read as its own function); what it
  /// captures is recorded for it.
  void lambda(const LambdaExpr *L) {
    for (const Expr *Init : L->capture_inits())
      walk(Init);
    const CXXRecordDecl *Closure = L->getLambdaClass();
    for (const LambdaCapture &C : L->captures()) {
      if (!C.capturesVariable())
        continue;
      const ValueDecl *V = C.getCapturedVar();
      GradFlow F;
      if (const auto *VD = dyn_cast<VarDecl>(V); VD && VD->isInitCapture())
        F = eval(VD->getInit());
      else if (auto It = State.find(V); It != State.end())
        F = It->second;
      if (!F.empty())
        A.Captures[{Closure, V}] = F;
    }
  }

  /// The local variable whose `requires_grad()` \p Cond tests, and whether
  /// the test is negated (`!t.requires_grad()`); null when it tests nothing so.
  static const VarDecl *requiresGradTest(const Expr *Cond, bool &Negated) {
    Negated = false;
    while (Cond) {
      Cond = Cond->IgnoreParenImpCasts();
      const auto *UO = dyn_cast<UnaryOperator>(Cond);
      if (!UO || UO->getOpcode() != UO_LNot)
        break;
      Negated = !Negated;
      Cond = UO->getSubExpr();
    }
    const auto *MC = dyn_cast_or_null<CXXMemberCallExpr>(Cond);
    const CXXMethodDecl *MD = MC ? MC->getMethodDecl() : nullptr;
    if (!MD || nameOf(MD) != "requires_grad" || MC->getNumArgs() != 0 ||
        !isTensorClass(MD->getParent()))
      return nullptr;
    const auto *DRE = dyn_cast<DeclRefExpr>(
        stripExpr(MC->getImplicitObjectArgument(), Strip::Temporaries));
    const auto *VD = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
    return VD && VD->hasLocalStorage() ? VD : nullptr;
  }

  /// `if (!t.requires_grad()) t.mul_(2);`: in the branch the test sends
  /// there, `t` holds no tensor that requires grad.
  void branch(const Stmt *Branch, const VarDecl *Cleared) {
    if (!Branch || !Cleared) {
      conditional(Branch);
      return;
    }
    GradFlow Before = State.lookup(Cleared);
    State[Cleared] = GradFlow();
    conditional(Branch);
    GradFlow After = State.lookup(Cleared);
    State[Cleared] = Before; // the branch may not run
    State[Cleared].merge(After);
  }

  bool visit(const Stmt *S) {
    if (const auto *If = dyn_cast<IfStmt>(S)) {
      bool Negated = false;
      const VarDecl *Tested = If->getConditionVariable()
                                  ? nullptr
                                  : requiresGradTest(If->getCond(), Negated);
      if (!Tested)
        return false; // the walker's own way
      walk(If->getInit());
      walk(If->getCond());
      branch(If->getThen(), Negated ? Tested : nullptr);
      branch(If->getElse(), Negated ? nullptr : Tested);
      return true;
    }
    if (const auto *DS = dyn_cast<DeclStmt>(S)) {
      for (const Decl *D : DS->decls()) {
        const auto *VD = dyn_cast<VarDecl>(D);
        if (!VD || isa<DecompositionDecl>(VD))
          continue;
        walk(VD->getInit());
        State[VD] = eval(VD->getInit());
        DeclaredAt[VD] = CondDepth;
      }
      return true;
    }
    if (const auto *R = dyn_cast<CXXForRangeStmt>(S)) {
      walk(R->getInit());
      walk(R->getRangeInit());
      if (const VarDecl *LV = R->getLoopVariable()) {
        GradFlow F = eval(R->getRangeInit());
        if (isTensorExpr(R->getRangeInit()))
          F.View = true; // iterating a tensor yields views of it
        State[LV] = F;
        DeclaredAt[LV] = CondDepth + 1; // it lives in the body, below
      }
      conditional(R->getBody());
      return true;
    }
    if (const auto *DRE = dyn_cast<DeclRefExpr>(S)) {
      auto It = State.find(DRE->getDecl());
      if (It != State.end() && !It->second.empty())
        Out.Refs[DRE] = It->second;
      return true;
    }
    if (const auto *Ret = dyn_cast<ReturnStmt>(S)) {
      walk(Ret->getRetValue());
      Out.Return.merge(eval(Ret->getRetValue()));
      return true;
    }
    if (const auto *BO = dyn_cast<BinaryOperator>(S)) {
      if (BO->isLogicalOp())
        return false; // the walker makes the right operand conditional
      walk(BO->getLHS());
      walk(BO->getRHS());
      if (BO->getOpcode() == BO_Assign)
        assign(BO->getLHS(), eval(BO->getRHS()), /*Replace=*/true);
      return true;
    }
    if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(S)) {
      walkChildren(OC);
      const auto *MD = dyn_cast_or_null<CXXMethodDecl>(OC->getDirectCallee());
      // `t = u` rebinds an lvalue handle; `t[0] = u` (an rvalue) writes in place.
      if (OC->getOperator() == OO_Equal && OC->getNumArgs() == 2 &&
          !(MD && MD->getRefQualifier() == RQ_RValue))
        assign(OC->getArg(0), eval(OC->getArg(1)), /*Replace=*/true);
      return true;
    }
    if (const auto *MC = dyn_cast<CXXMemberCallExpr>(S)) {
      walkChildren(MC);
      const CXXMethodDecl *MD = MC->getMethodDecl();
      if (!MD)
        return true;
      llvm::StringRef Name = nameOf(MD);
      const Expr *Obj = MC->getImplicitObjectArgument();
      if (isTensorClass(MD->getParent()) &&
          (Name == "requires_grad_" || Name == "set_requires_grad")) {
        std::optional<bool> On = flagArgument(MC, 0, true);
        if (On)
          assign(Obj,
                 *On ? sourceFlow(GradSourceKind::SetRequiresGrad, MC)
                     : GradFlow(),
                 /*Replace=*/true);
        return true;
      }
      if (!isTensorClass(MD->getParent()) && isContainerInsertName(Name)) {
        GradFlow F;
        for (const Expr *Arg : MC->arguments())
          F.merge(eval(Arg));
        if (!F.empty())
          assign(Obj, F, /*Replace=*/false);
      }
      return true;
    }
    return false;
  }

  RequiresGradAnalysis &A;
  const FunctionDecl *FD;
  RequiresGradAnalysis::Facts &Out;
  llvm::DenseMap<const ValueDecl *, GradFlow> State;
  /// The conditional depth at which each local variable is declared.
  llvm::DenseMap<const ValueDecl *, unsigned> DeclaredAt;
};

std::shared_ptr<const RequiresGradAnalysis::Facts>
RequiresGradAnalysis::facts(const FunctionDecl *FD, unsigned AtLevel) {
  // A lambda's captures are known once the function it is written in is read
  // (at the lambda's level: it is not a call).
  if (const LambdaSite *LS = Index.lambdaSite(FD))
    if (LS->Owner != FD)
      facts(LS->Owner, AtLevel);
  return FactsOf.get(FD, AtLevel, [&] {
    auto Out = std::make_shared<Facts>();
    unsigned Outer = Level;
    Level = AtLevel;
    Walker(*this, FD, *Out).run();
    Level = Outer;
    return std::shared_ptr<const Facts>(std::move(Out));
  });
}

GradFlow RequiresGradAnalysis::flowOf(const Expr *E, const FunctionDecl *FD) {
  if (!E || !FD)
    return {};
  std::shared_ptr<const Facts> F = facts(FD, 0);
  if (!F)
    return {};
  return eval(E, *F);
}

//===----------------------------------------------------------------------===//
// Following a flow out through the callers.

std::optional<GradUse> RequiresGradAnalysis::resolve(GradFlow Flow,
                                                     const Stmt *At,
                                                     const FunctionDecl *FD,
                                                     bool NeedRecording) {
  llvm::DenseSet<const FunctionDecl *> Visited;
  unsigned Budget = 256;
  std::function<std::optional<GradUse>(
      const FunctionDecl *, const GradFlow &, const Stmt *, bool,
      llvm::SmallVector<const CallSite *, 2>, const GradRegion *)>
      Visit;
  Visit = [&](const FunctionDecl *F, const GradFlow &Fl, const Stmt *Here,
              bool Decided, llvm::SmallVector<const CallSite *, 2> Via,
              const GradRegion *Region) -> std::optional<GradUse> {
    if (Budget == 0)
      return std::nullopt;
    --Budget;
    if (NeedRecording && !Decided && Here) {
      if (const GradRegion *R = GradMode.regionAt(F, Here)) {
        if (R->Switch == GradSwitch::Disable)
          return std::nullopt;
        Decided = true;
        Region = R;
      }
    }
    if (!Fl.Sources.empty()) {
      GradUse U;
      U.Source = Fl.Sources.front();
      U.View = Fl.View;
      U.Via = Via;
      U.Region = Region;
      if (!NeedRecording || Decided)
        return U;
      if (!GradMode.entersRecording(F, &U.EnteredFrom))
        return std::nullopt;
      if (!U.EnteredFrom)
        if (const RemoteCallers *R = GradMode.remoteCallers(F);
            R && R->Recording) {
          U.EnteredElsewhere = F;
          U.RemoteEntry = R;
        }
      return U;
    }
    if (Fl.Params.empty() || !Visited.insert(F).second)
      return std::nullopt;
    const LambdaSite *Written = nullptr;
    for (const CallSite &C : GradMode.entries(F, &Written)) {
      GradFlow Next;
      Next.View = Fl.View;
      for (const ParmVarDecl *P : Fl.Params) {
        if (P->getDeclContext() != F) {
          Next.Params.push_back(P);
          continue;
        }
        if (const Expr *Arg = C.argumentFor(P))
          Next.merge(flowOf(Arg, C.Caller));
      }
      if (Next.empty())
        continue;
      auto Via2 = Via;
      Via2.push_back(&C);
      if (auto U = Visit(C.Caller, Next, C.Site, Decided, Via2, Region))
        return U;
    }
    if (Written) {
      GradFlow Outer;
      Outer.View = Fl.View;
      for (const ParmVarDecl *P : Fl.Params)
        if (P->getDeclContext() != F)
          Outer.Params.push_back(P);
      if (!Outer.empty())
        return Visit(Written->Owner, Outer, Written->Lambda, Decided, Via,
                     Region);
    }
    return std::nullopt;
  };
  return Visit(FD, Flow, At, false, {}, nullptr);
}

std::optional<GradUse>
RequiresGradAnalysis::requiresGrad(const Expr *E, const FunctionDecl *FD) {
  GradFlow F = flowOf(E, FD);
  if (F.empty())
    return std::nullopt;
  return resolve(F, nullptr, FD, /*NeedRecording=*/false);
}

std::optional<GradUse>
RequiresGradAnalysis::requiresGradWhileRecording(const Expr *E, const Stmt *At,
                                                 const FunctionDecl *FD) {
  GradFlow F = flowOf(E, FD);
  if (F.empty())
    return std::nullopt;
  return resolve(F, At, FD, /*NeedRecording=*/true);
}

} // namespace torch_tidy
