//===--- ModuleModel.cpp - what a torch::nn::Module subclass holds --------===//
#include "torch-tidy/ModuleModel.h"
#include "torch-tidy/Anchor.h"
#include "torch-tidy/Compat.h"
#include "torch-tidy/EvaluationOrder.h"
#include "torch-tidy/WholeProgram.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/SmallPtrSet.h"

using namespace clang;

namespace torch_tidy {

bool ModuleMember::registeredBy(unsigned Setup) const {
  return llvm::is_contained(RegisteredBy, Setup);
}

const ModuleMember *ModuleModel::member(const FieldDecl *FD) const {
  // Members holds every field of Class in declaration order (build()), so a
  // field of Class is found at its index, without a scan per question.
  if (FD && Class && FD->getParent() == Class) {
    unsigned I = FD->getFieldIndex();
    if (I < Members.size() && Members[I].Field == FD)
      return &Members[I];
  }
  for (const ModuleMember &M : Members)
    if (M.Field == FD)
      return &M;
  return nullptr;
}

//===----------------------------------------------------------------------===//
// Types of members and values
//===----------------------------------------------------------------------===//

static bool isSharedPtr(QualType T) {
  return hasQualifiedName(recordOf(T), "std::shared_ptr");
}

static bool isHolderType(QualType T) {
  return holderImpl(recordOf(T)) != nullptr;
}

MemberKind
ModuleModels::scalarMemberKind(QualType T,
                               const CXXRecordDecl **ModuleClass) const {
  if (ModuleClass)
    *ModuleClass = nullptr;
  if (T.isNull() || T->isReferenceType() || T->isPointerType())
    return MemberKind::Config;
  if (isTensorType(T))
    return MemberKind::Tensor;
  const CXXRecordDecl *RD = T->getAsCXXRecordDecl();
  if (!RD)
    return MemberKind::Config;
  if (const CXXRecordDecl *Impl = holderImpl(RD)) {
    if (ModuleClass)
      *ModuleClass = Impl;
    return MemberKind::Holder;
  }
  if (isSharedPtr(T)) {
    const CXXRecordDecl *Pointee = pointeeClass(T);
    if (isModuleClass(Pointee, Config.Types)) {
      if (ModuleClass)
        *ModuleClass = Pointee;
      return MemberKind::SharedModule;
    }
  }
  return MemberKind::Config;
}

/// The element type of a `std::vector`, `std::array` or C array \p T.
static QualType arrayElement(QualType T) {
  if (T.isNull())
    return QualType();
  if (const auto *AT = dyn_cast<ConstantArrayType>(T.getCanonicalType()))
    return AT->getElementType();
  const auto *Spec = dyn_cast_or_null<ClassTemplateSpecializationDecl>(
      T->getAsCXXRecordDecl());
  if (!Spec || !Spec->isInStdNamespace() || !Spec->getIdentifier() ||
      (Spec->getName() != "vector" && Spec->getName() != "array") ||
      Spec->getTemplateArgs().size() < 1 ||
      Spec->getTemplateArgs()[0].getKind() != TemplateArgument::Type)
    return QualType();
  return Spec->getTemplateArgs()[0].getAsType();
}

MemberKind ModuleModels::memberKind(QualType T,
                                    const CXXRecordDecl **ModuleClass) const {
  MemberKind K = scalarMemberKind(T, ModuleClass);
  if (K != MemberKind::Config)
    return K;
  QualType E = arrayElement(T);
  if (E.isNull() || E->isReferenceType() || E->isPointerType())
    return K;
  K = scalarMemberKind(E, ModuleClass);
  if (K == MemberKind::Holder || K == MemberKind::SharedModule)
    return MemberKind::ModuleArray;
  if (ModuleClass)
    *ModuleClass = nullptr;
  return MemberKind::Config;
}

std::optional<RegistrationKind>
ModuleModels::registrationKind(const CallExpr *Call) const {
  const FunctionDecl *FD = Call ? Call->getDirectCallee() : nullptr;
  if (!FD)
    return std::nullopt;
  if (const auto *MD = dyn_cast<CXXMethodDecl>(FD)) {
    if (hasQualifiedName(MD->getParent(), "torch::nn::Module")) {
      if (hasName(MD, "register_parameter"))
        return RegistrationKind::Parameter;
      if (hasName(MD, "register_buffer"))
        return RegistrationKind::Buffer;
      if (hasName(MD, "register_module") || hasName(MD, "replace_module"))
        return RegistrationKind::Module;
    }
  }
  if (matchesFunctionList(FD, Config.RegistrationFunctions))
    return RegistrationKind::Custom;
  return std::nullopt;
}

bool isStatelessModuleClass(const CXXRecordDecl *RD,
                            const ModuleModelConfig &Config) {
  if (!RD)
    return false;
  // LibTorch modules that register nothing and ignore is_training(). Not
  // here: PReLU (a parameter), RReLU (random in training), FractionalMaxPool
  // (a buffer), Dropout and the norms (train/eval), losses (weight buffers).
  static const llvm::StringRef Stateless[] = {
      "torch::nn::ReLUImpl",
      "torch::nn::ReLU6Impl",
      "torch::nn::LeakyReLUImpl",
      "torch::nn::ELUImpl",
      "torch::nn::SELUImpl",
      "torch::nn::CELUImpl",
      "torch::nn::GELUImpl",
      "torch::nn::SiLUImpl",
      "torch::nn::MishImpl",
      "torch::nn::GLUImpl",
      "torch::nn::SigmoidImpl",
      "torch::nn::LogSigmoidImpl",
      "torch::nn::TanhImpl",
      "torch::nn::TanhshrinkImpl",
      "torch::nn::HardtanhImpl",
      "torch::nn::HardshrinkImpl",
      "torch::nn::SoftshrinkImpl",
      "torch::nn::SoftplusImpl",
      "torch::nn::SoftsignImpl",
      "torch::nn::ThresholdImpl",
      "torch::nn::SoftmaxImpl",
      "torch::nn::SoftminImpl",
      "torch::nn::LogSoftmaxImpl",
      "torch::nn::Softmax2dImpl",
      "torch::nn::AvgPoolImpl",
      "torch::nn::MaxPoolImpl",
      "torch::nn::AdaptiveAvgPoolImpl",
      "torch::nn::AdaptiveMaxPoolImpl",
      "torch::nn::MaxUnpoolImpl",
      "torch::nn::LPPoolImpl",
      "torch::nn::ReflectionPadImpl",
      "torch::nn::ReplicationPadImpl",
      "torch::nn::ConstantPadImpl",
      "torch::nn::ZeroPad2dImpl",
      "torch::nn::UpsampleImpl",
      "torch::nn::PixelShuffleImpl",
      "torch::nn::PixelUnshuffleImpl",
      "torch::nn::IdentityImpl",
      "torch::nn::FlattenImpl",
      "torch::nn::UnflattenImpl",
      "torch::nn::FoldImpl",
      "torch::nn::UnfoldImpl",
      "torch::nn::CosineSimilarityImpl",
      "torch::nn::PairwiseDistanceImpl",
      "torch::nn::FunctionalImpl",
  };
  return isSameOrDerivedFromAny(RD, Stateless) ||
         isSameOrDerivedFromAny(RD, Config.StatelessModuleClasses);
}

bool isModeOnlyModuleClass(const CXXRecordDecl *RD) {
  if (!RD)
    return false;
  static const llvm::StringRef Dropouts[] = {
      "torch::nn::DropoutImpl",
      "torch::nn::Dropout2dImpl",
      "torch::nn::Dropout3dImpl",
      "torch::nn::AlphaDropoutImpl",
      "torch::nn::FeatureAlphaDropoutImpl",
  };
  return isSameOrDerivedFromAny(RD, Dropouts);
}

/// `torch::nn::Sequential`, `ModuleList`, `ModuleDict` (holders or Impls)
/// register the modules added to them; `ParameterList` and `ParameterDict`
/// register the tensors.
static std::optional<RegistrationKind>
containerKindUncached(const CXXRecordDecl *RD) {
  if (!RD)
    return std::nullopt;
  if (const CXXRecordDecl *Impl = holderImpl(RD))
    RD = Impl;
  static const llvm::StringRef ModuleContainers[] = {
      "torch::nn::SequentialImpl", "torch::nn::ModuleListImpl",
      "torch::nn::ModuleDictImpl"};
  static const llvm::StringRef ParameterContainers[] = {
      "torch::nn::ParameterListImpl", "torch::nn::ParameterDictImpl"};
  if (isSameOrDerivedFromAny(RD, ModuleContainers))
    return RegistrationKind::Module;
  if (isSameOrDerivedFromAny(RD, ParameterContainers))
    return RegistrationKind::Parameter;
  return std::nullopt;
}

static std::optional<RegistrationKind>
containerAddKind(const CallExpr *Call, const ModuleModels &Models) {
  const auto *MD = dyn_cast_or_null<CXXMethodDecl>(Call->getDirectCallee());
  if (!MD || !MD->getIdentifier())
    return std::nullopt;
  llvm::StringRef N = MD->getName();
  if (N != "push_back" && N != "insert" && N != "extend" && N != "update" &&
      N != "append")
    return std::nullopt;
  return Models.containerKind(MD->getParent());
}

/// The local variable, not a module container, that \p Call adds to:
/// `v.push_back(x)`, `v.emplace_back("a", a.ptr())`, `dict.insert("a", x)` on
/// a class of the standard library or LibTorch's `OrderedDict`.
static const VarDecl *localContainerAdd(const CallExpr *Call,
                                        const ModuleModels &Models) {
  const auto *MC = dyn_cast<CXXMemberCallExpr>(Call);
  const CXXMethodDecl *MD = MC ? MC->getMethodDecl() : nullptr;
  if (!MD || !MD->getIdentifier() || Models.containerKind(MD->getParent()))
    return nullptr;
  llvm::StringRef N = MD->getName();
  if (N != "push_back" && N != "emplace_back" && N != "insert" &&
      N != "emplace" && N != "push_front" && N != "emplace_front")
    return nullptr;
  const CXXRecordDecl *RD = MD->getParent();
  if (!RD->isInStdNamespace() && !hasQualifiedName(RD, "torch::OrderedDict"))
    return nullptr;
  const auto *DRE = dyn_cast<DeclRefExpr>(
      stripExpr(MC->getImplicitObjectArgument(), Strip::Temporaries));
  const auto *VD = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
  return VD && VD->hasLocalStorage() && !isa<ParmVarDecl>(VD) ? VD : nullptr;
}

/// The elements \p E adds to a container: \p E itself, or the parts of a
/// pair built in place (`{"a", a.ptr()}`, `std::make_pair("a", a)`).
static void elementsOf(const Expr *E,
                       llvm::SmallVectorImpl<const Expr *> &Out) {
  E = stripExpr(E, Strip::Temporaries | Strip::Conversions);
  if (const auto *IL = dyn_cast_or_null<InitListExpr>(E)) {
    Out.append(IL->inits().begin(), IL->inits().end());
    return;
  }
  const CXXRecordDecl *RD = E ? recordOf(E->getType()) : nullptr;
  if (RD && hasQualifiedName(RD, "std::pair")) {
    if (const auto *CE = dyn_cast<CXXConstructExpr>(E)) {
      Out.append(CE->arguments().begin(), CE->arguments().end());
      return;
    }
    if (const auto *Call = dyn_cast<CallExpr>(E))
      if (hasQualifiedName(Call->getDirectCallee(), "std::make_pair")) {
        Out.append(Call->arguments().begin(), Call->arguments().end());
        return;
      }
  }
  if (E)
    Out.push_back(E);
}

/// `requires_grad_()`, `set_requires_grad(true)` on a tensor, or
/// `requires_grad(true)` making tensor options.
static bool isRequiresGradCall(const CallExpr *Call) {
  const FunctionDecl *FD = Call->getDirectCallee();
  if (!FD || !FD->getIdentifier())
    return false;
  llvm::StringRef N = FD->getName();
  if (N != "requires_grad_" && N != "set_requires_grad" && N != "requires_grad")
    return false;
  const auto *MD = dyn_cast<CXXMethodDecl>(FD);
  if (N == "requires_grad") {
    // torch::requires_grad(bool = true), TensorOptions::requires_grad(optional<bool>);
    // Tensor::requires_grad() is a query.
    if (MD && isTensorClass(MD->getParent()))
      return false;
  } else if (!MD || !isTensorClass(MD->getParent())) {
    return false;
  }
  unsigned First = isa<CXXOperatorCallExpr>(Call) ? 1 : 0;
  if (Call->getNumArgs() <= First)
    return N != "set_requires_grad";
  return literalBool(Call->getArg(First)).value_or(false);
}

static bool mentionsRequiresGrad(const Stmt *S) {
  if (!S || isa<LambdaExpr>(S))
    return false;
  if (const auto *Call = dyn_cast<CallExpr>(S))
    if (isRequiresGradCall(Call))
      return true;
  if (const auto *D = dyn_cast<CXXDefaultArgExpr>(S))
    return mentionsRequiresGrad(D->getExpr());
  if (const auto *D = dyn_cast<CXXDefaultInitExpr>(S))
    return mentionsRequiresGrad(D->getExpr());
  for (const Stmt *Child : S->children())
    if (mentionsRequiresGrad(Child))
      return true;
  return false;
}

static ValueKind combine(ValueKind A, ValueKind B) {
  if (A == B)
    return A;
  if (A == ValueKind::Null)
    return B;
  if (B == ValueKind::Null)
    return A;
  return ValueKind::Unknown;
}

/// The literal name of a registration (`"fc"`), or the literal prefix of a
/// computed one (`"layer" + std::to_string(i)` gives `layer`).
static void registrationName(const Expr *E, std::string &Name, bool &Literal) {
  Name.clear();
  Literal = false;
  E = stripExpr(E, Strip::WrappedValue);
  if (const auto *SL = dyn_cast_or_null<StringLiteral>(E)) {
    if (SL->getCharByteWidth() == 1)
      Name = SL->getString().str();
    Literal = SL->getCharByteWidth() == 1;
    return;
  }
  if (const auto *OC = dyn_cast_or_null<CXXOperatorCallExpr>(E))
    if (OC->getOperator() == OO_Plus && OC->getNumArgs() == 2) {
      bool L = false;
      registrationName(OC->getArg(0), Name, L);
    }
}

//===----------------------------------------------------------------------===//
// The walker
//===----------------------------------------------------------------------===//

namespace {

/// What a helper's parameters and `this` stand for at one call.
struct Frame {
  const FunctionDecl *Fn = nullptr;
  bool ThisIsSelf = false;
  llvm::DenseMap<const ParmVarDecl *, const FieldDecl *> ParamField;
  llvm::DenseMap<const ParmVarDecl *, const VarDecl *> ParamLocal;
  llvm::SmallPtrSet<const ParmVarDecl *, 2> SelfParams;
  llvm::SmallPtrSet<const ParmVarDecl *, 2> UntracedParams;
  unsigned Depth = 0;
  /// The outermost call (written in the root) through which this frame was reached.
  const Expr *Site = nullptr;
};

/// What an argument handed to a registration designates.
struct Trace {
  enum Kind { Field, Other, Untraced } K = Untraced;
  const FieldDecl *F = nullptr;
};

/// What ModuleModels shares with the walks of each model.
struct SharedFacts {
  llvm::DenseMap<const FunctionDecl *, ValueKind> &ReturnKinds;
};

/// What every walk of one model shares: the model being filled and its
/// members' index, the depth bound and the functions being read, and the
/// range of each range-for loop variable met.
struct ModelState {
  ModelState(const ModuleModels &Models, clang::ASTContext &Ctx,
             SharedFacts Shared, ModuleModel &Model)
      : Models(Models), Ctx(Ctx), Shared(Shared), Model(Model),
        SM(Ctx.getSourceManager()), Engine(Models.config().MaxCallDepth) {}

