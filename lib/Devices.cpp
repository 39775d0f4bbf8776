//===--- Devices.cpp - where a tensor's device comes from -----------------===//
#include "torch-tidy/Devices.h"
#include "torch-tidy/EvaluationOrder.h"
#include "torch-tidy/Summaries.h"
#include "torch-tidy/WholeProgram.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringSwitch.h"

#include <functional>

using namespace clang;

namespace torch_tidy {

//===----------------------------------------------------------------------===//
// Types and names
//===----------------------------------------------------------------------===//

static QualType bare(QualType T) {
  if (T.isNull())
    return T;
  return T.getNonReferenceType().getCanonicalType().getUnqualifiedType();
}

static bool isDeviceTypeEnum(QualType T) {
  T = bare(T);
  if (T.isNull())
    return false;
  const auto *ED = dyn_cast_or_null<EnumDecl>(T->getAsTagDecl());
  return ED && hasQualifiedName(ED, "c10::DeviceType");
}

static bool isDeviceClass(const CXXRecordDecl *RD) {
  return RD && hasQualifiedName(RD, "c10::Device");
}

static bool isOptionsClass(const CXXRecordDecl *RD) {
  return RD && hasQualifiedName(RD, "c10::TensorOptions");
}

static bool isOptionalClass(const CXXRecordDecl *RD) {
  return RD && (hasQualifiedName(RD, "c10::optional") ||
                hasQualifiedName(RD, "std::optional"));
}

static QualType optionalArg(const CXXRecordDecl *RD) {
  const auto *Spec = dyn_cast_or_null<ClassTemplateSpecializationDecl>(RD);
  if (!Spec || !isOptionalClass(Spec))
    return QualType();
  const TemplateArgumentList &Args = Spec->getTemplateArgs();
  if (Args.size() < 1 || Args[0].getKind() != TemplateArgument::Type)
    return QualType();
  return Args[0].getAsType();
}

bool isDeviceValueType(QualType T) {
  if (isDeviceTypeEnum(T))
    return true;
  const CXXRecordDecl *RD = recordOf(T);
  if (!RD)
    return false;
  if (isDeviceClass(RD) || isOptionsClass(RD))
    return true;
  QualType Inner = optionalArg(RD);
  return !Inner.isNull() && isDeviceValueType(Inner);
}

static bool isStringType(QualType T) {
  T = bare(T);
  if (T.isNull())
    return false;
  if (const CXXRecordDecl *RD = T->getAsCXXRecordDecl())
    return hasQualifiedName(RD, "std::basic_string") ||
           hasQualifiedName(RD, "std::basic_string_view") ||
           hasQualifiedName(RD, "c10::basic_string_view");
  if (const auto *PT = T->getAs<PointerType>())
    return PT->getPointeeType()->isAnyCharacterType();
  return false;
}

bool isAvailabilityQuery(const FunctionDecl *FD) {
  static const char *const Names[] = {"torch::cuda::is_available",
                                      "torch::cuda::device_count",
                                      "torch::cuda::cudnn_is_available",
                                      "torch::mps::is_available",
                                      "at::hasCUDA",
                                      "at::hasHIP",
                                      "at::hasMPS",
                                      "at::hasXPU",
                                      "at::Context::hasCUDA",
                                      "at::Context::hasHIP",
                                      "at::Context::hasMPS",
                                      "at::Context::hasXPU",
                                      "at::cuda::is_available",
                                      "at::cuda::device_count",
                                      "c10::cuda::device_count"};
  if (!FD)
    return false;
  for (const char *N : Names)
    if (hasQualifiedName(FD, N))
      return true;
  return false;
}

static bool inSystemHeader(const Decl *D) {
  const SourceManager &SM = D->getASTContext().getSourceManager();
  return isLibraryCode(D, SM);
}

static StringRef methodName(const FunctionDecl *FD) {
  return FD && FD->getIdentifier() ? FD->getName() : StringRef();
}

/// The device type a `Tensor` conversion method moves to (`cuda` -> "CUDA"),
/// or empty.
static StringRef conversionTarget(StringRef Method) {
  return llvm::StringSwitch<StringRef>(Method)
      .Case("cpu", "CPU")
      .Case("cuda", "CUDA")
      .Case("hip", "HIP")
      .Case("xpu", "XPU")
      .Case("mps", "MPS")
      .Case("ve", "VE")
      .Case("vulkan", "Vulkan")
      .Case("metal", "Metal")
      .Default("");
}

/// Tensor methods that read the data on the host.
static bool isHostRead(StringRef Method) {
  static const StringRef Names[] = {
      "item",     "data_ptr",          "const_data_ptr",   "mutable_data_ptr",
      "accessor", "packed_accessor32", "packed_accessor64"};
  return llvm::is_contained(Names, Method);
}

/// Tensor methods that ask which device the tensor is on.
static bool isTensorDeviceQuery(StringRef Method) {
  static const StringRef Names[] = {
      "is_cuda", "is_cpu",    "is_hip",     "is_mps",  "is_xpu",
      "is_xla",  "is_vulkan", "is_metal",   "is_meta", "is_ve",
      "is_ipu",  "is_lazy",   "get_device", "device",  "options"};
  return llvm::is_contained(Names, Method);
}

/// "cuda:1" -> "CUDA"; "cpu" -> "CPU".
static std::string typeNameOfString(StringRef S) {
  StringRef Type = S.split(':').first.trim();
  std::string Lower = Type.lower();
  StringRef Known = llvm::StringSwitch<StringRef>(Lower)
                        .Case("cpu", "CPU")
                        .Case("cuda", "CUDA")
                        .Case("hip", "HIP")
                        .Case("mps", "MPS")
                        .Case("xpu", "XPU")
                        .Case("xla", "XLA")
                        .Case("vulkan", "Vulkan")
                        .Case("metal", "Metal")
                        .Case("meta", "Meta")
                        .Case("ve", "VE")
                        .Default("");
  if (!Known.empty())
    return Known.str();
  return Type.upper();
}

/// The `c10::DeviceType` enumerator \p D names: the enumerator itself or a
/// LibTorch constant such as `c10::kCUDA`.
static const EnumConstantDecl *deviceEnumerator(const ValueDecl *D,
                                                unsigned Depth = 0) {
  if (const auto *EC = dyn_cast_or_null<EnumConstantDecl>(D)) {
    const auto *ED = dyn_cast<EnumDecl>(EC->getDeclContext());
    return ED && hasQualifiedName(ED, "c10::DeviceType") ? EC : nullptr;
  }
  const auto *VD = dyn_cast_or_null<VarDecl>(D);
  if (!VD || Depth > 3 || !VD->getType().isConstQualified() ||
      !isDeviceTypeEnum(VD->getType()))
    return nullptr;
  const Expr *Init = VD->getAnyInitializer();
  if (!Init)
    return nullptr;
  if (const auto *DRE =
          dyn_cast<DeclRefExpr>(stripExpr(Init, Strip::DeviceValue)))
    return deviceEnumerator(DRE->getDecl(), Depth + 1);
  return nullptr;
}

static DeviceProvenance make(DeviceOrigin O) {
  DeviceProvenance P;
  P.Origin = O;
  return P;
}

static DeviceProvenance literal(const Expr *Written, StringRef TypeName) {
  // Meta tensors hold no data: creating one is shape bookkeeping, not placement.
  if (TypeName == "Meta")
    return make(DeviceOrigin::Unknown);
  DeviceProvenance P = make(DeviceOrigin::Literal);
  P.Written = Written;
  P.TypeName = TypeName.str();
  P.Accelerator = TypeName != "CPU";
  return P;
}

/// A std::string / const char * argument of a `c10::Device` constructor.
static DeviceProvenance stringProvenance(const Expr *E) {
  E = stripExpr(E, Strip::DeviceValue);
  if (const auto *CE = dyn_cast_or_null<CXXConstructExpr>(E))
    if (CE->getNumArgs() >= 1 && isStringType(CE->getType()))
      E = stripExpr(CE->getArg(0), Strip::DeviceValue);
  if (const auto *SL = dyn_cast_or_null<StringLiteral>(E)) {
    if (SL->getCharByteWidth() != 1)
      return make(DeviceOrigin::Unknown);
    return literal(SL, typeNameOfString(SL->getString()));
  }
  if (const auto *DRE = dyn_cast_or_null<DeclRefExpr>(E))
    if (const auto *PVD = dyn_cast<ParmVarDecl>(DRE->getDecl())) {
      DeviceProvenance P = make(DeviceOrigin::Parameter);
      P.Param = PVD;
      return P;
    }
  return make(DeviceOrigin::Unknown);
}

//===----------------------------------------------------------------------===//
// The analysis
//===----------------------------------------------------------------------===//

namespace {
/// What the conditions around a statement say about the device.
struct Cond {
  const CallExpr *Availability = nullptr; ///< an availability query is tested
  bool FollowsDevice = false;             ///< a non-literal device is tested
};

/// One value stored into a local or member, with the conditions around it.
struct Write {
  const Expr *Value;
  llvm::SmallVector<const Expr *, 2> Conds;
};

struct Writes {
  llvm::SmallVector<Write, 2> List;
  bool Escapes = false; ///< address taken or bound to a non-const reference
};
} // namespace

namespace {
/// What a DeviceAnalysis knows; its state lives in DeviceAnalysis::State.
class DeviceReader {
public:
  explicit DeviceReader(const DeviceConfig &Config)
      : Config(Config), Engine(Config.MaxCallDepth), Returns(Engine),
        Values(Engine), Helpers(Engine) {}

