//===--- Activation.cpp - what a tensor holds at the end of a model -------===//
#include "torch-tidy/Activation.h"
#include "torch-tidy/Compat.h"
#include "torch-tidy/EvaluationOrder.h"
#include "torch-tidy/WholeProgram.h"

#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/StmtCXX.h"
#include "llvm/ADT/SmallVector.h"

using namespace clang;

namespace torch_tidy {

using AK = ActivationKind;
using AO = ActivationOp;

//===----------------------------------------------------------------------===//
// Names
//===----------------------------------------------------------------------===//

static llvm::StringRef nameOf(const NamedDecl *D) {
  return D && D->getIdentifier() ? D->getName() : llvm::StringRef();
}

/// The name of a LibTorch function (`at::`, `torch::`, `torch::nn::functional::`,
/// `torch::special::`), or empty.
static llvm::StringRef libraryFunction(const FunctionDecl *FD) {
  if (!FD || !FD->getIdentifier() || isa<CXXMethodDecl>(FD))
    return {};
  const DeclContext *Ctx = FD->getDeclContext();
  while (Ctx && (Ctx->isInlineNamespace() || isa<LinkageSpecDecl>(Ctx)))
    Ctx = Ctx->getParent();
  const auto *NS = dyn_cast_or_null<NamespaceDecl>(Ctx);
  if (!NS)
    return {};
  for (const char *Q :
       {"at", "torch", "torch::nn::functional", "torch::special"})
    if (hasQualifiedName(NS, Q))
      return FD->getName();
  return {};
}

namespace {
struct OpInfo {
  AK Kind = AK::Unknown;
  AO Op = AO::None;
  bool PassThrough =
      false; ///< returns its first tensor (shape or device changes only)
  bool Arithmetic = false; ///< `+ - * /`: logits stay logits
};

static OpInfo opInfo(AK K, AO O) {
  OpInfo I;
  I.Kind = K;
  I.Op = O;
  return I;
}

struct NamedOp {
  const char *Name;
  AK Kind;
  AO Op;
};
} // namespace

static const NamedOp Operations[] = {
    {"sigmoid", AK::Probabilities, AO::Sigmoid},
    {"sigmoid_", AK::Probabilities, AO::Sigmoid},
    {"expit", AK::Probabilities, AO::Sigmoid},
    {"special_expit", AK::Probabilities, AO::Sigmoid},
    {"softmax", AK::Probabilities, AO::Softmax},
    {"_softmax", AK::Probabilities, AO::Softmax},
    {"special_softmax", AK::Probabilities, AO::Softmax},
    {"log_softmax", AK::LogProbabilities, AO::LogSoftmax},
    {"_log_softmax", AK::LogProbabilities, AO::LogSoftmax},
    {"special_log_softmax", AK::LogProbabilities, AO::LogSoftmax},
    {"log_sigmoid", AK::LogProbabilities, AO::LogSigmoid},
    {"logsigmoid", AK::LogProbabilities, AO::LogSigmoid},
    {"linear", AK::Logits, AO::Linear},
    {"bilinear", AK::Logits, AO::Linear},
    {"matmul", AK::Logits, AO::Matmul},
    {"mm", AK::Logits, AO::Matmul},
    {"bmm", AK::Logits, AO::Matmul},
    {"addmm", AK::Logits, AO::Matmul},
    {"baddbmm", AK::Logits, AO::Matmul},
    {"addbmm", AK::Logits, AO::Matmul},
    {"einsum", AK::Logits, AO::Matmul},
    {"conv1d", AK::Logits, AO::Conv},
    {"conv2d", AK::Logits, AO::Conv},
    {"conv3d", AK::Logits, AO::Conv},
    {"conv_transpose1d", AK::Logits, AO::Conv},
    {"conv_transpose2d", AK::Logits, AO::Conv},
    {"conv_transpose3d", AK::Logits, AO::Conv},
    {"convolution", AK::Logits, AO::Conv},
};

/// Operations that only move, reshape or convert a tensor (or drop elements
/// at random): what goes in comes out.
static const char *const PassThroughOps[] = {
    "view",
    "view_as",
    "reshape",
    "reshape_as",
    "squeeze",
    "unsqueeze",
    "flatten",
    "unflatten",
    "contiguous",
    "clone",
    "detach",
    "to",
    "float",
    "double",
    "half",
    "bfloat16",
    "cpu",
    "cuda",
    "type_as",
    "transpose",
    "t",
    "permute",
    "select",
    "narrow",
    "slice",
    "expand",
    "expand_as",
    "squeeze_",
    "unsqueeze_",
    "requires_grad_",
    "detach_",
    "t_",
    "transpose_",
    "dropout",
    "feature_dropout",
    "alpha_dropout",
    "dropout2d",
    "dropout3d",
    "feature_alpha_dropout",
};

/// Arithmetic that keeps logits logits (a bias, a temperature).
static const char *const ArithmeticOps[] = {
    "add",  "sub",  "mul", "div",      "add_",     "sub_",
    "mul_", "div_", "neg", "subtract", "multiply", "divide",
};

template <size_t N>
static bool listed(const char *const (&List)[N], llvm::StringRef Name) {
  for (const char *Item : List)
    if (Name == Item)
      return true;
  return false;
}

/// Operations by name, shared by free functions and Tensor methods.
static OpInfo operationNamed(llvm::StringRef Name) {
  for (const NamedOp &Op : Operations)
    if (Name == Op.Name)
      return opInfo(Op.Kind, Op.Op);
  OpInfo I;
  I.PassThrough = listed(PassThroughOps, Name);
  I.Arithmetic = listed(ArithmeticOps, Name);
  return I;
}

static const NamedOp Layers[] = {
    {"LinearImpl", AK::Logits, AO::Linear},
    {"BilinearImpl", AK::Logits, AO::Linear},
    {"Conv1dImpl", AK::Logits, AO::Conv},
    {"Conv2dImpl", AK::Logits, AO::Conv},
    {"Conv3dImpl", AK::Logits, AO::Conv},
    {"ConvTranspose1dImpl", AK::Logits, AO::Conv},
    {"ConvTranspose2dImpl", AK::Logits, AO::Conv},
    {"ConvTranspose3dImpl", AK::Logits, AO::Conv},
    {"SigmoidImpl", AK::Probabilities, AO::Sigmoid},
    {"SoftmaxImpl", AK::Probabilities, AO::Softmax},
    {"Softmax2dImpl", AK::Probabilities, AO::Softmax},
    {"LogSoftmaxImpl", AK::LogProbabilities, AO::LogSoftmax},
    {"LogSigmoidImpl", AK::LogProbabilities, AO::LogSigmoid},
};

static const char *const PassThroughLayers[] = {
    "DropoutImpl",      "Dropout2dImpl",           "Dropout3dImpl",
    "AlphaDropoutImpl", "FeatureAlphaDropoutImpl", "IdentityImpl",
    "FlattenImpl",      "UnflattenImpl",
};

/// Built-in layers by their Impl class.
static OpInfo builtinModule(const CXXRecordDecl *Impl) {
  if (!Impl || !Impl->getIdentifier())
    return {};
  const DeclContext *Ctx = Impl->getDeclContext();
  while (Ctx && Ctx->isInlineNamespace())
    Ctx = Ctx->getParent();
  const auto *NS = dyn_cast_or_null<NamespaceDecl>(Ctx);
  if (!NS || !hasQualifiedName(NS, "torch::nn"))
    return {};
  llvm::StringRef Name = Impl->getName();
  for (const NamedOp &L : Layers)
    if (Name == L.Name)
      return opInfo(L.Kind, L.Op);
  OpInfo I;
  I.PassThrough = listed(PassThroughLayers, Name);
  return I;
}

static bool isTorchNN(const CXXRecordDecl *RD, llvm::StringRef Name) {
  return RD && hasQualifiedName(RD, ("torch::nn::" + Name).str());
}

//===----------------------------------------------------------------------===//
// Looking through the AST
//===----------------------------------------------------------------------===//

const CXXRecordDecl *writtenObjectClass(const Expr *Obj) {
  if (!Obj)
    return nullptr;
  Obj = Obj->IgnoreParenImpCasts();
  if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(Obj))
    if (OC->getOperator() == OO_Arrow && OC->getNumArgs() == 1)
      Obj = OC->getArg(0)->IgnoreParenImpCasts();
  return pointeeClass(Obj->getType());
}