  ModuleMember *memberOf(const FieldDecl *FD) {
    auto It = Index.find(FD);
    return It == Index.end() ? nullptr : &Model.Members[It->second];
  }
  bool isArrayField(const FieldDecl *FD) const {
    return FD &&
           Models.memberKind(FD->getType(), nullptr) == MemberKind::ModuleArray;
  }

  const ModuleModels &Models;
  clang::ASTContext &Ctx;
  SharedFacts Shared;
  ModuleModel &Model;
  const SourceManager &SM;
  llvm::DenseMap<const FieldDecl *, unsigned> Index;
  /// The depth bound and the functions being read (recursion guard); nothing
  /// is memoised: what a helper does depends on what its arguments designate.
  SummaryEngine Engine;
  /// The range of each range-for loop variable met.
  llvm::DenseMap<const VarDecl *, const Expr *> RangeOf;
};

class ModelWalker;

/// What a walk records of the facts the walker finds: the setup table
/// (SetupTable), the uses of members in methods (MethodUses), or nothing but
/// the locals a helper registers (ReturnScratch). Each says only what it
/// keeps; the walker does not know which one it serves.
class Recorder {
public:
  virtual ~Recorder() = default;
  /// Whether registrations are recorded at all (their locals are marked
  /// either way).
  virtual bool recordsRegistrations() const { return true; }
  /// Stamps a registration with the setup function it belongs to.
  virtual void stamp(Registration &) {}
  /// A registration of own member \p M was recorded.
  virtual void registeredMember(ModuleMember &) {}
  /// A name handed to a registration.
  virtual void named(const ModuleModel::NameUse &) {}
  /// Code that may register anything was not read.
  virtual void opaque() {}
  /// Something was registered that cannot be traced to a member.
  virtual void untraced() {}
  /// Whether a lambda written here counts wherever it runs (rather than when
  /// a call runs it).
  virtual bool readsLambdasWhereWritten() const { return false; }
  /// `member = RHS` (or an element of a member array, \p Element).
  virtual void stored(ModelWalker &, const Expr * /*Whole*/, const FieldDecl *,
                      const Expr * /*RHS*/, bool /*Element*/, Frame &) {}
  /// A store a function of another file makes, as its summary says.
  virtual void remoteStored(const FieldDecl *, const MemberStore &) {}
  /// An element added to member array \p M by \p Call.
  virtual void elementAdded(ModelWalker &, const CallExpr *, ModuleMember &,
                            Frame &) {}
  /// A `requires_grad` call on something.
  virtual void requiresGradCall(ModelWalker &, const CallExpr *, Frame &) {}
  /// A helper whose body is read next.
  virtual void helperEntered(const FunctionDecl *) {}
  /// A member named in the code read.
  virtual void memberNamed(ModelWalker &, const MemberExpr *, const Frame &) {}
};

/// Walks the code of one model from one root (a constructor, reset(), a
/// method, a helper read for its return value), following helpers and
/// lambdas in frames of their own, and tells its Recorder what it finds:
/// stores into members, registrations and what they register, uses.
class ModelWalker : public EvaluationOrderWalker<ModelWalker> {
  friend class EvaluationOrderWalker<ModelWalker>;

public:
  ModelWalker(ModelState &S, Recorder &Rec, const FunctionDecl *Root)
      : MS(S), Rec(Rec), Root(Root) {}

  /// Walks \p St with \p F as the frame of the function being read. Whether
  /// the code is conditional or in a loop is the walker's state.
  void walkIn(const Stmt *St, Frame &F) {
    Frame *Saved = Cur;
    Cur = &F;
    walk(St);
    Cur = Saved;
  }

  ModelState &state() { return MS; }
  const FunctionDecl *root() const { return Root; }
  bool isSelf(const Expr *E, const Frame &F, unsigned Depth = 0) const;
  Trace trace(const Expr *E, const Frame &F, bool MarkLocals,
              unsigned Depth = 0);
  bool registeredLocal(const VarDecl *VD) const {
    return RegisteredLocals.count(VD);
  }
  /// The ModuleArray member an element is added to by \p Call
  /// (`layers.push_back(x)`, `layers.emplace_back(4, 4)`), or null.
  const FieldDecl *arrayAddTarget(const CallExpr *Call, const Frame &F) const;
  bool inLoop() const { return LoopDepth > 0; }
  using EvaluationOrderWalker::isConditional;
  /// A store written at \p At in frame \p F, where the walk is now: the
  /// outermost call of the frame's chain, how conditional, whether in a loop.
  MemberStore storeHere(const Frame &F, const Expr *At) const {
    MemberStore S;
    S.Site = F.Site ? F.Site : At;
    S.In = F.Fn;
    S.Conditional = isConditional();
    S.InLoop = inLoop();
    S.Direct = F.Depth == 0;
    return S;
  }
  /// A walker reading a helper on its own for \p Scratch, knowing the locals
  /// \p Caller has seen registered and filled.
  ModelWalker(const ModelWalker &Caller, Recorder &Scratch)
      : MS(Caller.MS), Rec(Scratch), Root(Caller.Root),
        RegisteredLocals(Caller.RegisteredLocals),
        LocalContents(Caller.LocalContents) {}

private:
  const FieldDecl *storeTarget(const Expr *LHS, const Frame &F) const;
  /// The container \p E is an element of: `a[i]`, `a.at(i)`, `a.back()`,
  /// `a.front()`, the variable of a range-for over `a`; else null.
  const Expr *arrayOfElement(const Expr *E) const;
  void addRegistration(const FieldDecl *FD, bool Own, RegistrationKind K,
                       const Expr *Call, const Frame &F);

  bool visit(const Stmt *S);
  void loop(const Stmt *L, llvm::ArrayRef<const Stmt *> Parts) {
    ++LoopDepth;
    EvaluationOrderWalker::loop(L, Parts);
    --LoopDepth;
  }
  void lambda(const LambdaExpr *L) {
    // During construction a lambda runs when called (handleCall follows it);
    // elsewhere its uses of members count wherever it runs.
    if (Rec.readsLambdasWhereWritten())
      walkLambda(L, *Cur, L);
  }
  void handleStore(const Expr *Whole, const Expr *LHS, const Expr *RHS,
                   Frame &F);
  void handleCall(const CallExpr *Call, Frame &F);
  bool remoteCall(const CallExpr *Call, const FunctionDecl *FD, unsigned Offset,
                  bool CalleeThisIsSelf, const Frame &F);
  const FieldDecl *memberNamed(llvm::StringRef Name) const;
  void registerArgs(const Expr *Call, llvm::ArrayRef<const Expr *> Args,
                    RegistrationKind K, bool AnyArg, Frame &F);
  void walkLambda(const LambdaExpr *L, const Frame &F, const Expr *Site);

