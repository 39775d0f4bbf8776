//===--- BlobLifetime.cpp - tensors that outlive borrowed storage ---------===//
//
// See BlobLifetime.h. One EvaluationOrderWalker over a function: it records
// each from_blob call over storage that dies (an origin), which local
// variables carry which origins, the scope depth of every local, and the
// places where a carried origin escapes.
//
//===----------------------------------------------------------------------===//
#include "torch-tidy/BlobLifetime.h"
#include "torch-tidy/Compat.h"

#include "torch-tidy/EvaluationOrder.h"
#include "torch-tidy/Types.h"

#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/StmtCXX.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"

#include <limits>
#include <optional>

using namespace clang;

namespace torch_tidy {

namespace {

/// The scope depth of a temporary: deeper than any variable's, so any
/// variable it is stored in outlives it.
constexpr unsigned TemporaryDepth = std::numeric_limits<unsigned>::max();

bool isOneOf(const CXXRecordDecl *RD, llvm::ArrayRef<StringRef> Names) {
  return RD && llvm::any_of(Names, [RD](StringRef N) {
           return hasQualifiedName(RD, N);
         });
}

bool isStdRecord(const CXXRecordDecl *RD) {
  return RD && RD->isInStdNamespace();
}

bool methodNamed(const CXXMethodDecl *MD, llvm::ArrayRef<StringRef> Names) {
  return MD && MD->getIdentifier() && llvm::is_contained(Names, MD->getName());
}

/// Tensor methods that return a tensor sharing the storage of the one they
/// are called on: views, and `contiguous()`/`reshape()`, which return it
/// unchanged (or a view) when they can.
bool isViewMethod(StringRef Name) {
  return compat::isOneOf(
      {"view",          "view_as",      "reshape",   "reshape_as",
       "permute",       "transpose",    "t",         "squeeze",
       "unsqueeze",     "flatten",      "unflatten", "slice",
       "select",        "narrow",       "expand",    "expand_as",
       "contiguous",    "detach",       "alias",     "as_strided",
       "unfold",        "diagonal",     "movedim",   "swapaxes",
       "swapdims",      "mT",           "T",         "real",
       "imag",          "view_as_real", "chunk_",    "set_requires_grad",
       "requires_grad_"},
      Name);
}

/// Methods of a standard container that add their argument to it.
bool isInsertion(const CXXMethodDecl *MD) {
  return MD && MD->getIdentifier() && isContainerInsertName(MD->getName());
}

/// Methods of a standard container that do not read the elements.
bool isContainerBookkeeping(const CXXMethodDecl *MD) {
  return methodNamed(MD, {"size", "empty", "capacity", "reserve", "push_back",
                          "emplace_back", "push_front", "emplace_front",
                          "max_size", "shrink_to_fit"});
}

/// Tensor methods that read only metadata, which outlives the storage.
bool isMetadataMethod(const CXXMethodDecl *MD) {
  return methodNamed(MD, {"sizes", "size", "dim", "ndimension", "numel",
                          "defined", "dtype", "scalar_type", "options",
                          "device", "is_cuda", "strides", "stride",
                          "requires_grad", "layout", "is_contiguous"});
}

/// Where a from_blob origin's storage lives.
struct Storage {
  BlobStorage Kind;
  const VarDecl *Var = nullptr;
  const Expr *Temp = nullptr;
};

/// One value a local variable or expression carries.
struct Carried {
  unsigned Origin;
  BlobCarrier Carrier;
  const Expr *CloneAt; // the tensor expression written here, or null
};

class BlobWalker : public EvaluationOrderWalker<BlobWalker> {
  friend class EvaluationOrderWalker<BlobWalker>;

public:
  BlobWalker(const FunctionDecl *FD, const BlobConfig &Config)
      : FD(FD), Config(Config) {}

