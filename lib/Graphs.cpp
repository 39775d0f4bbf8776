//===--- Graphs.cpp - which tensors carry an autograd graph ---------------===//
#include "torch-tidy/Graphs.h"
#include "torch-tidy/Compat.h"
#include "torch-tidy/EvaluationOrder.h"
#include "torch-tidy/WholeProgram.h"

#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/StmtCXX.h"
#include "llvm/ADT/DenseSet.h"

#include <algorithm>
#include <functional>
#include <utility>
#include <vector>

using namespace clang;

namespace torch_tidy {

namespace {

/// Expressions read per question: a bound on work, not a depth.
constexpr unsigned Budget = 512;

/// Tensor methods whose result holds no graph of the tensor.
bool endsGraph(const CXXMethodDecl *MD) {
  if (!MD->getIdentifier())
    return false;
  return compat::isOneOf({"detach", "detach_", "data", "item", "tolist",
                          "numel", "dim", "size", "sizes"},
                         MD->getName());
}

/// The function whose body declares \p VD.
const FunctionDecl *ownerOf(const VarDecl *VD) {
  return dyn_cast_or_null<FunctionDecl>(VD->getParentFunctionOrMethod());
}

/// A local variable whose writes can be read: not a parameter, not static.
const VarDecl *localVar(const Expr *E) {
  const auto *DRE = dyn_cast_or_null<DeclRefExpr>(E);
  if (!DRE)
    return nullptr;
  const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
  if (!VD || isa<ParmVarDecl>(VD) || !VD->hasLocalStorage() || !ownerOf(VD))
    return nullptr;
  return VD;
}

/// A local variable or a parameter of a function (not static, not a
/// global): its writes are in the body of the function that declares it.
const VarDecl *writtenVar(const Expr *E) {
  const auto *DRE = dyn_cast_or_null<DeclRefExpr>(E);
  if (!DRE)
    return nullptr;
  const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
  if (!VD || !VD->hasLocalStorage() || !ownerOf(VD))
    return nullptr;
  return VD;
}

} // namespace

/// LibTorch operations whose result is integer or boolean, which autograd
/// does not record (`output.argmax(1)`, `torch::eq(a, b)`, `a == b`).
bool hasNoGraphResult(const CallExpr *CE, const FunctionDecl *Callee) {
  if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(CE))
    switch (OC->getOperator()) {
    case OO_EqualEqual:
    case OO_ExclaimEqual:
    case OO_Less:
    case OO_LessEqual:
    case OO_Greater:
    case OO_GreaterEqual:
    case OO_Exclaim:
      return true;
    default:
      break;
    }
  if (!Callee->getIdentifier())
    return false;
  return compat::isOneOf(
      {"argmax",      "argmin",      "argsort",     "multinomial",
       "eq",          "ne",          "lt",          "le",
       "gt",          "ge",          "greater",     "greater_equal",
       "less",        "less_equal",  "not_equal",   "isnan",
       "isinf",       "isfinite",    "nonzero",     "logical_and",
       "logical_or",  "logical_not", "logical_xor", "bucketize",
       "searchsorted"},
      Callee->getName());
}

bool isBackwardCall(const CallExpr *CE) {
  const FunctionDecl *FD = CE ? CE->getDirectCallee() : nullptr;
  if (!FD)
    return false;
  if (const auto *MD = dyn_cast<CXXMethodDecl>(FD))
    return hasName(MD, "backward") && isTensorClass(MD->getParent());
  return hasQualifiedName(FD, "torch::autograd::backward") ||
         hasQualifiedName(FD, "torch::autograd::grad");
}

LocalWrites LocalWrites::collect(const Stmt *Body, bool LeafCalls) {
  LocalWrites Out;
  if (!Body)
    return Out;
  std::vector<std::pair<const VarDecl *, const Expr *>> Found;
  auto VarOf = [](const Expr *E) -> const VarDecl * {
    if (const auto *DRE = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts()))
      return dyn_cast<VarDecl>(DRE->getDecl());
    return nullptr;
  };
  forEachDescendant(Body, [&](const Stmt *X) {
    if (const auto *DS = dyn_cast<DeclStmt>(X)) {
      for (const Decl *D : DS->decls())
        if (const auto *VD = dyn_cast<VarDecl>(D))
          if (VD->getInit())
            Found.push_back({VD, VD->getInit()});
    } else if (const auto *R = dyn_cast<CXXForRangeStmt>(X)) {
      if (R->getLoopVariable() && R->getRangeInit())
        Found.push_back({R->getLoopVariable(), R->getRangeInit()});
    } else if (const auto *BO = dyn_cast<BinaryOperator>(X)) {
      if (BO->isAssignmentOp())
        if (const VarDecl *VD = VarOf(BO->getLHS()))
          Found.push_back({VD, BO->getRHS()});
    } else if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(X)) {
      if (OC->isAssignmentOp() && OC->getNumArgs() == 2)
        if (const VarDecl *VD = VarOf(OC->getArg(0)))
          Found.push_back({VD, OC->getArg(1)});
    } else if (const auto *MC = dyn_cast<CXXMemberCallExpr>(X)) {
      const CXXMethodDecl *MD = MC->getMethodDecl();
      if (LeafCalls && MD &&
          (hasName(MD, "requires_grad_") || hasName(MD, "set_requires_grad")))
        if (const VarDecl *VD = VarOf(MC->getImplicitObjectArgument()))
          Found.push_back({VD, MC});
    }
    return Descend::Children;
  });
  // By variable, each variable's writes in the order written.
  std::stable_sort(Found.begin(), Found.end(),
                   [](const auto &A, const auto &B) {
                     return std::less<const VarDecl *>()(A.first, B.first);
                   });
  Out.Vars.reserve(Found.size());
  Out.Values.reserve(Found.size());
  for (const auto &[VD, E] : Found) {
    Out.Vars.push_back(VD);
    Out.Values.push_back(E);
  }
  return Out;
}