  ModelState &MS;
  Recorder &Rec;
  const FunctionDecl *Root = nullptr;
  Frame *Cur = nullptr; ///< the frame walkIn set for the statement being walked
  unsigned LoopDepth = 0; ///< loops (and lambdas run elsewhere) around it
  /// Helper bodies walked for the root, and the budget.
  unsigned HelperWalks = 0;
  static constexpr unsigned MaxHelperWalks = 1000;
  /// Locals handed to a registration during the walk (VarDecls are unique,
  /// so one set serves every frame).
  llvm::SmallPtrSet<const VarDecl *, 8> RegisteredLocals;
  /// What was added to local containers that are not modules themselves
  /// (`std::vector`, `torch::OrderedDict`, ...) during the walk: a
  /// registering container built from or updated with one registers them.
  llvm::DenseMap<const VarDecl *, llvm::SmallVector<const Expr *, 4>>
      LocalContents;
  /// The locals whose contents are being registered (a container of itself).
  llvm::SmallPtrSet<const VarDecl *, 4> ContentsInProgress;
};

/// What an expression stored into a member is (a registration, a fresh
/// object, one borrowed from elsewhere, null), read where walker \p W stands.
class ValueClassifier {
public:
  explicit ValueClassifier(ModelWalker &W) : W(W), MS(W.state()) {}

  ValueKind classify(const Expr *E, const Frame &F, const VarDecl **Local,
                     unsigned Depth = 0);
  /// classify() for what a ModuleArray member is initialised or assigned
  /// with as a whole: the elements of a list, nothing for an empty container.
  ValueKind classifyElements(const Expr *E, const Frame &F, unsigned Depth = 0);

  /// Classifies the value a helper returns (for `fc = make_fc(*this)`).
  ValueKind returnKind(const FunctionDecl *Def);

private:
  ModelWalker &W;
  ModelState &MS;
};

/// A helper read on its own for what it returns: records nothing, but the
/// walk marks the locals it registers.
class ReturnScratch : public Recorder {
public:
  bool recordsRegistrations() const override { return false; }
};

/// The setup table of one setup function (a constructor or reset()): which
/// member gets which value, what it registers, whether it was read whole.
class SetupTable : public Recorder {
public:
  SetupTable(ModelState &S, unsigned Idx)
      : MS(S), Idx(Idx), Setup(S.Model.Setups[Idx]),
        W(S, *this, Setup.Definition ? Setup.Definition : Setup.Decl) {}

  /// Reads the setup function and fills its column of every member's stores.
  void read();
  /// Reads the setup function as a helper one call below a constructor,
  /// handed the object as \p Self (or as `this` when null).
  void readHelper(const ParmVarDecl *Self);

  void stamp(Registration &R) override {
    R.InSetup = true;
    R.Setup = static_cast<int>(Idx);
  }
  void registeredMember(ModuleMember &M) override {
    if (!llvm::is_contained(M.RegisteredBy, Idx))
      M.RegisteredBy.push_back(Idx);
  }
  void named(const ModuleModel::NameUse &N) override {
    MS.Model.RegisteredNames.push_back(N);
  }
  void opaque() override { MS.Model.Setups[Idx].Opaque = true; }
  void untraced() override { MS.Model.Setups[Idx].Opaque = true; }
  void stored(ModelWalker &W, const Expr *Whole, const FieldDecl *FD,
              const Expr *RHS, bool Element, Frame &F) override;
  void elementAdded(ModelWalker &W, const CallExpr *Call, ModuleMember &M,
                    Frame &F) override;
  void remoteStored(const FieldDecl *FD, const MemberStore &St) override {
    recordStore(FD, St, nullptr);
  }
  void requiresGradCall(ModelWalker &W, const CallExpr *Call,
                        Frame &F) override;
  void helperEntered(const FunctionDecl *Def) override {
    MS.Model.SetupReached.insert(Def);
  }

private:
  void walkCtor(const CXXConstructorDecl *Def, Frame &F);
  void synthesizeInits(Frame &F);
  void recordStore(const FieldDecl *FD, MemberStore St, const VarDecl *Local);
  /// The parameter of the constructor being read that \p E is (a copy or a
  /// move of), or null.
  const ParmVarDecl *setupParam(const Expr *E, const Frame &F) const;
  void finish();

  ModelState &MS;
  unsigned Idx;
  SetupFunction &Setup;
  ModelWalker W;
  /// Stores whose value is a local, resolved at the end.
  llvm::SmallVector<std::pair<std::pair<unsigned, unsigned>, const VarDecl *>,
                    4>
      PendingLocals;
};

/// The uses of members in a method other than a setup function, and what it
/// registers or stores after construction.
class MethodUses : public Recorder {
public:
  explicit MethodUses(ModelState &S) : MS(S) {}

  void named(const ModuleModel::NameUse &N) override {
    MS.Model.RegisteredNames.push_back(N);
  }
  void untraced() override { MS.Model.UntracedRegistration = true; }
  bool readsLambdasWhereWritten() const override { return true; }
  void stored(ModelWalker &, const Expr *, const FieldDecl *FD, const Expr *,
              bool, Frame &) override {
    if (ModuleMember *M = MS.memberOf(FD))
      M->StoredAfterSetup = true;
  }
  void elementAdded(ModelWalker &, const CallExpr *, ModuleMember &M,
                    Frame &) override {
    M.StoredAfterSetup = true;
  }
  void remoteStored(const FieldDecl *FD, const MemberStore &) override {
    if (ModuleMember *M = MS.memberOf(FD))
      M->StoredAfterSetup = true;
  }
  void memberNamed(ModelWalker &W, const MemberExpr *ME,
                   const Frame &F) override {
    if (W.isSelf(ME->getBase(), F))
      if (const auto *FD = dyn_cast<FieldDecl>(ME->getMemberDecl()))
        if (ModuleMember *M = MS.memberOf(FD))
          M->Uses.push_back({ME, F.Fn});
  }

private:
  ModelState &MS;
};

/// Builds the model of one class: its members, its setup functions (each
/// read into a SetupTable), then its other methods (MethodUses).
class ModelBuilder {
public:
  ModelBuilder(const ModuleModels &Models, clang::ASTContext &Ctx,
               SharedFacts Shared, ModuleModel &Model)
      : MS(Models, Ctx, Shared, Model) {}

  void build();
  /// The model of what \p Def does to the object handed to it as \p Self
  /// (`this` when null): one setup, \p Def read as a helper.
  void buildHelper(const FunctionDecl *Def, const ParmVarDecl *Self);

private:
  void members();
  ModelState MS;
};
} // namespace

void ModelWalker::addRegistration(const FieldDecl *FD, bool Own,
                                  RegistrationKind K, const Expr *Call,
                                  const Frame &F) {
  Registration R;
  R.Kind = K;
  R.Call = Call;
  R.Site = F.Site ? F.Site : Call;
  R.Root = Root;
  R.Class = MS.Model.Class;
  Rec.stamp(R);
  MS.Model.FoundRegistrations.push_back({FD, R});
  if (ModuleMember *M = Own ? MS.memberOf(FD) : nullptr) {
    M->Registrations.push_back(R);
    Rec.registeredMember(*M);
  }
}

bool ModelWalker::isSelf(const Expr *E, const Frame &F, unsigned Depth) const {
  while (E) {
    E = E->IgnoreParenImpCasts();
    if (const auto *UO = dyn_cast<UnaryOperator>(E)) {
      if (UO->getOpcode() == UO_Deref || UO->getOpcode() == UO_AddrOf) {
        E = UO->getSubExpr();
        continue;
      }
    }
    break;
  }
  if (!E)
    return false;
  if (isa<CXXThisExpr>(E))
    return F.ThisIsSelf;
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
    if (const auto *P = dyn_cast<ParmVarDecl>(DRE->getDecl()))
      return F.SelfParams.count(P);
    // `auto &self = *this;`
    if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl()))
      if (VD->hasLocalStorage() && VD->getInit() && Depth < 4 &&
          (VD->getType()->isReferenceType() || VD->getType()->isPointerType()))
        return isSelf(VD->getInit(), F, Depth + 1);
  }
  return false;
}

Trace ModelWalker::trace(const Expr *E, const Frame &F, bool MarkLocals,
                         unsigned Depth) {
  Trace T;
  E = stripExpr(E, Strip::SameHandle);
  if (!E || Depth > 8)
    return T;
  if (const auto *UO = dyn_cast<UnaryOperator>(E))
    if (UO->getOpcode() == UO_Deref)
      return trace(UO->getSubExpr(), F, MarkLocals, Depth + 1);
  // `register_module("fc", fc = torch::nn::Linear(4, 4))` registers fc.
  if (const auto *BO = dyn_cast<BinaryOperator>(E))
    if (BO->getOpcode() == BO_Assign)
      return trace(BO->getLHS(), F, MarkLocals, Depth + 1);
  if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(E))
    if (OC->getOperator() == OO_Equal && OC->getNumArgs() == 2)
      return trace(OC->getArg(0), F, MarkLocals, Depth + 1);
  // An element of a member array of modules stands for the member.
  if (const Expr *Array = arrayOfElement(E)) {
    Trace A = trace(Array, F, /*MarkLocals=*/false, Depth + 1);
    if (A.K == Trace::Field && MS.isArrayField(A.F))
      return A;
  }
  if (const auto *ME = dyn_cast<MemberExpr>(E)) {
    const auto *FD = dyn_cast<FieldDecl>(ME->getMemberDecl());
    if (!FD)
      return T;
    if (isSelf(ME->getBase(), F)) {
      T.K = Trace::Field;
      T.F = FD;
      return T;
    }
    // A member of another module (`child->fc`): registered, but not ours.
    // Members of anything else (`kv.second` of a pair) are not traced.
    const auto *Parent = dyn_cast<CXXRecordDecl>(FD->getParent());
    if (Parent && isModuleClass(Parent, MS.Models.config().Types)) {
      T.K = Trace::Other;
      T.F = FD;
    }
    return T;
  }
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
    const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
    if (!VD)
      return T;
    if (const auto *P = dyn_cast<ParmVarDecl>(VD)) {
      auto PF = F.ParamField.find(P);
      if (PF != F.ParamField.end()) {
        T.K = Trace::Field;
        T.F = PF->second;
        return T;
      }
      auto PL = F.ParamLocal.find(P);
      if (PL != F.ParamLocal.end()) {
        if (MarkLocals)
          RegisteredLocals.insert(PL->second);
        T.K = Trace::Other;
        return T;
      }
      if (F.UntracedParams.count(P))
        return T;
      T.K = Trace::Other;
      return T;
    }
    if (!VD->hasLocalStorage()) {
      T.K = Trace::Other;
      return T;
    }
    if (VD->isCXXForRangeDecl() || !VD->getInit())
      return T;
    if (MarkLocals)
      RegisteredLocals.insert(VD);
    return trace(VD->getInit(), F, MarkLocals, Depth + 1);
  }
  if (isa<CallExpr>(E) || isa<CXXConstructExpr>(E) ||
      isa<CXXNullPtrLiteralExpr>(E) || isa<InitListExpr>(E)) {
    T.K = Trace::Other;
    return T;
  }
  if (const auto *CO = dyn_cast<ConditionalOperator>(E)) {
    Trace A = trace(CO->getTrueExpr(), F, MarkLocals, Depth + 1);
    Trace B = trace(CO->getFalseExpr(), F, MarkLocals, Depth + 1);
    if (A.K == Trace::Other && B.K == Trace::Other)
      return A;
    if (A.K == Trace::Field && B.K == Trace::Field && A.F == B.F)
      return A;
    return T;
  }
  return T;
}

