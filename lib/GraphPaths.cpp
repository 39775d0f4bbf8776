//===--- GraphPaths.cpp - graph paths from model outputs to a value -------===//
#include "torch-tidy/GraphPaths.h"
#include "torch-tidy/Compat.h"
#include "torch-tidy/EvaluationOrder.h"
#include "torch-tidy/Graphs.h"
#include "torch-tidy/WholeProgram.h"

#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/StmtCXX.h"
#include "llvm/ADT/DenseSet.h"

#include <tuple>

using namespace clang;

namespace torch_tidy {

namespace {

/// Expressions read per question: a bound on work, not a depth.
constexpr unsigned Budget = 2048;

/// Tensor methods that read a property, not the values: what they give is
/// not computed from the tensor's values.
bool readsProperty(StringRef Name) {
  return compat::isOneOf(
      {"size",          "sizes",        "numel",         "dim",
       "ndimension",    "options",      "device",        "dtype",
       "scalar_type",   "stride",       "strides",       "defined",
       "requires_grad", "is_cuda",      "get_device",    "element_size",
       "nbytes",        "itemsize",     "is_contiguous", "layout",
       "grad",          "mutable_grad", "grad_fn",       "use_count",
       "is_leaf",       "output_nr",    "name"},
      Name);
}

/// LibTorch operations recorded by autograd with a gradient that is zero
/// wherever it is defined.
bool zeroGradient(const FunctionDecl *Callee) {
  return Callee->getIdentifier() &&
         compat::isOneOf(
             {"round", "sign", "sgn", "floor", "ceil", "trunc", "fix"},
             Callee->getName());
}

/// LibTorch factories that copy values given as numbers (or point at memory)
/// into a new tensor with no history: `torch::tensor`, `torch::from_blob`...
bool makesLeafFromValues(const FunctionDecl *Callee) {
  return Callee->getIdentifier() && inLibTorchNamespace(Callee) &&
         !isa<CXXMethodDecl>(Callee) &&
         compat::isOneOf({"tensor", "from_blob", "scalar_tensor", "full",
                          "full_like", "as_tensor"},
                         Callee->getName());
}

/// `zeros_like(t)` and friends: a new tensor with t's shape only.
bool makesLeafLike(const FunctionDecl *Callee) {
  return Callee->getIdentifier() && inLibTorchNamespace(Callee) &&
         compat::endsWith(Callee->getName(), "_like") &&
         Callee->getName() != "full_like";
}

/// Whether \p E names an integer or boolean `c10::ScalarType` (`torch::kLong`,
/// `at::ScalarType::Bool`, an optional of one).
bool isIntegralScalarType(const Expr *E) {
  for (unsigned Step = 0; E && Step < 8; ++Step) {
    E = stripExpr(E, Strip::WrappedValue);
    const auto *DRE = dyn_cast_or_null<DeclRefExpr>(E);
    if (!DRE)
      return false;
    if (const auto *ECD = dyn_cast<EnumConstantDecl>(DRE->getDecl())) {
      const auto *ED = dyn_cast<EnumDecl>(ECD->getDeclContext());
      return ED && hasQualifiedName(ED, "c10::ScalarType") &&
             compat::isOneOf({"Byte", "Char", "Short", "Int", "Long", "Bool"},
                             ECD->getName());
    }
    const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
    if (!VD || !VD->getType().isConstQualified())
      return false;
    E = VD->getInit();
  }
  return false;
}

/// A cast of a tensor to an integer or boolean type.
bool castsToInteger(const CXXMethodDecl *MD, const CallExpr *CE) {
  if (!hasName(MD, "to") && !hasName(MD, "toType") && !hasName(MD, "type"))
    return false;
  for (const Expr *A : CE->arguments())
    if (isIntegralScalarType(A))
      return true;
  return false;
}

bool isNumberOrPointer(QualType T) {
  T = T.getNonReferenceType();
  return T->isArithmeticType() || T->isPointerType() || T->isEnumeralType();
}

/// Whether a value of type \p T may hold a tensor: a tensor, a user class,
/// or a template of the library over such a type (`std::vector<at::Tensor>`,
/// `std::tuple<...>`, `c10::optional<at::Tensor>`).
bool mayHoldTensor(QualType T, const SourceManager &SM, unsigned Depth = 0) {
  T = T.getNonReferenceType();
  if (isTensorType(T))
    return true;
  const CXXRecordDecl *RD = T->getAsCXXRecordDecl();
  if (!RD || Depth > 3)
    return false;
  if (!isLibraryCode(RD, SM))
    return true;
  if (const auto *CTS = dyn_cast<ClassTemplateSpecializationDecl>(RD))
    for (const TemplateArgument &A : CTS->getTemplateArgs().asArray())
      if (A.getKind() == TemplateArgument::Type &&
          mayHoldTensor(A.getAsType(), SM, Depth + 1))
        return true;
  return false;
}

/// Whether \p E asks for a tensor that requires grad: it holds a call of
/// `requires_grad(...)` (`torch::requires_grad()`,
/// `TensorOptions().requires_grad(true)`).
bool asksForGrad(const Expr *E) {
  // A tensor argument is an operand, not options: reading its whole tree at
  // every call of a chain (`a + b + c ...`) would be quadratic.
  if (isTensorType(E->getType()))
    return false;
  bool Found = false;
  forEachDescendant(E, [&](const Stmt *X) {
    if (const auto *CE = dyn_cast<CallExpr>(X))
      if (const FunctionDecl *F = CE->getDirectCallee())
        if (hasName(F, "requires_grad"))
          Found = true;
    return Found ? Descend::Stop : Descend::Children;
  });
  return Found;
}

const FunctionDecl *ownerOf(const Decl *D) {
  return dyn_cast_or_null<FunctionDecl>(D->getParentFunctionOrMethod());
}

/// How the summary spells each cut.
constexpr std::pair<CutKind, llvm::StringLiteral> CutSpellings[] = {
    {CutKind::Detach, "detach"},
    {CutKind::Data, "data"},
    {CutKind::Item, "item"},
    {CutKind::DataPtr, "data_ptr"},
    {CutKind::NoGradient, "no_gradient"},
    {CutKind::ZeroGradient, "zero_gradient"},
    {CutKind::IntegerCast, "integer_cast"},
    {CutKind::NoGradMode, "no_grad_mode"},
};

std::optional<CutKind> cutKindOf(StringRef Spelling) {
  for (const auto &[K, S] : CutSpellings)
    if (S == Spelling)
      return K;
  return std::nullopt;
}

} // namespace

bool GraphTerm::mayCarryGraph() const {
  if (Unknown)
    return true;
  for (const GraphPath &P : Paths)
    if (!P.Cut)
      return true;
  return false;
}

StringRef GraphPathAnalysis::cutSpelling(CutKind Kind) {
  for (const auto &[K, S] : CutSpellings)
    if (K == Kind)
      return S;
  return "";
}

std::string GraphPathAnalysis::rewrapName(const GraphCut &Cut) {
  if (Cut.Remote)
    return Cut.Remote->Rewrap;
  if (Cut.Rewrap)
    if (const FunctionDecl *F = Cut.Rewrap->getDirectCallee())
      return F->getQualifiedNameAsString();
  return "";
}

StringRef GraphPathAnalysis::cutName(const GraphCut &Cut) {
  if (Cut.Remote)
    return Cut.Remote->Name;
  const auto *CE = dyn_cast_or_null<CallExpr>(Cut.At);
  const FunctionDecl *FD = CE ? CE->getDirectCallee() : nullptr;
  if (const auto *OC = dyn_cast_or_null<CXXOperatorCallExpr>(CE))
    return getOperatorSpelling(OC->getOperator());
  if (FD && FD->getIdentifier())
    return FD->getName();
  return "";
}

const LocalWrites &GraphPathAnalysis::writes(const FunctionDecl *FD) {
  auto It = Writes.find(FD);
  if (It != Writes.end())
    return It->second;
  return Writes[FD] = LocalWrites::collect(FD ? FD->getBody() : nullptr,
                                           /*LeafCalls=*/true);
}

/// One question: reads expressions backwards with an explicit work list.
class GraphPathAnalysis::Reader {
public:
  /// \p ParametersApart: the summary pass's question (returnPathsOf).
  Reader(GraphPathAnalysis &A, const FunctionDecl *FD,
         bool ParametersApart = false)
      : A(A), ParametersApart(ParametersApart) {
    Frames.push_back({FD, nullptr, -1, 0, nullptr});
  }