llvm::ArrayRef<const Expr *> LocalWrites::of(const VarDecl *VD) const {
  auto [Lo, Hi] = std::equal_range(Vars.begin(), Vars.end(), VD,
                                   std::less<const VarDecl *>());
  return llvm::ArrayRef<const Expr *>(Values).slice(Lo - Vars.begin(), Hi - Lo);
}

const LocalWrites &GraphAnalysis::writes(const FunctionDecl *FD) {
  auto It = Writes.find(FD);
  if (It != Writes.end())
    return It->second;
  return Writes[FD] = LocalWrites::collect(FD->getBody(), /*LeafCalls=*/false);
}

bool GraphAnalysis::isTensor(QualType T) {
  if (T.isNull())
    return false;
  auto [It, New] = TensorTypes.try_emplace(T.getTypePtr(), false);
  if (New)
    It->second = isTensorType(T);
  return It->second;
}

bool GraphAnalysis::isLibrary(const Decl *D) {
  auto [It, New] = LibraryDecls.try_emplace(D, false);
  if (New)
    It->second = isLibraryCode(D, SM);
  return It->second;
}

bool GraphAnalysis::isLossFunction(const FunctionDecl *FD) {
  auto [It, New] = LossFunctions.try_emplace(FD, false);
  if (New)
    It->second = isLibTorchLossFunction(FD, SM) ||
                 matchesFunctionList(FD, Config.LossFunctions);
  return It->second;
}

std::optional<GraphOrigin> GraphAnalysis::returned(const FunctionDecl *FD,
                                                   unsigned Level) {
  return Returns.get(FD, Level, [&]() -> std::optional<GraphOrigin> {
    std::optional<GraphOrigin> Out;
    if (!FD->getBody() || !isTensorType(FD->getReturnType()))
      return Out;
    forEachDescendant(FD->getBody(), [&](const Stmt *X) {
      if (isa<LambdaExpr>(X))
        return Descend::Skip;
      if (const auto *RS = dyn_cast<ReturnStmt>(X))
        if (RS->getRetValue())
          Out = eval(RS->getRetValue(), FD, Level);
      return Out ? Descend::Stop : Descend::Children;
    });
    return Out;
  });
}

std::optional<GraphOrigin> GraphAnalysis::graphOf(const Expr *E,
                                                  const FunctionDecl *FD) {
  if (!E || !FD)
    return std::nullopt;
  return eval(E, FD, 0);
}

std::optional<GraphOrigin>
GraphAnalysis::graphOrLeafOf(const Expr *E, const FunctionDecl *FD) {
  if (!E || !FD || !Leaf)
    return std::nullopt;
  return eval(E, FD, 0, /*WithLeaves=*/true);
}

bool GraphAnalysis::isLeaf(const Expr *E, const FunctionDecl *FD) {
  auto [It, New] = Leaves.try_emplace({E, FD}, false);
  if (New)
    It->second = Leaf(E, FD);
  return It->second;
}

