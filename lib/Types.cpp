//===--- Types.cpp - what a LibTorch type is ------------------------------===//
#include "torch-tidy/Types.h"
#include "torch-tidy/Compat.h"

#include "clang/AST/DeclTemplate.h"
#include "clang/AST/ExprCXX.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallVector.h"

using namespace clang;

namespace torch_tidy {

bool hasName(const NamedDecl *D, llvm::StringRef Name) {
  return D && D->getIdentifier() && D->getName() == Name;
}

bool hasQualifiedName(const NamedDecl *D, llvm::StringRef QualifiedName) {
  if (!D)
    return false;
  // Matched from the last component back, without splitting the name: most
  // questions fail on the declaration's own identifier, and they are asked
  // for nearly every expression the analyses read.
  QualifiedName.consume_front("::");
  const DeclContext *Ctx = nullptr;
  const NamedDecl *Cur = D;
  while (true) {
    if (!Cur)
      return false;
    const IdentifierInfo *II = Cur->getIdentifier();
    if (!II)
      return false;
    llvm::StringRef Name = II->getName();
    if (!compat::endsWith(QualifiedName, Name))
      return false;
    QualifiedName = QualifiedName.drop_back(Name.size());
    // The whole component, not its tail: what precedes it is `::` or nothing.
    bool Last = QualifiedName.empty();
    if (!Last && !QualifiedName.consume_back("::"))
      return false;
    Ctx = Cur->getDeclContext();
    while (Ctx && (Ctx->isInlineNamespace() || Ctx->isTransparentContext() ||
                   isa<LinkageSpecDecl>(Ctx)))
      Ctx = Ctx->getParent();
    if (Last)
      break;
    Cur = Ctx ? dyn_cast<NamedDecl>(Ctx) : nullptr;
  }
  // Everything named was matched; the rest must be the translation unit.
  return !Ctx || Ctx->isTranslationUnit();
}

bool inLibTorchNamespace(const Decl *D) {
  const NamespaceDecl *Outer = nullptr;
  for (const DeclContext *C = D->getDeclContext(); C; C = C->getParent())
    if (const auto *NS = dyn_cast<NamespaceDecl>(C))
      if (!NS->isInline())
        Outer = NS;
  if (!Outer || !Outer->getIdentifier())
    return false;
  StringRef N = Outer->getName();
  return N == "at" || N == "c10" || N == "torch";
}

static const CXXRecordDecl *definitionOf(const CXXRecordDecl *D) {
  if (!D)
    return nullptr;
  if (const CXXRecordDecl *Def = D->getDefinition())
    return Def;
  return D;
}

/// Whether \p Pred holds for \p D or one of its (transitive) bases, each
/// class taken at its definition.
static bool
anyInHierarchy(const CXXRecordDecl *D,
               llvm::function_ref<bool(const CXXRecordDecl *)> Pred) {
  D = definitionOf(D);
  if (!D)
    return false;
  if (Pred(D))
    return true;
  if (!D->hasDefinition())
    return false;
  for (const CXXBaseSpecifier &Base : D->bases()) {
    const CXXRecordDecl *BD = Base.getType()->getAsCXXRecordDecl();
    if (BD && anyInHierarchy(BD, Pred))
      return true;
  }
  return false;
}

bool isSameOrDerivedFrom(const CXXRecordDecl *D,
                         llvm::StringRef QualifiedName) {
  return anyInHierarchy(D, [&](const CXXRecordDecl *C) {
    return hasQualifiedName(C, QualifiedName);
  });
}

bool isSameOrDerivedFromAny(const CXXRecordDecl *D,
                            llvm::ArrayRef<llvm::StringRef> Names) {
  if (Names.empty())
    return false;
  return anyInHierarchy(D, [&](const CXXRecordDecl *C) {
    for (llvm::StringRef N : Names)
      if (hasQualifiedName(C, N))
        return true;
    return false;
  });
}

bool isSameOrDerivedFromAny(const CXXRecordDecl *D,
                            llvm::ArrayRef<std::string> Names) {
  if (Names.empty())
    return false;
  return anyInHierarchy(D, [&](const CXXRecordDecl *C) {
    for (const std::string &N : Names)
      if (hasQualifiedName(C, N))
        return true;
    return false;
  });
}

static bool isAnyOf(const CXXRecordDecl *D, llvm::ArrayRef<std::string> Names) {
  return isSameOrDerivedFromAny(D, Names);
}

static const CXXRecordDecl *templateArgClass(const CXXRecordDecl *D,
                                             llvm::StringRef TemplateName) {
  const auto *Spec = dyn_cast_or_null<ClassTemplateSpecializationDecl>(D);
  if (!Spec || !hasQualifiedName(Spec, TemplateName))
    return nullptr;
  const TemplateArgumentList &Args = Spec->getTemplateArgs();
  if (Args.size() < 1 || Args[0].getKind() != TemplateArgument::Type)
    return nullptr;
  return Args[0].getAsType()->getAsCXXRecordDecl();
}

const CXXRecordDecl *pointeeClass(QualType T, Access *How) {
  if (T.isNull())
    return nullptr;
  T = T.getNonReferenceType().getCanonicalType();
  Access A = Access::Value;
  if (const auto *PT = T->getAs<PointerType>()) {
    T = PT->getPointeeType();
    A = Access::Pointer;
  }
  const CXXRecordDecl *RD = T->getAsCXXRecordDecl();
  if (A == Access::Value && RD) {
    if (const CXXRecordDecl *Inner = templateArgClass(RD, "std::shared_ptr")) {
      RD = Inner;
      A = Access::Pointer;
    } else if (const CXXRecordDecl *Inner2 =
                   templateArgClass(RD, "std::unique_ptr")) {
      RD = Inner2;
      A = Access::Pointer;
    }
  }
  if (How)
    *How = A;
  return RD;
}

const CXXRecordDecl *holderImpl(const CXXRecordDecl *D) {
  D = definitionOf(D);
  if (!D)
    return nullptr;
  if (const CXXRecordDecl *Impl =
          templateArgClass(D, "torch::nn::ModuleHolder"))
    return Impl;
  if (!D->hasDefinition())
    return nullptr;
  for (const CXXBaseSpecifier &Base : D->bases())
    if (const CXXRecordDecl *Impl =
            holderImpl(Base.getType()->getAsCXXRecordDecl()))
      return Impl;
  return nullptr;
}

bool isTensorClass(const CXXRecordDecl *D) {
  return D && (hasQualifiedName(D, "at::Tensor") ||
               hasQualifiedName(D, "at::TensorBase"));
}

bool isTensorType(QualType T) {
  if (T.isNull())
    return false;
  const CXXRecordDecl *RD = T.getNonReferenceType()->getAsCXXRecordDecl();
  return RD && hasQualifiedName(RD, "at::Tensor");
}

bool isOptimizerClass(const CXXRecordDecl *D, const TypeConfig &Config) {
  return D && (isSameOrDerivedFrom(D, "torch::optim::Optimizer") ||
               isAnyOf(D, Config.ExtraOptimizerClasses));
}

bool isModuleClass(const CXXRecordDecl *D, const TypeConfig &Config) {
  return D && (isSameOrDerivedFrom(D, "torch::nn::Module") ||
               isAnyOf(D, Config.ExtraModuleClasses));
}

bool isModuleHolderClass(const CXXRecordDecl *D) {
  return holderImpl(D) != nullptr;
}

bool isSchedulerClass(const CXXRecordDecl *D) {
  return D && isSameOrDerivedFrom(D, "torch::optim::LRScheduler");
}

bool isPlateauSchedulerClass(const CXXRecordDecl *D) {
  return D &&
         isSameOrDerivedFrom(D, "torch::optim::ReduceLROnPlateauScheduler");
}

bool isLibTorchLossFunction(const FunctionDecl *FD, const SourceManager &SM) {
  if (!FD || !FD->getIdentifier() || !isLibraryCode(FD, SM))
    return false;
  llvm::StringRef Name = FD->getName();
  if (!Name.contains("loss") && !Name.contains("cross_entropy") &&
      !Name.contains("kl_div"))
    return false;
  const DeclContext *DC = FD->getDeclContext()->getEnclosingNamespaceContext();
  while (DC && !DC->isTranslationUnit() && DC->getParent() &&
         !DC->getParent()->isTranslationUnit())
    DC = DC->getParent();
  const auto *NS = dyn_cast_or_null<NamespaceDecl>(DC);
  return NS && NS->getIdentifier() &&
         (NS->getName() == "at" || NS->getName() == "torch");
}

bool isLibTorchLossModule(const CXXRecordDecl *D, const SourceManager &SM) {
  return D && D->getIdentifier() &&
         compat::endsWith(D->getName(), "LossImpl") && isLibraryCode(D, SM);
}

const CXXRecordDecl *moduleForwardClass(const CallExpr *Call,
                                        const TypeConfig &Config) {
  const auto *MD = dyn_cast_or_null<CXXMethodDecl>(Call->getDirectCallee());
  if (!MD ||
      (!hasName(MD, "forward") && MD->getOverloadedOperator() != OO_Call))
    return nullptr;
  const CXXRecordDecl *Cls = calleeObjectClass(Call);
  if (const CXXRecordDecl *Impl = holderImpl(Cls))
    Cls = Impl;
  return isModuleClass(Cls, Config) ? Cls : nullptr;
}

bool isWrittenWithin(SourceLocation Loc, const Stmt *S,
                     const SourceManager &SM) {
  SourceLocation L = SM.getExpansionLoc(Loc);
  SourceLocation B = SM.getExpansionLoc(S->getBeginLoc());
  SourceLocation E = SM.getExpansionLoc(S->getEndLoc());
  if (L.isInvalid() || B.isInvalid() || E.isInvalid())
    return false;
  return !SM.isBeforeInTranslationUnit(L, B) &&
         !SM.isBeforeInTranslationUnit(E, L);
}

bool isLibTorchGuardClass(const CXXRecordDecl *D,
                          llvm::ArrayRef<std::string> Extra) {
  static const llvm::StringRef Guards[] = {
      // Grad mode (c10/core/GradMode.h, c10/core/InferenceMode.h).
      "c10::AutoGradMode",
      "c10::AutoFwGradMode",
      "c10::InferenceMode",
      // Dispatch (ATen/core/LegacyTypeDispatch.h,
      // c10/core/impl/LocalDispatchKeySet.h, ATen/ThreadLocalState.h).
      "at::AutoDispatchBelowAutograd",
      "at::AutoDispatchBelowADInplaceOrView",
      "at::AutoNonVariableTypeMode",
      "at::AutoDispatchSkipFunctionalize",
      "c10::impl::ExcludeDispatchKeyGuard",
      "c10::impl::IncludeDispatchKeyGuard",
      "at::ThreadLocalStateGuard",
      "at::NoTF32Guard",
      // Devices and streams (c10/core/DeviceGuard.h, StreamGuard.h,
      // c10/cuda/CUDAGuard.h).
      "c10::DeviceGuard",
      "c10::OptionalDeviceGuard",
      "c10::StreamGuard",
      "c10::OptionalStreamGuard",
      "c10::cuda::CUDAGuard",
      "c10::cuda::OptionalCUDAGuard",
      "c10::cuda::CUDAStreamGuard",
      "c10::cuda::OptionalCUDAStreamGuard",
  };
  if (!D)
    return false;
  return isSameOrDerivedFromAny(D, Guards) || isAnyOf(D, Extra);
}

const CXXRecordDecl *moduleClassOf(QualType T, const TypeConfig &Config) {
  const CXXRecordDecl *RD = pointeeClass(T);
  if (!RD)
    return nullptr;
  if (const CXXRecordDecl *Impl = holderImpl(RD))
    RD = Impl;
  return isModuleClass(RD, Config) ? RD : nullptr;
}

const CXXRecordDecl *optimizerClassOf(QualType T, const TypeConfig &Config) {
  const CXXRecordDecl *RD = pointeeClass(T);
  return isOptimizerClass(RD, Config) ? RD : nullptr;
}

const Expr *memberCallObject(const CallExpr *Call) {
  if (const auto *MC = dyn_cast<CXXMemberCallExpr>(Call))
    return MC->getImplicitObjectArgument();
  // A method called through an explicit operator call, e.g. lambda objects.
  if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(Call))
    if (OC->getNumArgs() > 0 &&
        isa_and_nonnull<CXXMethodDecl>(OC->getDirectCallee()))
      return OC->getArg(0);
  return nullptr;
}