  bool exhausted() const { return Exhausted; }

  GraphTerm eval(const Expr *E, int Frame) {
    GraphTerm Out;
    Out.E = E;
    Out.In = Frames[Frame].FD;
    llvm::SmallVector<Item, 16> Work{{E, Frame, -1, false}};
    run(Work, Out);
    return Out;
  }

  /// What the function asked about returns, as one term; none when it
  /// returns nothing.
  std::optional<GraphTerm> evalReturns() {
    GraphTerm Out;
    Out.In = Frames[0].FD;
    llvm::SmallVector<Item, 16> Work;
    for (const Expr *R : returns(Frames[0].FD))
      Work.push_back({R, 0, -1, false});
    if (Work.empty())
      return std::nullopt;
    Out.E = Work.front().E;
    run(Work, Out);
    return Out;
  }

  void terms(const Expr *Start, GraphTerms &Out) {
    llvm::SmallVector<std::pair<const Expr *, int>, 8> Work{{Start, 0}};
    llvm::DenseSet<std::pair<const VarDecl *, int>> Seen;
    while (!Work.empty()) {
      if (!spend())
        return;
      auto [Raw, F] = Work.pop_back_val();
      const Expr *E = stripExpr(Raw, Strip::GraphOperand);
      if (!E)
        continue;
      if (!isTensorType(E->getType())) {
        // A number term of a sum carries no graph of its own.
        if (isNumberOrPointer(E->getType()))
          continue;
        Out.Terms.push_back(eval(E, F));
        continue;
      }
      if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(E)) {
        OverloadedOperatorKind K = OC->getOperator();
        if ((K == OO_Plus || K == OO_Minus) && OC->getNumArgs() == 2) {
          Work.push_back({OC->getArg(0), F});
          Work.push_back({OC->getArg(1), F});
          continue;
        }
        if (K == OO_Minus && OC->getNumArgs() == 1) {
          Work.push_back({OC->getArg(0), F});
          continue;
        }
        if ((K == OO_Star || K == OO_Slash) && OC->getNumArgs() == 2) {
          bool L = isTensorType(OC->getArg(0)->getType());
          bool R = isTensorType(OC->getArg(1)->getType());
          if (L != R) {
            // A tensor scaled by a number: the tensor is the term.
            Work.push_back({OC->getArg(L ? 0 : 1), F});
            continue;
          }
        }
      }
      if (const auto *MC = dyn_cast<CXXMemberCallExpr>(E)) {
        const CXXMethodDecl *MD = MC->getMethodDecl();
        if (MD && isTensorClass(MD->getParent()) && MD->getIdentifier()) {
          StringRef N = MD->getName();
          if ((N == "mean" || N == "sum") && MC->getNumArgs() == 0) {
            Work.push_back({MC->getImplicitObjectArgument(), F});
            continue;
          }
          if ((N == "add" || N == "sub") && MC->getNumArgs() >= 1 &&
              isTensorType(MC->getArg(0)->getType())) {
            Work.push_back({MC->getImplicitObjectArgument(), F});
            Work.push_back({MC->getArg(0), F});
            continue;
          }
        }
      }
      if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
        const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
        if (VD && !isa<ParmVarDecl>(VD) && VD->hasLocalStorage() &&
            ownerOf(VD)) {
          if (Seen.insert({VD, F}).second) {
            int WF = frameOf(ownerOf(VD), F);
            for (const Expr *Write : A.writes(ownerOf(VD)).of(VD))
              Work.push_back({Write, WF});
          }
          continue;
        }
      }
      if (const auto *CE = dyn_cast<CallExpr>(E)) {
        if (int Callee = enter(CE, F); Callee >= 0) {
          for (const Expr *R : returns(Frames[Callee].FD))
            Work.push_back({R, Callee});
          continue;
        }
      }
      Out.Terms.push_back(eval(E, F));
    }
  }

