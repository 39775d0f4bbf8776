//===--- SavedTensors.cpp - tensors saved for a backward pass -------------===//
#include "torch-tidy/SavedTensors.h"
#include "torch-tidy/Compat.h"
#include "torch-tidy/EvaluationOrder.h"
#include "torch-tidy/Types.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/StmtCXX.h"
#include "llvm/ADT/DenseMap.h"

using namespace clang;

namespace torch_tidy {

namespace {

StringRef nameOf(const NamedDecl *D) {
  return D && D->getIdentifier() ? D->getName() : StringRef();
}

/// Operations whose backward pass reads their output (`relu_` and friends
/// change their input into it).
bool isOutputSaver(StringRef N) {
  return compat::isOneOf({"sigmoid", "tanh", "exp", "softmax", "relu",
                          "sigmoid_", "tanh_", "exp_", "relu_"},
                         N);
}

/// Operations whose backward pass reads an operand to give the other its
/// gradient.
bool isOperandSaver(StringRef N) {
  return compat::isOneOf({"mul", "div", "matmul", "mm", "pow"}, N);
}

bool isTensorExpr(const Expr *E) { return E && isTensorType(E->getType()); }

/// The variable \p E names, when it is a tensor variable of the function
/// (a local or a parameter).
const VarDecl *tensorVar(const Expr *E) {
  const auto *DRE =
      dyn_cast_or_null<DeclRefExpr>(stripExpr(E, Strip::SameTensor));
  if (!DRE)
    return nullptr;
  const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
  if (!VD || !VD->hasLocalStorage() || !isTensorType(VD->getType()))
    return nullptr;
  return VD;
}

/// A LibTorch module whose forward pass keeps its output.
const char *savingModuleName(const CXXRecordDecl *RD) {
  if (hasQualifiedName(RD, "torch::nn::ReLUImpl"))
    return "ReLU";
  if (hasQualifiedName(RD, "torch::nn::SigmoidImpl"))
    return "Sigmoid";
  if (hasQualifiedName(RD, "torch::nn::TanhImpl"))
    return "Tanh";
  if (hasQualifiedName(RD, "torch::nn::SoftmaxImpl"))
    return "Softmax";
  return nullptr;
}

/// The two operands of a `mul`, `div`, `matmul`, `mm` or `pow` (the second
/// may be a scalar), with the operation's name.
bool operandsOf(const CallExpr *CE, const Expr *&Self, const Expr *&Other,
                std::string &Name) {
  if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(CE)) {
    if (OC->getNumArgs() != 2 ||
        (OC->getOperator() != OO_Star && OC->getOperator() != OO_Slash))
      return false;
    const FunctionDecl *Callee = OC->getDirectCallee();
    if (!Callee || !inLibTorchNamespace(Callee))
      return false;
    Self = OC->getArg(0);
    Other = OC->getArg(1);
    Name = OC->getOperator() == OO_Star ? "*" : "/";
    return true;
  }
  const FunctionDecl *Callee = CE->getDirectCallee();
  if (!Callee || !isOperandSaver(nameOf(Callee)))
    return false;
  if (const auto *MC = dyn_cast<CXXMemberCallExpr>(CE)) {
    const auto *MD = dyn_cast<CXXMethodDecl>(Callee);
    if (!MD || !isTensorClass(MD->getParent()) || MC->getNumArgs() == 0)
      return false;
    Self = MC->getImplicitObjectArgument();
    Other = MC->getArg(0);
  } else {
    if (isa<CXXMethodDecl>(Callee) || !inLibTorchNamespace(Callee) ||
        CE->getNumArgs() < 2)
      return false;
    Self = CE->getArg(0);
    Other = CE->getArg(1);
  }
  Name = nameOf(Callee).str();
  return true;
}

} // namespace

std::optional<std::pair<std::string, const Expr *>>
savesOutput(const CallExpr *CE) {
  if (!CE)
    return std::nullopt;
  if (const CXXRecordDecl *Module = moduleForwardClass(CE, TypeConfig())) {
    const char *Name = savingModuleName(Module);
    if (!Name)
      return std::nullopt;
    unsigned First = isa<CXXOperatorCallExpr>(CE) ? 1 : 0;
    for (unsigned I = First; I < CE->getNumArgs(); ++I)
      if (isTensorExpr(CE->getArg(I)))
        return std::make_pair(std::string(Name), CE->getArg(I));
    return std::nullopt;
  }
  const FunctionDecl *Callee = CE->getDirectCallee();
  StringRef N = nameOf(Callee);
  if (!Callee || !isOutputSaver(N))
    return std::nullopt;
  if (const auto *MC = dyn_cast<CXXMemberCallExpr>(CE)) {
    const auto *MD = dyn_cast<CXXMethodDecl>(Callee);
    if (!MD || !isTensorClass(MD->getParent()))
      return std::nullopt;
    return std::make_pair(N.str(), MC->getImplicitObjectArgument());
  }
  if (isa<CXXMethodDecl>(Callee) || !inLibTorchNamespace(Callee) ||
      CE->getNumArgs() == 0 || !isTensorExpr(CE->getArg(0)))
    return std::nullopt;
  return std::make_pair(N.str(), CE->getArg(0));
}