const CXXRecordDecl *calleeObjectClass(const CallExpr *Call) {
  const auto *MD = dyn_cast_or_null<CXXMethodDecl>(Call->getDirectCallee());
  if (!MD)
    return nullptr;
  const CXXRecordDecl *RD = nullptr;
  if (const Expr *Obj = memberCallObject(Call))
    RD = pointeeClass(Obj->getType());
  return RD ? RD : MD->getParent();
}

const CXXRecordDecl *recordOf(QualType T) {
  if (T.isNull())
    return nullptr;
  return T.getNonReferenceType()->getAsCXXRecordDecl();
}

bool isHandleType(QualType T) {
  const CXXRecordDecl *RD = recordOf(T);
  if (!RD)
    return false;
  return isTensorClass(RD) || hasQualifiedName(RD, "std::shared_ptr") ||
         holderImpl(RD) != nullptr;
}

bool isForwardingParam(const FunctionDecl *FD, unsigned I) {
  const FunctionDecl *Pattern = FD->getTemplateInstantiationPattern();
  if (!Pattern)
    return false;
  unsigned Index = 0;
  for (const ParmVarDecl *PP : Pattern->parameters()) {
    unsigned Count = 1;
    if (PP->isParameterPack()) {
      unsigned Rest = Pattern->getNumParams() - 1;
      Count = FD->getNumParams() > Rest ? FD->getNumParams() - Rest : 0;
    }
    if (I < Index + Count) {
      QualType T = PP->getType();
      if (const auto *PE = T->getAs<PackExpansionType>())
        T = PE->getPattern();
      const auto *RR = T->getAs<RValueReferenceType>();
      return RR && !RR->getPointeeType().hasQualifiers() &&
             RR->getPointeeType()->getAs<TemplateTypeParmType>();
    }
    Index += Count;
  }
  return false;
}