const FieldDecl *ModelWalker::storeTarget(const Expr *LHS,
                                          const Frame &F) const {
  LHS = LHS ? LHS->IgnoreParenImpCasts() : nullptr;
  if (const auto *ME = dyn_cast_or_null<MemberExpr>(LHS)) {
    if (isSelf(ME->getBase(), F))
      return dyn_cast<FieldDecl>(ME->getMemberDecl());
    return nullptr;
  }
  // An out-parameter bound to a member: `void build(Linear &out) { out = ...; }`.
  if (const auto *DRE = dyn_cast_or_null<DeclRefExpr>(LHS))
    if (const auto *P = dyn_cast<ParmVarDecl>(DRE->getDecl()))
      if (P->getType()->isReferenceType()) {
        auto It = F.ParamField.find(P);
        if (It != F.ParamField.end())
          return It->second;
      }
  return nullptr;
}

const Expr *ModelWalker::arrayOfElement(const Expr *E) const {
  E = E ? E->IgnoreParenImpCasts() : nullptr;
  if (!E)
    return nullptr;
  if (const auto *AS = dyn_cast<ArraySubscriptExpr>(E))
    return AS->getBase();
  if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(E))
    return OC->getOperator() == OO_Subscript && OC->getNumArgs() == 2
               ? OC->getArg(0)
               : nullptr;
  if (const auto *MC = dyn_cast<CXXMemberCallExpr>(E)) {
    const CXXMethodDecl *MD = MC->getMethodDecl();
    if (MD && MD->getIdentifier() && MD->getParent()->isInStdNamespace() &&
        compat::isOneOf({"at", "back", "front"}, MD->getName()))
      return MC->getImplicitObjectArgument();
    return nullptr;
  }
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E))
    if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl()))
      if (VD->isCXXForRangeDecl()) {
        auto It = MS.RangeOf.find(VD);
        return It == MS.RangeOf.end() ? nullptr : It->second;
      }
  return nullptr;
}

const FieldDecl *ModelWalker::arrayAddTarget(const CallExpr *Call,
                                             const Frame &F) const {
  const auto *MC = dyn_cast<CXXMemberCallExpr>(Call);
  const CXXMethodDecl *MD = MC ? MC->getMethodDecl() : nullptr;
  if (!MD || !MD->getIdentifier() || !MD->getParent()->isInStdNamespace() ||
      !compat::isOneOf({"push_back", "emplace_back", "insert", "emplace",
                        "push_front", "emplace_front"},
                       MD->getName()))
    return nullptr;
  const FieldDecl *FD = storeTarget(MC->getImplicitObjectArgument(), F);
  return MS.isArrayField(FD) ? FD : nullptr;
}

void SetupTable::elementAdded(ModelWalker &W, const CallExpr *Call,
                              ModuleMember &M, Frame &F) {
  const FieldDecl *FD = M.Field;
  const auto *MD = cast<CXXMemberCallExpr>(Call)->getMethodDecl();
  llvm::StringRef N = MD->getName();
  bool Emplace = compat::startsWith(N, "emplace");
  // `insert(pos, x)` and `emplace(pos, args...)` take a position first.
  unsigned First = (N == "insert" || N == "emplace") ? 1 : 0;
  unsigned NArgs = Call->getNumArgs() > First ? Call->getNumArgs() - First : 0;
  MemberStore St = W.storeHere(F, Call);
  const VarDecl *Local = nullptr;
  const Expr *Arg = NArgs == 1 ? Call->getArg(First) : nullptr;
  if (Arg && (!Emplace || isHandleType(Arg->getType()) ||
              Arg->getType()->isNullPtrType())) {
    St.Kind = ValueClassifier(W).classify(Arg, F, &Local);
    St.Value = Arg;
  } else if (Emplace) {
    // Built in place from constructor arguments: a new module, but for an
    // empty shared_ptr.
    St.Kind = NArgs == 0 && M.ModuleClass &&
                      !isHolderType(arrayElement(FD->getType()))
                  ? ValueKind::Null
                  : ValueKind::Fresh;
    St.Value = Call;
  } else {
    St.Kind = ValueKind::Unknown; // a range
    St.Value = Call;
  }
  St.Element = true;
  recordStore(FD, St, Local);
}

const ParmVarDecl *SetupTable::setupParam(const Expr *E, const Frame &F) const {
  const auto *DRE =
      dyn_cast_or_null<DeclRefExpr>(stripExpr(E, Strip::SameHandle));
  const auto *P = DRE ? dyn_cast<ParmVarDecl>(DRE->getDecl()) : nullptr;
  if (!P || F.Depth != 0)
    return nullptr;
  const FunctionDecl *Def = Setup.Definition;
  if (!Def || !isa<CXXConstructorDecl>(Def) || P->getDeclContext() != Def)
    return nullptr;
  return P;
}

ValueKind ValueClassifier::classifyElements(const Expr *E, const Frame &F,
                                            unsigned Depth) {
  E = stripExpr(E, Strip::SameHandle);
  if (!E || Depth > 8)
    return ValueKind::Unknown;
  if (isa<ImplicitValueInitExpr>(E))
    return ValueKind::Null;
  if (const auto *SIL = dyn_cast<CXXStdInitializerListExpr>(E))
    return classifyElements(SIL->getSubExpr(), F, Depth + 1);
  if (const auto *IL = dyn_cast<InitListExpr>(E)) {
    ValueKind K = ValueKind::Null;
    for (const Expr *I : IL->inits())
      K = combine(K, classifyElements(I, F, Depth + 1));
    return K;
  }
  if (isHandleType(E->getType()) || E->getType()->isNullPtrType())
    return classify(E, F, nullptr);
  if (const auto *CE = dyn_cast<CXXConstructExpr>(E)) {
    // `std::vector<Linear>{Linear(2, 2), ...}`, an empty container.
    unsigned Written = 0;
    for (const Expr *A : CE->arguments())
      if (!isa<CXXDefaultArgExpr>(A))
        ++Written;
    if (Written == 0)
      return ValueKind::Null;
    if (Written == 1 && CE->getNumArgs() >= 1)
      if (const auto *SIL = dyn_cast<CXXStdInitializerListExpr>(
              stripExpr(CE->getArg(0), Strip::SameHandle)))
        return classifyElements(SIL, F, Depth + 1);
    return ValueKind::Unknown;
  }
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
    const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
    if (VD && (isa<ParmVarDecl>(VD) || !VD->hasLocalStorage()))
      return ValueKind::Borrowed;
  }
  if (isa<MemberExpr>(E))
    return ValueKind::Borrowed;
  return ValueKind::Unknown;
}

ValueKind ValueClassifier::classify(const Expr *E, const Frame &F,
                                    const VarDecl **Local, unsigned Depth) {
  E = stripExpr(E, Strip::SameHandle);
  if (!E || Depth > 8)
    return ValueKind::Unknown;
  if (isa<CXXNullPtrLiteralExpr>(E) || isa<GNUNullExpr>(E))
    return ValueKind::Null;
  if (const auto *CE = dyn_cast<CXXConstructExpr>(E)) {
    unsigned Written = 0;
    for (const Expr *A : CE->arguments())
      if (!isa<CXXDefaultArgExpr>(A))
        ++Written;
    if (Written == 0) // a holder's default constructor builds its module
      return isHolderType(CE->getType()) ? ValueKind::Fresh : ValueKind::Null;
    if (CE->getArg(0)->getType()->isNullPtrType())
      return ValueKind::Null;
    return ValueKind::Fresh;
  }
  if (const auto *IL = dyn_cast<InitListExpr>(E)) {
    if (IL->getNumInits() == 0)
      return ValueKind::Null;
    if (IL->getNumInits() == 1)
      return classify(IL->getInit(0), F, Local, Depth + 1);
    return ValueKind::Fresh;
  }
  if (const auto *Call = dyn_cast<CallExpr>(E)) {
    if (MS.Models.registrationKind(Call))
      return ValueKind::Registered;
    // Derived from another member (`w1.t()`): not a new object of the module's own.
    if (const Expr *Obj = memberCallObject(Call)) {
      Trace T = W.trace(Obj, F, /*MarkLocals=*/false);
      if (T.K == Trace::Field)
        return ValueKind::Borrowed;
    }
    // A reference designates an object that exists elsewhere (`map.at("x")`).
    if (Call->getCallReturnType(MS.Ctx)->isReferenceType())
      return ValueKind::Borrowed;
    const FunctionDecl *FD = Call->getDirectCallee();
    if (!FD)
      return ValueKind::Unknown;
    // LibTorch and the standard library build new objects (`torch::randn`,
    // `std::make_shared`, `clone()`).
    if (isLibraryCode(FD, MS.SM))
      return ValueKind::Fresh;
    const FunctionDecl *Def = nullptr;
    if (FD->hasBody(Def) && Def && !Def->isDependentContext())
      return returnKind(Def);
    // A factory of another translation unit may hand out an existing module,
    // unless its summary says what it returns.
    const ModuleModelConfig &C = MS.Models.config();
    if (C.Program && mayBeElsewhere(FD, MS.SM))
      if (const RemoteFunction *R = C.Program->find(FD))
        if (R->ModuleReturn)
          return *R->ModuleReturn;
    return ValueKind::Unknown;
  }
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
    const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
    if (!VD)
      return ValueKind::Unknown;
    if (isa<ParmVarDecl>(VD) || !VD->hasLocalStorage())
      return ValueKind::Borrowed;
    if (VD->isCXXForRangeDecl() || !VD->getInit())
      return ValueKind::Unknown;
    if (Local && !*Local)
      *Local = VD;
    if (W.registeredLocal(VD))
      return ValueKind::Registered;
    return classify(VD->getInit(), F, Local, Depth + 1);
  }
  if (isa<MemberExpr>(E) || isa<CXXThisExpr>(E))
    return ValueKind::Borrowed;
  if (const auto *CO = dyn_cast<ConditionalOperator>(E))
    return combine(classify(CO->getTrueExpr(), F, Local, Depth + 1),
                   classify(CO->getFalseExpr(), F, Local, Depth + 1));
  return ValueKind::Unknown;
}