  DeviceProvenance prov(const Expr *E);
  Cond classify(const Expr *Condition);
  Cond classifyAll(llvm::ArrayRef<const Expr *> Conds);
  PlacementList helperPlacements(const FunctionDecl *FD, unsigned Depth);
  PlacementList remotePlacements(const FunctionDecl *FD, unsigned Depth);
  PlacementList walkPlacements(const FunctionDecl *FD, const Expr *E,
                               unsigned Depth);
  bool movesModule(const Stmt *S, unsigned Depth = 0);
  DeviceProvenance returned(const FunctionDecl *FD) {
    const FunctionDecl *Def = nullptr;
    if (!FD || !FD->isDefined(Def) || !Def->getBody())
      return make(DeviceOrigin::Unknown);
    return returnProv(Def);
  }
  /// inSystemHeader, answered once per declaration: the walks ask it for
  /// every call and construction they meet.
  bool library(const Decl *D) {
    auto [It, New] = Library.try_emplace(D, false);
    if (New)
      It->second = inSystemHeader(D);
    return It->second;
  }

  const DeviceConfig &Config;

private:
  DeviceProvenance
  alternatives(llvm::ArrayRef<std::pair<DeviceProvenance, Cond>> Alts);
  DeviceProvenance written(const Writes &W);
  DeviceProvenance localProv(const VarDecl *VD);
  DeviceProvenance memberProv(const FieldDecl *FD);
  DeviceProvenance returnProv(const FunctionDecl *FD);
  DeviceProvenance remoteReturnProv(const FunctionDecl *FD);
  DeviceProvenance callProv(const CallExpr *Call);
  DeviceProvenance constructProv(const CXXConstructExpr *CE);
  const Writes *localWrites(const VarDecl *VD);
  const llvm::DenseMap<const FieldDecl *, Writes> *
  memberWrites(const CXXRecordDecl *RD);