/// One step of stripExpr: what \p E wraps, or \p E itself.
static const Expr *stripStep(const Expr *E, unsigned Flags) {
  E = E->IgnoreParenImpCasts();
  if (const auto *M = dyn_cast<MaterializeTemporaryExpr>(E))
    return Flags & Strip::Temporaries ? M->getSubExpr() : E;
  if (const auto *B = dyn_cast<CXXBindTemporaryExpr>(E))
    return Flags & Strip::Temporaries ? B->getSubExpr() : E;
  if (const auto *FC = dyn_cast<CXXFunctionalCastExpr>(E)) {
    if (Flags & Strip::Casts)
      return FC->getSubExpr();
    if ((Flags & Strip::Conversions) &&
        (FC->getCastKind() == CK_ConstructorConversion ||
         FC->getCastKind() == CK_NoOp))
      return FC->getSubExpr();
    return E;
  }
  if (const auto *SC = dyn_cast<CXXStaticCastExpr>(E))
    return Flags & Strip::Casts ? SC->getSubExpr() : E;
  if (const auto *D = dyn_cast<CXXDefaultArgExpr>(E))
    return Flags & Strip::Defaults ? D->getExpr() : E;
  if (const auto *D = dyn_cast<CXXDefaultInitExpr>(E))
    return Flags & Strip::Defaults ? D->getExpr() : E;
  if (const auto *UO = dyn_cast<UnaryOperator>(E)) {
    if ((Flags & Strip::Indirections) &&
        (UO->getOpcode() == UO_Deref || UO->getOpcode() == UO_AddrOf))
      return UO->getSubExpr();
    return E;
  }
  if (const auto *CE = dyn_cast<CXXConstructExpr>(E)) {
    unsigned N = CE->getNumArgs();
    if (N == 0)
      return E;
    if ((Flags & Strip::Copies) && N == 1 && CE->getConstructor() &&
        CE->getConstructor()->isCopyOrMoveConstructor())
      return CE->getArg(0);
    for (unsigned I = 1; I < N; ++I)
      if (!isa<CXXDefaultArgExpr>(CE->getArg(I)))
        return E;
    if (Flags & Strip::Wrapped)
      return CE->getArg(0);
    if ((Flags & Strip::HandleCopies) && isHandleType(CE->getType()) &&
        isHandleType(CE->getArg(0)->getType()))
      return CE->getArg(0);
    return E;
  }
  if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(E)) {
    // Smart pointer and ModuleHolder `->` and `*`.
    if ((Flags & Strip::Indirections) &&
        (OC->getOperator() == OO_Arrow || OC->getOperator() == OO_Star) &&
        OC->getNumArgs() == 1)
      return OC->getArg(0);
    return E;
  }
  if (const auto *MC = dyn_cast<CXXMemberCallExpr>(E)) {
    const CXXMethodDecl *MD = MC->getMethodDecl();
    if ((Flags & Strip::Accessors) && MD && MD->getIdentifier() &&
        MC->getNumArgs() == 0 &&
        (MD->getName() == "get" ||
         (MD->getName() == "ptr" &&
          isHandleType(MC->getImplicitObjectArgument()->getType()))))
      return MC->getImplicitObjectArgument();
    return E;
  }
  if (const auto *Call = dyn_cast<CallExpr>(E)) {
    const FunctionDecl *FD = Call->getDirectCallee();
    if ((Flags & Strip::Moves) && FD && Call->getNumArgs() == 1 &&
        (hasQualifiedName(FD, "std::move") ||
         hasQualifiedName(FD, "std::forward")))
      return Call->getArg(0);
    return E;
  }
  return E;
}