static SourceLocation fileLoc(const SourceManager &SM, SourceLocation L) {
  return L.isValid() ? SM.getExpansionLoc(L) : L;
}

/// The class of the module an expression designates (the Impl of a holder).
static const CXXRecordDecl *moduleImplOf(QualType T, const TypeConfig &Types) {
  return moduleClassOf(T, Types);
}

static bool definedInSystemHeader(const Decl *D, const SourceManager &SM) {
  return !D || isLibraryCode(fileLoc(SM, D->getLocation()), SM);
}

/// The definition of \p FD when it has one in user code, else null.
static const FunctionDecl *userDefinition(const FunctionDecl *FD,
                                          const SourceManager &SM) {
  const FunctionDecl *Def = nullptr;
  if (!FD || !FD->hasBody(Def) || !Def || Def->isDependentContext() ||
      Def->isInvalidDecl())
    return nullptr;
  if (definedInSystemHeader(Def, SM))
    return nullptr;
  return Def;
}

/// The `forward()` a call with \p NumArgs inputs reaches in a user module class.
static const FunctionDecl *findForward(const CXXRecordDecl *Impl,
                                       unsigned NumArgs,
                                       const SourceManager &SM,
                                       unsigned Depth = 0) {
  if (!Impl || Depth > 4)
    return nullptr;
  Impl = Impl->getDefinition();
  if (!Impl)
    return nullptr;
  const CXXMethodDecl *Found = nullptr;
  for (const CXXMethodDecl *M : Impl->methods()) {
    if (!hasName(M, "forward") || M->isStatic())
      continue;
    if (NumArgs < M->getMinRequiredArguments() || NumArgs > M->getNumParams())
      continue;
    if (Found)
      return nullptr; // overloads: let the caller give up
    Found = M;
  }
  if (Found)
    return Found; // the caller asks followable()
  for (const CXXBaseSpecifier &B : Impl->bases())
    if (const CXXRecordDecl *Base = B.getType()->getAsCXXRecordDecl())
      if (const FunctionDecl *F = findForward(Base, NumArgs, SM, Depth + 1))
        return F;
  return nullptr;
}

//===----------------------------------------------------------------------===//
// Writes to the variables of a function (and the module members of a class)
//===----------------------------------------------------------------------===//

namespace {
struct Write {
  enum KindT {
    Init,
    Assign,
    Compound,
    InPlaceSigmoid,
    Preserve,
    Clobber,
    PushBack
  } K;
  const Expr *Value =
      nullptr; ///< the new value, the compound operand or the module pushed
  const Expr *Where = nullptr; ///< the write
  SourceLocation Begin, End;
  unsigned CondDepth = 0;
  llvm::SmallVector<const Stmt *, 2>
      Loops; ///< enclosing loops (and lambdas), outermost first
  const FunctionDecl *In =
      nullptr; ///< the function (constructor) that holds it
};

struct DeclInfo {
  unsigned CondDepth = 0;
  unsigned LoopDepth = 0;
  const DeclStmt *Stmt = nullptr;
  unsigned References = 0;
};

/// The writes of one function (or of a class's constructors), by variable.
struct WriteTables {
  llvm::DenseMap<const ValueDecl *, llvm::SmallVector<Write, 2>> ByDecl;
  llvm::DenseMap<const ValueDecl *, DeclInfo> Decls;
};

/// Walks a function body (or a class's constructors) down, recording every
/// write to the variables it owns.
class WriteCollector : public EvaluationOrderWalker<WriteCollector> {
  friend class EvaluationOrderWalker<WriteCollector>;

public:
  WriteCollector(WriteTables &M, const Decl *Owner, const SourceManager &SM)
      : M(M), Owner(Owner), SM(SM) {}

  void function(const FunctionDecl *FD) {
    In = FD;
    for (const ParmVarDecl *P : FD->parameters())
      M.Decls[P];
    walk(FD->getBody());
  }

  void constructor(const CXXConstructorDecl *Ctor) {
    In = Ctor;
    for (const CXXCtorInitializer *Init : Ctor->inits()) {
      const FieldDecl *F = Init->getMember();
      if (!F || !Init->getInit())
        continue;
      const Expr *Value = Init->getInit();
      if (const auto *DI =
              dyn_cast<CXXDefaultInitExpr>(stripExpr(Value, Strip::SameValue)))
        Value = DI->getExpr();
      Write W;
      W.K = Write::Init;
      W.Value = Value;
      W.Where = Init->getInit();
      W.Begin = W.End = Ctor->getBeginLoc();
      W.In = Ctor;
      M.ByDecl[F].push_back(W);
      if (Init->isWritten())
        walk(Init->getInit());
    }
    walk(Ctor->getBody());
  }

private:
  bool owns(const ValueDecl *D) const {
    if (!D)
      return false;
    if (const auto *RD = dyn_cast<CXXRecordDecl>(Owner))
      return isa<FieldDecl>(D) && cast<FieldDecl>(D)->getParent() == RD;
    return isa<VarDecl>(D) &&
           D->getDeclContext() == dyn_cast<DeclContext>(Owner);
  }

  /// The variable or member of `this` an assigned-to expression names.
  const ValueDecl *target(const Expr *E) const {
    if (!E)
      return nullptr;
    E = E->IgnoreParenImpCasts();
    if (const auto *DRE = dyn_cast<DeclRefExpr>(E))
      return owns(DRE->getDecl()) ? DRE->getDecl() : nullptr;
    if (const auto *ME = dyn_cast<MemberExpr>(E))
      if (isa<CXXThisExpr>(ME->getBase()->IgnoreParenImpCasts()))
        return owns(ME->getMemberDecl()) ? ME->getMemberDecl() : nullptr;
    return nullptr;
  }