  llvm::DenseMap<const FunctionDecl *, llvm::DenseMap<const VarDecl *, Writes>>
      Locals;
  struct ClassWrites {
    bool Incomplete = false;
    llvm::DenseMap<const FieldDecl *, Writes> Fields;
  };
  llvm::DenseMap<const CXXRecordDecl *, ClassWrites> Members;
  /// Recursion guard (functions, locals, members, constants being read),
  /// depth bound and truncation of the two tables below.
  SummaryEngine Engine;
  /// The device a function returns, read ProvDepth calls below the value
  /// asked about.
  Summaries<const FunctionDecl *, DeviceProvenance> Returns;
  /// The device a local, a member or a constant of the program holds, read
  /// once: `d2 = c ? d1 : d0; d3 = c ? d2 : d1; ...` is linear, not
  /// exponential, in the number of variables.
  Summaries<const ValueDecl *, DeviceProvenance> Values;
  unsigned ProvDepth = 0;
  /// The placements of a helper.
  Summaries<const FunctionDecl *, PlacementList> Helpers;
  /// The helpers movesModule read, with the least depth they were read at.
  llvm::DenseMap<const FunctionDecl *, unsigned> MoveRead;
  llvm::DenseMap<const Decl *, bool> Library;
};
} // namespace

struct DeviceAnalysis::State : DeviceReader {
  using DeviceReader::DeviceReader;
};

namespace {

/// A LibTorch or standard function template that takes parameter \p P as a
/// forwarding reference (`Args &&...args`, as `TensorOptions::device` does):
/// an lvalue binds to it as a non-const reference, but the value is passed
/// on, not changed.
bool forwardsToLibrary(const FunctionDecl *FD, unsigned P) {
  return inSystemHeader(FD) && isForwardingParam(FD, P);
}

/// Collects the writes of locals (of one function) or of members (of `this`).
class WriteCollector {
public:
  enum Target { LocalVars, ThisMembers };
  WriteCollector(Target T, llvm::DenseMap<const ValueDecl *, Writes> &Out)
      : T(T), Out(Out) {}

  void walk(const Stmt *Root) {
    forEachDescendant(Root, [&](const Stmt *S) { return step(S); });
  }

  /// One statement of walk(): what it records, and whether its children follow.
  Descend step(const Stmt *S) {
    if (!S)
      return Descend::Skip;
    if (const auto *DS = dyn_cast<DeclStmt>(S)) {
      for (const Decl *D : DS->decls())
        if (const auto *VD = dyn_cast<VarDecl>(D)) {
          if (T == LocalVars && VD->getInit())
            Out[VD].List.push_back({VD->getInit(), {}});
          // `auto &r = dev;` lets `r` change `dev`.
          if (VD->getType()->isReferenceType() &&
              !VD->getType().getNonReferenceType().isConstQualified() &&
              VD->getInit())
            escape(VD->getInit());
        }
    } else if (const auto *If = dyn_cast<IfStmt>(S)) {
      walk(If->getInit());
      walk(If->getConditionVariableDeclStmt());
      walk(If->getCond());
      Conds.push_back(If->getCond());
      walk(If->getThen());
      walk(If->getElse());
      Conds.pop_back();
      return Descend::Skip;
    } else if (const auto *BO = dyn_cast<BinaryOperator>(S)) {
      if (BO->getOpcode() == BO_Assign)
        assign(BO->getLHS(), BO->getRHS());
    } else if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(S)) {
      if (OC->getOperator() == OO_Equal && OC->getNumArgs() == 2)
        assign(OC->getArg(0), OC->getArg(1));
    } else if (const auto *UO = dyn_cast<UnaryOperator>(S)) {
      if (UO->getOpcode() == UO_AddrOf)
        escape(UO->getSubExpr());
    } else if (const auto *Call = dyn_cast<CallExpr>(S)) {
      // An argument bound to a non-const reference parameter may be changed.
      if (const FunctionDecl *FD = Call->getDirectCallee()) {
        unsigned Shift =
            isa<CXXOperatorCallExpr>(Call) && isa<CXXMethodDecl>(FD) ? 1 : 0;
        for (unsigned I = Shift; I < Call->getNumArgs(); ++I) {
          unsigned P = I - Shift;
          if (P >= FD->getNumParams())
            break;
          QualType PT = FD->getParamDecl(P)->getType();
          if (PT->isReferenceType() &&
              !PT.getNonReferenceType().isConstQualified() &&
              !forwardsToLibrary(FD, P))
            escape(Call->getArg(I));
        }
      }
    } else if (const auto *L = dyn_cast<LambdaExpr>(S)) {
      walk(
          L->getBody()); // writes to captured locals or through a captured `this`
      return Descend::Skip;
    }
    return Descend::Children;
  }

private:
  const ValueDecl *target(const Expr *E) {
    E = E ? E->IgnoreParenImpCasts() : nullptr;
    if (!E)
      return nullptr;
    if (T == LocalVars) {
      if (const auto *DRE = dyn_cast<DeclRefExpr>(E))
        if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl()))
          if (VD->isLocalVarDecl() && !isa<ParmVarDecl>(VD))
            return VD;
      return nullptr;
    }
    if (const auto *ME = dyn_cast<MemberExpr>(E))
      if (isa<CXXThisExpr>(ME->getBase()->IgnoreParenImpCasts()))
        return dyn_cast<FieldDecl>(ME->getMemberDecl());
    return nullptr;
  }
  void assign(const Expr *LHS, const Expr *RHS) {
    if (const ValueDecl *D = target(LHS))
      Out[D].List.push_back({RHS, Conds});
  }
  void escape(const Expr *E) {
    if (const ValueDecl *D = target(E))
      Out[D].Escapes = true;
  }

  Target T;
  llvm::DenseMap<const ValueDecl *, Writes> &Out;
  llvm::SmallVector<const Expr *, 2> Conds;
};

} // namespace