const Expr *stripExpr(const Expr *E, unsigned Flags) {
  while (E) {
    const Expr *Next = stripStep(E, Flags);
    if (Next == E)
      break;
    E = Next;
  }
  return E;
}

const ValueDecl *objectDecl(const Expr *E) {
  E = stripExpr(E, Strip::SameObject);
  if (!E)
    return nullptr;
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
    // A local reference (`auto &opt = *trainer.optimizer;`) names what it binds.
    if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl()))
      if (VD->getType()->isReferenceType() && VD->hasLocalStorage() &&
          !isa<ParmVarDecl>(VD) && VD->getInit())
        if (const ValueDecl *Bound = objectDecl(VD->getInit()))
          return Bound;
    return DRE->getDecl();
  }
  if (const auto *ME = dyn_cast<MemberExpr>(E))
    if (isa<CXXThisExpr>(ME->getBase()->IgnoreParenImpCasts()))
      return ME->getMemberDecl();
  return nullptr;
}

std::optional<bool> literalBool(const Expr *E) {
  E = stripExpr(E, Strip::WrappedValue);
  if (const auto *B = dyn_cast_or_null<CXXBoolLiteralExpr>(E))
    return B->getValue();
  if (const auto *I = dyn_cast_or_null<IntegerLiteral>(E))
    return I->getValue().getBoolValue();
  return std::nullopt;
}