  void record(const ValueDecl *D, Write::KindT K, const Expr *Value,
              const Expr *Where) {
    Write W;
    W.K = K;
    W.Value = Value;
    W.Where = Where;
    W.Begin = Where->getBeginLoc();
    W.End = Where->getEndLoc();
    W.CondDepth = CondDepth;
    W.Loops = Loops;
    W.In = In;
    M.ByDecl[D].push_back(std::move(W));
  }

  /// Loops (and lambdas, which run at unknown times) are recorded around
  /// the writes they hold.
  void loop(const Stmt *Loop, llvm::ArrayRef<const Stmt *> Parts) {
    Loops.push_back(Loop);
    EvaluationOrderWalker::loop(Loop, Parts);
    Loops.pop_back();
  }

  bool visit(const Stmt *S) {
    if (const auto *DS = dyn_cast<DeclStmt>(S)) {
      for (const Decl *D : DS->decls()) {
        const auto *VD = dyn_cast<VarDecl>(D);
        if (!VD)
          continue;
        if (owns(VD)) {
          DeclInfo &Info = M.Decls[VD];
          Info.CondDepth = CondDepth;
          Info.LoopDepth = Loops.size();
          Info.Stmt = DS;
          Write W;
          W.K = Write::Init;
          W.Value = VD->getInit();
          W.Where = VD->getInit();
          W.Begin = VD->getLocation();
          W.End =
              VD->getInit() ? VD->getInit()->getEndLoc() : VD->getLocation();
          W.CondDepth = CondDepth;
          W.Loops = Loops;
          W.In = In;
          M.ByDecl[VD].push_back(std::move(W));
        }
        walk(VD->getInit());
      }
      return true;
    }
    if (const auto *BO = dyn_cast<BinaryOperator>(S)) {
      if (BO->isLogicalOp())
        return false; // the walker makes the right operand conditional
      walk(BO->getRHS());
      walk(BO->getLHS());
      if (BO->isAssignmentOp())
        if (const ValueDecl *D = target(BO->getLHS()))
          record(D,
                 BO->getOpcode() == BO_Assign ? Write::Assign : Write::Compound,
                 BO->getRHS(), BO);
      return true;
    }
    if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(S)) {
      walkChildren(OC);
      OverloadedOperatorKind Op = OC->getOperator();
      if (OC->getNumArgs() == 2 &&
          (Op == OO_Equal || Op == OO_PlusEqual || Op == OO_MinusEqual ||
           Op == OO_StarEqual || Op == OO_SlashEqual)) {
        if (const ValueDecl *D = target(OC->getArg(0))) {
          bool Tensor = isTensorType(OC->getArg(0)->getType());
          if (Op == OO_Equal)
            // `t = 0.5` fills a tensor in place.
            record(D,
                   Tensor && !isTensorType(OC->getArg(1)->getType())
                       ? Write::Clobber
                       : Write::Assign,
                   OC->getArg(1), OC);
          else
            record(D, Write::Compound, OC->getArg(1), OC);
        }
      }
      return true;
    }
    if (const auto *MC = dyn_cast<CXXMemberCallExpr>(S)) {
      walkChildren(MC);
      const CXXMethodDecl *MD = MC->getMethodDecl();
      const Expr *Obj = MC->getImplicitObjectArgument();
      if (!MD || !Obj)
        return true;
      const ValueDecl *D = objectDecl(Obj);
      if (!owns(D))
        return true;
      llvm::StringRef Name = nameOf(MD);
      if (isTensorClass(MD->getParent()) && compat::endsWith(Name, "_")) {
        OpInfo I = operationNamed(Name);
        if (I.Op == AO::Sigmoid)
          record(D, Write::InPlaceSigmoid, nullptr, MC);
        else if (I.Arithmetic)
          record(D, Write::Compound, MC->getNumArgs() ? MC->getArg(0) : nullptr,
                 MC);
        else if (I.PassThrough)
          record(D, Write::Preserve, nullptr, MC);
        else
          record(D, Write::Clobber, nullptr, MC);
        return true;
      }
      if (Name == "push_back" && isTorchNN(MD->getParent(), "SequentialImpl") &&
          MC->getNumArgs() > 0)
        record(D, Write::PushBack, MC->getArg(MC->getNumArgs() - 1), MC);
      return true;
    }
    if (const auto *CE = dyn_cast<CallExpr>(S)) {
      walkChildren(CE);
      // A tensor passed to a user function by non-const reference may be replaced.
      const FunctionDecl *FD = CE->getDirectCallee();
      if (!FD || FD->getPrimaryTemplate() || definedInSystemHeader(FD, SM))
        return true;
      for (unsigned I = 0; I < CE->getNumArgs() && I < FD->getNumParams();
           ++I) {
        QualType PT = FD->getParamDecl(I)->getType();
        if (PT->isLValueReferenceType() &&
            !PT.getNonReferenceType().isConstQualified() && isTensorType(PT))
          if (const ValueDecl *D = target(CE->getArg(I)))
            record(D, Write::Clobber, nullptr, CE);
      }
      return true;
    }
    if (const auto *UO = dyn_cast<UnaryOperator>(S)) {
      walk(UO->getSubExpr());
      if (UO->getOpcode() == UO_AddrOf)
        if (const ValueDecl *D = target(UO->getSubExpr()))
          if (isTensorType(D->getType()))
            record(D, Write::Clobber, nullptr, UO);
      return true;
    }
    if (const auto *DRE = dyn_cast<DeclRefExpr>(S)) {
      if (owns(DRE->getDecl()))
        ++M.Decls[DRE->getDecl()].References;
      return true;
    }
    return false;
  }

  WriteTables &M;
  const Decl *Owner;
  const SourceManager &SM;
  const FunctionDecl *In = nullptr;
  llvm::SmallVector<const Stmt *, 2> Loops;
};
} // namespace

struct ActivationAnalysis::WriteMap : WriteTables {};

const ActivationAnalysis::WriteMap &
ActivationAnalysis::writesIn(const Decl *Owner) {
  auto It = Writes.find(Owner);
  if (It != Writes.end())
    return *It->second;
  auto M = std::make_unique<WriteMap>();
  if (const auto *FD = dyn_cast<FunctionDecl>(Owner)) {
    if (FD->getBody())
      WriteCollector(*M, Owner, SM).function(FD);
  } else if (const auto *RD = dyn_cast<CXXRecordDecl>(Owner)) {
    if (RD->hasDefinition())
      for (const CXXConstructorDecl *Ctor : RD->ctors()) {
        const FunctionDecl *Def = userDefinition(Ctor, SM);
        const auto *CtorDef = dyn_cast_or_null<CXXConstructorDecl>(Def);
        if (!CtorDef || CtorDef->isImplicit() ||
            CtorDef->isCopyOrMoveConstructor() ||
            CtorDef->isDelegatingConstructor())
          continue;
        WriteCollector(*M, Owner, SM).constructor(CtorDef);
      }
  }
  const WriteMap &Ref = *M;
  Writes[Owner] = std::move(M);
  return Ref;
}

//===----------------------------------------------------------------------===//
// Evaluation
//===----------------------------------------------------------------------===//