DeviceProvenance DeviceReader::alternatives(
    llvm::ArrayRef<std::pair<DeviceProvenance, Cond>> Alts) {
  if (Alts.empty())
    return make(DeviceOrigin::Unknown);
  for (const auto &A : Alts)
    if (A.second.FollowsDevice)
      return make(DeviceOrigin::Tensor);
  for (const auto &A : Alts)
    if (A.first.Origin != DeviceOrigin::Literal &&
        A.first.Origin != DeviceOrigin::None)
      return A.first;
  DeviceProvenance R = make(DeviceOrigin::None);
  const CallExpr *Avail = nullptr;
  for (const auto &A : Alts) {
    if (!Avail)
      Avail =
          A.second.Availability ? A.second.Availability : A.first.Availability;
    if (!A.first.isLiteral())
      continue;
    if (!R.isLiteral() || (!R.Accelerator && A.first.Accelerator))
      R = A.first;
  }
  if (R.isLiteral() && !R.Availability && Alts.size() > 1)
    R.Availability = Avail;
  return R;
}

Cond DeviceReader::classify(const Expr *Condition) {
  Cond C;
  llvm::SmallVector<const Stmt *, 8> Work;
  if (Condition)
    Work.push_back(Condition);
  while (!Work.empty()) {
    const Stmt *S = Work.pop_back_val();
    if (!S)
      continue;
    if (const auto *E = dyn_cast<Expr>(S)) {
      if (E->isInstantiationDependent())
        continue;
      if (const auto *Call = dyn_cast<CallExpr>(E)) {
        const FunctionDecl *FD = Call->getDirectCallee();
        if (isAvailabilityQuery(FD) && !C.Availability)
          C.Availability = Call;
        if (const auto *MC = dyn_cast<CXXMemberCallExpr>(Call))
          if (const CXXMethodDecl *MD = MC->getMethodDecl())
            if (isTensorClass(MD->getParent()) &&
                isTensorDeviceQuery(methodName(MD)))
              C.FollowsDevice = true;
      }
      if (isDeviceValueType(E->getType()) && !isa<CXXOperatorCallExpr>(E)) {
        DeviceOrigin O = prov(E).Origin;
        if (O != DeviceOrigin::Literal && O != DeviceOrigin::None)
          C.FollowsDevice = true;
        continue;
      }
    }
    for (const Stmt *Child : S->children())
      Work.push_back(Child);
  }
  return C;
}

Cond DeviceReader::classifyAll(llvm::ArrayRef<const Expr *> Conds) {
  Cond R;
  for (const Expr *E : Conds) {
    Cond C = classify(E);
    R.FollowsDevice |= C.FollowsDevice;
    if (C.Availability)
      R.Availability = C.Availability; // the innermost one
  }
  return R;
}

DeviceProvenance DeviceReader::written(const Writes &W) {
  if (W.Escapes || W.List.empty())
    return make(DeviceOrigin::Unknown);
  llvm::SmallVector<std::pair<DeviceProvenance, Cond>, 2> Alts;
  for (const Write &Wr : W.List)
    Alts.push_back({prov(Wr.Value), classifyAll(Wr.Conds)});
  return alternatives(Alts);
}

const Writes *DeviceReader::localWrites(const VarDecl *VD) {
  const auto *FD =
      dyn_cast_or_null<FunctionDecl>(VD->getParentFunctionOrMethod());
  if (!FD || !FD->getBody())
    return nullptr;
  auto It = Locals.find(FD);
  if (It == Locals.end()) {
    llvm::DenseMap<const ValueDecl *, Writes> Found;
    WriteCollector(WriteCollector::LocalVars, Found).walk(FD->getBody());
    auto &Map = Locals[FD];
    for (auto &KV : Found)
      Map[cast<VarDecl>(KV.first)] = std::move(KV.second);
    It = Locals.find(FD);
  }
  auto VIt = It->second.find(VD);
  return VIt == It->second.end() ? nullptr : &VIt->second;
}

const llvm::DenseMap<const FieldDecl *, Writes> *
DeviceReader::memberWrites(const CXXRecordDecl *RD) {
  RD = RD->getDefinition();
  if (!RD)
    return nullptr;
  auto It = Members.find(RD);
  if (It == Members.end()) {
    ClassWrites CW;
    llvm::DenseMap<const ValueDecl *, Writes> Found;
    WriteCollector Collector(WriteCollector::ThisMembers, Found);
    for (const FieldDecl *F : RD->fields())
      if (F->hasInClassInitializer())
        if (const Expr *Init = F->getInClassInitializer())
          Found[F].List.push_back({Init, {}});
    for (const CXXMethodDecl *MD : RD->methods()) {
      if (MD->isDeleted())
        continue;
      const FunctionDecl *Def = nullptr;
      if (!MD->isDefined(Def) || !Def->getBody()) {
        // A constructor defined elsewhere may set any member.
        if (isa<CXXConstructorDecl>(MD) && MD->isUserProvided())
          CW.Incomplete = true;
        continue;
      }
      if (const auto *CD = dyn_cast<CXXConstructorDecl>(Def))
        for (const CXXCtorInitializer *Init : CD->inits())
          if (Init->isWritten() && Init->getMember() && Init->getInit())
            Found[Init->getMember()].List.push_back({Init->getInit(), {}});
      Collector.walk(Def->getBody());
    }
    for (auto &KV : Found)
      CW.Fields[cast<FieldDecl>(KV.first)] = std::move(KV.second);
    It = Members.insert({RD, std::move(CW)}).first;
  }
  return It->second.Incomplete ? nullptr : &It->second.Fields;
}

DeviceProvenance DeviceReader::localProv(const VarDecl *VD) {
  return Values.get(VD, VD, ProvDepth, [&] {
    const Writes *W = localWrites(VD);
    return W ? written(*W) : make(DeviceOrigin::Unknown);
  });
}

DeviceProvenance DeviceReader::memberProv(const FieldDecl *FD) {
  const auto *RD = dyn_cast<CXXRecordDecl>(FD->getParent());
  if (!RD)
    return make(DeviceOrigin::Unknown);
  return Values.get(FD, FD, ProvDepth, [&] {
    if (const auto *Fields = memberWrites(RD)) {
      auto It = Fields->find(FD);
      if (It != Fields->end())
        return written(It->second);
    }
    return make(DeviceOrigin::Unknown);
  });
}