private:
  struct Frame {
    const FunctionDecl *FD;
    /// The call that entered FD, in the parent frame.
    const CallExpr *Call;
    int Parent;
    unsigned Level;
    /// The outermost helper of the chain (null for the frame asked about).
    const FunctionDecl *Outer;
  };
  struct Item {
    const Expr *E;
    int Frame;
    /// Index into Cuts, or -1 while the way keeps the graph.
    int Cut;
    /// A target of a LibTorch loss (any argument after the first): a tensor
    /// of unknown origin there is data, not a graph.
    bool Target;
  };

  void run(llvm::SmallVectorImpl<Item> &Work, GraphTerm &Out) {
    llvm::DenseSet<std::tuple<const VarDecl *, int, int>> Seen;
    while (!Work.empty()) {
      if (!spend())
        break;
      Item It = Work.pop_back_val();
      step(It, Work, Seen, Out);
    }
  }

  bool spend() {
    if (Left == 0) {
      Exhausted = true;
      return false;
    }
    --Left;
    return true;
  }

  /// The frame of \p F's chain whose function is \p FD (the function a
  /// local or a captured variable belongs to), or \p F.
  int frameOf(const FunctionDecl *FD, int F) const {
    for (int G = F; G >= 0; G = Frames[G].Parent)
      if (Frames[G].FD == FD)
        return G;
    return F;
  }

  /// A frame for the user function \p CE calls from frame \p F, or -1 when
  /// it is not one that is read (LibTorch's, no body, too deep, recursive).
  int enter(const CallExpr *CE, int F) {
    const FunctionDecl *Callee = CE->getDirectCallee();
    if (!Callee || isLibraryCode(Callee, A.SM))
      return -1;
    const FunctionDecl *Def = nullptr;
    if (!Callee->hasBody(Def) || !Def || Def->isDependentContext() ||
        isLibraryCode(Def, A.SM))
      return -1;
    unsigned Level = Frames[F].Level + 1;
    if (Level > A.Config.MaxCallDepth)
      return -1;
    for (int G = F; G >= 0; G = Frames[G].Parent)
      if (Frames[G].FD == Def)
        return -1;
    Frames.push_back({Def, CE, F, Level, F == 0 ? Def : Frames[F].Outer});
    return static_cast<int>(Frames.size()) - 1;
  }

  /// The values \p FD returns (lambdas written in it left out).
  llvm::SmallVector<const Expr *, 2> returns(const FunctionDecl *FD) {
    llvm::SmallVector<const Expr *, 2> Out;
    forEachDescendant(FD->getBody(), [&](const Stmt *X) {
      if (isa<LambdaExpr>(X))
        return Descend::Skip;
      if (const auto *RS = dyn_cast<ReturnStmt>(X))
        if (RS->getRetValue())
          Out.push_back(RS->getRetValue());
      return Descend::Children;
    });
    return Out;
  }

  /// The caller's argument for parameter \p P in frame \p F's chain, with
  /// the frame it is read in; null when P belongs to the function asked
  /// about (or to none on the chain).
  std::pair<const Expr *, int> argumentFor(const ParmVarDecl *P, int F) {
    const FunctionDecl *Owner = ownerOf(P);
    for (int G = F; G > 0; G = Frames[G].Parent) {
      if (Frames[G].FD != Owner)
        continue;
      if (const Expr *Arg =
              argumentOf(Frames[G].Call, P->getFunctionScopeIndex()))
        return {Arg, Frames[G].Parent};
      return {nullptr, -1};
    }
    return {nullptr, -1};
  }

  /// The module object of a forward call in frame \p F, read in the frame
  /// asked about when it is a helper's parameter. A module held by another
  /// one (`model->aux`, a member used in a method called on `model`) is
  /// part of it: the outer object is given.
  const ValueDecl *moduleObject(const CallExpr *CE, int F) {
    return objectOf(memberCallObject(CE), F);
  }

  /// The object \p Obj, an expression of frame \p F, names, read as
  /// moduleObject reads a forward call's object.
  const ValueDecl *objectOf(const Expr *Obj, int F) {
    for (unsigned Step = 0; Obj && Step < 16; ++Step) {
      const Expr *S =
          stripExpr(Obj, Strip::Temporaries | Strip::Copies |
                             Strip::Indirections | Strip::Accessors);
      if (const auto *ME = dyn_cast<MemberExpr>(S);
          ME && !isa<CXXThisExpr>(ME->getBase()->IgnoreParenImpCasts())) {
        Obj = ME->getBase();
        continue;
      }
      const ValueDecl *D = objectDecl(Obj);
      if (const auto *P = dyn_cast_or_null<ParmVarDecl>(D)) {
        auto [Arg, G] = argumentFor(P, F);
        if (!Arg)
          return D;
        Obj = Arg;
        F = G;
        continue;
      }
      if (isa_and_nonnull<FieldDecl>(D) && F > 0) {
        const auto *MD = dyn_cast<CXXMethodDecl>(Frames[F].FD);
        if (MD && !MD->getParent()->isLambda())
          if (const Expr *Caller = memberCallObject(Frames[F].Call)) {
            Obj = Caller;
            F = Frames[F].Parent;
            continue;
          }
      }
      return D;
    }
    return nullptr;
  }

  int cut(const Item &It, CutKind Kind, const Expr *At) {
    if (It.Cut >= 0) {
      // `torch::tensor(x.item<float>())`: the re-wrapping was met first;
      // name the call that turned the tensor into numbers.
      const CallExpr *Rewrap = Cuts[It.Cut].Rewrap;
      if (Cuts[It.Cut].At == Rewrap &&
          (Kind == CutKind::Item || Kind == CutKind::DataPtr)) {
        Cuts.push_back({Kind, At, Frames[It.Frame].FD, Rewrap});
        return static_cast<int>(Cuts.size()) - 1;
      }
      return It.Cut;
    }
    Cuts.push_back({Kind, At, Frames[It.Frame].FD, nullptr});
    return static_cast<int>(Cuts.size()) - 1;
  }

  /// Whether autograd records at \p CE in frame \p F. For the summary
  /// pass, as if the function asked about is entered recording: only the
  /// no-grad scopes on the chain of calls count.
  bool records(const CallExpr *CE, int F) {
    if (!ParametersApart)
      return A.GradMode.at(Frames[F].FD, CE).Records;
    const Stmt *S = CE;
    for (int G = F; G >= 0; S = Frames[G].Call, G = Frames[G].Parent)
      if (A.GradMode.disabledAt(Frames[G].FD, S))
        return false;
    return true;
  }

  /// \p CE's argument for parameter \p Index of its callee.
  static const Expr *argumentOf(const CallExpr *CE, unsigned Index) {
    if (isa<CXXOperatorCallExpr>(CE) &&
        isa_and_nonnull<CXXMethodDecl>(CE->getDirectCallee()))
      ++Index; // the object is argument 0
    return Index < CE->getNumArgs() ? CE->getArg(Index) : nullptr;
  }

  /// A cut of the program summary, made at \p CE (the call of the function
  /// of another file) in frame \p F; -1 when it is of a kind not known.
  int remoteCut(const Item &It, const RemoteCut &C, const CallExpr *CE) {
    if (It.Cut >= 0)
      return It.Cut;
    std::optional<CutKind> K = cutKindOf(C.Kind);
    if (!K)
      return -1;
    GraphCut G{*K, CE, Frames[It.Frame].FD, nullptr};
    G.Remote = &C;
    Cuts.push_back(G);
    return static_cast<int>(Cuts.size()) - 1;
  }

  /// \p CE calls a function of another translation unit: its graph paths
  /// from the program summary, the arguments it returns from pushed on
  /// \p Work. False when there is no record to read.
  bool readRemote(const Item &It, const CallExpr *CE,
                  const FunctionDecl *Callee, llvm::SmallVectorImpl<Item> &Work,
                  GraphTerm &Out) {
    if (!A.Config.Program ||
        Frames[It.Frame].Level + 1 > A.Config.MaxCallDepth ||
        !mayBeElsewhere(Callee, A.SM))
      return false;
    const RemoteFunction *R = A.Config.Program->find(Callee);
    if (!R || !R->ReturnPaths)
      return false;
    const RemoteGraphPaths &G = *R->ReturnPaths;
    const FunctionDecl *Via =
        Frames[It.Frame].Outer ? Frames[It.Frame].Outer : Callee;
    bool Records = records(CE, It.Frame);
    for (const RemoteGraphPath &P : G.Paths) {
      GraphPath Path;
      Path.Output.Call = CE;
      Path.Output.In = Frames[It.Frame].FD;
      Path.Output.Via = Via;
      Path.Output.Remote = &P;
      if (P.ModuleParameter)
        if (const Expr *Arg = argumentOf(CE, *P.ModuleParameter))
          Path.Output.Object = objectOf(Arg, It.Frame);
      if (It.Cut >= 0) {
        Path.Cut = Cuts[It.Cut];
      } else if (P.Cut) {
        int C = remoteCut(It, *P.Cut, CE);
        if (C < 0) {
          unknown(It, Out);
          continue;
        }
        Path.Cut = Cuts[C];
      } else if (!Records) {
        Path.Cut = GraphCut{CutKind::NoGradMode, CE, Frames[It.Frame].FD};
      }
      Out.Paths.push_back(Path);
    }
    for (const RemoteParameterFlow &P : G.Parameters) {
      const Expr *Arg = argumentOf(CE, P.Parameter);
      if (!Arg)
        continue;
      int C = P.Cut ? remoteCut(It, *P.Cut, CE) : It.Cut;
      if (P.Cut && C < 0) {
        unknown(It, Out);
        continue;
      }
      Work.push_back({Arg, It.Frame, C, It.Target});
    }
    if (G.Unknown)
      unknown(It, Out);
    return true;
  }

  void unknown(const Item &It, GraphTerm &Out) {
    if (It.Cut < 0 && !It.Target)
      Out.Unknown = true;
  }

  void step(const Item &It, llvm::SmallVectorImpl<Item> &Work,
            llvm::DenseSet<std::tuple<const VarDecl *, int, int>> &Seen,
            GraphTerm &Out) {
    const Expr *E = stripExpr(It.E, Strip::GraphOperand);
    if (!E)
      return;
    auto Push = [&](const Expr *Sub, int Cut = -2, bool Target = false) {
      if (Sub)
        Work.push_back(
            {Sub, It.Frame, Cut == -2 ? It.Cut : Cut, It.Target || Target});
    };
    auto PushCall = [&](const CallExpr *CE, int Cut = -2) {
      if (const auto *MC = dyn_cast<CXXMemberCallExpr>(CE))
        Push(MC->getImplicitObjectArgument(), Cut);
      for (const Expr *Arg : CE->arguments())
        Push(Arg, Cut);
    };
    if (const auto *IL = dyn_cast<InitListExpr>(E)) {
      for (const Expr *Init : IL->inits())
        Push(Init);
      return;
    }
    if (const auto *SIL = dyn_cast<CXXStdInitializerListExpr>(E))
      return Push(SIL->getSubExpr());
    if (const auto *CE = dyn_cast<CXXConstructExpr>(E)) {
      for (const Expr *Arg : CE->arguments())
        Push(Arg);
      return;
    }
    if (const auto *CO = dyn_cast<AbstractConditionalOperator>(E)) {
      Push(CO->getTrueExpr());
      Push(CO->getFalseExpr());
      return;
    }
    if (const auto *BO = dyn_cast<BinaryOperator>(E)) {
      if (BO->isAssignmentOp() || BO->isCommaOp())
        return Push(BO->getRHS());
      Push(BO->getLHS());
      Push(BO->getRHS());
      return;
    }
    if (const auto *UO = dyn_cast<UnaryOperator>(E))
      return Push(UO->getSubExpr());
    if (const auto *ASE = dyn_cast<ArraySubscriptExpr>(E))
      return Push(ASE->getBase());
    if (isa<CXXThisExpr, IntegerLiteral, FloatingLiteral, CXXBoolLiteralExpr,
            StringLiteral, CharacterLiteral, LambdaExpr,
            UnaryExprOrTypeTraitExpr, CXXNullPtrLiteralExpr>(E))
      return;
    const bool Valueless = !mayHoldTensor(E->getType(), A.SM);
    if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
      const ValueDecl *D = DRE->getDecl();
      if (const auto *P = dyn_cast<ParmVarDecl>(D)) {
        auto [Arg, G] = argumentFor(P, It.Frame);
        if (Arg)
          Work.push_back({Arg, G, It.Cut, It.Target});
        else if (ParametersApart && ownerOf(P) == Frames[0].FD && !Valueless) {
          if (!It.Target)
            Out.Parameters.push_back(
                {P->getFunctionScopeIndex(),
                 It.Cut >= 0 ? std::optional<GraphCut>(Cuts[It.Cut])
                             : std::nullopt});
        } else if (!Valueless)
          unknown(It, Out);
        return;
      }
      const auto *VD = dyn_cast<VarDecl>(D);
      if (VD && VD->hasLocalStorage() && ownerOf(VD)) {
        // Tensors, numbers and pointers are read through their writes; a
        // container or other object is read so only once the way is cut
        // (what it holds may come from calls on it).
        if (!isNumberOrPointer(VD->getType()) && !isTensorType(VD->getType()) &&
            It.Cut < 0) {
          if (Valueless)
            return;
          unknown(It, Out);
          return;
        }
        if (!Seen.insert({VD, It.Frame, It.Cut}).second)
          return;
        int WF = frameOf(ownerOf(VD), It.Frame);
        for (const Expr *Write : A.writes(ownerOf(VD)).of(VD))
          Work.push_back({Write, WF, It.Cut, It.Target});
        return;
      }
      if (!Valueless && !isa<EnumConstantDecl, FunctionDecl>(D))
        unknown(It, Out);
      return;
    }
    if (const auto *ME = dyn_cast<MemberExpr>(E)) {
      // A member of a data structure of LibTorch's (a batch's `data` and
      // `target`) is data; any other (a module's parameter, a member of a
      // user class) is not known.
      const auto *Parent =
          dyn_cast<CXXRecordDecl>(ME->getMemberDecl()->getDeclContext());
      if (Valueless || (Parent && isLibraryCode(Parent, A.SM) &&
                        !isModuleClass(Parent, A.Config.Types)))
        return;
      return unknown(It, Out);
    }
    const auto *CE = dyn_cast<CallExpr>(E);
    if (!CE) {
      if (!Valueless)
        unknown(It, Out);
      return;
    }
    const FunctionDecl *Callee = CE->getDirectCallee();
    if (!Callee) {
      if (!Valueless)
        unknown(It, Out);
      return;
    }
    if (const CXXRecordDecl *Module = moduleForwardClass(CE, A.Config.Types)) {
      if (isLibTorchLossModule(Module, A.SM)) {
        // A loss module: its input, then its targets.
        for (unsigned I = 0; I < CE->getNumArgs(); ++I)
          if (!isa<CXXOperatorCallExpr>(CE) || I > 0)
            Push(CE->getArg(I), -2,
                 I > (isa<CXXOperatorCallExpr>(CE) ? 1u : 0u));
        return;
      }
      GraphPath P;
      P.Output = {CE, Frames[It.Frame].FD, Module, moduleObject(CE, It.Frame),
                  Frames[It.Frame].Outer};
      if (It.Cut >= 0)
        P.Cut = Cuts[It.Cut];
      else if (!records(CE, It.Frame))
        P.Cut = GraphCut{CutKind::NoGradMode, CE, Frames[It.Frame].FD};
      Out.Paths.push_back(P);
      return;
    }
    if (const auto *MD = dyn_cast<CXXMethodDecl>(Callee);
        MD && isTensorClass(MD->getParent())) {
      const Expr *Object = memberCallObject(CE);
      StringRef N = MD->getIdentifier() ? MD->getName() : "";
      if (readsProperty(N))
        return;
      if (N == "requires_grad_" || N == "set_requires_grad") {
        // A leaf that requires grad: a graph starts here.
        unknown(It, Out);
        return;
      }
      if (N == "detach" || N == "detach_")
        return Push(Object, cut(It, CutKind::Detach, CE));
      if (N == "data" || N == "variable_data")
        return Push(Object,
                    cut(It,
                        isTensorType(MD->getReturnType()) ? CutKind::Data
                                                          : CutKind::DataPtr,
                        CE));
      if (N == "item" || N == "tolist")
        return Push(Object, cut(It, CutKind::Item, CE));
      if (N == "data_ptr" || N == "const_data_ptr" || N == "mutable_data_ptr")
        return Push(Object, cut(It, CutKind::DataPtr, CE));
      if (hasNoGraphResult(CE, MD))
        return PushCall(CE, cut(It, CutKind::NoGradient, CE));
      if (zeroGradient(MD))
        return PushCall(CE, cut(It, CutKind::ZeroGradient, CE));
      if (castsToInteger(MD, CE))
        return Push(Object, cut(It, CutKind::IntegerCast, CE));
      return PushCall(CE);
    }
    if (isLibraryCode(Callee, A.SM)) {
      if (isTensorType(E->getType()) && !isa<CXXMethodDecl>(Callee) &&
          llvm::any_of(CE->arguments(), asksForGrad)) {
        // `torch::randn(..., torch::requires_grad())`: a leaf that requires
        // grad, which a backward pass can reach.
        unknown(It, Out);
        return;
      }
      if (makesLeafLike(Callee))
        return;
      if (makesLeafFromValues(Callee)) {
        // Only the values are copied; a tensor argument gives a shape.
        int C = It.Cut;
        if (C < 0) {
          Cuts.push_back({CutKind::Item, CE, Frames[It.Frame].FD, CE});
          C = static_cast<int>(Cuts.size()) - 1;
        }
        for (const Expr *Arg : CE->arguments())
          if (!isTensorType(Arg->getType()))
            Push(Arg, C);
        return;
      }
      if (hasNoGraphResult(CE, Callee))
        return PushCall(CE, cut(It, CutKind::NoGradient, CE));
      if (zeroGradient(Callee) && inLibTorchNamespace(Callee))
        return PushCall(CE, cut(It, CutKind::ZeroGradient, CE));
      if (isLibTorchLossFunction(Callee, A.SM)) {
        for (unsigned I = 0; I < CE->getNumArgs(); ++I)
          Push(CE->getArg(I), -2, I > 0);
        return;
      }
      return PushCall(CE);
    }
    if (int F = enter(CE, It.Frame); F >= 0) {
      for (const Expr *R : returns(Frames[F].FD))
        Work.push_back({R, F, It.Cut, It.Target});
      return;
    }
    if (!Valueless && !readRemote(It, CE, Callee, Work, Out))
      unknown(It, Out);
  }

  GraphPathAnalysis &A;
  const bool ParametersApart;
  llvm::SmallVector<Frame, 8> Frames;
  llvm::SmallVector<GraphCut, 8> Cuts;
  unsigned Left = Budget;
  bool Exhausted = false;
};

std::optional<GraphTerm> GraphPathAnalysis::pathsOf(const Expr *E,
                                                    const FunctionDecl *FD) {
  if (!E || !FD)
    return std::nullopt;
  Reader R(*this, FD);
  GraphTerm T = R.eval(E, 0);
  if (R.exhausted())
    return std::nullopt;
  return T;
}

std::optional<GraphTerm>
GraphPathAnalysis::returnPathsOf(const FunctionDecl *FD) {
  if (!FD || !FD->getBody())
    return std::nullopt;
  Reader R(*this, FD, /*ParametersApart=*/true);
  std::optional<GraphTerm> Out = R.evalReturns();
  if (R.exhausted())
    return std::nullopt;
  return Out;
}

GraphTerms GraphPathAnalysis::termsOf(const Expr *E, const FunctionDecl *FD) {
  GraphTerms Out;
  if (!E || !FD)
    return Out;
  Reader R(*this, FD);
  R.terms(E, Out);
  Out.Complete = !R.exhausted();
  return Out;
}

} // namespace torch_tidy