static Activation unknown() { return Activation(); }

static Activation parameter(unsigned I) {
  Activation A;
  A.Kind = AK::Parameter;
  A.ParamIndex = I;
  return A;
}

static Activation made(const OpInfo &I, const Expr *Where, const NamedDecl *D) {
  Activation A;
  A.Kind = I.Kind;
  A.Op = I.Op;
  A.Where = Where;
  A.Decl = D;
  return A;
}

/// `a + b`, `a * s`, ...: logits stay logits; probabilities do not stay probabilities.
static Activation combine(const Activation &L, const Activation &R) {
  if (L.isProbabilities() || L.isLogProbabilities() || R.isProbabilities() ||
      R.isLogProbabilities())
    return unknown();
  if (L.isLogits())
    return L;
  if (R.isLogits())
    return R;
  return unknown();
}

namespace {
/// Which writes of a variable (or member) decide its value where it is read:
/// the last unconditional one before the read, and those that may override
/// it (later conditional writes, writes a loop carries to the next
/// iteration).
class ReachingWrites {
public:
  explicit ReachingWrites(const SourceManager &SM) : SM(SM) {}

  /// Whether write \p W of a variable declared at \p Info is conditional
  /// relative to the declaration, and the loop (inside the declaration's
  /// scope) that may carry it to later iterations.
  static bool conditionalFor(const Write &W, const DeclInfo &Info) {
    return W.K != Write::Init && W.CondDepth > Info.CondDepth;
  }

  static const Stmt *carryingLoop(const Write &W, const DeclInfo &Info) {
    if (W.K == Write::Init || W.Loops.size() <= Info.LoopDepth)
      return nullptr;
    return W.Loops[Info.LoopDepth];
  }

  bool before(SourceLocation A, SourceLocation B) const {
    A = fileLoc(SM, A);
    B = fileLoc(SM, B);
    if (A.isInvalid() || B.isInvalid())
      return false;
    return SM.isBeforeInTranslationUnit(A, B);
  }

  bool contains(const Stmt *S, SourceLocation L) const {
    return !before(L, S->getBeginLoc()) && !before(S->getEndLoc(), L);
  }

  /// The writes of \p D that decide its value at \p Use: the last
  /// unconditional one (or null) and those that may override it.
  struct Reaching {
    const Write *Last = nullptr;
    llvm::SmallVector<const Write *, 4> Others;
  };

  Reaching reaching(llvm::ArrayRef<Write> Ws, const DeclInfo &Info,
                    SourceLocation Use, bool Modules) {
    Reaching R;
    auto Counts = [&](const Write &W) {
      return Modules ? (W.K == Write::Init || W.K == Write::Assign)
                     : W.K != Write::PushBack;
    };
    for (const Write &W : Ws)
      if (Counts(W) && !conditionalFor(W, Info) && before(W.End, Use) &&
          (!R.Last || before(R.Last->End, W.End)))
        R.Last = &W;
    for (const Write &W : Ws) {
      if (&W == R.Last)
        continue;
      bool After = !R.Last || before(R.Last->End, W.End);
      bool Earlier = before(W.End, Use);
      const Stmt *Loop = carryingLoop(W, Info);
      bool Carried = Loop && !Earlier && contains(Loop, Use);
      if ((Earlier && After) || Carried)
        R.Others.push_back(&W);
    }
    return R;
  }

private:
  const SourceManager &SM;
};
} // namespace

class ActivationAnalysis::Evaluator {
public:
  Evaluator(ActivationAnalysis &A, const FunctionDecl *Fn, unsigned Depth)
      : A(A), SM(A.SM), Types(A.Config.Types), Fn(Fn), Depth(Depth), RW(A.SM) {}

  /// Bounds the recursion on pathological code (thousands of chained writes).
  struct Nest {
    explicit Nest(unsigned &N) : N(N) { ++N; }
    ~Nest() { --N; }
    bool tooDeep() const { return N > 256; }
    unsigned &N;
  };

  Activation value(const Expr *E) {
    Nest Guard(A.Nesting);
    E = stripExpr(E, Strip::SameValue);
    if (!E || Guard.tooDeep())
      return unknown();
    if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
      const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
      if (!VD || !isTensorType(VD->getType()))
        return unknown();
      if (VD->getType()->isReferenceType() && !isa<ParmVarDecl>(VD))
        return VD->getInit() ? value(VD->getInit()) : unknown();
      if (VD->hasLocalStorage())
        return variable(VD, DRE->getExprLoc());
      return unknown();
    }
    if (const auto *CE = dyn_cast<CallExpr>(E))
      return call(CE);
    if (const auto *CO = dyn_cast<ConditionalOperator>(E)) {
      Activation T = value(CO->getTrueExpr());
      Activation F = value(CO->getFalseExpr());
      return T.known() && T.sameKind(F) ? T : unknown();
    }
    return unknown();
  }

  /// What calling the module \p M designates returns (ModuleEvaluator).
  Activation module(const Expr *M);

  Activation summary(const FunctionDecl *Def) {
    return A.summaryAt(Def, Depth + 1);
  }