DeviceProvenance DeviceReader::returnProv(const FunctionDecl *FD) {
  return Returns.get(FD, ProvDepth + 1, [&] {
    if (FD->isDependentContext()) {
      Engine.cutOff();
      return make(DeviceOrigin::Unknown);
    }
    // The returned values, with the `if` conditions around each.
    llvm::SmallVector<Write, 2> Rets;
    llvm::SmallVector<const Expr *, 2> Conds;
    std::function<void(const Stmt *)> Walk = [&](const Stmt *Root) {
      forEachDescendant(Root, [&](const Stmt *S) {
        if (isa<LambdaExpr>(S))
          return Descend::Skip;
        if (const auto *R = dyn_cast<ReturnStmt>(S)) {
          if (R->getRetValue())
            Rets.push_back({R->getRetValue(), Conds});
          return Descend::Skip;
        }
        if (const auto *If = dyn_cast<IfStmt>(S)) {
          Conds.push_back(If->getCond());
          Walk(If->getThen());
          Walk(If->getElse());
          Conds.pop_back();
          return Descend::Skip;
        }
        return Descend::Children;
      });
    };
    Walk(FD->getBody());
    ++ProvDepth;
    llvm::SmallVector<std::pair<DeviceProvenance, Cond>, 2> Alts;
    for (const Write &R : Rets)
      Alts.push_back({prov(R.Value), classifyAll(R.Conds)});
    --ProvDepth;
    return alternatives(Alts);
  });
}

DeviceProvenance DeviceReader::constructProv(const CXXConstructExpr *CE) {
  if (!isDeviceValueType(CE->getType()))
    return make(DeviceOrigin::Unknown);
  llvm::SmallVector<std::pair<DeviceProvenance, Cond>, 2> Alts;
  for (const Expr *Arg : CE->arguments()) {
    if (isa<CXXDefaultArgExpr>(Arg))
      continue;
    if (isDeviceValueType(Arg->getType()))
      Alts.push_back({prov(Arg), Cond()});
    else if (isStringType(Arg->getType()) &&
             isDeviceClass(recordOf(CE->getType())))
      Alts.push_back({stringProvenance(Arg), Cond()});
  }
  if (Alts.empty())
    return make(
        DeviceOrigin::None); // TensorOptions(), TensorOptions(torch::kFloat)
  DeviceProvenance P = alternatives(Alts);
  P.Availability = nullptr; // several arguments are not alternatives
  for (const auto &A : Alts)
    if (A.first.Availability)
      P.Availability = A.first.Availability;
  return P;
}

DeviceProvenance DeviceReader::callProv(const CallExpr *Call) {
  const FunctionDecl *FD = Call->getDirectCallee();
  if (!FD)
    return make(DeviceOrigin::Unknown);
  auto ArgsProv = [&](unsigned From) {
    llvm::SmallVector<std::pair<DeviceProvenance, Cond>, 2> Alts;
    for (unsigned I = From; I < Call->getNumArgs(); ++I) {
      const Expr *Arg = Call->getArg(I);
      if (!isa<CXXDefaultArgExpr>(Arg) && isDeviceValueType(Arg->getType()))
        Alts.push_back({prov(Arg), Cond()});
    }
    return Alts;
  };
  if (const auto *MC = dyn_cast<CXXMemberCallExpr>(Call)) {
    const CXXMethodDecl *MD = MC->getMethodDecl();
    const CXXRecordDecl *Parent = MD ? MD->getParent() : nullptr;
    const Expr *Obj = MC->getImplicitObjectArgument();
    StringRef Name = methodName(MD);
    if (isTensorClass(Parent))
      return make(DeviceOrigin::Tensor); // x.device(), x.options()
    if (isOptionsClass(Parent)) {
      if (Name == "device_index")
        return literal(Call, "CUDA"); // sets a CUDA device
      if (Name == "device" && Call->getNumArgs() > 0) {
        auto Alts = ArgsProv(0);
        if (Alts.empty()) // device(kCUDA, 1) through a template: the type argument
          return make(DeviceOrigin::Unknown);
        DeviceProvenance P = alternatives(Alts);
        return P;
      }
      return Obj ? prov(Obj)
                 : make(DeviceOrigin::Unknown); // dtype(), layout(), ...
    }
    if (isDeviceClass(Parent) || isOptionalClass(Parent))
      return Obj ? prov(Obj)
                 : make(DeviceOrigin::Unknown); // d.type(), o.value()
  }
  if (isa<CXXOperatorCallExpr>(Call))
    return make(DeviceOrigin::Unknown);
  if (library(FD)) {
    // torch::device(kCUDA), torch::dtype(kFloat), ...
    auto Alts = ArgsProv(0);
    if (!Alts.empty())
      return alternatives(Alts);
    return isOptionsClass(recordOf(FD->getReturnType()))
               ? make(DeviceOrigin::None)
               : make(DeviceOrigin::Unknown);
  }
  // A function of the translation unit that returns a device.
  if (matchesFunctionList(FD, Config.AllowedDeviceFunctions))
    return make(DeviceOrigin::Unknown);
  const FunctionDecl *Def = nullptr;
  DeviceProvenance P;
  if (FD->isDefined(Def) && Def->getBody()) {
    P = returnProv(Def);
  } else if (Config.Program &&
             mayBeElsewhere(FD, FD->getASTContext().getSourceManager())) {
    Def = FD; // a function of another file, through its summary
    P = remoteReturnProv(FD);
  } else {
    return make(DeviceOrigin::Unknown);
  }
  if (P.Origin == DeviceOrigin::Parameter && P.Param &&
      P.Param->getDeclContext() == Def) {
    unsigned Idx = P.Param->getFunctionScopeIndex();
    if (Idx < Call->getNumArgs() && !isa<CXXDefaultArgExpr>(Call->getArg(Idx)))
      P = prov(Call->getArg(Idx));
    else
      return make(DeviceOrigin::Unknown);
  }
  if (P.isLiteral())
    P.Through = Def;
  return P;
}