std::optional<GraphOrigin> GraphAnalysis::eval(const Expr *Start,
                                               const FunctionDecl *StartFD,
                                               unsigned Level,
                                               bool WithLeaves) {
  // An item is an expression to read, or (Done set) the end of the values of
  // a variable being read.
  struct Item {
    const Expr *E;
    const FunctionDecl *FD;
    const VarDecl *Done = nullptr;
  };
  // The variables being read, outermost first. A variable's answer is exact
  // when its reading skipped no variable that was still open (or closed
  // without an exact answer) outside it: Taint is the lowest index of the
  // frames such a skip makes inexact, carried down to the outer frames as
  // they close.
  struct Frame {
    const VarDecl *VD;
    unsigned Taint;
  };
  constexpr unsigned Clean = ~0u;
  llvm::SmallVector<Item, 16> Work{{Start, StartFD}};
  llvm::SmallVector<Frame, 8> Open;
  llvm::DenseMap<const VarDecl *, unsigned> OpenAt;
  llvm::DenseSet<const VarDecl *> Seen;
  auto Key = [&](const VarDecl *VD) { return VarKey{VD, Level, WithLeaves}; };
  auto Taint = [&](unsigned From) {
    if (!Open.empty())
      Open.back().Taint = std::min(Open.back().Taint, From);
  };
  // An origin is found: it is the first origin of every open variable whose
  // reading so far is exact.
  auto Found = [&](GraphOrigin O) {
    unsigned Lowest = Clean;
    for (unsigned I = Open.size(); I-- > 0;) {
      Lowest = std::min(Lowest, Open[I].Taint);
      if (Lowest > I)
        VarOrigins[Key(Open[I].VD)] = O;
    }
    return O;
  };
  unsigned Left = Budget;
  auto Recording = [&](const FunctionDecl *FD, const Stmt *S) {
    return GradMode.at(FD, S).Records;
  };
  auto PushAll = [&](const CallExpr *CE, const FunctionDecl *FD) {
    if (const auto *MC = dyn_cast<CXXMemberCallExpr>(CE))
      Work.push_back({MC->getImplicitObjectArgument(), FD});
    for (const Expr *A : CE->arguments())
      Work.push_back({A, FD});
  };
  while (!Work.empty()) {
    Item It = Work.pop_back_val();
    if (It.Done) {
      // Read to the end with no origin.
      Frame F = Open.pop_back_val();
      OpenAt.erase(F.VD);
      if (F.Taint > Open.size())
        VarOrigins[Key(F.VD)] = std::nullopt;
      else
        Taint(F.Taint);
      continue;
    }
    if (Left-- == 0)
      return std::nullopt; // too much to read: not known
    const Expr *E = stripExpr(It.E, Strip::SameTensor);
    if (!E)
      continue;
    // A list of tensors (`torch::stack({a, b})`, a TensorList) holds what
    // its elements hold.
    if (const auto *IL = dyn_cast<InitListExpr>(E)) {
      for (const Expr *Init : IL->inits())
        Work.push_back({Init, It.FD});
      continue;
    }
    if (const auto *SIL = dyn_cast<CXXStdInitializerListExpr>(E)) {
      Work.push_back({SIL->getSubExpr(), It.FD});
      continue;
    }
    if (const auto *CE = dyn_cast<CXXConstructExpr>(E)) {
      if (!isTensor(E->getType()))
        for (const Expr *A : CE->arguments())
          Work.push_back({A, It.FD});
      continue;
    }
    if (!isTensor(E->getType()))
      continue;
    if (WithLeaves &&
        (isa<DeclRefExpr>(E) || isa<MemberExpr>(E) || isa<CallExpr>(E)) &&
        isLeaf(E, It.FD) && Recording(It.FD, E)) {
      GraphOrigin O;
      O.Leaf = E;
      return Found(O);
    }
    if (const auto *CO = dyn_cast<AbstractConditionalOperator>(E)) {
      Work.push_back({CO->getTrueExpr(), It.FD});
      Work.push_back({CO->getFalseExpr(), It.FD});
      continue;
    }
    if (const VarDecl *VD = localVar(E)) {
      auto Known = VarOrigins.find(Key(VD));
      if (Known != VarOrigins.end()) {
        if (Known->second)
          return Found(*Known->second);
        continue;
      }
      if (!Seen.insert(VD).second) {
        // Still open: the frames inside it miss what it holds besides them.
        // Closed without an exact answer: every open frame may miss it.
        auto At = OpenAt.find(VD);
        Taint(At != OpenAt.end() ? At->second + 1 : 0);
        continue;
      }
      OpenAt[VD] = Open.size();
      Open.push_back({VD, Clean});
      Work.push_back({nullptr, nullptr, VD});
      const FunctionDecl *Owner = ownerOf(VD);
      for (const Expr *Write : writes(Owner).of(VD))
        Work.push_back({Write, Owner});
      continue;
    }
    const auto *CE = dyn_cast<CallExpr>(E);
    if (!CE)
      continue;
    const FunctionDecl *Callee = CE->getDirectCallee();
    if (!Callee)
      continue;
    if (const CXXRecordDecl *Module = moduleForwardClass(CE, Config.Types)) {
      if (Recording(It.FD, CE))
        return Found(
            GraphOrigin{CE, CE, isLibTorchLossModule(Module, SM), nullptr});
      continue;
    }
    if (isLossFunction(Callee)) {
      if (Recording(It.FD, CE))
        return Found(GraphOrigin{CE, CE, true, nullptr});
      continue;
    }
    if (const auto *MD = dyn_cast<CXXMethodDecl>(Callee);
        MD && isTensorClass(MD->getParent())) {
      if (!endsGraph(MD) && !hasNoGraphResult(CE, MD))
        PushAll(CE, It.FD);
      continue;
    }
    if (isLibrary(Callee)) {
      if (!hasNoGraphResult(CE, Callee))
        PushAll(CE, It.FD);
      continue;
    }
    const FunctionDecl *Def = nullptr;
    if (!Callee->hasBody(Def) || !Def) {
      // Defined in another translation unit: what its summary says it
      // returns, one call below, as a body read here would be.
      if (!Config.Program || Level + 1 > Config.MaxCallDepth ||
          !mayBeElsewhere(Callee, SM))
        continue;
      const RemoteFunction *R = Config.Program->find(Callee);
      if (R && R->ReturnsGraph && Recording(It.FD, CE)) {
        GraphOrigin O{nullptr, CE, R->ReturnsGraph->Loss, Callee};
        O.Remote = &R->ReturnsGraph->Site;
        return Found(O);
      }
      continue;
    }
    if (Def->isDependentContext() || isLibrary(Def))
      continue;
    if (std::optional<GraphOrigin> R = returned(Def, Level + 1))
      if (Recording(It.FD, CE)) {
        GraphOrigin O{R->Call, CE, R->Loss, Def};
        O.Remote = R->Remote;
        return Found(O);
      }
  }
  // Everything reachable was read with no origin: none of the variables read
  // has one.
  for (const VarDecl *VD : Seen)
    VarOrigins[Key(VD)] = std::nullopt;
  return std::nullopt;
}