private:
  /// A local tensor variable (or parameter) where it is read.
  Activation variable(const VarDecl *VD, SourceLocation Use) {
    const auto *Owner = dyn_cast<FunctionDecl>(VD->getDeclContext());
    if (!Owner)
      return unknown();
    const WriteMap &M = A.writesIn(Owner);
    auto DI = M.Decls.find(VD);
    DeclInfo Info = DI == M.Decls.end() ? DeclInfo() : DI->second;
    auto WI = M.ByDecl.find(VD);
    llvm::ArrayRef<Write> Ws;
    if (WI != M.ByDecl.end())
      Ws = WI->second;
    ReachingWrites::Reaching R = RW.reaching(Ws, Info, Use, /*Modules=*/false);
    Activation Base;
    if (R.Last)
      Base = write(VD, *R.Last);
    else if (const auto *P = dyn_cast<ParmVarDecl>(VD))
      Base = P->getDeclContext() == Fn ? parameter(P->getFunctionScopeIndex())
                                       : unknown();
    if (!Base.known())
      return Base;
    for (const Write *W : R.Others) {
      if (W->K == Write::PushBack)
        continue;
      if (!write(VD, *W).sameKind(Base))
        return unknown();
    }
    return Base;
  }

  Activation write(const VarDecl *VD, const Write &W) {
    auto Key = std::make_pair(static_cast<const void *>(&W),
                              static_cast<const void *>(Fn));
    return A.WriteValues.getAt(Key, &W, [&] {
      switch (W.K) {
      case Write::Init:
      case Write::Assign:
        return W.Value ? value(W.Value) : unknown();
      case Write::Compound:
        return combine(variable(VD, W.Begin),
                       W.Value ? value(W.Value) : unknown());
      case Write::InPlaceSigmoid:
        return made(opInfo(AK::Probabilities, AO::Sigmoid), W.Where,
                    cast<CallExpr>(W.Where)->getDirectCallee());
      case Write::Preserve:
        return variable(VD, W.Begin);
      case Write::Clobber:
      case Write::PushBack:
        break;
      }
      return unknown();
    }); // a write that depends on itself (loops) is unknown
  }

  Activation call(const CallExpr *CE) {
    const FunctionDecl *FD = CE->getDirectCallee();
    if (!FD)
      return unknown();
    const auto *MD = dyn_cast<CXXMethodDecl>(FD);

    if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(CE)) {
      OverloadedOperatorKind Op = OC->getOperator();
      unsigned N = OC->getNumArgs();
      bool AnyTensor = false;
      for (const Expr *Arg : OC->arguments())
        AnyTensor = AnyTensor || isTensorType(Arg->getType());
      if (AnyTensor && N == 2 &&
          (Op == OO_Plus || Op == OO_Minus || Op == OO_Star || Op == OO_Slash))
        return combine(value(OC->getArg(0)), value(OC->getArg(1)));
      if (AnyTensor && N == 1 && Op == OO_Minus) {
        Activation V = value(OC->getArg(0));
        return V.isLogits() ? V : unknown();
      }
      if (AnyTensor && Op == OO_Subscript && N == 2 &&
          isTensorType(OC->getArg(0)->getType()))
        return value(OC->getArg(0));
    }

    const Expr *Obj = nullptr;
    unsigned First = 0;
    if (const CXXRecordDecl *Impl = A.moduleCall(CE, &Obj, &First))
      return moduleCall(CE, Impl, Obj, First);

    if (matchesFunctionList(FD, A.Config.ProbabilityFunctions))
      return made(opInfo(AK::Probabilities, AO::Sigmoid), CE, FD);
    if (matchesFunctionList(FD, A.Config.LogitFunctions))
      return made(opInfo(AK::Logits, AO::Custom), CE, FD);

    if (MD && isTensorClass(MD->getParent())) {
      const Expr *Self = memberCallObject(CE);
      OpInfo I = operationNamed(nameOf(MD));
      if (I.Kind != AK::Unknown)
        return made(I, CE, MD);
      if (I.PassThrough)
        return value(Self);
      if (I.Arithmetic)
        return combine(value(Self),
                       CE->getNumArgs() ? value(CE->getArg(0)) : unknown());
      return unknown();
    }

    llvm::StringRef Lib = libraryFunction(FD);
    if (!Lib.empty()) {
      OpInfo I = operationNamed(Lib);
      if (I.Kind != AK::Unknown)
        return made(I, CE, FD);
      if (I.PassThrough && CE->getNumArgs() > 0)
        return value(CE->getArg(0));
      if (I.Arithmetic && CE->getNumArgs() > 1)
        return combine(value(CE->getArg(0)), value(CE->getArg(1)));
      return unknown();
    }

    if (const FunctionDecl *Def = A.followable(FD)) {
      // Operator calls on methods (a lambda's `()`) pass the object first.
      unsigned Offset = isa<CXXOperatorCallExpr>(CE) && MD ? 1 : 0;
      return userCall(CE, Def, Offset);
    }
    return unknown();
  }

  Activation userCall(const CallExpr *CE, const FunctionDecl *Def,
                      unsigned Offset) {
    Activation R = summary(Def);
    if (R.Kind == AK::Parameter) {
      unsigned I = R.ParamIndex + Offset;
      return I < CE->getNumArgs() ? value(CE->getArg(I)) : unknown();
    }
    if (R.known())
      R.Via = Def;
    return R;
  }

  Activation moduleCall(const CallExpr *CE, const CXXRecordDecl *Impl,
                        const Expr *Obj, unsigned First);

  ActivationAnalysis &A;
  const SourceManager &SM;
  const TypeConfig &Types;
  const FunctionDecl *Fn; ///< the function whose parameters are Parameter(i)
  unsigned Depth;
  ReachingWrites RW;
};

/// What a module call returns: a LibTorch layer, the contents of a
/// Sequential or Functional (from how it was built, through the writes that
/// reach the variable or member holding it), a user module's forward(). The
/// values of tensors are asked of the Evaluator it serves.
class ActivationAnalysis::ModuleEvaluator {
public:
  ModuleEvaluator(ActivationAnalysis &A, Evaluator &Values, unsigned Depth)
      : A(A), Values(Values), SM(A.SM), Types(A.Config.Types), Depth(Depth),
        RW(A.SM) {}

  /// What calling the module \p M designates returns.
  Activation module(const Expr *M) {
    Evaluator::Nest Guard(A.Nesting);
    M = stripModule(M);
    if (!M || Guard.tooDeep())
      return unknown();
    const CXXRecordDecl *Impl = moduleImplOf(M->getType(), Types);
    if (!Impl)
      return unknown();
    if (isLogitModule(Impl, M))
      return made(opInfo(AK::Logits, AO::Custom), M, Impl);
    if (!definedInSystemHeader(Impl, SM)) {
      const FunctionDecl *Fwd = A.followable(findForward(Impl, 1, SM));
      if (!Fwd)
        return unknown();
      Activation R = Values.summary(Fwd);
      if (R.Kind == AK::Parameter)
        return R.ParamIndex == 0 ? R : unknown();
      if (R.known())
        R.Via = Fwd;
      return R;
    }
    OpInfo I = builtinModule(Impl);
    if (I.PassThrough)
      return parameter(0);
    if (I.Kind != AK::Unknown)
      return made(I, M, Impl);
    if (isTorchNN(Impl, "SequentialImpl") || isTorchNN(Impl, "FunctionalImpl"))
      return contents(M, Impl);
    return unknown();
  }