DeviceProvenance DeviceReader::remoteReturnProv(const FunctionDecl *FD) {
  return Returns.get(FD->getCanonicalDecl(), ProvDepth + 1, [&] {
    const RemoteFunction *R = Config.Program->find(FD);
    if (!R || !R->ReturnsDevice)
      return make(DeviceOrigin::Unknown);
    const RemoteDeviceReturn &D = *R->ReturnsDevice;
    switch (D.Origin) {
    case RemoteDeviceReturn::OriginKind::Literal: {
      DeviceProvenance P = make(DeviceOrigin::Literal);
      P.Accelerator = D.Literal.Accelerator;
      P.TypeName = D.Literal.TypeName;
      P.Remote = &D.Literal;
      return P;
    }
    case RemoteDeviceReturn::OriginKind::Parameter: {
      DeviceProvenance P = make(DeviceOrigin::Parameter);
      if (D.ParamIndex < FD->getNumParams())
        P.Param = FD->getParamDecl(D.ParamIndex);
      else
        P.Origin = DeviceOrigin::Unknown;
      return P;
    }
    case RemoteDeviceReturn::OriginKind::Tensor:
      return make(DeviceOrigin::Tensor);
    case RemoteDeviceReturn::OriginKind::None:
      return make(DeviceOrigin::None);
    }
    return make(DeviceOrigin::Unknown);
  });
}

DeviceProvenance DeviceReader::prov(const Expr *E) {
  E = stripExpr(E, Strip::DeviceValue);
  if (!E || E->isInstantiationDependent())
    return make(DeviceOrigin::Unknown);
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
    const ValueDecl *D = DRE->getDecl();
    if (const EnumConstantDecl *EC = deviceEnumerator(D)) {
      // `torch::kCUDA`, `c10::DeviceType::CUDA`; a user's own constant is
      // followed below so notes can name it.
      if (isa<EnumConstantDecl>(D) || library(D))
        return literal(DRE, EC->getName());
    }
    if (const auto *PVD = dyn_cast<ParmVarDecl>(D)) {
      DeviceProvenance P = make(DeviceOrigin::Parameter);
      P.Param = PVD;
      return P;
    }
    const auto *VD = dyn_cast<VarDecl>(D);
    if (!VD)
      return make(DeviceOrigin::Unknown);
    DeviceProvenance P = make(DeviceOrigin::Unknown);
    if (VD->isLocalVarDecl()) {
      P = localProv(VD);
    } else if (VD->getType().isConstQualified() && !library(VD)) {
      // A constant of the program: `constexpr auto kDevice = torch::kCUDA;`
      if (const Expr *Init = VD->getAnyInitializer())
        P = Values.get(VD, VD, ProvDepth, [&] { return prov(Init); });
    }
    if (P.isLiteral())
      P.Through = VD;
    return P;
  }
  if (const auto *ME = dyn_cast<MemberExpr>(E)) {
    const auto *FD = dyn_cast<FieldDecl>(ME->getMemberDecl());
    if (!FD || !isa<CXXThisExpr>(ME->getBase()->IgnoreParenImpCasts()))
      return make(DeviceOrigin::Unknown);
    DeviceProvenance P = memberProv(FD);
    if (P.isLiteral())
      P.Through = FD;
    return P;
  }
  if (const auto *CO = dyn_cast<ConditionalOperator>(E)) {
    Cond C = classify(CO->getCond());
    return alternatives(
        {{prov(CO->getTrueExpr()), C}, {prov(CO->getFalseExpr()), C}});
  }
  if (const auto *CE = dyn_cast<CXXConstructExpr>(E))
    return constructProv(CE);
  if (const auto *Call = dyn_cast<CallExpr>(E))
    return callProv(Call);
  if (isa<CXXDefaultArgExpr>(E))
    return make(DeviceOrigin::Unknown);
  return make(DeviceOrigin::Unknown);
}

//===----------------------------------------------------------------------===//
// Placements
//===----------------------------------------------------------------------===//

namespace {

/// Does a call to \p FD decide where a tensor lives when given a device?
bool placesTensors(const FunctionDecl *FD, const TypeConfig &Types) {
  if (isTensorClass(recordOf(FD->getReturnType())))
    return true; // factories, Tensor::to, new_zeros, helpers returning tensors
  if (const auto *MD = dyn_cast<CXXMethodDecl>(FD)) {
    const CXXRecordDecl *Parent = MD->getParent();
    if (isModuleClass(Parent, Types) || isModuleHolderClass(Parent) ||
        isTensorClass(Parent))
      return true; // module->to(device)
  }
  return !inSystemHeader(FD); // a function of the program taking a device
}

bool isModuleMethod(const FunctionDecl *FD, const TypeConfig &Types) {
  const auto *MD = dyn_cast<CXXMethodDecl>(FD);
  return MD && isModuleClass(MD->getParent(), Types);
}

class PlacementWalker {
public:
  PlacementWalker(DeviceReader &A, PlacementList &Out, unsigned Depth)
      : A(A), Out(Out), Depth(Depth) {}

  void walk(const Stmt *Root) {
    forEachDescendant(Root, [&](const Stmt *S) { return step(S); });
  }