  std::vector<BlobLifetimeIssue> run() {
    for (const ParmVarDecl *P : FD->parameters())
      Depth[P] = 0;
    if (const auto *Ctor = dyn_cast<CXXConstructorDecl>(FD))
      for (const CXXCtorInitializer *Init : Ctor->inits()) {
        if (!Init->isWritten() || !Init->getInit())
          continue;
        walk(Init->getInit());
        if (const FieldDecl *Field = Init->getMember())
          for (const Carried &C : carried(Init->getInit()))
            escape(C, BlobEscapeKind::Member, Init->getInit(), Field);
      }
    walk(FD->getBody());
    if (truncated())
      return {};
    std::vector<BlobLifetimeIssue> Out;
    for (BlobLifetimeIssue &I : Issues)
      if (!I.Escapes.empty() && !(I.Var && Moved.contains(I.Var)))
        Out.push_back(std::move(I));
    return Out;
  }

  // --- the walk's hooks ---------------------------------------------------

  bool visit(const Stmt *S) {
    if (const auto *CS = dyn_cast<CompoundStmt>(S)) {
      ++ScopeDepth;
      walkChildren(CS);
      closeScope(CS->getRBracLoc());
      --ScopeDepth;
      return true;
    }
    if (const auto *DS = dyn_cast<DeclStmt>(S)) {
      for (const Decl *D : DS->decls())
        if (const auto *VD = dyn_cast<VarDecl>(D)) {
          walk(VD->getInit());
          declare(VD);
        }
      return true;
    }
    if (const auto *RS = dyn_cast<ReturnStmt>(S)) {
      walk(RS->getRetValue());
      for (const Carried &C : carried(RS->getRetValue()))
        escape(C, BlobEscapeKind::Returned, RS->getRetValue(), nullptr);
      return true;
    }
    if (const auto *DRE = dyn_cast<DeclRefExpr>(S)) {
      read(DRE);
      return true;
    }
    if (isa<UnaryExprOrTypeTraitExpr>(S) || isa<CXXTypeidExpr>(S) ||
        isa<CXXNoexceptExpr>(S))
      return true; // unevaluated
    if (const auto *Call = dyn_cast<CallExpr>(S))
      return call(Call);
    if (const auto *BO = dyn_cast<BinaryOperator>(S))
      if (BO->getOpcode() == BO_Assign) {
        walk(BO->getRHS());
        assign(BO->getLHS(), BO->getRHS());
        return true;
      }
    return false;
  }

  /// Lambdas are functions of their own (the anchor hands them over); what
  /// they capture by copy is what they carry, evaluated where they stand.
  void lambda(const LambdaExpr *) {}

private:
  // --- origins --------------------------------------------------------------

  bool isFactory(const FunctionDecl *Callee) const {
    if (!Callee)
      return false;
    if ((hasQualifiedName(Callee, "at::from_blob") ||
         hasQualifiedName(Callee, "torch::from_blob")) &&
        isTensorType(Callee->getReturnType()))
      return true;
    return !Config.ExtraFactories.empty() &&
           matchesFunctionList(Callee, Config.ExtraFactories);
  }

  static bool isDeleterType(QualType T) {
    const CXXRecordDecl *RD = recordOf(T.getNonReferenceType());
    return isOneOf(RD, {"std::function"}) ||
           (RD && RD->isLambda()); // a template wrapper taking the callable
  }

  /// Whether the call hands a deleter over (a `std::function` argument, or a
  /// lambda argument to an in-house factory).
  static bool hasDeleter(const CallExpr *Call, const FunctionDecl *Callee) {
    for (unsigned I = 1; I < Call->getNumArgs(); ++I) {
      const Expr *Arg = Call->getArg(I);
      if (isa<CXXDefaultArgExpr>(Arg))
        continue;
      if (I < Callee->getNumParams() &&
          isDeleterType(Callee->getParamDecl(I)->getType()))
        return true;
      if (isDeleterType(Arg->getType()))
        return true;
    }
    return false;
  }

  bool isStorageClass(const CXXRecordDecl *RD) const {
    if (isOneOf(RD, {"std::vector", "std::array", "std::basic_string",
                     "std::unique_ptr", "std::valarray"}))
      return true;
    return RD &&
           llvm::any_of(Config.ExtraStorageClasses, [RD](const std::string &N) {
             StringRef Name(N);
             Name.consume_front("::");
             return isSameOrDerivedFrom(RD, Name);
           });
  }