  Activation moduleCall(const CallExpr *CE, const CXXRecordDecl *Impl,
                        const Expr *Obj, unsigned First) {
    unsigned Inputs = CE->getNumArgs() > First ? CE->getNumArgs() - First : 0;
    auto Input = [&]() {
      return Inputs ? Values.value(CE->getArg(First)) : unknown();
    };
    if (isLogitModule(Impl, Obj))
      return made(opInfo(AK::Logits, AO::Custom), CE, Impl);
    if (!definedInSystemHeader(Impl, SM)) {
      // A user module: the forward() the call reaches.
      const FunctionDecl *Fwd = nullptr;
      const auto *MD = dyn_cast_or_null<CXXMethodDecl>(CE->getDirectCallee());
      if (MD && hasName(MD, "forward"))
        Fwd = A.followable(MD);
      else
        Fwd = A.followable(findForward(Impl, Inputs, SM));
      if (!Fwd)
        return unknown();
      Activation R = Values.summary(Fwd);
      if (R.Kind == AK::Parameter) {
        unsigned I = R.ParamIndex + First;
        return I < CE->getNumArgs() ? Values.value(CE->getArg(I)) : unknown();
      }
      if (R.known())
        R.Via = Fwd;
      return R;
    }
    OpInfo I = builtinModule(Impl);
    if (I.PassThrough)
      return Input();
    if (I.Kind != AK::Unknown)
      return made(I, CE, Impl);
    if (Obj && (isTorchNN(Impl, "SequentialImpl") ||
                isTorchNN(Impl, "FunctionalImpl"))) {
      Activation R = contents(stripModule(Obj), Impl);
      if (R.Kind == AK::Parameter)
        return R.ParamIndex == 0 ? Input() : unknown();
      return R;
    }
    return unknown();
  }

private:
  /// Looks through what keeps a module the same object: copies of holders,
  /// `register_module("name", m)`, a holder made from its own shared_ptr.
  const Expr *stripModule(const Expr *E) {
    for (unsigned Guard = 0; E && Guard < 16; ++Guard) {
      E = stripExpr(E, Strip::SameValue);
      if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(E)) {
        // Smart pointer and ModuleHolder `->` and `*`.
        if ((OC->getOperator() == OO_Arrow || OC->getOperator() == OO_Star) &&
            OC->getNumArgs() == 1) {
          E = OC->getArg(0);
          continue;
        }
        return E;
      }
      if (const auto *UO = dyn_cast<UnaryOperator>(E)) {
        if (UO->getOpcode() == UO_Deref || UO->getOpcode() == UO_AddrOf) {
          E = UO->getSubExpr();
          continue;
        }
        return E;
      }
      if (const auto *CE = dyn_cast<CallExpr>(E)) {
        const FunctionDecl *FD = CE->getDirectCallee();
        if (hasName(FD, "register_module") && isa<CXXMethodDecl>(FD) &&
            isModuleClass(cast<CXXMethodDecl>(FD)->getParent(), Types) &&
            CE->getNumArgs() == 2) {
          E = CE->getArg(1);
          continue;
        }
        return E;
      }
      if (const auto *CE = dyn_cast<CXXConstructExpr>(E)) {
        // ModuleHolder(std::shared_ptr<Impl>) wraps the same module.
        if (CE->getNumArgs() == 1) {
          const CXXRecordDecl *Made = moduleImplOf(CE->getType(), Types);
          const Expr *Arg = CE->getArg(0);
          Access How = Access::Value;
          const CXXRecordDecl *ArgClass = pointeeClass(Arg->getType(), &How);
          if (Made && ArgClass && How == Access::Pointer &&
              ArgClass->getCanonicalDecl() == Made->getCanonicalDecl()) {
            E = Arg;
            continue;
          }
        }
        return E;
      }
      return E;
    }
    return E;
  }

  /// The output of a Sequential or Functional from how it was made.
  Activation contents(const Expr *M, const CXXRecordDecl *Impl) {
    bool Sequential = isTorchNN(Impl, "SequentialImpl");
    if (const auto *CE = dyn_cast<CXXConstructExpr>(M)) {
      if (Sequential)
        return sequence(moduleList(CE));
      return functional(CE);
    }
    const ValueDecl *D = nullptr;
    if (const auto *DRE = dyn_cast<DeclRefExpr>(M))
      D = DRE->getDecl();
    else if (const auto *ME = dyn_cast<MemberExpr>(M))
      D = isa<CXXThisExpr>(ME->getBase()->IgnoreParenImpCasts())
              ? ME->getMemberDecl()
              : nullptr;
    else if (const auto *CE = dyn_cast<CallExpr>(M)) {
      // A factory defined in the TU: `auto model = make_classifier(...)`.
      if (const FunctionDecl *Def = userDefinition(CE->getDirectCallee(), SM))
        return A.factoryAt(Def, Depth + 1);
      return unknown();
    }
    if (!D)
      return unknown();
    if (const auto *F = dyn_cast<FieldDecl>(D))
      return member(F);
    const auto *VD = dyn_cast<VarDecl>(D);
    if (!VD || isa<ParmVarDecl>(VD))
      return unknown();
    if (VD->getType()->isReferenceType())
      return VD->getInit() && VD->hasLocalStorage() ? module(VD->getInit())
                                                    : unknown();
    if (!VD->hasLocalStorage())
      return VD->getInit() ? module(VD->getInit()) : unknown();
    return localModule(VD, M->getBeginLoc());
  }

  /// The modules a Sequential is constructed with, in order.
  llvm::SmallVector<const Expr *, 8> moduleList(const CXXConstructExpr *CE) {
    llvm::SmallVector<const Expr *, 8> Out;
    if (CE->getNumArgs() == 1)
      if (const auto *IL = dyn_cast<CXXStdInitializerListExpr>(
              stripExpr(CE->getArg(0), Strip::SameValue))) {
        // Sequential({{"name", Module(...)}, ...})
        if (const auto *List = dyn_cast<InitListExpr>(
                stripExpr(IL->getSubExpr(), Strip::SameValue)))
          for (const Expr *Item : List->inits()) {
            const auto *Named =
                dyn_cast<CXXConstructExpr>(stripExpr(Item, Strip::SameValue));
            if (!Named || Named->getNumArgs() < 2)
              Out.push_back(nullptr);
            else
              Out.push_back(Named->getArg(Named->getNumArgs() - 1));
          }
        return Out;
      }
    for (const Expr *Arg : CE->arguments()) {
      if (isa<CXXDefaultArgExpr>(Arg))
        continue;
      if (!moduleImplOf(Arg->getType(), Types))
        Out.push_back(
            nullptr); // nullptr, AnyModule, a shared_ptr to the Impl: unknown
      else
        Out.push_back(Arg);
    }
    return Out;
  }

  /// The output of modules applied in order: the last that is not a pass-through.
  Activation sequence(llvm::ArrayRef<const Expr *> Modules) {
    for (auto It = Modules.rbegin(); It != Modules.rend(); ++It) {
      if (!*It)
        return unknown();
      Activation R = module(*It);
      if (R.Kind == AK::Parameter)
        continue;
      if (R.known())
        R.ThroughSequential = true;
      return R;
    }
    return parameter(0);
  }

  Activation functional(const CXXConstructExpr *CE) {
    if (CE->getNumArgs() < 1)
      return unknown();
    const Expr *Fn = CE->getArg(0);
    // Through the conversion to std::function.
    for (unsigned Guard = 0; Fn && Guard < 8; ++Guard) {
      Fn = stripExpr(Fn, Strip::SameValue);
      if (const auto *Inner = dyn_cast<CXXConstructExpr>(Fn)) {
        if (Inner->getNumArgs() < 1)
          return unknown();
        Fn = Inner->getArg(0);
        continue;
      }
      break;
    }
    if (!Fn)
      return unknown();
    if (const auto *L = dyn_cast<LambdaExpr>(Fn)) {
      Activation R = Values.summary(L->getCallOperator());
      if (R.Kind == AK::Parameter)
        return R.ParamIndex == 0 ? R : unknown();
      if (R.known())
        R.Via = L->getCallOperator();
      return R;
    }
    if (const auto *DRE = dyn_cast<DeclRefExpr>(Fn->IgnoreParenImpCasts()))
      if (const auto *FD = dyn_cast<FunctionDecl>(DRE->getDecl())) {
        OpInfo I = functionInfo(FD);
        if (I.Kind != AK::Unknown)
          return made(I, CE, FD);
        if (I.PassThrough)
          return parameter(0);
        if (const FunctionDecl *Def = A.followable(FD)) {
          Activation R = Values.summary(Def);
          if (R.Kind == AK::Parameter)
            return R.ParamIndex == 0 ? R : unknown();
          if (R.known())
            R.Via = Def;
          return R;
        }
      }
    return unknown();
  }

  /// A configured in-house layer (by its Impl or its holder class).
  bool isLogitModule(const CXXRecordDecl *Impl, const Expr *Obj) const {
    if (A.Config.LogitModules.empty())
      return false;
    const CXXRecordDecl *Holder = writtenObjectClass(Obj);
    for (const std::string &C : A.Config.LogitModules)
      if (isSameOrDerivedFrom(Impl, C) ||
          (Holder && isSameOrDerivedFrom(Holder, C)))
        return true;
    return false;
  }

  OpInfo functionInfo(const FunctionDecl *FD) {
    if (matchesFunctionList(FD, A.Config.ProbabilityFunctions))
      return opInfo(AK::Probabilities, AO::Sigmoid);
    if (matchesFunctionList(FD, A.Config.LogitFunctions))
      return opInfo(AK::Logits, AO::Custom);
    llvm::StringRef Name = libraryFunction(FD);
    if (Name.empty())
      return {};
    return operationNamed(Name);
  }

  /// A Sequential or Functional held in a local variable, where it is called.
  Activation localModule(const VarDecl *VD, SourceLocation Use) {
    const auto *Owner = dyn_cast<FunctionDecl>(VD->getDeclContext());
    if (!Owner)
      return unknown();
    const WriteMap &M = A.writesIn(Owner);
    auto WI = M.ByDecl.find(VD);
    if (WI == M.ByDecl.end())
      return unknown();
    auto DI = M.Decls.find(VD);
    DeclInfo Info = DI == M.Decls.end() ? DeclInfo() : DI->second;
    ReachingWrites::Reaching R =
        RW.reaching(WI->second, Info, Use, /*Modules=*/true);
    return built(R, Info, WI->second, Use);
  }

  /// A module member built in the constructors of its class.
  Activation member(const FieldDecl *F) {
    const auto *RD = dyn_cast<CXXRecordDecl>(F->getParent());
    if (!RD || !A.Engine.enter(F))
      return unknown();
    Activation Out = memberOnce(F, RD);
    A.Engine.leave(F);
    return Out;
  }

  Activation memberOnce(const FieldDecl *F, const CXXRecordDecl *RD) {
    const WriteMap &M = A.writesIn(RD);
    auto WI = M.ByDecl.find(F);
    if (WI == M.ByDecl.end())
      return F->hasInClassInitializer() ? module(F->getInClassInitializer())
                                        : unknown();
    // Each constructor builds it on its own; they must agree.
    llvm::SmallVector<const FunctionDecl *, 2> Ctors;
    for (const Write &W : WI->second)
      if (!llvm::is_contained(Ctors, W.In))
        Ctors.push_back(W.In);
    Activation Out;
    bool First = true;
    for (const FunctionDecl *Ctor : Ctors) {
      llvm::SmallVector<Write, 4> Mine;
      for (const Write &W : WI->second)
        if (W.In == Ctor)
          Mine.push_back(W);
      SourceLocation End = Ctor->getEndLoc();
      DeclInfo Info; // members are declared outside any condition
      ReachingWrites::Reaching R =
          RW.reaching(Mine, Info, End, /*Modules=*/true);
      // Member initialisers sit before the body; make sure they come first.
      Activation Got = built(R, Info, Mine, End);
      if (!Got.known())
        return unknown();
      if (!First && !Got.sameKind(Out))
        return unknown();
      Out = Got;
      First = false;
    }
    return Out;
  }

  /// The output of a container given its last (re)construction and the
  /// modules pushed after it.
  Activation built(const ReachingWrites::Reaching &R, const DeclInfo &Info,
                   llvm::ArrayRef<Write> Ws, SourceLocation Use) {
    for (const Write *W : R.Others)
      if (W->K != Write::PushBack)
        return unknown(); // rebuilt under a condition or in a loop
    llvm::SmallVector<const Expr *, 4> Pushed;
    for (const Write &W : Ws) {
      if (W.K != Write::PushBack)
        continue;
      bool Earlier = RW.before(W.End, Use);
      const Stmt *Loop = RW.carryingLoop(W, Info);
      bool Carried = Loop && !Earlier && RW.contains(Loop, Use);
      if (!Earlier && !Carried)
        continue;
      if (R.Last && !Carried && !RW.before(R.Last->End, W.End))
        continue; // replaced by the later construction
      if (RW.conditionalFor(W, Info) || Carried)
        return unknown();
      Pushed.push_back(W.Value);
    }
    if (!Pushed.empty()) {
      Activation Tail = sequence(Pushed);
      if (Tail.Kind != AK::Parameter)
        return Tail;
    }
    if (!R.Last || !R.Last->Value)
      return unknown();
    return module(R.Last->Value);
  }

  ActivationAnalysis &A;
  Evaluator &Values;
  const SourceManager &SM;
  const TypeConfig &Types;
  unsigned Depth;
  ReachingWrites RW;
};