bool SavedTensorAnalysis::recorded(const Expr *E, const FunctionDecl *FD) {
  return Graphs.graphOrLeafOf(E, FD).has_value();
}

class SavedTensorAnalysis::Walker
    : public EvaluationOrderWalker<SavedTensorAnalysis::Walker> {
  friend class EvaluationOrderWalker<Walker>;

public:
  Walker(SavedTensorAnalysis &A, const FunctionDecl *FD) : A(A), FD(FD) {}

  std::vector<SavedInplace> run() {
    for (const ParmVarDecl *P : FD->parameters())
      DeclLoop[P] = 0;
    walk(FD->getBody());
    if (truncated())
      return {};
    for (auto &[Found, Depth] : Pending) {
      Found.OnlyUse = Found.Var && Found.Save.Output &&
                      !isa<ParmVarDecl>(Found.Var) &&
                      !Found.Var->getType()->isReferenceType() &&
                      Depth == DeclLoop.lookup(Found.Var) &&
                      !namedElsewhere(Found.Var, Found.Save.Call, Found.Op);
      Out.push_back(Found);
    }
    return Out;
  }

private:
  /// Whether \p V is named in the body after \p Save ends, other than as the
  /// tensor \p Op changes.
  bool namedElsewhere(const VarDecl *V, const Expr *Save, const InplaceOp &Op) {
    const SourceManager &SM = FD->getASTContext().getSourceManager();
    SourceLocation End = SM.getExpansionLoc(compat::endLoc(Save));
    const Expr *Target = stripExpr(Op.Target, Strip::SameTensor);
    return !forEachDescendant(FD->getBody(), [&](const Stmt *X) {
      const auto *DRE = dyn_cast<DeclRefExpr>(X);
      if (DRE && DRE != Target && DRE->getDecl() == V &&
          SM.isBeforeInTranslationUnit(End,
                                       SM.getExpansionLoc(DRE->getBeginLoc())))
        return Descend::Stop;
      return Descend::Children;
    });
  }

  void loop(const Stmt *L, llvm::ArrayRef<const Stmt *> Parts) {
    ++LoopDepth;
    EvaluationOrderWalker<Walker>::loop(L, Parts);
    --LoopDepth;
  }

  /// A lambda's body is a function of its own; only its captures run here.
  void lambda(const LambdaExpr *L) {
    for (const Expr *Init : L->capture_inits())
      walk(Init);
  }

  /// The value written to \p V, or returned when \p V is null.
  void walkValue(const Expr *Value, const VarDecl *V, bool Return) {
    const VarDecl *SavedDest = Dest;
    const Expr *SavedValue = DestValue;
    bool SavedReturn = InReturn;
    Dest = V;
    DestValue = Value;
    InReturn = Return;
    walk(Value);
    Dest = SavedDest;
    DestValue = SavedValue;
    InReturn = SavedReturn;
  }

  /// \p V now holds \p Value: a new tensor, saved when \p Value is the output
  /// of an operation that keeps it.
  void write(const VarDecl *V, const Expr *Value) {
    Saved.erase(V);
    const auto *CE =
        dyn_cast_or_null<CallExpr>(stripExpr(Value, Strip::SameTensor));
    if (!CE || matchInplace(CE))
      return;
    if (auto S = savesOutput(CE))
      if (A.recordsAt(FD, CE) && A.recorded(S->second, FD))
        Saved[V] = SavingOp{CE, S->first, /*Output=*/true};
  }

  bool visit(const Stmt *S) {
    if (const auto *DS = dyn_cast<DeclStmt>(S)) {
      for (const Decl *D : DS->decls()) {
        const auto *VD = dyn_cast<VarDecl>(D);
        if (!VD)
          continue;
        walkValue(VD->getInit(), VD, false);
        DeclLoop[VD] = LoopDepth;
        write(VD, VD->getInit());
      }
      return true;
    }
    if (const auto *Ret = dyn_cast<ReturnStmt>(S)) {
      walkValue(Ret->getRetValue(), nullptr, true);
      return true;
    }
    if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(S)) {
      const auto *MD = dyn_cast_or_null<CXXMethodDecl>(OC->getDirectCallee());
      if (OC->getOperator() == OO_Equal && OC->getNumArgs() == 2 &&
          !(MD && MD->getRefQualifier() == RQ_RValue)) {
        const VarDecl *V = tensorVar(OC->getArg(0));
        walkValue(OC->getArg(1), V, false);
        walk(OC->getArg(0));
        if (V)
          write(V, OC->getArg(1));
        return true;
      }
    }
    if (const auto *CE = dyn_cast<CallExpr>(S)) {
      walkChildren(CE);
      call(CE);
      return true;
    }
    return false;
  }

  void call(const CallExpr *CE) {
    if (isBackwardCall(CE)) {
      Saved.clear(); // the graphs recorded so far have been used
      return;
    }
    const FunctionDecl *Callee = CE->getDirectCallee();
    // A function that may rebind a variable it is handed by reference.
    if (Callee && !inLibTorchNamespace(Callee)) {
      unsigned Skip =
          isa<CXXOperatorCallExpr>(CE) && isa<CXXMethodDecl>(Callee) ? 1 : 0;
      for (unsigned I = Skip; I < CE->getNumArgs(); ++I) {
        unsigned P = I - Skip;
        if (P >= Callee->getNumParams())
          break;
        QualType T = Callee->getParamDecl(P)->getType();
        if (T->isLValueReferenceType() &&
            !T.getNonReferenceType().isConstQualified())
          if (const VarDecl *V = tensorVar(CE->getArg(I)))
            Saved.erase(V);
      }
    }
    if (std::optional<InplaceOp> Op = matchInplace(CE)) {
      inplace(*Op, CE);
      return;
    }
    const Expr *Self = nullptr, *Other = nullptr;
    std::string Name;
    if (!operandsOf(CE, Self, Other, Name) || !A.recordsAt(FD, CE))
      return;
    bool SelfRecorded = false, OtherRecorded = false;
    bool OtherTensor = isTensorExpr(Other);
    const VarDecl *SelfVar = tensorVar(Self);
    const VarDecl *OtherVar = OtherTensor ? tensorVar(Other) : nullptr;
    if (SelfVar || OtherVar) {
      if (OtherTensor)
        OtherRecorded = A.recorded(Other, FD);
      if (isTensorExpr(Self) && (OtherVar || (Name == "pow" && SelfVar)))
        SelfRecorded = A.recorded(Self, FD);
    }
    auto Save = [&](const VarDecl *V, bool Own) {
      if (V && !Saved.count(V))
        Saved[V] = SavingOp{CE, Name, /*Output=*/false, Own};
    };
    if (SelfVar && OtherRecorded)
      Save(SelfVar, false);
    else if (SelfVar && Name == "pow" && SelfRecorded)
      Save(SelfVar, true);
    if (OtherVar && SelfRecorded)
      Save(OtherVar, false);
  }

  void inplace(const InplaceOp &Op, const CallExpr *CE) {
    SavedInplace Found;
    Found.Op = Op;
    Found.Dest = Dest;
    Found.Returned = InReturn;
    Found.WholeValue =
        DestValue && stripExpr(DestValue, Strip::SameTensor) == CE;
    const VarDecl *V = tensorVar(Op.Target);
    if (V) {
      auto It = Saved.find(V);
      if (It != Saved.end()) {
        Found.Var = V;
        Found.Save = It->second;
        Saved.erase(It);
        Pending.push_back({Found, LoopDepth});
      }
    } else if (const auto *Inner = dyn_cast_or_null<CallExpr>(
                   stripExpr(Op.Target, Strip::SameTensor))) {
      // `x.sigmoid().mul_(2)`: the fresh output itself.
      if (auto S = savesOutput(Inner))
        if (!matchInplace(Inner) && A.recordsAt(FD, Inner) &&
            A.recorded(S->second, FD)) {
          Found.Save = SavingOp{Inner, S->first, /*Output=*/true};
          Pending.push_back({Found, LoopDepth});
        }
    }
    // `h.relu_()` keeps its own output, the changed `h`.
    if (V)
      if (auto S = savesOutput(CE))
        if (A.recordsAt(FD, CE) && A.recorded(Op.Target, FD))
          Saved[V] = SavingOp{CE, S->first, /*Output=*/true};
  }

  SavedTensorAnalysis &A;
  const FunctionDecl *FD;
  llvm::DenseMap<const VarDecl *, SavingOp> Saved;
  llvm::DenseMap<const VarDecl *, unsigned> DeclLoop;
  unsigned LoopDepth = 0;
  const VarDecl *Dest = nullptr;
  const Expr *DestValue = nullptr;
  bool InReturn = false;
  std::vector<std::pair<SavedInplace, unsigned>> Pending;
  std::vector<SavedInplace> Out;
};

std::vector<SavedInplace>
SavedTensorAnalysis::inplaceOnSaved(const FunctionDecl *FD) {
  if (!FD || !FD->getBody())
    return {};
  return Walker(*this, FD).run();
}

} // namespace torch_tidy