ValueKind ValueClassifier::returnKind(const FunctionDecl *Def) {
  auto It = MS.Shared.ReturnKinds.find(Def);
  if (It != MS.Shared.ReturnKinds.end())
    return It->second;
  MS.Shared.ReturnKinds[Def] = ValueKind::Unknown; // recursion
  // Walk the helper on its own to learn which of its locals it registers,
  // read as it stands, wherever it was called from.
  ReturnScratch Nothing;
  ModelWalker Scratch(W, Nothing);
  Frame F;
  F.Fn = Def;
  F.Depth = MS.Engine.maxCallDepth(); // do not follow further helpers
  Scratch.walkIn(Def->getBody(), F);
  llvm::SmallVector<const ReturnStmt *, 2> Returns;
  llvm::SmallVector<const Stmt *, 16> Work{Def->getBody()};
  while (!Work.empty()) {
    const Stmt *S = Work.pop_back_val();
    if (!S || isa<LambdaExpr>(S))
      continue;
    if (const auto *R = dyn_cast<ReturnStmt>(S))
      Returns.push_back(R);
    for (const Stmt *C : S->children())
      Work.push_back(C);
  }
  ValueClassifier InHelper(Scratch);
  ValueKind K = ValueKind::Unknown;
  bool First = true;
  for (const ReturnStmt *R : Returns) {
    ValueKind RK = R->getRetValue()
                       ? InHelper.classify(R->getRetValue(), F, nullptr)
                       : ValueKind::Unknown;
    K = First ? RK : combine(K, RK);
    First = false;
  }
  MS.Shared.ReturnKinds[Def] = K;
  return K;
}

void SetupTable::recordStore(const FieldDecl *FD, MemberStore St,
                             const VarDecl *Local) {
  ModuleMember *M = MS.memberOf(FD);
  if (!M)
    return;
  auto &Stores = M->Stores[Idx];
  if (Local)
    PendingLocals.push_back({{MS.Index[FD], (unsigned)Stores.size()}, Local});
  if (St.Kind == ValueKind::Fresh && St.Value && mentionsRequiresGrad(St.Value))
    M->RequiresGrad = true;
  if (St.Kind == ValueKind::Registered && St.Value)
    if (const auto *Call =
            dyn_cast_or_null<CallExpr>(stripExpr(St.Value, Strip::SameHandle)))
      if (MS.Models.registrationKind(Call))
        St.RegistrationCall = Call;
  Stores.push_back(St);
}

void ModelWalker::handleStore(const Expr *Whole, const Expr *LHS,
                              const Expr *RHS, Frame &F) {
  const FieldDecl *FD = storeTarget(LHS, F);
  bool Element = false;
  if (!FD)
    if (const Expr *Array = arrayOfElement(LHS)) {
      // `layers[i] = torch::nn::Linear(4, 4);`
      FD = storeTarget(Array, F);
      Element = MS.isArrayField(FD);
      if (!Element)
        FD = nullptr;
    }
  if (!FD) {
    walkIn(LHS, F);
    walkIn(RHS, F);
    return;
  }
  walkIn(RHS, F);
  Rec.stored(*this, Whole, FD, RHS, Element, F);
}

void SetupTable::stored(ModelWalker &W, const Expr *Whole, const FieldDecl *FD,
                        const Expr *RHS, bool Element, Frame &F) {
  if (!MS.memberOf(FD))
    return;
  MemberStore St = W.storeHere(F, Whole);
  const VarDecl *Local = nullptr;
  ValueClassifier C(W);
  St.Kind = MS.isArrayField(FD) && !Element ? C.classifyElements(RHS, F)
                                            : C.classify(RHS, F, &Local);
  St.Value = RHS;
  St.Element = Element;
  if (St.Kind == ValueKind::Borrowed)
    St.Param = setupParam(RHS, F);
  recordStore(FD, St, Local);
}

void ModelWalker::registerArgs(const Expr *Call,
                               llvm::ArrayRef<const Expr *> Args,
                               RegistrationKind K, bool AnyArg, Frame &F) {
  for (const Expr *Arg : Args) {
    Trace T = trace(Arg, F, /*MarkLocals=*/true);
    if (!Rec.recordsRegistrations())
      continue;
    if (T.F && (T.K == Trace::Field || T.K == Trace::Other))
      addRegistration(T.F, T.K == Trace::Field, K, Call, F);
    else if (T.K == Trace::Untraced && !AnyArg)
      Rec.untraced();
    // A local container handed over registers what was added to it.
    const auto *DRE = dyn_cast<DeclRefExpr>(stripExpr(Arg, Strip::SameHandle));
    const auto *VD = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
    auto Contents = VD ? LocalContents.find(VD) : LocalContents.end();
    if (Contents != LocalContents.end() &&
        ContentsInProgress.insert(VD).second) {
      llvm::SmallVector<const Expr *, 8> Elements;
      for (const Expr *E : Contents->second)
        elementsOf(E, Elements);
      registerArgs(Call, Elements, K, /*AnyArg=*/true, F);
      ContentsInProgress.erase(VD);
    }
  }
}

/// Reads a lambda that code the model does not follow (a library algorithm,
/// a helper) may run any number of times with unknown arguments: what it does
/// to captured members counts, and what it registers through its own
/// parameters cannot be traced.
void ModelWalker::walkLambda(const LambdaExpr *L, const Frame &F,
                             const Expr *Site) {
  const CXXMethodDecl *Op = L->getCallOperator();
  if (!Op)
    return;
  // A generic lambda is read in the instantiations of its call operator.
  llvm::SmallVector<const FunctionDecl *, 2> Bodies;
  if (const FunctionTemplateDecl *FT = Op->getDescribedFunctionTemplate()) {
    for (const FunctionDecl *Spec : FT->specializations())
      Bodies.push_back(Spec);
  } else {
    Bodies.push_back(Op);
  }
  for (const FunctionDecl *Fn : Bodies) {
    const Stmt *Body = Fn->getBody();
    if (!Body || Fn->isDependentContext() || MS.Engine.inProgress(Fn))
      continue;
    Frame NF = F;
    NF.Fn = Fn;
    NF.Depth = F.Depth + 1;
    NF.Site = F.Site ? F.Site : Site;
    for (const ParmVarDecl *P : Fn->parameters())
      NF.UntracedParams.insert(P);
    MS.Engine.enter(Fn);
    // It may run any number of times, or never.
    ++LoopDepth;
    ++CondDepth;
    walkIn(Body, NF);
    --CondDepth;
    --LoopDepth;
    MS.Engine.leave(Fn);
  }
}

void ModelWalker::handleCall(const CallExpr *Call, Frame &F) {
  if (std::optional<RegistrationKind> K = MS.Models.registrationKind(Call)) {
    for (const Stmt *Child : Call->children())
      walkIn(Child, F);
    bool Custom = *K == RegistrationKind::Custom;
    unsigned First = isa<CXXOperatorCallExpr>(Call) ? 1 : 0;
    llvm::SmallVector<const Expr *, 4> Args;
    for (unsigned I = First; I < Call->getNumArgs(); ++I)
      Args.push_back(Call->getArg(I));
    if (!Custom && !Args.empty()) {
      ModuleModel::NameUse N{Call, "", false};
      registrationName(Args.front(), N.Name, N.Literal);
      Rec.named(N);
      Args.erase(Args.begin());
      if (Args.size() > 1)
        Args.resize(1);
    }
    registerArgs(Call, Args, *K, Custom, F);
    return;
  }
  // Containers register what is added to them: `seq->push_back(fc)`.
  if (std::optional<RegistrationKind> K = containerAddKind(Call, MS.Models)) {
    for (const Stmt *Child : Call->children())
      walkIn(Child, F);
    llvm::SmallVector<const Expr *, 4> Args(Call->arguments().begin(),
                                            Call->arguments().end());
    registerArgs(Call, Args, *K, /*AnyArg=*/true, F);
    return;
  }

  if (const VarDecl *Local = localContainerAdd(Call, MS.Models))
    LocalContents[Local].append(Call->arguments().begin(),
                                Call->arguments().end());
  const FieldDecl *ArrayAdd = arrayAddTarget(Call, F);

  // Evidence that a member is meant to be a parameter.
  if (isRequiresGradCall(Call))
    Rec.requiresGradCall(*this, Call, F);

  for (const Stmt *Child : Call->children())
    walkIn(Child, F);
  if (ArrayAdd)
    if (ModuleMember *M = MS.memberOf(ArrayAdd))
      Rec.elementAdded(*this, Call, *M, F);

  const FunctionDecl *FD = Call->getDirectCallee();
  const auto *MD = dyn_cast_or_null<CXXMethodDecl>(FD);
  bool IsLambda = MD && MD->getParent()->isLambda();
  // Lambdas handed to other code (std::for_each, Module::apply, helpers).
  for (unsigned I = IsLambda && isa<CXXOperatorCallExpr>(Call) ? 1 : 0;
       I < Call->getNumArgs(); ++I)
    if (const LambdaExpr *L = lambdaOf(Call->getArg(I)))
      walkLambda(L, F, Call);
  const Expr *Obj = memberCallObject(Call);
  bool CalleeThisIsSelf = false;
  if (MD && !MD->isStatic())
    CalleeThisIsSelf = IsLambda ? F.ThisIsSelf : (Obj && isSelf(Obj, F));
  unsigned Offset = isa<CXXOperatorCallExpr>(Call) && MD ? 1 : 0;

  bool PassesSelf = CalleeThisIsSelf;
  for (unsigned I = Offset; I < Call->getNumArgs(); ++I)
    PassesSelf = PassesSelf || isSelf(Call->getArg(I), F);
  if (!FD) {
    if (PassesSelf)
      Rec.opaque();
    return;
  }
  // LibTorch and the standard library know nothing of the module's members.
  if (isLibraryCode(FD, MS.SM))
    return;

  Frame NF;
  if (IsLambda) {
    // Captured variables of the enclosing function keep their meaning.
    NF.ParamField = F.ParamField;
    NF.ParamLocal = F.ParamLocal;
    NF.SelfParams = F.SelfParams;
    NF.UntracedParams = F.UntracedParams;
  }
  NF.ThisIsSelf = CalleeThisIsSelf;
  NF.Depth = F.Depth + 1;
  NF.Site = F.Site ? F.Site : Call;
  const FunctionDecl *Def = nullptr;
  bool HasBody = FD->hasBody(Def) && Def && !Def->isDependentContext();
  if (HasBody) {
    NF.Fn = Def;
    for (unsigned I = Offset; I < Call->getNumArgs(); ++I) {
      unsigned PI = I - Offset;
      if (PI >= Def->getNumParams())
        break;
      const ParmVarDecl *P = Def->getParamDecl(PI);
      const Expr *Arg = Call->getArg(I);
      if (isSelf(Arg, F)) {
        NF.SelfParams.insert(P);
        continue;
      }
      Trace T = trace(Arg, F, /*MarkLocals=*/false);
      if (T.K == Trace::Field) {
        NF.ParamField[P] = T.F;
        continue;
      }
      if (T.K == Trace::Untraced) {
        NF.UntracedParams.insert(P);
        continue;
      }
      const Expr *S = stripExpr(Arg, Strip::SameHandle);
      if (const auto *DRE = dyn_cast_or_null<DeclRefExpr>(S))
        if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl()))
          if (VD->hasLocalStorage())
            NF.ParamLocal[P] = VD;
    }
  }
  if (!HasBody) {
    // Code of another TU that gets the module could register anything,
    // unless its summary says what it does.
    if (PassesSelf && !remoteCall(Call, FD, Offset, CalleeThisIsSelf, F))
      Rec.opaque();
    return;
  }
  bool Relevant = NF.ThisIsSelf || !NF.ParamField.empty() ||
                  !NF.SelfParams.empty() || !NF.ParamLocal.empty();
  if (!Relevant || MS.Engine.inProgress(Def))
    return;
  if (!MS.Engine.follows(NF.Depth)) {
    Rec.opaque();
    return;
  }
  // Each call is walked in a frame of its own (what its parameters stand
  // for), so a chain of helpers each calling the next k times costs k^depth
  // walks. Past a budget per constructor or method, what it registers is
  // not known whole: the check stays silent on the class.
  if (++HelperWalks > MaxHelperWalks) {
    Rec.untraced();
    return;
  }
  Rec.helperEntered(Def);
  MS.Engine.enter(Def);
  walkIn(Def->getBody(), NF);
  MS.Engine.leave(Def);
}