Activation ActivationAnalysis::Evaluator::module(const Expr *M) {
  return ModuleEvaluator(A, *this, Depth).module(M);
}

Activation ActivationAnalysis::Evaluator::moduleCall(const CallExpr *CE,
                                                     const CXXRecordDecl *Impl,
                                                     const Expr *Obj,
                                                     unsigned First) {
  return ModuleEvaluator(A, *this, Depth).moduleCall(CE, Impl, Obj, First);
}

//===----------------------------------------------------------------------===//
// ActivationAnalysis
//===----------------------------------------------------------------------===//

ActivationAnalysis::ActivationAnalysis(const ActivationConfig &Config,
                                       const SourceManager &SM)
    : Config(Config), SM(SM), Engine(Config.MaxCallDepth), Returns(Engine),
      SequentialFactories(Engine), WriteValues(Engine) {}

ActivationAnalysis::~ActivationAnalysis() = default;

Activation ActivationAnalysis::valueOf(const Expr *E) {
  return Evaluator(*this, nullptr, 0).value(E);
}

Activation ActivationAnalysis::moduleOutput(const Expr *ModuleExpr) {
  return Evaluator(*this, nullptr, 0).module(ModuleExpr);
}

Activation ActivationAnalysis::returnOf(const FunctionDecl *FD) {
  const FunctionDecl *Def = followable(FD);
  return Def ? summaryAt(Def, 0) : unknown();
}

/// Collects the return statements of a function body, lambdas left out.
static void collectReturns(const Stmt *S,
                           llvm::SmallVectorImpl<const ReturnStmt *> &Out) {
  if (!S || isa<LambdaExpr>(S))
    return;
  if (const auto *R = dyn_cast<ReturnStmt>(S)) {
    Out.push_back(R);
    return;
  }
  for (const Stmt *Child : S->children())
    collectReturns(Child, Out);
}