  /// One statement of walk(): what it records, and whether its children follow.
  Descend step(const Stmt *S) {
    if (!S || isa<CXXDefaultArgExpr>(S) || isa<CXXDefaultInitExpr>(S))
      return Descend::Skip;
    if (const auto *E = dyn_cast<Expr>(S))
      if (E->isInstantiationDependent())
        return Descend::Skip;
    if (const auto *If = dyn_cast<IfStmt>(S)) {
      walk(If->getInit());
      walk(If->getConditionVariableDeclStmt());
      walk(If->getCond());
      Conds.push_back(A.classify(If->getCond()));
      walk(If->getThen());
      walk(If->getElse());
      Conds.pop_back();
      return Descend::Skip;
    }
    if (const auto *CO = dyn_cast<ConditionalOperator>(S)) {
      walk(CO->getCond());
      Conds.push_back(A.classify(CO->getCond()));
      walk(CO->getTrueExpr());
      walk(CO->getFalseExpr());
      Conds.pop_back();
      return Descend::Skip;
    }
    if (const auto *L = dyn_cast<LambdaExpr>(S)) {
      for (const Expr *Init : L->capture_inits())
        walk(Init);
      const CXXMethodDecl *Op = L->getCallOperator();
      if (const FunctionTemplateDecl *FT =
              Op ? Op->getDescribedFunctionTemplate() : nullptr) {
        for (const FunctionDecl *Spec : FT->specializations())
          walk(Spec->getBody());
      } else {
        walk(L->getBody());
      }
      return Descend::Skip;
    }
    if (const auto *Call = dyn_cast<CallExpr>(S))
      visitCall(Call);
    else if (const auto *CE = dyn_cast<CXXConstructExpr>(S))
      visitConstruct(CE);
    return Descend::Children;
  }

private:
  Cond current() const {
    Cond C;
    for (const Cond &X : Conds) {
      C.FollowsDevice |= X.FollowsDevice;
      if (X.Availability)
        C.Availability = X.Availability;
    }
    return C;
  }

  void emit(const Expr *Call, const Expr *Arg, DeviceProvenance P) {
    Cond C = current();
    if (C.FollowsDevice)
      return; // `if (x.is_cuda()) y = y.cuda();` follows the input
    DevicePlacement Pl;
    Pl.Call = Call;
    Pl.DeviceArg = Arg;
    Pl.Device = std::move(P);
    Pl.UnderAvailability = C.Availability;
    Pl.HostRead = HostRead.count(Call) != 0;
    Out.push_back(std::move(Pl));
  }

  void deviceArgs(const Expr *Call, llvm::ArrayRef<const Expr *> Args) {
    for (const Expr *Arg : Args) {
      if (!Arg || isa<CXXDefaultArgExpr>(Arg) ||
          !isDeviceValueType(Arg->getType()))
        continue;
      DeviceProvenance P = A.prov(Arg);
      if (P.isLiteral())
        emit(Call, Arg, std::move(P));
    }
  }

  void visitCall(const CallExpr *Call) {
    if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(Call)) {
      // `std::cout << t.cpu()` reads the tensor on the host.
      if (OC->getOperator() == OO_LessLess && OC->getNumArgs() == 2)
        if (const CXXRecordDecl *RD = recordOf(OC->getArg(0)->getType()))
          if (hasQualifiedName(RD, "std::basic_ostream"))
            HostRead.insert(stripExpr(OC->getArg(1), Strip::DeviceValue));
      return;
    }
    const FunctionDecl *FD = Call->getDirectCallee();
    if (!FD)
      return;
    if (const auto *MC = dyn_cast<CXXMemberCallExpr>(Call)) {
      const CXXMethodDecl *MD = MC->getMethodDecl();
      if (MD && isTensorClass(MD->getParent())) {
        StringRef Name = methodName(MD);
        // `t.cpu().contiguous().data_ptr<float>()`: a host read of a tensor
        // derived from another reads that one on the host too.
        if (isHostRead(Name) || (HostRead.count(Call) &&
                                 isTensorClass(recordOf(MD->getReturnType()))))
          HostRead.insert(
              stripExpr(MC->getImplicitObjectArgument(), Strip::DeviceValue));
        StringRef Target = conversionTarget(Name);
        if (!Target.empty()) {
          DeviceProvenance P = literal(Call, Target);
          emit(Call, nullptr, std::move(P));
          return;
        }
      }
    }
    if (isDeviceValueType(FD->getReturnType()))
      return; // builds a device value; judged where it is used
    if (!placesTensors(FD, A.Config.Types))
      return;
    llvm::SmallVector<const Expr *, 4> Args(Call->arguments().begin(),
                                            Call->arguments().end());
    deviceArgs(Call, Args);
    follow(Call, FD);
  }

  void visitConstruct(const CXXConstructExpr *CE) {
    const CXXConstructorDecl *Ctor = CE->getConstructor();
    if (!Ctor || isDeviceValueType(CE->getType()) || A.library(Ctor))
      return;
    // An object of the program built with a device: `Cache cache(torch::kCUDA)`.
    llvm::SmallVector<const Expr *, 4> Args(CE->arguments().begin(),
                                            CE->arguments().end());
    deviceArgs(CE, Args);
  }

  /// Placements inside a helper of the program called here.
  void follow(const CallExpr *Call, const FunctionDecl *FD) {
    if (A.library(FD) || isModuleMethod(FD, A.Config.Types))
      return;
    const FunctionDecl *Def = nullptr;
    bool Here = FD->isDefined(Def) && Def->getBody();
    if (Here && Def->isDependentContext())
      return;
    if (!Here && !(A.Config.Program &&
                   mayBeElsewhere(FD, FD->getASTContext().getSourceManager())))
      return;
    if (const auto *MD = dyn_cast<CXXMethodDecl>(FD))
      if (MD->getParent()->isLambda())
        return; // walked where it is written
    Cond C = current();
    if (C.FollowsDevice)
      return;
    for (DevicePlacement P : Here ? A.helperPlacements(Def, Depth + 1)
                                  : A.remotePlacements(FD, Depth + 1)) {
      P.Via = Here ? Def : FD;
      P.ViaCall = Call;
      if (!P.UnderAvailability)
        P.UnderAvailability = C.Availability;
      Out.push_back(std::move(P));
    }
  }

  DeviceReader &A;
  PlacementList &Out;
  unsigned Depth;
  llvm::SmallVector<Cond, 4> Conds;
  llvm::DenseSet<const Expr *> HostRead;
};
} // namespace

PlacementList DeviceReader::walkPlacements(const FunctionDecl *FD,
                                           const Expr *E, unsigned Depth) {
  PlacementList Out;
  PlacementWalker W(*this, Out, Depth);
  if (FD) {
    if (const auto *CD = dyn_cast<CXXConstructorDecl>(FD))
      for (const CXXCtorInitializer *Init : CD->inits())
        if (Init->isWritten())
          W.walk(Init->getInit());
    W.walk(FD->getBody());
  }
  if (E)
    W.walk(E);
  return Out;
}