const FieldDecl *ModelWalker::memberNamed(llvm::StringRef Name) const {
  for (const ModuleMember &M : MS.Model.Members)
    if (M.Field->getIdentifier() && M.Field->getName() == Name)
      return M.Field;
  return nullptr;
}

bool ModelWalker::remoteCall(const CallExpr *Call, const FunctionDecl *FD,
                             unsigned Offset, bool CalleeThisIsSelf,
                             const Frame &F) {
  const ModuleModelConfig &C = MS.Models.config();
  if (!C.Program || !mayBeElsewhere(FD, MS.SM) ||
      !MS.Engine.follows(F.Depth + 1))
    return false;
  const RemoteFunction *R = C.Program->find(FD);
  if (!R)
    return false;
  // The objects handed over: `this` of a method, parameters.
  llvm::SmallVector<int, 2> Objects;
  if (CalleeThisIsSelf)
    Objects.push_back(-1);
  for (unsigned I = Offset; I < Call->getNumArgs(); ++I)
    if (isSelf(Call->getArg(I), F))
      Objects.push_back(static_cast<int>(I - Offset));
  // All or nothing: one object the summary does not describe, or one whose
  // members are not this class's, leaves the call opaque.
  llvm::SmallVector<const RemoteModuleEffects *, 2> Effects;
  for (int O : Objects) {
    auto It =
        llvm::find_if(R->ModuleEffects, [&](const RemoteModuleEffects &E) {
          return E.Object == O;
        });
    if (It == R->ModuleEffects.end() || It->Opaque)
      return false;
    for (const RemoteModuleEffects::Member &M : It->Members)
      if (!memberNamed(M.Field))
        return false;
    Effects.push_back(&*It);
  }
  for (const RemoteModuleEffects *E : Effects)
    for (const RemoteModuleEffects::Member &M : E->Members) {
      const FieldDecl *Field = memberNamed(M.Field);
      if (Rec.recordsRegistrations())
        for (RegistrationKind K : M.Registrations)
          addRegistration(Field, /*Own=*/true, K, Call, F);
      for (const RemoteModuleEffects::Store &S : M.Stores) {
        MemberStore St = storeHere(F, Call);
        St.Kind = S.Kind;
        St.Value = Call;
        St.In = FD;
        St.Direct = false;
        St.Conditional = St.Conditional || S.Conditional;
        St.InLoop = St.InLoop || S.InLoop;
        St.Element = S.Element;
        St.Remote = &S.Site;
        Rec.remoteStored(Field, St);
      }
    }
  return true;
}

void SetupTable::requiresGradCall(ModelWalker &W, const CallExpr *Call,
                                  Frame &F) {
  // Evidence that a member is meant to be a parameter.
  if (const Expr *Obj = memberCallObject(Call)) {
    Trace T = W.trace(Obj, F, false);
    if (T.K == Trace::Field)
      if (ModuleMember *M = MS.memberOf(T.F))
        M->RequiresGrad = true;
  }
}

bool ModelWalker::visit(const Stmt *S) {
  Frame &F = *Cur;
  if (const auto *FR = dyn_cast<CXXForRangeStmt>(S))
    if (const VarDecl *V = FR->getLoopVariable())
      MS.RangeOf[V] = FR->getRangeInit();
  if (const auto *BO = dyn_cast<BinaryOperator>(S)) {
    if (BO->getOpcode() == BO_Assign) {
      handleStore(BO, BO->getLHS(), BO->getRHS(), F);
      return true;
    }
  }
  if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(S)) {
    if (OC->getOperator() == OO_Equal && OC->getNumArgs() == 2) {
      handleStore(OC, OC->getArg(0), OC->getArg(1), F);
      return true;
    }
  }
  if (const auto *Call = dyn_cast<CallExpr>(S)) {
    handleCall(Call, F);
    return true;
  }
  if (const auto *D = dyn_cast<CXXDefaultInitExpr>(S)) {
    walk(D->getExpr());
    return true;
  }
  if (const auto *CE = dyn_cast<CXXConstructExpr>(S)) {
    // `torch::nn::Sequential(fc1, relu, fc2)` registers its arguments.
    if (std::optional<RegistrationKind> K =
            MS.Models.containerKind(CE->getType()->getAsCXXRecordDecl())) {
      llvm::SmallVector<const Expr *, 4> Args(CE->arguments().begin(),
                                              CE->arguments().end());
      if (!(Args.size() == 1 && isHandleType(Args.front()->getType())))
        registerArgs(CE, Args, *K, /*AnyArg=*/true, F);
    }
    return false; // then its arguments
  }
  if (const auto *ME = dyn_cast<MemberExpr>(S)) {
    Rec.memberNamed(*this, ME, F);
    return false;
  }
  return false;
}

void SetupTable::walkCtor(const CXXConstructorDecl *Def, Frame &F) {
  for (const CXXCtorInitializer *I : Def->inits()) {
    const Expr *Init = I->getInit();
    if (I->isDelegatingInitializer()) {
      W.walkIn(Init, F); // the arguments
      const auto *CE = dyn_cast_or_null<CXXConstructExpr>(
          Init ? Init->IgnoreImplicit() : nullptr);
      const CXXConstructorDecl *Target = CE ? CE->getConstructor() : nullptr;
      const FunctionDecl *TDef = nullptr;
      if (Target && Target->hasBody(TDef) && TDef &&
          !MS.Engine.inProgress(TDef)) {
        MS.Engine.enter(TDef);
        walkCtor(cast<CXXConstructorDecl>(TDef), F);
        MS.Engine.leave(TDef);
      } else if (Target && Target->isDefaulted()) {
        synthesizeInits(F);
      } else {
        opaque();
      }
      continue;
    }
    const FieldDecl *FD = I->getMember();
    if (!FD || F.Depth > 0 || !MS.memberOf(FD)) {
      W.walkIn(Init, F);
      continue;
    }
    MemberStore S;
    const VarDecl *Local = nullptr;
    ValueClassifier C(W);
    S.Kind = !Init                 ? ValueKind::Unknown
             : MS.isArrayField(FD) ? C.classifyElements(Init, F)
                                   : C.classify(Init, F, &Local);
    if (S.Kind == ValueKind::Borrowed && Init)
      S.Param = setupParam(Init, F);
    S.Initializer = true;
    S.InitList = I->isWritten();
    const Expr *Bare = Init ? Init->IgnoreImplicit() : nullptr;
    S.InClassInit = Bare && isa<CXXDefaultInitExpr>(Bare);
    S.Value = S.InClassInit ? FD->getInClassInitializer() : Init;
    S.Site = S.Value;
    S.In = Def;
    S.Conditional = W.isConditional();
    S.InLoop = W.inLoop();
    S.Direct = true;
    S.CtorInit = I;
    W.walkIn(Init, F);
    recordStore(FD, S, Local);
  }
  W.walkIn(Def->getBody(), F);
}

/// A constructor without a body here that only runs the member initializers
/// (implicit or `= default`).
void SetupTable::synthesizeInits(Frame &F) {
  for (ModuleMember &M : MS.Model.Members) {
    const FieldDecl *FD = M.Field;
    MemberStore S;
    S.Initializer = true;
    S.Direct = true;
    S.In = W.root();
    const VarDecl *Local = nullptr;
    if (const Expr *Init = FD->getInClassInitializer()) {
      S.InClassInit = true;
      S.Value = S.Site = Init;
      ValueClassifier C(W);
      S.Kind = M.Kind == MemberKind::ModuleArray ? C.classifyElements(Init, F)
                                                 : C.classify(Init, F, &Local);
      W.walkIn(Init, F);
    } else {
      S.Kind =
          M.Kind == MemberKind::Holder ? ValueKind::Fresh : ValueKind::Null;
    }
    recordStore(FD, S, Local);
  }
}

void SetupTable::finish() {
  for (auto &P : PendingLocals) {
    const VarDecl *VD = P.second;
    bool Registered = false;
    // `auto a = Linear(...); auto b = a; register_module("b", b); fc = a;`
    for (unsigned Hops = 0; VD && Hops < 8 && !Registered; ++Hops) {
      Registered = W.registeredLocal(VD);
      const Expr *Init =
          VD->getInit() ? stripExpr(VD->getInit(), Strip::SameHandle) : nullptr;
      const auto *DRE = dyn_cast_or_null<DeclRefExpr>(Init);
      VD = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
      if (VD && !VD->hasLocalStorage())
        VD = nullptr;
    }
    if (Registered)
      MS.Model.Members[P.first.first].Stores[Idx][P.first.second].Kind =
          ValueKind::Registered;
  }
  // A registered local stored into a member registers the member too.
  for (ModuleMember &M : MS.Model.Members)
    for (const MemberStore &St : M.Stores[Idx])
      if (St.Kind == ValueKind::Registered && !M.registeredBy(Idx))
        M.RegisteredBy.push_back(Idx);
}

void SetupTable::read() {
  Frame F;
  F.Fn = W.root();
  F.ThisIsSelf = true;
  if (!Setup.Definition) {
    synthesizeInits(F);
  } else {
    MS.Engine.enter(Setup.Definition);
    if (const auto *Ctor = dyn_cast<CXXConstructorDecl>(Setup.Definition))
      walkCtor(Ctor, F);
    else
      W.walkIn(Setup.Definition->getBody(), F);
    MS.Engine.leave(Setup.Definition);
  }
  finish();
}

void SetupTable::readHelper(const ParmVarDecl *Self) {
  Frame F;
  F.Fn = W.root();
  F.Depth = 1;
  if (Self)
    F.SelfParams.insert(Self);
  else
    F.ThisIsSelf = true;
  MS.Engine.enter(Setup.Definition);
  W.walkIn(Setup.Definition->getBody(), F);
  MS.Engine.leave(Setup.Definition);
  finish();
}

static const CXXMethodDecl *findReset(const CXXRecordDecl *RD) {
  for (const CXXMethodDecl *MD : RD->methods())
    if (hasName(MD, "reset") && MD->getNumParams() == 0 && !MD->isStatic())
      return MD;
  return nullptr;
}

static bool isDefaultedSomewhere(const FunctionDecl *FD) {
  for (const FunctionDecl *R : FD->redecls())
    if (R->isDefaulted())
      return true;
  return false;
}