bool GraphAnalysis::mentions(const Expr *Start, const ValueDecl *V) {
  llvm::SmallVector<const Expr *, 8> Work{Start};
  llvm::DenseSet<const VarDecl *> Seen;
  unsigned Left = Budget;
  bool Found = false;
  while (!Work.empty() && !Found) {
    const Expr *E = Work.pop_back_val();
    forEachDescendant(E, [&](const Stmt *X) {
      if (Left-- == 0) {
        Found = true; // too much to read: taken as a mention (silence)
        return Descend::Stop;
      }
      // A lambda's body is read where it is written (mayBeWanted walks it):
      // a closure that captures V is not V.
      if (isa<LambdaExpr>(X))
        return Descend::Skip;
      const ValueDecl *D = nullptr;
      if (const auto *DRE = dyn_cast<DeclRefExpr>(X))
        D = DRE->getDecl();
      else if (const auto *ME = dyn_cast<MemberExpr>(X))
        D = ME->getMemberDecl();
      if (D == V) {
        Found = true;
        return Descend::Stop;
      }
      // A parameter's writes count too: `x = torch::cat(outs, 1); return x;`
      // in a forward() hands the container's graph back through `x`.
      if (const VarDecl *W = writtenVar(dyn_cast<Expr>(X)))
        if (Seen.insert(W).second) {
          llvm::ArrayRef<const Expr *> Ws = writes(ownerOf(W)).of(W);
          Work.append(Ws.begin(), Ws.end());
        }
      return Descend::Children;
    });
  }
  return Found;
}

bool GraphAnalysis::mayBeWanted(const ValueDecl *V,
                                llvm::ArrayRef<const FunctionDecl *> Scope) {
  for (const FunctionDecl *FD : Scope) {
    if (!FD || !FD->getBody())
      continue;
    bool Wanted = false;
    forEachDescendant(FD->getBody(), [&](const Stmt *X) {
      if (const auto *RS = dyn_cast<ReturnStmt>(X)) {
        if (RS->getRetValue() &&
            !RS->getRetValue()->getType()->isArithmeticType() &&
            mentions(RS->getRetValue(), V))
          Wanted = true;
      } else if (const auto *CE = dyn_cast<CallExpr>(X)) {
        const FunctionDecl *Callee = CE->getDirectCallee();
        if (isBackwardCall(CE)) {
          if (const auto *MC = dyn_cast<CXXMemberCallExpr>(CE))
            Wanted = mentions(MC->getImplicitObjectArgument(), V);
          for (const Expr *A : CE->arguments())
            Wanted = Wanted || mentions(A, V);
        } else if (!Callee || !isLibraryCode(Callee, SM)) {
          // Handed to code that may run a backward pass on it (a number
          // made from it, such as `item()`, cannot).
          for (const Expr *A : CE->arguments())
            Wanted =
                Wanted || (!A->getType()->isArithmeticType() && mentions(A, V));
        }
      }
      return Wanted ? Descend::Stop : Descend::Children;
    });
    if (Wanted)
      return true;
  }
  return false;
}

} // namespace torch_tidy