PlacementList DeviceReader::helperPlacements(const FunctionDecl *FD,
                                             unsigned Depth) {
  return Helpers.get(FD, Depth,
                     [&] { return walkPlacements(FD, nullptr, Depth); });
}

PlacementList DeviceReader::remotePlacements(const FunctionDecl *FD,
                                             unsigned Depth) {
  return Helpers.get(FD->getCanonicalDecl(), Depth, [&] {
    PlacementList Out;
    const RemoteFunction *R = Config.Program->find(FD);
    if (!R)
      return Out;
    for (const RemoteDevice &D : R->Devices) {
      DevicePlacement P;
      P.Device.Origin = DeviceOrigin::Literal;
      P.Device.Accelerator = D.Accelerator;
      P.Device.TypeName = D.TypeName;
      P.HostRead = D.HostRead;
      P.Remote = &D;
      Out.push_back(std::move(P));
    }
    return Out;
  });
}

bool DeviceReader::movesModule(const Stmt *Root, unsigned Depth) {
  return !forEachDescendant(Root, [&](const Stmt *S) {
    if (const auto *E = dyn_cast<Expr>(S))
      if (E->isInstantiationDependent())
        return Descend::Skip;
    if (const auto *L = dyn_cast<LambdaExpr>(S))
      return movesModule(L->getBody(), Depth) ? Descend::Stop : Descend::Skip;
    // A helper the call enters, through its declaration (its body may be in
    // a header, a precompiled one included), up to MaxCallDepth.
    if (const auto *CE = dyn_cast<CallExpr>(S)) {
      const FunctionDecl *Def = nullptr;
      const FunctionDecl *Callee = CE->getDirectCallee();
      if (Callee && Callee->isDefined(Def) && Def->getBody() &&
          !Def->isDependentContext() && !library(Def) &&
          Engine.follows(Depth + 1)) {
        auto It = MoveRead.try_emplace(Def, Depth + 1);
        if (It.second || It.first->second > Depth + 1) {
          It.first->second = Depth + 1;
          if (movesModule(Def->getBody(), Depth + 1))
            return Descend::Stop;
        }
      }
    }
    if (const auto *MC = dyn_cast<CXXMemberCallExpr>(S)) {
      const CXXMethodDecl *MD = MC->getMethodDecl();
      if (MD && methodName(MD) == "to" &&
          isModuleClass(MD->getParent(), Config.Types))
        for (const Expr *Arg : MC->arguments()) {
          if (isa<CXXDefaultArgExpr>(Arg) || !isDeviceValueType(Arg->getType()))
            continue;
          DeviceProvenance P = prov(Arg);
          if (!P.isLiteral() || P.Accelerator)
            return Descend::Stop;
        }
    }
    return Descend::Children;
  });
}

//===----------------------------------------------------------------------===//
// Public interface
//===----------------------------------------------------------------------===//

std::string describePlacement(const DeviceProvenance &D,
                              const SourceManager &SM, const LangOptions &LO) {
  const Expr *W = D.Written;
  if (const auto *SL = dyn_cast_or_null<StringLiteral>(W))
    return "places a tensor on the hard-coded device \"" +
           SL->getString().str() + "\"";
  if (const auto *MC = dyn_cast_or_null<CXXMemberCallExpr>(W))
    if (const CXXMethodDecl *MD = MC->getMethodDecl())
      if (MD->getIdentifier() && isTensorClass(MD->getParent()))
        return "moves a tensor to the hard-coded device '" + D.TypeName +
               "' with '." + MD->getName().str() + "()'";
  if (W && !W->getBeginLoc().isMacroID() && !W->getEndLoc().isMacroID()) {
    StringRef Text = Lexer::getSourceText(
        CharSourceRange::getTokenRange(W->getSourceRange()), SM, LO);
    if (!Text.empty() && Text.size() <= 60 && !Text.contains('\n'))
      return "places a tensor on the hard-coded device '" + Text.str() + "'";
  }
  return "places a tensor on the hard-coded device '" + D.TypeName + "'";
}

std::string availabilityQuery(const DevicePlacement &P) {
  if (!P.Device.Accelerator)
    return "";
  const CallExpr *Query =
      P.Device.Availability ? P.Device.Availability : P.UnderAvailability;
  if (!Query) {
    if (P.Device.Remote)
      return P.Device.Remote->Query;
    return P.Remote ? P.Remote->Query : "";
  }
  const FunctionDecl *FD = Query->getDirectCallee();
  return FD ? FD->getQualifiedNameAsString() + "()" : "an availability check";
}

DeviceAnalysis::DeviceAnalysis(const DeviceConfig &Config)
    : I(std::make_unique<State>(Config)) {}
DeviceAnalysis::~DeviceAnalysis() = default;

DeviceProvenance DeviceAnalysis::provenance(const Expr *E) {
  return I->prov(E);
}

DeviceProvenance DeviceAnalysis::returned(const FunctionDecl *FD) {
  return I->returned(FD);
}

PlacementList DeviceAnalysis::placements(const FunctionDecl *FD) {
  if (!FD || FD->isDependentContext())
    return {};
  return I->walkPlacements(FD, nullptr, 0);
}

PlacementList DeviceAnalysis::placements(const Expr *E) {
  if (!E)
    return {};
  return I->walkPlacements(nullptr, E, 0);
}

bool DeviceAnalysis::movesModule(const FunctionDecl *FD) {
  if (!FD || FD->isDependentContext() || !FD->getBody())
    return false;
  if (const auto *CD = dyn_cast<CXXConstructorDecl>(FD))
    for (const CXXCtorInitializer *Init : CD->inits())
      if (Init->isWritten() && I->movesModule(Init->getInit()))
        return true;
  return I->movesModule(FD->getBody());
}

} // namespace torch_tidy