void ModelBuilder::members() {
  ModuleModel &Model = MS.Model;
  for (const FieldDecl *FD : Model.Class->fields()) {
    ModuleMember M;
    M.Field = FD;
    M.Kind = MS.Models.memberKind(FD->getType(), &M.ModuleClass);
    M.Stateless = M.ModuleClass && MS.Models.isStateless(M.ModuleClass);
    MS.Index[FD] = Model.Members.size();
    Model.Members.push_back(std::move(M));
  }
}

void ModelBuilder::buildHelper(const FunctionDecl *Def,
                               const ParmVarDecl *Self) {
  ModuleModel &Model = MS.Model;
  members();
  SetupFunction S;
  S.Decl = Def;
  S.Definition = Def;
  S.Visible = true;
  Model.Setups.push_back(S);
  for (ModuleMember &M : Model.Members)
    M.Stores.resize(1);
  SetupTable(MS, 0).readHelper(Self);
}

void ModelBuilder::build() {
  ModuleModel &Model = MS.Model;
  const CXXRecordDecl *RD = Model.Class;
  Model.Cloneable = isSameOrDerivedFrom(RD, "torch::nn::Cloneable");
  members();

  // The ways the object gets built.
  bool AnyCtor = false;
  Model.SetupVisible = true;
  for (const CXXConstructorDecl *C : RD->ctors()) {
    if (C->isCopyOrMoveConstructor() || C->isDeleted() || C->isImplicit())
      continue;
    AnyCtor = true;
    SetupFunction S;
    S.Decl = C;
    const FunctionDecl *Def = nullptr;
    if (isDefaultedSomewhere(C))
      S.Visible = true;
    else if (C->hasBody(Def) && Def && !Def->isDependentContext()) {
      S.Definition = Def;
      S.Visible = true;
    }
    Model.SetupVisible = Model.SetupVisible && S.Visible;
    Model.Setups.push_back(S);
  }
  for (const Decl *D : RD->decls())
    if (const auto *FT = dyn_cast<FunctionTemplateDecl>(D))
      if (isa<CXXConstructorDecl>(FT->getTemplatedDecl()))
        Model.SetupVisible = false; // constructor templates: not analysed
  if (!AnyCtor) {
    SetupFunction S; // the implicit default constructor
    S.Visible = true;
    Model.Setups.push_back(S);
  }
  const CXXMethodDecl *Reset = Model.Cloneable ? findReset(RD) : nullptr;
  if (Reset) {
    SetupFunction S;
    S.Decl = Reset;
    S.IsReset = true;
    const FunctionDecl *Def = nullptr;
    if (Reset->hasBody(Def) && Def && !Def->isDependentContext()) {
      S.Definition = Def;
      S.Visible = true;
    }
    Model.SetupVisible = Model.SetupVisible && S.Visible;
    Model.Setups.push_back(S);
  }
  for (ModuleMember &M : Model.Members)
    M.Stores.resize(Model.Setups.size());

  // Construction.
  for (unsigned I = 0; I < Model.Setups.size(); ++I)
    if (Model.Setups[I].Visible)
      SetupTable(MS, I).read();

  // The other methods: uses, and registrations made after construction.
  for (const CXXMethodDecl *MD : RD->methods()) {
    if (isa<CXXConstructorDecl>(MD) || isa<CXXDestructorDecl>(MD) ||
        MD == Reset || MD->isStatic() || MD->isImplicit())
      continue;
    const FunctionDecl *Def = nullptr;
    if (!MD->hasBody(Def) || !Def || Def->isDependentContext()) {
      if (!MD->isImplicit() && !MD->isDeleted() && !isDefaultedSomewhere(MD) &&
          !compat::isPureVirtual(MD))
        Model.HasInvisibleMethods = true;
      continue;
    }
    // Helpers of the constructors were read with them.
    if (Model.SetupReached.count(Def))
      continue;
    MethodUses Uses(MS);
    ModelWalker W(MS, Uses, Def);
    Frame F;
    F.Fn = Def;
    F.ThisIsSelf = true;
    MS.Engine.enter(Def);
    W.walkIn(Def->getBody(), F);
    MS.Engine.leave(Def);
    if (hasName(MD, "forward")) {
      Model.Forwards.push_back(cast<CXXMethodDecl>(Def));
      llvm::SmallVector<const Stmt *, 16> Work{Def->getBody()};
      while (!Work.empty()) {
        const Stmt *S = Work.pop_back_val();
        if (!S || isa<LambdaExpr>(S))
          continue;
        if (const auto *R = dyn_cast<ReturnStmt>(S))
          Model.ForwardReturns.push_back(R);
        for (const Stmt *C : S->children())
          Work.push_back(C);
      }
    }
  }
  // Templates declared in the class (member function templates) are not read.
  for (const Decl *D : RD->decls())
    if (const auto *FT = dyn_cast<FunctionTemplateDecl>(D))
      if (!isa<CXXConstructorDecl>(FT->getTemplatedDecl()))
        Model.HasInvisibleMethods = true;
}

//===----------------------------------------------------------------------===//
// ModuleModels
//===----------------------------------------------------------------------===//

ModuleModels::ModuleModels(const ModuleModelConfig &Config, ASTContext &Ctx)
    : Config(Config), Ctx(Ctx) {}

ModuleModels::~ModuleModels() = default;

const ModuleModel *ModuleModels::get(const CXXRecordDecl *RD) {
  if (!RD)
    return nullptr;
  RD = RD->getDefinition();
  if (!RD || RD->isInvalidDecl() || RD->isDependentContext() || RD->isLambda())
    return nullptr;
  auto It = Models.find(RD);
  if (It != Models.end())
    return It->second.get();
  if (!isModuleClass(RD, Config.Types)) {
    Models[RD] = nullptr;
    return nullptr;
  }
  auto M = std::make_unique<ModuleModel>();
  M->Class = RD;
  ModuleModel *Raw = M.get();
  Models[RD] = std::move(M);
  ModelBuilder(*this, Ctx, {ReturnKinds}, *Raw).build();
  return Raw;
}

std::optional<ValueKind> ModuleModels::returnKindOf(const FunctionDecl *FD) {
  const FunctionDecl *Def = nullptr;
  if (!FD || !FD->hasBody(Def) || !Def || Def->isDependentContext() ||
      !isHandleType(Def->getReturnType()))
    return std::nullopt;
  ModuleModel Scratch; // no class: nothing is anyone's member
  ModelState MS(*this, Ctx, {ReturnKinds}, Scratch);
  ReturnScratch Nothing;
  ModelWalker W(MS, Nothing, Def);
  ValueKind K = ValueClassifier(W).returnKind(Def);
  if (K == ValueKind::Unknown)
    return std::nullopt;
  return K;
}

std::optional<HandedModuleEffects>
ModuleModels::effectsOn(const FunctionDecl *FD, int Object) {
  const FunctionDecl *Def = nullptr;
  if (!FD || !FD->hasBody(Def) || !Def || Def->isDependentContext() ||
      isa<CXXConstructorDecl>(Def))
    return std::nullopt;
  const CXXRecordDecl *RD = nullptr;
  const ParmVarDecl *Self = nullptr;
  if (Object < 0) {
    const auto *MD = dyn_cast<CXXMethodDecl>(Def);
    if (!MD || MD->isStatic())
      return std::nullopt;
    RD = MD->getParent();
  } else {
    if (static_cast<unsigned>(Object) >= Def->getNumParams())
      return std::nullopt;
    Self = Def->getParamDecl(Object);
    QualType T = Self->getType();
    if (T->isReferenceType())
      T = T.getNonReferenceType();
    else if (T->isPointerType())
      T = T->getPointeeType();
    else
      return std::nullopt;
    RD = T->getAsCXXRecordDecl();
  }
  RD = RD ? RD->getDefinition() : nullptr;
  if (!RD || RD->isInvalidDecl() || RD->isDependentContext() ||
      RD->isLambda() || !isModuleClass(RD, Config.Types))
    return std::nullopt;
  ModuleModel Scratch;
  Scratch.Class = RD;
  ModelBuilder(*this, Ctx, {ReturnKinds}, Scratch).buildHelper(Def, Self);
  HandedModuleEffects Out;
  Out.Opaque = Scratch.Setups.front().Opaque;
  for (ModuleMember &M : Scratch.Members) {
    if (M.Registrations.empty() && M.Stores.front().empty())
      continue;
    HandedModuleEffects::Member E;
    E.Field = M.Field;
    for (const Registration &R : M.Registrations)
      E.Registrations.push_back(R.Kind);
    E.Stores.append(M.Stores.front().begin(), M.Stores.front().end());
    Out.Members.push_back(std::move(E));
  }
  return Out;
}

std::optional<RegistrationKind>
ModuleModels::containerKind(const CXXRecordDecl *RD) const {
  auto [It, New] = ContainerKinds.try_emplace(RD);
  if (New)
    It->second = containerKindUncached(RD);
  return It->second;
}

bool ModuleModels::isStateless(const CXXRecordDecl *RD) const {
  auto [It, New] = StatelessClasses.try_emplace(RD, false);
  if (New)
    It->second = isStatelessModuleClass(RD, Config);
  return It->second;
}

ModuleModels &ModuleModels::of(ASTContext &Ctx,
                               const ModuleModelConfig &Config) {
  return UserCodeIndex::of(Ctx).shared<ModuleModels>(Config, Ctx);
}

RegistrationIndex::RegistrationIndex(ArrayRef<const ModuleModel *> Models) {
  for (const ModuleModel *M : Models)
    for (const auto &[FD, R] : M->FoundRegistrations)
      ByField[FD].push_back(R);
}

ArrayRef<Registration> RegistrationIndex::of(const FieldDecl *FD) const {
  auto It = ByField.find(FD);
  if (It == ByField.end())
    return {};
  return It->second;
}

//===----------------------------------------------------------------------===//
// Constructions of module classes in user code
//===----------------------------------------------------------------------===//

/// Nodes one question about a function's body may visit.
static constexpr unsigned MaxScanNodes = 20000;

/// `std::make_shared<C>(...)` or `std::make_unique<C>(...)`: C.
static const CXXRecordDecl *madeClass(const CallExpr *Call) {
  const FunctionDecl *FD = Call->getDirectCallee();
  if (!FD || (!hasQualifiedName(FD, "std::make_shared") &&
              !hasQualifiedName(FD, "std::make_unique")))
    return nullptr;
  return pointeeClass(Call->getType());
}

/// Visits the statements of \p FD's body (constructor initialisers first,
/// default member initialisers and lambdas included), top-down, at most
/// MaxScanNodes of them. \p Fn returns false to stop.
static void scanBody(const FunctionDecl *FD,
                     llvm::function_ref<bool(const Stmt *)> Fn) {
  llvm::SmallVector<const Stmt *, 32> Work;
  if (const auto *Ctor = dyn_cast<CXXConstructorDecl>(FD))
    for (const CXXCtorInitializer *Init : Ctor->inits())
      if (Init && Init->getInit())
        Work.push_back(Init->getInit());
  Work.push_back(FD->getBody());
  unsigned Seen = 0;
  while (!Work.empty() && ++Seen < MaxScanNodes) {
    const Stmt *S = Work.pop_back_val();
    if (!S)
      continue;
    if (!Fn(S))
      return;
    if (const auto *D = dyn_cast<CXXDefaultInitExpr>(S)) {
      Work.push_back(D->getExpr());
      continue;
    }
    for (const Stmt *C : S->children())
      Work.push_back(C);
  }
}