/// What the return statements of \p FD give, \p Each evaluating one: the
/// kind they agree on, else unknown.
template <typename Eval>
static Activation returned(const FunctionDecl *FD, Eval Each) {
  if (!FD->getBody() || FD->isDependentContext())
    return unknown();
  llvm::SmallVector<const ReturnStmt *, 4> Returns;
  collectReturns(FD->getBody(), Returns);
  Activation Out;
  bool First = true;
  for (const ReturnStmt *R : Returns) {
    Activation V = R->getRetValue() ? Each(R->getRetValue()) : unknown();
    if (!V.known() || (!First && !V.sameKind(Out)))
      return unknown();
    Out = V;
    First = false;
  }
  return Out;
}

Activation ActivationAnalysis::summaryAt(const FunctionDecl *FD,
                                         unsigned Depth) {
  return Returns.get(FD, Depth, [&] {
    if (!FD->getBody())
      return remoteReturn(FD);
    Evaluator E(*this, FD, Depth);
    return returned(FD, [&](const Expr *Ret) { return E.value(Ret); });
  });
}

const FunctionDecl *
ActivationAnalysis::followable(const FunctionDecl *FD) const {
  if (const FunctionDecl *Def = userDefinition(FD, SM))
    return Def;
  if (Config.Program && mayBeElsewhere(FD, SM))
    if (const RemoteFunction *R = Config.Program->find(FD))
      if (R->Returns)
        return FD->getCanonicalDecl();
  return nullptr;
}

Activation ActivationAnalysis::remoteReturn(const FunctionDecl *FD) const {
  const RemoteFunction *R = Config.Program ? Config.Program->find(FD) : nullptr;
  if (!R || !R->Returns)
    return unknown();
  Activation A;
  A.Kind = R->Returns->Kind;
  A.Op = R->Returns->Op;
  A.ParamIndex = R->Returns->ParamIndex;
  A.ThroughSequential = R->Returns->ThroughSequential;
  if (A.Kind != ActivationKind::Parameter)
    A.Remote = &R->Returns->Site;
  return A;
}

Activation ActivationAnalysis::factoryAt(const FunctionDecl *FD,
                                         unsigned Depth) {
  return SequentialFactories.get(FD, Depth, [&] {
    if (!moduleClassOf(FD->getReturnType(), Config.Types))
      return unknown();
    Evaluator E(*this, FD, Depth);
    return returned(FD, [&](const Expr *Ret) { return E.module(Ret); });
  });
}

const CXXRecordDecl *
ActivationAnalysis::moduleCall(const CallExpr *Call, const Expr **Object,
                               unsigned *FirstInput) const {
  const auto *MD = dyn_cast_or_null<CXXMethodDecl>(Call->getDirectCallee());
  if (!MD)
    return nullptr;
  const Expr *Obj = memberCallObject(Call);
  if (!Obj)
    return nullptr;
  unsigned First = 0;
  if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(Call)) {
    if (OC->getOperator() != OO_Call)
      return nullptr;
    First = 1;
    // `holder(x)` goes through ModuleHolder::operator(); a module's own
    // operator() defined in user code is an ordinary method.
    if (!holderImpl(MD->getParent()) && !definedInSystemHeader(MD, SM))
      return nullptr;
  } else if (!hasName(MD, "forward")) {
    return nullptr;
  }
  const CXXRecordDecl *Impl = moduleClassOf(Obj->getType(), Config.Types);
  if (!Impl)
    return nullptr;
  if (Object)
    *Object = Obj;
  if (FirstInput)
    *FirstInput = First;
  return Impl;
}

unsigned ActivationAnalysis::referenceCount(const VarDecl *VD) {
  const auto *Owner =
      dyn_cast_or_null<FunctionDecl>(VD ? VD->getDeclContext() : nullptr);
  if (!Owner)
    return ~0U;
  const WriteMap &M = writesIn(Owner);
  auto It = M.Decls.find(VD);
  return It == M.Decls.end() ? 0 : It->second.References;
}

const DeclStmt *ActivationAnalysis::soleDeclaration(const VarDecl *VD) {
  const auto *Owner =
      dyn_cast_or_null<FunctionDecl>(VD ? VD->getDeclContext() : nullptr);
  if (!Owner)
    return nullptr;
  const WriteMap &M = writesIn(Owner);
  auto It = M.Decls.find(VD);
  if (It == M.Decls.end() || !It->second.Stmt ||
      !It->second.Stmt->isSingleDecl())
    return nullptr;
  return It->second.Stmt;
}

//===----------------------------------------------------------------------===//
// Describing
//===----------------------------------------------------------------------===//

SourceLocation sourceLocation(const Activation &A, const SourceManager &SM) {
  if (A.Where)
    return A.Where->getBeginLoc();
  if (A.Remote)
    return remoteLocation(SM, *A.Remote);
  return {};
}

std::string describeActivationOp(const Activation &A) {
  if (A.Remote && !A.Remote->What.empty())
    return A.Remote->What;
  if (const auto *RD = dyn_cast_or_null<CXXRecordDecl>(A.Decl)) {
    std::string Name = RD->getQualifiedNameAsString();
    llvm::StringRef N(Name);
    N.consume_back("Impl");
    return "a '" + N.str() + "' layer";
  }
  if (const auto *MD = dyn_cast_or_null<CXXMethodDecl>(A.Decl))
    if (isTensorClass(MD->getParent()))
      return "'." + MD->getNameAsString() + "()'";
  if (const auto *FD = dyn_cast_or_null<FunctionDecl>(A.Decl)) {
    const DeclContext *Ctx = FD->getDeclContext();
    while (Ctx && Ctx->isInlineNamespace())
      Ctx = Ctx->getParent();
    const auto *NS = dyn_cast_or_null<NamespaceDecl>(Ctx);
    // at:: functions are spelt torch:: in user code.
    if (NS && hasQualifiedName(NS, "at"))
      return "'torch::" + FD->getNameAsString() + "'";
    return "'" + FD->getQualifiedNameAsString() + "'";
  }
  switch (A.Op) {
  case AO::Linear:
    return "a linear layer";
  case AO::Conv:
    return "a convolution";
  case AO::Matmul:
    return "a matrix product";
  case AO::Sigmoid:
    return "a sigmoid";
  case AO::Softmax:
    return "a softmax";
  case AO::LogSoftmax:
    return "a log_softmax";
  case AO::LogSigmoid:
    return "a logsigmoid";
  case AO::Custom:
    return "a configured layer";
  case AO::None:
    break;
  }
  return "an unknown operation";
}

std::string describeActivationSource(const Activation &A) {
  std::string Op = describeActivationOp(A);
  if (A.Via) {
    std::string Fn = "a lambda";
    if (const auto *MD = dyn_cast<CXXMethodDecl>(A.Via)) {
      if (!MD->getParent()->isLambda())
        Fn = "'" + MD->getParent()->getNameAsString() +
             "::" + MD->getNameAsString() + "()'";
    } else {
      Fn = "'" + A.Via->getNameAsString() + "()'";
    }
    if (A.Remote)
      return Fn + ", which ends in " + Op + " (" +
             describeRemoteSite(*A.Remote) + ")";
    return Fn + ", which ends in " + Op;
  }
  if (A.ThroughSequential)
    return "a 'torch::nn::Sequential' whose last module is " + Op;
  return Op;
}

} // namespace torch_tidy