const LambdaExpr *lambdaOf(const Expr *E) {
  for (unsigned Hops = 0; E && Hops < 16; ++Hops) {
    E = stripExpr(E, Strip::WrappedValue);
    if (const auto *L = dyn_cast_or_null<LambdaExpr>(E))
      return L;
    const auto *DRE = dyn_cast_or_null<DeclRefExpr>(E);
    const auto *VD = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
    if (!VD || !VD->hasLocalStorage() || isa<ParmVarDecl>(VD) || !VD->getInit())
      return nullptr;
    E = VD->getInit();
  }
  return nullptr;
}

namespace {
// A path of LibTorch's include tree: a folder of its own, or an umbrella header
// of include/torch/ (the others live under torch/csrc/api/include/torch/).
bool isLibTorchPath(StringRef P) {
  // Each pattern with its leading '/', which a relative path may lack; no
  // string is built, as the anchor asks this for every declaration it meets.
  for (StringRef Dir : {"/ATen/", "/c10/", "/caffe2/", "/torch/csrc/"})
    if (compat::startsWith(P, Dir.drop_front()) || P.contains(Dir))
      return true;
  for (StringRef Umbrella :
       {"/torch/script.h", "/torch/extension.h", "/torch/library.h",
        "/torch/custom_class.h", "/torch/custom_class_detail.h"})
    if (P == Umbrella.drop_front() || compat::endsWith(P, Umbrella))
      return true;
  return false;
}
} // namespace

bool isLibraryCode(SourceLocation Loc, const SourceManager &SM) {
  if (Loc.isInvalid())
    return false;
  SourceLocation File = SM.getExpansionLoc(Loc);
  if (SM.isInSystemHeader(File))
    return true;
  if (SM.isWrittenInMainFile(File))
    return false;
  return isLibTorchPath(SM.getFilename(File));
}

bool isLibraryCode(const Decl *D, const SourceManager &SM) {
  return D && isLibraryCode(D->getLocation(), SM);
}

bool isContainerInsertName(StringRef MethodName) {
  return compat::isOneOf({"push_back", "emplace_back", "push_front",
                          "emplace_front", "insert", "emplace", "assign",
                          "push", "insert_or_assign", "try_emplace"},
                         MethodName);
}

bool matchesFunctionList(const FunctionDecl *FD,
                         llvm::ArrayRef<std::string> Names) {
  if (!FD || Names.empty())
    return false;
  for (const std::string &Name : Names) {
    llvm::StringRef N(Name);
    N.consume_front("::");
    if (hasQualifiedName(FD, N))
      return true;
    // `Class::method` also names an override or the inherited method.
    if (const auto *MD = dyn_cast<CXXMethodDecl>(FD)) {
      auto Split = N.rsplit("::");
      if (!Split.second.empty() && MD->getIdentifier() &&
          MD->getName() == Split.second &&
          isSameOrDerivedFrom(MD->getParent(), Split.first))
        return true;
    }
  }
  return false;
}

} // namespace torch_tidy