void ModuleModels::indexConstructions() {
  ConstructionsIndexed = true;
  const SourceManager &SM = Ctx.getSourceManager();
  for (const Decl *D : UserCodeIndex::of(Ctx).definitions()) {
    const auto *Caller = dyn_cast<FunctionDecl>(D);
    if (!Caller || !Caller->hasBody() || Caller->isDependentContext() ||
        Caller->isInvalidDecl() || isLibraryCode(Caller, SM))
      continue;
    scanBody(Caller, [&](const Stmt *S) {
      if (isa<LambdaExpr>(S))
        return true; // a call operator of its own
      const CXXRecordDecl *Made = nullptr;
      const CXXConstructorDecl *Ctor = nullptr;
      llvm::SmallVector<const Expr *, 4> Args;
      if (const auto *CE = dyn_cast<CXXConstructExpr>(S)) {
        const CXXConstructorDecl *C = CE->getConstructor();
        if (!C || C->isCopyOrMoveConstructor())
          return true;
        Args.append(CE->arguments().begin(), CE->arguments().end());
        const CXXRecordDecl *RD = C->getParent();
        if (const CXXRecordDecl *Impl = holderImpl(RD)) {
          // A holder built from a handle or null holds no new module.
          if (Args.size() == 1 && ((isHandleType(Args[0]->getType()) &&
                                    !isTensorType(Args[0]->getType())) ||
                                   Args[0]->getType()->isNullPtrType()))
            return true;
          Made = Impl;
        } else {
          Made = RD;
          Ctor = C;
        }
      } else if (const auto *Call = dyn_cast<CallExpr>(S)) {
        Made = madeClass(Call);
        Args.append(Call->arguments().begin(), Call->arguments().end());
      }
      if (!Made)
        return true;
      if (isOptimizerClass(Made, Config.Types)) {
        // Members written in its arguments are handed to it.
        llvm::SmallVector<const Stmt *, 16> Work(Args.begin(), Args.end());
        unsigned Seen = 0;
        while (!Work.empty() && ++Seen < MaxScanNodes) {
          const Stmt *E = Work.pop_back_val();
          if (!E)
            continue;
          if (const auto *ME = dyn_cast<MemberExpr>(E))
            if (const auto *F = dyn_cast<FieldDecl>(ME->getMemberDecl()))
              Optimised.insert(F);
          for (const Stmt *C : E->children())
            Work.push_back(C);
        }
        return true;
      }
      if (!isModuleClass(Made, Config.Types))
        return true;
      Construction C;
      C.Ctor = Ctor;
      C.Args = std::move(Args);
      C.Caller = Caller;
      Constructions[Made->getCanonicalDecl()].push_back(std::move(C));
      return true;
    });
  }
}

bool ModuleModels::optimised(const FieldDecl *FD) {
  if (!ConstructionsIndexed)
    indexConstructions();
  return FD && Optimised.count(FD);
}

namespace {
/// Whether an expression is a tensor made where it is written.
class NewTensors {
public:
  NewTensors(const ModuleModels &Models, ASTContext &Ctx)
      : Models(Models), Ctx(Ctx), SM(Ctx.getSourceManager()) {}

  /// \p E, written in \p Caller, is a tensor made there.
  bool isNew(const Expr *E, const FunctionDecl *Caller, unsigned Depth = 0);
  bool RequiresGrad = false;

private:
  bool localStaysNew(const VarDecl *VD, const FunctionDecl *Caller,
                     unsigned Depth);
  const ModuleModels &Models;
  ASTContext &Ctx;
  const SourceManager &SM;
};
} // namespace

static const VarDecl *localOf(const Expr *E) {
  const auto *DRE = dyn_cast_or_null<DeclRefExpr>(stripExpr(
      E, Strip::Temporaries | Strip::Copies | Strip::Moves | Strip::Casts));
  return DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
}

bool NewTensors::isNew(const Expr *E, const FunctionDecl *Caller,
                       unsigned Depth) {
  E = stripExpr(E, Strip::Temporaries | Strip::Copies | Strip::Moves |
                       Strip::Casts | Strip::Defaults);
  if (!E || Depth > 8)
    return false;
  if (mentionsRequiresGrad(E))
    RequiresGrad = true;
  if (const auto *Call = dyn_cast<CallExpr>(E)) {
    const FunctionDecl *FD = Call->getDirectCallee();
    if (!FD || !isLibraryCode(FD, SM) || Models.registrationKind(Call))
      return false;
    const auto *MD = dyn_cast<CXXMethodDecl>(FD);
    bool TensorMethod = MD && isTensorClass(MD->getParent());
    QualType RT = Call->getCallReturnType(Ctx);
    if (!isTensorType(RT.getNonReferenceType()) ||
        (RT->isReferenceType() && !TensorMethod))
      return false;
    unsigned First = 0;
    if (MD && !MD->isStatic()) {
      // A method of the tensor: a new tensor only when that one is new.
      const Expr *Obj = memberCallObject(Call);
      if (!TensorMethod || !Obj || !isNew(Obj, Caller, Depth + 1))
        return false;
      First = isa<CXXOperatorCallExpr>(Call) ? 1 : 0;
    }
    // Tensors it is computed from must be new too: a view of another
    // module's parameter (`torch::t(other->weight)`) is that parameter.
    for (unsigned I = First; I < Call->getNumArgs(); ++I)
      if (isTensorType(Call->getArg(I)->getType().getNonReferenceType()) &&
          !isNew(Call->getArg(I), Caller, Depth + 1))
        return false;
    return true;
  }
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
    const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
    if (!VD || isa<ParmVarDecl>(VD) || !VD->hasLocalStorage() ||
        VD->isCXXForRangeDecl() || VD->getType()->isReferenceType() ||
        !VD->getInit())
      return false;
    return isNew(VD->getInit(), Caller, Depth + 1) &&
           localStaysNew(VD, Caller, Depth + 1);
  }
  return false;
}

bool NewTensors::localStaysNew(const VarDecl *VD, const FunctionDecl *Caller,
                               unsigned Depth) {
  bool Stays = true;
  scanBody(Caller, [&](const Stmt *S) {
    const Expr *LHS = nullptr, *RHS = nullptr;
    if (const auto *BO = dyn_cast<BinaryOperator>(S)) {
      if (BO->getOpcode() == BO_Assign) {
        LHS = BO->getLHS();
        RHS = BO->getRHS();
      }
    } else if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(S)) {
      if (OC->getOperator() == OO_Equal && OC->getNumArgs() == 2) {
        LHS = OC->getArg(0);
        RHS = OC->getArg(1);
      }
    }
    if (LHS && localOf(LHS) == VD && !isNew(RHS, Caller, Depth + 1)) {
      Stays = false;
      return false;
    }
    // Registered, added to a module container or handed to an optimizer:
    // the module gets it from elsewhere.
    if (const auto *Call = dyn_cast<CallExpr>(S)) {
      bool Registers = Models.registrationKind(Call).has_value() ||
                       containerAddKind(Call, Models).has_value();
      if (const CXXRecordDecl *M = madeClass(Call))
        Registers = Registers || isOptimizerClass(M, Models.config().Types);
      if (Registers)
        for (const Expr *A : Call->arguments())
          if (localOf(A) == VD) {
            Stays = false;
            return false;
          }
    }
    if (const auto *CE = dyn_cast<CXXConstructExpr>(S))
      if (isOptimizerClass(CE->getConstructor()->getParent(),
                           Models.config().Types)) {
        Stays = false; // conservative: whatever it is given
        return false;
      }
    return true;
  });
  return Stays;
}

/// The constructor of \p RD that \p N forwarded arguments select, when only
/// one can take that many; null otherwise.
static const CXXConstructorDecl *forwardedCtor(const CXXRecordDecl *RD,
                                               unsigned N) {
  const CXXConstructorDecl *Found = nullptr;
  for (const Decl *D : RD->decls()) {
    if (const auto *FT = dyn_cast<FunctionTemplateDecl>(D))
      if (isa<CXXConstructorDecl>(FT->getTemplatedDecl()))
        return nullptr;
    const auto *C = dyn_cast<CXXConstructorDecl>(D);
    if (!C || C->isCopyOrMoveConstructor() || C->isDeleted())
      continue;
    if (N < C->getMinRequiredArguments() || N > C->getNumParams())
      continue;
    if (Found)
      return nullptr;
    Found = C;
  }
  return Found;
}

/// The default argument of parameter \p I of \p C, on any of its declarations.
static const Expr *defaultArg(const CXXConstructorDecl *C, unsigned I) {
  for (const FunctionDecl *R : C->redecls())
    if (I < R->getNumParams() && R->getParamDecl(I)->hasDefaultArg() &&
        !R->getParamDecl(I)->hasUninstantiatedDefaultArg() &&
        !R->getParamDecl(I)->hasUnparsedDefaultArg())
      return R->getParamDecl(I)->getDefaultArg();
  return nullptr;
}

bool ModuleModels::newTensorsFor(const ParmVarDecl *P, bool &RequiresGrad) {
  const auto *Ctor =
      P ? dyn_cast<CXXConstructorDecl>(P->getDeclContext()) : nullptr;
  if (!Ctor)
    return false;
  if (!ConstructionsIndexed)
    indexConstructions();
  auto It = Constructions.find(Ctor->getParent()->getCanonicalDecl());
  if (It == Constructions.end())
    return false;
  unsigned Idx = P->getFunctionScopeIndex();
  const CXXConstructorDecl *Canon = Ctor->getCanonicalDecl();
  NewTensors New(*this, Ctx);
  unsigned Sites = 0;
  for (const Construction &C : It->second) {
    const CXXConstructorDecl *Called = C.Ctor;
    if (!Called) {
      // `Net(a, b)`, `std::make_shared<NetImpl>(a, b)`: the one constructor
      // that takes that many arguments.
      if (C.Args.size() == 1 &&
          recordOf(C.Args[0]->getType()) == Ctor->getParent())
        continue; // a copy
      Called = forwardedCtor(Ctor->getParent(), C.Args.size());
      if (!Called)
        return false;
    }
    if (Called->getCanonicalDecl() != Canon)
      continue; // another constructor: another setup
    const Expr *Arg =
        Idx < C.Args.size() ? C.Args[Idx] : defaultArg(Called, Idx);
    if (!Arg || !New.isNew(Arg, C.Caller))
      return false;
    ++Sites;
  }
  RequiresGrad = RequiresGrad || New.RequiresGrad;
  return Sites > 0;
}

std::string describeSetup(const SetupFunction &S) {
  if (S.IsReset)
    return "'reset()'";
  const auto *C = dyn_cast_or_null<CXXConstructorDecl>(S.Decl);
  if (!C)
    return "the implicit default constructor";
  std::string Out = "constructor '" + C->getParent()->getNameAsString() + "(";
  PrintingPolicy PP(C->getASTContext().getLangOpts());
  PP.SuppressScope = false;
  for (unsigned I = 0; I < C->getNumParams(); ++I) {
    if (I)
      Out += ", ";
    Out += C->getParamDecl(I)->getType().getAsString(PP);
  }
  return Out + ")'";
}

} // namespace torch_tidy