  /// The object whose death frees the memory \p Ptr points into, if it is
  /// one this room knows: `v.data()`, `s.c_str()`, `p.get()`, `&v[0]`,
  /// `v.data() + k`, `arr`, `&x`, casts of these.
  std::optional<Storage> storageOf(const Expr *Ptr) const {
    const Expr *E = Ptr;
    for (unsigned Steps = 0; E && Steps < 16; ++Steps) {
      E = E->IgnoreParenImpCasts();
      if (const auto *Cast = dyn_cast<ExplicitCastExpr>(E)) {
        E = Cast->getSubExpr();
        continue;
      }
      if (const auto *BO = dyn_cast<BinaryOperator>(E)) {
        if (!BO->isAdditiveOp())
          return std::nullopt;
        E = BO->getLHS()->getType()->isPointerType() ? BO->getLHS()
                                                     : BO->getRHS();
        continue;
      }
      if (const auto *UO = dyn_cast<UnaryOperator>(E)) {
        if (UO->getOpcode() != UO_AddrOf)
          return std::nullopt;
        const Expr *Sub = UO->getSubExpr()->IgnoreParenImpCasts();
        // `&arr[i]`, `&arr[i][j]`: the array.
        while (const auto *AS = dyn_cast<ArraySubscriptExpr>(Sub)) {
          const Expr *Base = AS->getBase()->IgnoreParenImpCasts();
          if (!Base->getType()->isArrayType() && !isa<ArraySubscriptExpr>(Base))
            return std::nullopt; // a pointer's pointee
          Sub = Base;
        }
        if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(Sub)) {
          if (OC->getOperator() != OO_Subscript || OC->getNumArgs() != 2 ||
              !isStorageClass(recordOf(OC->getArg(0)->getType())))
            return std::nullopt;
          return objectStorage(OC->getArg(0));
        }
        // `&x` of a local scalar or array.
        if (const auto *DRE = dyn_cast<DeclRefExpr>(Sub))
          if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl()))
            if (!VD->getType()->isRecordType() ||
                isStorageClass(recordOf(VD->getType())))
              return varStorage(VD);
        return std::nullopt;
      }
      if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
        const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
        if (VD && VD->getType()->isArrayType())
          return varStorage(VD);
        return std::nullopt;
      }
      if (const auto *MC = dyn_cast<CXXMemberCallExpr>(E)) {
        const CXXMethodDecl *MD = MC->getMethodDecl();
        const Expr *Obj = MC->getImplicitObjectArgument();
        if (!MD || !Obj || MC->getNumArgs() != 0 ||
            !methodNamed(MD, {"data", "c_str", "get"}) ||
            !isStorageClass(recordOf(Obj->getType())) ||
            Obj->getType()->isPointerType())
          return std::nullopt;
        return objectStorage(Obj);
      }
      if (const auto *ME = dyn_cast<MemberExpr>(E)) {
        // A pointer data member of an owning class (`img.data` of cv::Mat).
        if (ME->isArrow() || !isa<FieldDecl>(ME->getMemberDecl()) ||
            !isStorageClass(recordOf(ME->getBase()->getType())))
          return std::nullopt;
        return objectStorage(ME->getBase());
      }
      return std::nullopt;
    }
    return std::nullopt;
  }

  /// The storage an object expression of an owning class is: a local
  /// variable, a parameter taken by value or a temporary.
  std::optional<Storage> objectStorage(const Expr *Obj) const {
    const Expr *E = Obj->IgnoreParens();
    if (isa<MaterializeTemporaryExpr>(E) || isa<CXXBindTemporaryExpr>(E))
      return Storage{BlobStorage::Temporary, nullptr, Obj};
    E = E->IgnoreParenImpCasts();
    if (E->isPRValue() && E->getType()->isRecordType())
      return Storage{BlobStorage::Temporary, nullptr, Obj};
    if (const auto *DRE = dyn_cast<DeclRefExpr>(E))
      if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl()))
        return varStorage(VD);
    return std::nullopt;
  }

  static std::optional<Storage> varStorage(const VarDecl *VD) {
    if (!VD->hasLocalStorage() || VD->getType()->isReferenceType())
      return std::nullopt;
    if (isa<ParmVarDecl>(VD))
      return Storage{BlobStorage::Parameter, VD, nullptr};
    return Storage{BlobStorage::Local, VD, nullptr};
  }

  /// A from_blob call over storage that dies becomes an origin; assignments
  /// and insertions move what they are given.
  bool call(const CallExpr *Call) {
    if (Call->containsErrors() || Call->isTypeDependent())
      return false;
    if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(Call)) {
      if (OC->getOperator() != OO_Equal || OC->getNumArgs() != 2)
        return false;
      walk(OC->getArg(1));
      assign(OC->getArg(0), OC->getArg(1));
      return true;
    }
    if (const auto *MC = dyn_cast<CXXMemberCallExpr>(Call))
      return memberCall(MC);
    const FunctionDecl *Callee = Call->getDirectCallee();
    // A storage moved elsewhere may hand its buffer over (a vector's heap
    // block moves with it): its from_blob tensors are not judged.
    if (Callee && Call->getNumArgs() == 1 &&
        (hasQualifiedName(Callee, "std::move") ||
         hasQualifiedName(Callee, "std::forward")))
      if (const auto *DRE =
              dyn_cast<DeclRefExpr>(Call->getArg(0)->IgnoreParenImpCasts()))
        if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl()))
          Moved.insert(VD);
    if (!isFactory(Callee) || Call->getNumArgs() == 0)
      return false;
    walkChildren(Call);
    if (hasDeleter(Call, Callee))
      return true;
    std::optional<Storage> St = storageOf(Call->getArg(0));
    if (!St)
      return true;
    BlobLifetimeIssue I;
    I.Call = Call;
    I.Storage = St->Kind;
    I.Var = St->Var;
    I.TemporaryExpr = St->Temp;
    Origins[Call] = Issues.size();
    Issues.push_back(std::move(I));
    OriginDepth.push_back(St->Kind == BlobStorage::Temporary ? TemporaryDepth
                          : St->Kind == BlobStorage::Parameter
                              ? 0
                              : depthOf(St->Var));
    return true;
  }

  /// `c.push_back(t)` and the other insertions into a standard container;
  /// calls on a carrier that read no tensor data (`t.sizes()`, `c.size()`).
  bool memberCall(const CXXMemberCallExpr *MC) {
    const CXXMethodDecl *MD = MC->getMethodDecl();
    const Expr *Obj = MC->getImplicitObjectArgument();
    if (!MD || !Obj)
      return false;
    bool Std = isStdRecord(MD->getParent());
    bool Named = isa<DeclRefExpr>(Obj->IgnoreParenImpCasts());
    bool Insertion = Std && isInsertion(MD);
    if (Named && !Insertion &&
        ((isTensorClass(MD->getParent()) && isMetadataMethod(MD)) ||
         (Std && isContainerBookkeeping(MD)))) {
      for (const Expr *Arg : MC->arguments())
        walk(Arg);
      return true;
    }
    if (!Insertion)
      return false;
    for (const Expr *Arg : MC->arguments())
      walk(Arg);
    if (!Named)
      walk(Obj);
    Destination D = destinationOf(Obj);
    for (const Expr *Arg : MC->arguments()) {
      llvm::SmallVector<Carried, 2> Values = carried(Arg);
      if (D.Kind == Destination::Escape)
        for (const Carried &C : Values)
          escape(C, D.Escapes, Arg, D.Into);
      else if (D.Kind == Destination::Local)
        store(D.Var, Values, Arg, StoreMode::Add, BlobCarrier::Container);
    }
    return true;
  }

  unsigned depthOf(const VarDecl *VD) const {
    auto It = Depth.find(VD);
    return It == Depth.end() ? ScopeDepth : It->second;
  }

  // --- what an expression carries -----------------------------------------

  llvm::SmallVector<Carried, 2> carried(const Expr *E) const {
    llvm::SmallVector<Carried, 2> Out;
    collect(E, BlobCarrier::Tensor, /*Fixable=*/true, Out, 0);
    return Out;
  }

  void collect(const Expr *E, BlobCarrier Carrier, bool Fixable,
               llvm::SmallVectorImpl<Carried> &Out, unsigned Level) const {
    if (!E || Level > 8)
      return;
    const Expr *Written = E;
    for (unsigned Steps = 0; E && Steps < 64; ++Steps) {
      E = stripExpr(E, Strip::Temporaries | Strip::Copies | Strip::Moves |
                           Strip::Conversions);
      if (const auto *Call = dyn_cast<CallExpr>(E)) {
        auto It = Origins.find(Call);
        if (It != Origins.end()) {
          Out.push_back({It->second, Carrier, Fixable ? Written : nullptr});
          return;
        }
      }
      if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
        const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
        auto It = VD ? Vars.find(VD) : Vars.end();
        if (It == Vars.end())
          return;
        for (const Carried &C : It->second) {
          bool Tensor = C.Carrier == BlobCarrier::Tensor;
          Out.push_back({C.Origin,
                         Carrier != BlobCarrier::Tensor ? Carrier : C.Carrier,
                         Fixable && Tensor ? Written : nullptr});
        }
        return;
      }
      if (const auto *MC = dyn_cast<CXXMemberCallExpr>(E)) {
        const CXXMethodDecl *MD = MC->getMethodDecl();
        if (!MD || !isTensorClass(MD->getParent()) || !MD->getIdentifier())
          return;
        // In-place calls return the tensor itself; views share its storage.
        if (!compat::endsWith(MD->getName(), "_") &&
            !isViewMethod(MD->getName()))
          return;
        E = MC->getImplicitObjectArgument();
        continue;
      }
      if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(E)) {
        // `t[i]` is a view; compound assignments return the tensor itself.
        const auto *MD = dyn_cast_or_null<CXXMethodDecl>(OC->getDirectCallee());
        if (!MD || !isTensorClass(MD->getParent()) || OC->getNumArgs() < 1 ||
            !(OC->getOperator() == OO_Subscript || OC->isAssignmentOp()))
          return;
        E = OC->getArg(0);
        continue;
      }
      if (const auto *CO = dyn_cast<AbstractConditionalOperator>(E)) {
        collect(CO->getTrueExpr(), Carrier, false, Out, Level + 1);
        collect(CO->getFalseExpr(), Carrier, false, Out, Level + 1);
        return;
      }
      if (const auto *IL = dyn_cast<InitListExpr>(E)) {
        if (IL->getType()->isRecordType() || IL->getType()->isArrayType()) {
          bool Tensor = isTensorType(IL->getType());
          for (const Expr *Init : IL->inits())
            collect(Init, Tensor ? Carrier : BlobCarrier::Aggregate, Fixable,
                    Out, Level + 1);
        }
        return;
      }
      if (const auto *SIL = dyn_cast<CXXStdInitializerListExpr>(E)) {
        collect(SIL->getSubExpr(), Carrier, Fixable, Out, Level + 1);
        return;
      }
      if (const auto *CE = dyn_cast<CXXConstructExpr>(E)) {
        // Classes known to hold what they are built from.
        const CXXRecordDecl *RD = recordOf(CE->getType());
        // A lambda converted to a std::function is still the lambda.
        if (isOneOf(RD, {"std::function"}) && CE->getNumArgs() == 1 &&
            lambdaOf(CE->getArg(0))) {
          E = CE->getArg(0);
          continue;
        }
        if (!isOneOf(RD, {"std::pair", "std::tuple", "std::vector",
                          "std::array", "std::optional", "c10::optional",
                          "torch::data::Example"}))
          return;
        BlobCarrier Held = isOneOf(RD, {"std::vector", "std::array"})
                               ? BlobCarrier::Container
                               : BlobCarrier::Aggregate;
        for (const Expr *Arg : CE->arguments())
          collect(Arg, Held, Fixable, Out, Level + 1);
        return;
      }
      if (const auto *Call = dyn_cast<CallExpr>(E)) {
        const FunctionDecl *F = Call->getDirectCallee();
        if (F && (hasQualifiedName(F, "std::make_pair") ||
                  hasQualifiedName(F, "std::make_tuple")))
          for (const Expr *Arg : Call->arguments())
            collect(Arg, BlobCarrier::Aggregate, Fixable, Out, Level + 1);
        return;
      }
      if (const auto *L = dyn_cast<LambdaExpr>(E)) {
        auto Init = L->capture_init_begin();
        for (const LambdaCapture &Cap : L->captures()) {
          if (Cap.getCaptureKind() == LCK_ByCopy &&
              Init != L->capture_init_end())
            collect(*Init, BlobCarrier::Lambda, false, Out, Level + 1);
          if (Init != L->capture_init_end())
            ++Init;
        }
        return;
      }
      return;
    }
  }

  // --- where values go ----------------------------------------------------

  /// Where a store into \p L lands.
  struct Destination {
    enum { Unknown, Local, Escape } Kind = Unknown;
    BlobEscapeKind Escapes = BlobEscapeKind::NonLocal;
    const VarDecl *Var = nullptr;
    const NamedDecl *Into = nullptr;
  };

  Destination destinationOf(const Expr *L) const {
    Destination D;
    for (unsigned Steps = 0; L && Steps < 16; ++Steps) {
      L = L->IgnoreParenImpCasts();
      if (const auto *DRE = dyn_cast<DeclRefExpr>(L)) {
        const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
        if (!VD)
          return D;
        if (VD->hasLocalStorage() && !VD->getType()->isReferenceType()) {
          D.Kind = Destination::Local;
          D.Var = VD;
          return D;
        }
        // A global, a static, or what a reference refers to outside.
        if (VD->getType()->isReferenceType() && !isa<ParmVarDecl>(VD))
          return D; // a local reference: to what, we do not follow
        D.Kind = Destination::Escape;
        D.Escapes = BlobEscapeKind::NonLocal;
        D.Into = VD;
        return D;
      }
      if (const auto *ME = dyn_cast<MemberExpr>(L)) {
        const Expr *Base = ME->getBase()->IgnoreParenImpCasts();
        if (isa<CXXThisExpr>(Base)) {
          D.Kind = Destination::Escape;
          D.Escapes = BlobEscapeKind::Member;
          D.Into = ME->getMemberDecl();
          return D;
        }
        if (ME->isArrow())
          return D;
        L = Base; // a member of a local object, or of a member
        continue;
      }
      if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(L)) {
        if (OC->getOperator() != OO_Subscript || OC->getNumArgs() != 2 ||
            !isStdRecord(recordOf(OC->getArg(0)->getType())))
          return D;
        L = OC->getArg(0);
        continue;
      }
      return D;
    }
    return D;
  }

  void assign(const Expr *LHS, const Expr *RHS) {
    Destination D = destinationOf(LHS);
    llvm::SmallVector<Carried, 2> Values = carried(RHS);
    if (D.Kind == Destination::Escape) {
      for (const Carried &C : Values)
        escape(C, D.Escapes, RHS, D.Into);
      return;
    }
    if (D.Kind != Destination::Local)
      return;
    // A whole variable assigned on every path forgets what it held; a part
    // of it (a member, an element) or a conditional store adds.
    const Expr *Plain = LHS->IgnoreParenImpCasts();
    bool Whole = isa<DeclRefExpr>(Plain) && !isConditional();
    store(D.Var, Values, RHS, Whole ? StoreMode::Replace : StoreMode::Add,
          isa<DeclRefExpr>(Plain) ? BlobCarrier::Tensor
                                  : BlobCarrier::Aggregate);
  }

  enum class StoreMode { Replace, Add };

  void store(const VarDecl *Var, llvm::ArrayRef<Carried> Values,
             const Expr *Stored, StoreMode Mode, BlobCarrier Into) {
    auto &Held = Vars[Var];
    if (Mode == StoreMode::Replace) {
      Held.clear();
      Dangling.erase(Var);
    }
    for (const Carried &C : Values) {
      BlobCarrier Carrier = C.Carrier;
      if (Carrier == BlobCarrier::Tensor && Into != BlobCarrier::Tensor)
        Carrier = Into;
      if (Carrier == BlobCarrier::Tensor && !isTensorType(Var->getType()))
        Carrier = BlobCarrier::Aggregate;
      Held.push_back({C.Origin, Carrier, C.CloneAt});
      StoredAt[{Var, C.Origin}] = C.CloneAt ? C.CloneAt : Stored;
      StoreFixable[{Var, C.Origin}] = C.CloneAt != nullptr;
      // A temporary is gone by the next statement.
      if (OriginDepth[C.Origin] == TemporaryDepth)
        Dangling[Var].push_back(C.Origin);
    }
  }

  void declare(const VarDecl *VD) {
    Depth[VD] = ScopeDepth;
    const Expr *Init = VD->getInit();
    if (!Init)
      return;
    llvm::SmallVector<Carried, 2> Values = carried(Init);
    if (Values.empty())
      return;
    if (VD->getType()->isReferenceType()) {
      // A local reference bound to a carrier is that carrier.
      Destination D = destinationOf(Init);
      if (D.Kind == Destination::Local)
        return;
    }
    if (!VD->hasLocalStorage()) {
      for (const Carried &C : Values)
        escape(C, BlobEscapeKind::NonLocal, Init, VD);
      return;
    }
    store(VD, Values, Init, StoreMode::Replace, BlobCarrier::Tensor);
  }

  // --- scopes and reads ---------------------------------------------------

  /// The scope at ScopeDepth ends at \p RBrac: every origin whose storage
  /// was declared in it dies, and variables declared outside that carry it
  /// dangle from here on.
  void closeScope(SourceLocation RBrac) {
    // Storage of an inner scope dies before the function returns.
    if (ScopeDepth > 1)
      for (unsigned O = 0; O < Issues.size(); ++O)
        if (Issues[O].Storage == BlobStorage::Local &&
            OriginDepth[O] >= ScopeDepth && Issues[O].DiesAt.isInvalid())
          Issues[O].DiesAt = RBrac;
    for (auto &[Var, Held] : Vars) {
      if (depthOf(Var) >= ScopeDepth)
        continue;
      for (const Carried &C : Held) {
        unsigned D = OriginDepth[C.Origin];
        if (D != TemporaryDepth && D >= ScopeDepth &&
            Issues[C.Origin].Storage == BlobStorage::Local) {
          Dangling[Var].push_back(C.Origin);
        }
      }
    }
    // Variables of this scope are gone.
    llvm::SmallVector<const VarDecl *, 8> Gone;
    for (auto &[Var, Held] : Vars)
      if (depthOf(Var) >= ScopeDepth && !isa<ParmVarDecl>(Var))
        Gone.push_back(Var);
    for (const VarDecl *Var : Gone) {
      Vars.erase(Var);
      Dangling.erase(Var);
    }
  }

  void read(const DeclRefExpr *DRE) {
    const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
    if (!VD)
      return;
    auto It = Dangling.find(VD);
    if (It == Dangling.end())
      return;
    for (unsigned Origin : It->second) {
      auto Fix = StoreFixable.find({VD, Origin});
      const Expr *Stored = StoredAt.lookup({VD, Origin});
      BlobCarrier Carrier = BlobCarrier::Tensor;
      for (const Carried &C : Vars[VD])
        if (C.Origin == Origin)
          Carrier = C.Carrier;
      escape({Origin, Carrier,
              Fix != StoreFixable.end() && Fix->second ? Stored : nullptr},
             BlobEscapeKind::UsedAfter, DRE, VD);
    }
    Dangling.erase(It); // one report per variable and death
  }

  void escape(const Carried &C, BlobEscapeKind Kind, const Expr *Where,
              const NamedDecl *Into) {
    Issues[C.Origin].Escapes.push_back(
        BlobEscape{Kind, C.Carrier, Where, C.CloneAt, Into});
  }

  const FunctionDecl *FD;
  const BlobConfig &Config;
  unsigned ScopeDepth = 0;
  std::vector<BlobLifetimeIssue> Issues;
  std::vector<unsigned> OriginDepth;
  llvm::DenseMap<const CallExpr *, unsigned> Origins;
  llvm::DenseSet<const VarDecl *> Moved; // storage moved elsewhere
  llvm::DenseMap<const VarDecl *, unsigned> Depth;
  llvm::DenseMap<const VarDecl *, llvm::SmallVector<Carried, 2>> Vars;
  llvm::DenseMap<const VarDecl *, llvm::SmallVector<unsigned, 2>> Dangling;
  llvm::DenseMap<std::pair<const VarDecl *, unsigned>, const Expr *> StoredAt;
  llvm::DenseMap<std::pair<const VarDecl *, unsigned>, bool> StoreFixable;
};

} // namespace

std::vector<BlobLifetimeIssue>
findBlobLifetimeIssues(const FunctionDecl *FD, const BlobConfig &Config) {
  if (!FD || !FD->getBody() || FD->isDependentContext() || FD->isInvalidDecl())
    return {};
  return BlobWalker(FD, Config).run();
}

} // namespace torch_tidy
