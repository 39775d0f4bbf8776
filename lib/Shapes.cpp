//===--- Shapes.cpp - sizes known at compile time -------------------------===//
//
// See Shapes.h. Layers are known by their Impl classes in `torch::nn`, tensor
// operations by their declarations in LibTorch's namespaces; sizes only when
// clang can evaluate them as constants.
//
//===----------------------------------------------------------------------===//
#include "torch-tidy/Shapes.h"
#include "torch-tidy/Compat.h"

#include "torch-tidy/EvaluationOrder.h"
#include "torch-tidy/Types.h"

#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/StmtCXX.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringSwitch.h"

using namespace clang;

namespace torch_tidy {

namespace {

/// How deep an expression is read (calls on calls on calls...).
constexpr unsigned MaxExprDepth = 64;
/// How many setters of an options object are read.
constexpr unsigned MaxOptionChain = 32;

/// A product of two known sizes, or UnknownDim when it does not fit.
int64_t times(int64_t A, int64_t B) {
  int64_t R = 0;
  if (A < 0 || B < 0 || __builtin_mul_overflow(A, B, &R))
    return UnknownDim;
  return R;
}

/// \p E without temporaries, copies, moves, default arguments and the
/// functional cast around a construction (`Linear(opts)` is a cast of one
/// argument around the construction of a Linear: the same class).
const Expr *peel(const Expr *E) {
  for (unsigned Step = 0; Step < 8 && E; ++Step) {
    E = stripExpr(E, Strip::Temporaries | Strip::Copies | Strip::Moves |
                         Strip::Defaults);
    const auto *FC = dyn_cast<CXXFunctionalCastExpr>(E);
    if (!FC || !isa<CXXConstructExpr>(FC->getSubExpr()->IgnoreImplicit()))
      return E;
    E = FC->getSubExpr();
  }
  return E;
}

/// \p E without temporaries, copies and moves, as written (for locations).
const Expr *written(const Expr *E) {
  return stripExpr(E, Strip::Temporaries | Strip::Copies | Strip::Moves |
                          Strip::Defaults);
}

bool isTorchNN(const CXXRecordDecl *RD, llvm::StringRef Name) {
  return RD && hasQualifiedName(RD, ("torch::nn::" + Name).str());
}

/// The arguments written at a call or construction (defaulted ones left out).
llvm::SmallVector<const Expr *, 4> writtenArgs(const CXXConstructExpr *CE) {
  llvm::SmallVector<const Expr *, 4> Out;
  for (const Expr *A : CE->arguments())
    if (!isa<CXXDefaultArgExpr>(A))
      Out.push_back(A);
  return Out;
}

struct KindInfo {
  LayerKind Kind;
  unsigned Spatial;
};

std::optional<KindInfo> kindOfImpl(const CXXRecordDecl *Impl) {
  if (!Impl || !inLibTorchNamespace(Impl) || !Impl->getIdentifier())
    return std::nullopt;
  if (!isTorchNN(Impl, Impl->getName()))
    return std::nullopt;
  using K = LayerKind;
  return llvm::StringSwitch<std::optional<KindInfo>>(Impl->getName())
      .Case("LinearImpl", KindInfo{K::Linear, 0})
      .Case("Conv1dImpl", KindInfo{K::Conv, 1})
      .Case("Conv2dImpl", KindInfo{K::Conv, 2})
      .Case("Conv3dImpl", KindInfo{K::Conv, 3})
      .Case("BatchNorm1dImpl", KindInfo{K::BatchNorm, 1})
      .Case("BatchNorm2dImpl", KindInfo{K::BatchNorm, 2})
      .Case("BatchNorm3dImpl", KindInfo{K::BatchNorm, 3})
      .Case("LayerNormImpl", KindInfo{K::LayerNorm, 0})
      .Case("EmbeddingImpl", KindInfo{K::Embedding, 0})
      .Cases("ReLUImpl", "ReLU6Impl", "LeakyReLUImpl", "PReLUImpl", "RReLUImpl",
             KindInfo{K::Preserving, 0})
      .Cases("SigmoidImpl", "TanhImpl", "GELUImpl", "SiLUImpl", "MishImpl",
             KindInfo{K::Preserving, 0})
      .Cases("ELUImpl", "SELUImpl", "CELUImpl", "SoftplusImpl", "HardtanhImpl",
             KindInfo{K::Preserving, 0})
      .Cases("SoftmaxImpl", "LogSoftmaxImpl", "LogSigmoidImpl", "SoftsignImpl",
             "TanhshrinkImpl", KindInfo{K::Preserving, 0})
      .Cases("DropoutImpl", "Dropout2dImpl", "Dropout3dImpl",
             "AlphaDropoutImpl", "FeatureAlphaDropoutImpl",
             KindInfo{K::Preserving, 0})
      .Case("IdentityImpl", KindInfo{K::Preserving, 0})
      .Cases("MaxPool1dImpl", "MaxPool2dImpl", "MaxPool3dImpl", "AvgPool1dImpl",
             "AvgPool2dImpl", KindInfo{K::KeepChannels, 0})
      .Cases("AvgPool3dImpl", "AdaptiveAvgPool1dImpl", "AdaptiveAvgPool2dImpl",
             "AdaptiveAvgPool3dImpl", KindInfo{K::KeepChannels, 0})
      .Cases("AdaptiveMaxPool1dImpl", "AdaptiveMaxPool2dImpl",
             "AdaptiveMaxPool3dImpl", KindInfo{K::KeepChannels, 0})
      .Case("FlattenImpl", KindInfo{K::Flatten, 0})
      .Default(std::nullopt);
}

/// The option setters that carry a layer's sizes, in constructor order.
std::pair<llvm::StringRef, llvm::StringRef> sizeFields(LayerKind K) {
  switch (K) {
  case LayerKind::Linear:
    return {"in_features", "out_features"};
  case LayerKind::Conv:
    return {"in_channels", "out_channels"};
  case LayerKind::BatchNorm:
    return {"num_features", ""};
  case LayerKind::LayerNorm:
    return {"normalized_shape", ""};
  case LayerKind::Embedding:
    return {"num_embeddings", "embedding_dim"};
  default:
    return {"", ""};
  }
}

/// A size argument: an integer, or for LayerNorm the last entry of a list.
int64_t sizeArg(const Expr *E, LayerKind K, const ASTContext &Ctx) {
  if (K == LayerKind::LayerNorm) {
    std::optional<llvm::SmallVector<int64_t, 4>> L = constantSizes(E, Ctx);
    return L && !L->empty() ? L->back() : UnknownDim;
  }
  std::optional<int64_t> V = constantInt(E, Ctx);
  return V && *V >= 0 ? *V : UnknownDim;
}

bool isClassValued(const Expr *E) {
  return E && recordOf(E->getType()) != nullptr;
}

/// Reads the sizes from an options object built in place:
/// `LinearOptions(784, 128).bias(false)`, `Conv2dOptions(3, 16, 3).stride(2)`;
/// a setter of a size field (`.in_features(5)`) overrides what the
/// constructor was given (the outermost setter wins).
void readOptions(const Expr *E, LayerSizes &L, const ASTContext &Ctx) {
  auto [InField, OutField] = sizeFields(L.Kind);
  bool InSet = false, OutSet = false;
  for (unsigned Step = 0; Step < MaxOptionChain && E; ++Step) {
    E = peel(E);
    if (const auto *MC = dyn_cast<CXXMemberCallExpr>(E)) {
      const CXXMethodDecl *MD = MC->getMethodDecl();
      if (!MD || !MD->getIdentifier() || MC->getNumArgs() != 1 ||
          !inLibTorchNamespace(MD))
        return;
      llvm::StringRef Name = MD->getName();
      if (!InSet && !InField.empty() && Name == InField) {
        L.In = sizeArg(MC->getArg(0), L.Kind, Ctx);
        InSet = true;
      } else if (!OutSet && !OutField.empty() && Name == OutField) {
        L.Out = sizeArg(MC->getArg(0), L.Kind, Ctx);
        OutSet = true;
      }
      E = MC->getImplicitObjectArgument();
      continue;
    }
    if (const auto *CE = dyn_cast<CXXConstructExpr>(E)) {
      const CXXRecordDecl *RD = CE->getConstructor()->getParent();
      if (!inLibTorchNamespace(RD) ||
          CE->getConstructor()->isCopyOrMoveConstructor())
        return;
      auto Args = writtenArgs(CE);
      if (!InSet && !Args.empty())
        L.In = sizeArg(Args[0], L.Kind, Ctx);
      if (!OutSet && Args.size() > 1 && !OutField.empty())
        L.Out = sizeArg(Args[1], L.Kind, Ctx);
      return;
    }
    return;
  }
}

const CXXRecordDecl *sharedPtrPointee(QualType T) {
  const CXXRecordDecl *RD = recordOf(T);
  const auto *Spec = dyn_cast_or_null<ClassTemplateSpecializationDecl>(RD);
  if (!Spec || !hasQualifiedName(Spec, "std::shared_ptr") ||
      Spec->getTemplateArgs().size() < 1 ||
      Spec->getTemplateArgs()[0].getKind() != TemplateArgument::Type)
    return nullptr;
  return recordOf(Spec->getTemplateArgs()[0].getAsType());
}

/// `register_module("name", m)` of torch::nn::Module: the module argument.
const Expr *registeredValue(const Expr *E) {
  const auto *MC = dyn_cast<CXXMemberCallExpr>(E);
  if (!MC || MC->getNumArgs() != 2)
    return nullptr;
  const CXXMethodDecl *MD = MC->getMethodDecl();
  if (!MD || !hasName(MD, "register_module") ||
      !isTorchNN(MD->getParent(), "Module"))
    return nullptr;
  return MC->getArg(1);
}

/// The modules a Sequential construction is built with, in order, each with
/// the name it is given (`{"fc1", Linear(...)}`) or "".
bool sequentialModules(
    const Expr *E,
    llvm::SmallVectorImpl<std::pair<const Expr *, std::string>> &Out) {
  const auto *CE = dyn_cast_or_null<CXXConstructExpr>(E);
  if (!CE || CE->getConstructor()->isCopyOrMoveConstructor())
    return false;
  const CXXRecordDecl *RD = CE->getConstructor()->getParent();
  const CXXRecordDecl *Impl = holderImpl(RD);
  // A holder made from a shared_ptr or another holder is not a module list.
  if (Impl && CE->getNumArgs() == 1 &&
      (sharedPtrPointee(CE->getArg(0)->getType()) ||
       holderImpl(recordOf(CE->getArg(0)->getType()))))
    return false;
  if (!isTorchNN(Impl ? Impl : RD, "SequentialImpl"))
    return false;
  auto Args = writtenArgs(CE);
  if (Args.size() == 1)
    if (const auto *IL = dyn_cast<CXXStdInitializerListExpr>(peel(Args[0]))) {
      const auto *List = dyn_cast<InitListExpr>(peel(IL->getSubExpr()));
      if (!List)
        return false;
      for (const Expr *Item : List->inits()) {
        const auto *Named = dyn_cast<CXXConstructExpr>(peel(Item));
        if (!Named || Named->getNumArgs() < 2)
          return false;
        std::string Name;
        if (const auto *S = dyn_cast<StringLiteral>(
                peel(Named->getArg(0))->IgnoreImplicit()))
          Name = S->getString().str();
        else if (const auto *SC =
                     dyn_cast<CXXConstructExpr>(peel(Named->getArg(0))))
          if (SC->getNumArgs() > 0)
            if (const auto *S2 =
                    dyn_cast<StringLiteral>(SC->getArg(0)->IgnoreImplicit()))
              Name = S2->getString().str();
        Out.push_back({Named->getArg(Named->getNumArgs() - 1), Name});
      }
      return true;
    }
  for (const Expr *A : Args)
    Out.push_back({A, ""});
  return true;
}

std::string positionName(const LayerSizes &L, unsigned Index) {
  return "the " + L.className() + " at position " + std::to_string(Index + 1);
}

std::string quote(llvm::StringRef S) { return ("'" + S + "'").str(); }

} // namespace

/// One Sequential whose modules are being collected.
struct ShapeAnalysis::SequenceBuild {
  const Expr *Construction = nullptr;
  llvm::SmallVector<std::pair<const Expr *, std::string>, 8> Modules;
};

//===----------------------------------------------------------------------===//
// Constants
//===----------------------------------------------------------------------===//

std::optional<int64_t> constantInt(const Expr *E, const ASTContext &Ctx) {
  if (!E)
    return std::nullopt;
  E = peel(E);
  if (E->isValueDependent() || E->isTypeDependent() || E->containsErrors() ||
      !E->getType()->isIntegralOrEnumerationType())
    return std::nullopt;
  Expr::EvalResult R;
  if (!E->EvaluateAsInt(R, Ctx) || !R.Val.isInt())
    return std::nullopt;
  const llvm::APSInt &V = R.Val.getInt();
  if (V.getSignificantBits() > 64)
    return std::nullopt;
  return V.getExtValue();
}

std::optional<llvm::SmallVector<int64_t, 4>>
constantSizes(const Expr *E, const ASTContext &Ctx) {
  for (unsigned Step = 0; Step < 8 && E; ++Step) {
    E = peel(E);
    if (E->getType()->isIntegralOrEnumerationType()) {
      std::optional<int64_t> V = constantInt(E, Ctx);
      return llvm::SmallVector<int64_t, 4>{V ? *V : UnknownDim};
    }
    if (const auto *IL = dyn_cast<InitListExpr>(E)) {
      if (IL->getNumInits() == 1 && isClassValued(IL->getInit(0))) {
        E = IL->getInit(0);
        continue;
      }
      llvm::SmallVector<int64_t, 4> Out;
      for (const Expr *I : IL->inits()) {
        std::optional<int64_t> V = constantInt(I, Ctx);
        Out.push_back(V ? *V : UnknownDim);
      }
      return Out;
    }
    if (const auto *SIL = dyn_cast<CXXStdInitializerListExpr>(E)) {
      E = SIL->getSubExpr();
      continue;
    }
    if (const auto *CE = dyn_cast<CXXConstructExpr>(E)) {
      auto Args = writtenArgs(CE);
      if (Args.size() != 1)
        return std::nullopt;
      E = Args[0];
      continue;
    }
    return std::nullopt;
  }
  return std::nullopt;
}

//===----------------------------------------------------------------------===//
// Layers
//===----------------------------------------------------------------------===//

std::string LayerSizes::className() const {
  if (!Impl || !Impl->getIdentifier())
    return "layer";
  llvm::StringRef N = Impl->getName();
  N.consume_back("Impl");
  return N.str();
}

namespace {

/// Where a module value was built: \p E followed through `register_module`,
/// a holder made from a `shared_ptr` or copied from another holder, and
/// functional casts, down to a construction (a CXXConstructExpr of the module
/// or its holder, or a `std::make_shared<Impl>(...)` call). Null when it
/// comes from anything else. \p Written is the construction as written.
const Expr *moduleConstruction(const Expr *E, const Expr *&Written) {
  for (unsigned Step = 0; Step < 8 && E; ++Step) {
    Written = written(E);
    E = peel(E);
    if (const Expr *Inner = registeredValue(E)) {
      E = Inner;
      continue;
    }
    if (const auto *CE = dyn_cast<CXXConstructExpr>(E)) {
      const CXXRecordDecl *RD = CE->getConstructor()->getParent();
      auto Args = writtenArgs(CE);
      if (holderImpl(RD) && Args.size() == 1 &&
          (sharedPtrPointee(Args[0]->getType()) ||
           holderImpl(recordOf(Args[0]->getType())))) {
        E = Args[0];
        continue;
      }
      if (CE->getConstructor()->isCopyOrMoveConstructor()) {
        E = Args.empty() ? nullptr : Args[0];
        continue;
      }
      return CE;
    }
    if (const auto *Call = dyn_cast<CallExpr>(E)) {
      const FunctionDecl *FD = Call->getDirectCallee();
      if (FD && hasQualifiedName(FD, "std::make_shared") &&
          sharedPtrPointee(Call->getType()))
        return Call;
    }
    return nullptr;
  }
  return nullptr;
}

} // namespace

namespace {
bool keepsShape(const FunctionDecl *FD, llvm::ArrayRef<std::string> Extra);

/// `torch::nn::Functional(torch::relu)`: the function it wraps, when written
/// there as a name.
const FunctionDecl *wrappedFunction(llvm::ArrayRef<const Expr *> Args) {
  if (Args.size() != 1)
    return nullptr;
  const Expr *E = Args[0];
  for (unsigned Step = 0; Step < 4 && E; ++Step) {
    E = peel(E)->IgnoreImplicit();
    if (const auto *CE = dyn_cast<CXXConstructExpr>(E)) {
      E = CE->getNumArgs() == 1 ? CE->getArg(0) : nullptr;
      continue;
    }
    if (const auto *UO = dyn_cast<UnaryOperator>(E))
      if (UO->getOpcode() == UO_AddrOf) {
        E = UO->getSubExpr();
        continue;
      }
    const auto *DRE = dyn_cast<DeclRefExpr>(E);
    return DRE ? dyn_cast<FunctionDecl>(DRE->getDecl()) : nullptr;
  }
  return nullptr;
}
} // namespace

LayerSizes layerOf(const Expr *E, const ASTContext &Ctx,
                   llvm::ArrayRef<std::string> ExtraPreserving) {
  LayerSizes L;
  llvm::SmallVector<const Expr *, 4> Args;
  const CXXRecordDecl *Impl = nullptr;
  const Expr *Written = nullptr;
  const Expr *C = moduleConstruction(E, Written);
  if (const auto *CE = dyn_cast_or_null<CXXConstructExpr>(C)) {
    const CXXRecordDecl *RD = CE->getConstructor()->getParent();
    Args = writtenArgs(CE);
    const CXXRecordDecl *HI = holderImpl(RD);
    Impl = HI ? HI : RD;
  } else if (const auto *Call = dyn_cast_or_null<CallExpr>(C)) {
    Impl = sharedPtrPointee(Call->getType());
    for (const Expr *A : Call->arguments())
      Args.push_back(A);
  }
  L.Construction = Written;
  if (!Impl)
    return L;
  L.Impl = Impl;
  std::optional<KindInfo> K = kindOfImpl(Impl);
  if (!K) {
    for (const std::string &Name : ExtraPreserving)
      if (hasQualifiedName(Impl, llvm::StringRef(Name).ltrim(':')))
        L.Kind = LayerKind::Preserving;
    if (isTorchNN(Impl, "FunctionalImpl"))
      if (const FunctionDecl *F = wrappedFunction(Args))
        if (keepsShape(F, ExtraPreserving))
          L.Kind = LayerKind::Preserving;
    return L;
  }
  L.Kind = K->Kind;
  L.SpatialDims = K->Spatial;
  switch (L.Kind) {
  case LayerKind::Flatten:
    // Only the default options (start_dim 1, end_dim -1) are modelled.
    if (!Args.empty())
      L.Kind = LayerKind::Unknown;
    return L;
  case LayerKind::Linear:
  case LayerKind::Conv:
  case LayerKind::BatchNorm:
  case LayerKind::LayerNorm:
  case LayerKind::Embedding:
    break;
  default:
    return L;
  }
  if (Args.empty())
    return L;
  bool ListArg = false;
  if (L.Kind == LayerKind::LayerNorm &&
      constantSizes(Args[0], Ctx).has_value()) {
    QualType T = peel(Args[0])->getType();
    const CXXRecordDecl *RD = recordOf(T);
    ListArg = !T->isIntegralOrEnumerationType() &&
              !(RD && RD->getIdentifier() &&
                compat::endsWith(RD->getName(), "Options"));
  }
  if (Args.size() == 1 && isClassValued(Args[0]) && !ListArg) {
    readOptions(Args[0], L, Ctx);
    return L;
  }
  L.In = sizeArg(Args[0], L.Kind, Ctx);
  if (Args.size() > 1 && !sizeFields(L.Kind).second.empty())
    L.Out = sizeArg(Args[1], L.Kind, Ctx);
  return L;
}

//===----------------------------------------------------------------------===//
// Tensor shapes
//===----------------------------------------------------------------------===//

TensorShape TensorShape::ofDims(llvm::ArrayRef<int64_t> D,
                                const SizeSource &From) {
  TensorShape S;
  S.Rank = static_cast<int>(D.size());
  S.Dims.assign(D.begin(), D.end());
  S.LastFrom = S.ChannelFrom = From;
  return S;
}

int64_t TensorShape::last() const {
  if (Rank > 0)
    return Dims.back();
  return Rank < 0 ? LastDim : UnknownDim;
}

int64_t TensorShape::channels() const {
  if (Rank >= 3)
    return Dims[1];
  return Rank < 0 ? ChannelDim : UnknownDim;
}

bool TensorShape::anythingKnown() const {
  return Rank >= 0 || LastDim != UnknownDim || ChannelDim != UnknownDim;
}

namespace {
struct KindSpelling {
  LayerKind Kind;
  llvm::StringLiteral Name;
};
constexpr KindSpelling KindSpellings[] = {
    {LayerKind::Linear, "linear"},
    {LayerKind::Conv, "conv"},
    {LayerKind::BatchNorm, "batchnorm"},
    {LayerKind::LayerNorm, "layernorm"},
    {LayerKind::Embedding, "embedding"},
    {LayerKind::Preserving, "preserving"},
    {LayerKind::KeepChannels, "keep_channels"},
    {LayerKind::Flatten, "flatten"},
};
} // namespace

llvm::StringRef layerKindSpelling(LayerKind K) {
  for (const KindSpelling &S : KindSpellings)
    if (S.Kind == K)
      return S.Name;
  return "unknown";
}

std::optional<LayerKind> layerKindOf(llvm::StringRef Spelling) {
  for (const KindSpelling &S : KindSpellings)
    if (S.Name == Spelling)
      return S.Kind;
  return std::nullopt;
}

SourceLocation sourceLocation(const SizeSource &S) {
  if (!S.Where)
    return SourceLocation();
  if (const auto *Call = dyn_cast<CallExpr>(S.Where))
    return compat::beginLoc(Call);
  return S.Where->getBeginLoc();
}

RemoteSizeSource remoteSizeSource(const SizeSource &S,
                                  const SourceManager &SM) {
  RemoteSizeSource R;
  R.Name = S.Name;
  if (S.Remote)
    R.Site = *S.Remote;
  else if (SourceLocation Loc = sourceLocation(S); Loc.isValid())
    R.Site = siteOf(Loc, SM);
  return R;
}

TensorShape applyLayer(const LayerSizes &Layer, const TensorShape &In,
                       const Expr *Where, llvm::StringRef Name,
                       std::vector<ShapeMismatch> &Out) {
  return applyLayer(Layer, In, SizeSource{Where, Name.str(), Layer, nullptr},
                    Out);
}

static TensorShape applySizes(const LayerSizes &Layer, const TensorShape &In,
                              const SizeSource &Self,
                              std::vector<ShapeMismatch> &Out);

TensorShape applyLayer(const LayerSizes &Layer, const TensorShape &In,
                       const SizeSource &Self,
                       std::vector<ShapeMismatch> &Out) {
  TensorShape R = applySizes(Layer, In, Self, Out);
  R.Symbol = -1;
  R.Steps.clear();
  if (In.Symbol >= 0 && Layer.known()) {
    R.Symbol = In.Symbol;
    R.Steps = In.Steps;
    R.Steps.push_back(Self);
  }
  return R;
}

static TensorShape applySizes(const LayerSizes &Layer, const TensorShape &In,
                              const SizeSource &Self,
                              std::vector<ShapeMismatch> &Out) {
  const Expr *Where = Self.Where;
  auto Check = [&](int64_t Given, bool Channels, const SizeSource &From) {
    if (Layer.In == UnknownDim || Given == UnknownDim || Given == Layer.In ||
        !Where)
      return;
    ShapeMismatch M;
    M.Where = Where;
    M.LayerName = Self.Name;
    M.Layer = Layer;
    M.Expected = Layer.In;
    M.Given = Given;
    M.Channels = Channels;
    M.Source = From;
    Out.push_back(std::move(M));
  };
  switch (Layer.Kind) {
  case LayerKind::Unknown:
    return TensorShape::unknown();
  case LayerKind::Preserving:
    return In;
  case LayerKind::Linear: {
    Check(In.last(), false, In.LastFrom);
    if (In.Rank > 0) {
      TensorShape R = In;
      R.Dims.back() = Layer.Out;
      R.LastFrom = R.ChannelFrom = Self;
      return R;
    }
    TensorShape R;
    R.LastDim = Layer.Out;
    R.LastFrom = Self;
    return R;
  }
  case LayerKind::Conv: {
    unsigned D = Layer.SpatialDims;
    int ChannelIndex = -1;
    if (In.Rank == static_cast<int>(D) + 2)
      ChannelIndex = 1;
    else if (In.Rank == static_cast<int>(D) + 1)
      ChannelIndex = 0;
    int64_t Given = ChannelIndex >= 0 ? In.Dims[ChannelIndex]
                    : In.Rank < 0     ? In.ChannelDim
                                      : UnknownDim;
    Check(Given, true, In.Rank < 0 ? In.ChannelFrom : In.LastFrom);
    if (ChannelIndex >= 0) {
      TensorShape R = In;
      for (unsigned I = ChannelIndex + 1; I < R.Dims.size(); ++I)
        R.Dims[I] = UnknownDim;
      R.Dims[ChannelIndex] = Layer.Out;
      R.LastFrom = R.ChannelFrom = Self;
      return R;
    }
    TensorShape R;
    R.ChannelDim = Layer.Out;
    R.ChannelFrom = Self;
    return R;
  }
  case LayerKind::BatchNorm: {
    if (In.Rank >= 2) {
      Check(In.Dims[1], In.Rank >= 3, In.LastFrom);
      return In;
    }
    if (In.Rank >= 0)
      return In;
    TensorShape R = In;
    if (In.ChannelDim != UnknownDim) {
      Check(In.ChannelDim, true, In.ChannelFrom);
    } else if (Layer.SpatialDims == 1 && In.LastDim != UnknownDim) {
      // A BatchNorm1d right after a Linear reads [N, features].
      Check(In.LastDim, false, In.LastFrom);
    } else if (Layer.SpatialDims >= 2 && Layer.In != UnknownDim) {
      // It throws unless its input has that many channels.
      R.ChannelDim = Layer.In;
      R.ChannelFrom = Self;
    }
    return R;
  }
  case LayerKind::LayerNorm: {
    Check(In.last(), false, In.LastFrom);
    TensorShape R = In;
    if (In.Rank < 0 && In.LastDim == UnknownDim && Layer.In != UnknownDim) {
      R.LastDim = Layer.In;
      R.LastFrom = Self;
    }
    return R;
  }
  case LayerKind::Embedding: {
    if (In.Rank >= 0) {
      TensorShape R = In;
      R.Rank += 1;
      R.Dims.push_back(Layer.Out);
      R.LastFrom = R.ChannelFrom = Self;
      return R;
    }
    TensorShape R;
    R.LastDim = Layer.Out;
    R.LastFrom = Self;
    return R;
  }
  case LayerKind::KeepChannels: {
    if (In.Rank >= 3) {
      TensorShape R = In;
      for (unsigned I = 2; I < R.Dims.size(); ++I)
        R.Dims[I] = UnknownDim;
      return R;
    }
    if (In.Rank >= 0)
      return TensorShape::unknown();
    TensorShape R;
    R.ChannelDim = In.ChannelDim;
    R.ChannelFrom = In.ChannelFrom;
    return R;
  }
  case LayerKind::Flatten: {
    // It throws on an input of rank below 2, so it gives rank 2.
    if (In.Rank < 0)
      return TensorShape::ofDims({UnknownDim, UnknownDim}, SizeSource());
    if (In.Rank < 2)
      return TensorShape::unknown();
    int64_t Product = 1;
    for (unsigned I = 1; I < In.Dims.size(); ++I) {
      if (In.Dims[I] == UnknownDim) {
        Product = UnknownDim;
        break;
      }
      Product = times(Product, In.Dims[I]);
    }
    TensorShape R = TensorShape::ofDims({In.Dims[0], Product}, Self);
    if (Product == UnknownDim)
      R.LastFrom = R.ChannelFrom = SizeSource();
    return R;
  }
  }
  return TensorShape::unknown();
}

//===----------------------------------------------------------------------===//
// Tensor operations
//===----------------------------------------------------------------------===//

namespace {

enum class TensorOp {
  None,
  Preserving,
  KeepChannels,
  View,
  Flatten,
  Squeeze,
  Unsqueeze,
  Factory,
};

TensorOp tensorOp(const FunctionDecl *FD) {
  if (!FD || !FD->getIdentifier() || !inLibTorchNamespace(FD))
    return TensorOp::None;
  using O = TensorOp;
  return llvm::StringSwitch<TensorOp>(FD->getName())
      .Cases("relu", "relu_", "relu6", "leaky_relu", "gelu", "silu", "mish",
             O::Preserving)
      .Cases("sigmoid", "tanh", "elu", "selu", "celu", "softplus", "hardtanh",
             O::Preserving)
      .Cases("softmax", "log_softmax", "log_sigmoid", "dropout", "dropout_",
             "alpha_dropout", O::Preserving)
      .Cases("feature_dropout", "feature_alpha_dropout", "contiguous", "clone",
             "to", "detach", O::Preserving)
      .Cases("max_pool1d", "max_pool2d", "max_pool3d", "avg_pool1d",
             "avg_pool2d", "avg_pool3d", O::KeepChannels)
      .Cases("adaptive_avg_pool1d", "adaptive_avg_pool2d",
             "adaptive_avg_pool3d", "adaptive_max_pool2d", O::KeepChannels)
      .Cases("view", "reshape", O::View)
      .Case("flatten", O::Flatten)
      .Case("squeeze", O::Squeeze)
      .Case("unsqueeze", O::Unsqueeze)
      .Cases("randn", "rand", "zeros", "ones", "empty", "full", O::Factory)
      .Cases("from_blob", "randint", O::Factory)
      .Default(O::None);
}

bool keepsShape(const FunctionDecl *FD, llvm::ArrayRef<std::string> Extra) {
  return tensorOp(FD) == TensorOp::Preserving ||
         (FD && matchesFunctionList(FD, Extra));
}

/// Normalises a dimension index for a tensor of rank \p Rank (negative
/// counts from the end); -1 when out of range.
int dimIndex(int64_t D, int Rank) {
  if (D < 0)
    D += Rank;
  return D >= 0 && D < Rank ? static_cast<int>(D) : -1;
}

} // namespace

class ShapeAnalysis::Evaluator {
public:
  Evaluator(ShapeAnalysis &A, const ModuleModel *M,
            std::vector<ShapeMismatch> &Out)
      : A(A), M(M), Out(Out) {}
  /// An evaluator for valueShape(): it follows local variables, called functions and
  /// modules' forward() from call depth \p Level.
  Evaluator(ShapeAnalysis &A, const ModuleModel *M,
            std::vector<ShapeMismatch> &Out, unsigned Level)
      : A(A), M(M), Out(Out), Follow(true), Level(Level) {}

  TensorShape eval(const Expr *E, unsigned Depth = 0);
  void block(const CompoundStmt *CS, unsigned Depth = 0);
  /// Gives parameter \p P the shape \p S (the argument of a call).
  void bind(const ParmVarDecl *P, const TensorShape &S) {
    if (trackedVar(P) && (S.anythingKnown() || S.Symbol >= 0))
      Vars[P] = S;
  }
  /// The value of the `return` statements at the top of the block read.
  llvm::SmallVector<TensorShape, 1> Returned;

private:
  TensorShape call(const CallExpr *Call, unsigned Depth);
  TensorShape moduleOutput(const CallExpr *Call, const CXXRecordDecl *Class,
                           const Expr *Obj, const TensorShape &In);
  TensorShape userModule(const CXXRecordDecl *Impl, const TensorShape &In);
  TensorShape userCall(const CallExpr *Call, const FunctionDecl *Def,
                       unsigned Depth);
  const VarDecl *trackedVar(const ValueDecl *D) const;
  TensorShape tensorOpResult(const CallExpr *Call, TensorOp Op, unsigned Depth);
  TensorShape applyMember(const FieldDecl *FD, const Expr *Where,
                          const TensorShape &In);
  const VarDecl *trackedVar(const Expr *E) const;
  void forgetMentioned(const Stmt *S);

  ShapeAnalysis &A;
  const ModuleModel *M;
  std::vector<ShapeMismatch> &Out;
  llvm::DenseMap<const VarDecl *, TensorShape> Vars;
  bool Follow = false;
  unsigned Level = 0;
};

const VarDecl *ShapeAnalysis::Evaluator::trackedVar(const Expr *E) const {
  const auto *DRE = dyn_cast_or_null<DeclRefExpr>(E ? peel(E) : nullptr);
  return DRE ? trackedVar(DRE->getDecl()) : nullptr;
}

const VarDecl *ShapeAnalysis::Evaluator::trackedVar(const ValueDecl *D) const {
  const auto *VD = dyn_cast_or_null<VarDecl>(D);
  if (!VD || !VD->isLocalVarDeclOrParm() || !isTensorType(VD->getType()))
    return nullptr;
  // A `const Tensor &` parameter cannot be made to designate another tensor.
  QualType T = VD->getType();
  if (T->isReferenceType() &&
      !(isa<ParmVarDecl>(VD) && T.getNonReferenceType().isConstQualified()))
    return nullptr;
  return VD;
}

void ShapeAnalysis::Evaluator::forgetMentioned(const Stmt *S) {
  if (Vars.empty() || !S)
    return;
  forEachDescendant(
      S,
      [&](const Stmt *X) {
        if (const auto *DRE = dyn_cast<DeclRefExpr>(X))
          if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl()))
            Vars.erase(VD);
        return Descend::Children;
      },
      [](const Stmt *) {});
}

TensorShape ShapeAnalysis::Evaluator::eval(const Expr *E, unsigned Depth) {
  if (!E || Depth > MaxExprDepth)
    return TensorShape::unknown();
  E = peel(E);
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
    if (const VarDecl *VD = trackedVar(DRE)) {
      auto It = Vars.find(VD);
      if (It != Vars.end())
        return It->second;
      // A local written only by its initialiser holds what that gave.
      if (Follow && !isa<ParmVarDecl>(VD) && VD->hasLocalStorage() &&
          !VD->getType()->isReferenceType() && VD->getInit() &&
          A.onlyInitialised(VD) && A.Engine.enter(VD)) {
        TensorShape S = eval(VD->getInit(), Depth + 1);
        A.Engine.leave(VD);
        return S;
      }
    }
    return TensorShape::unknown();
  }
  if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(E))
    if (OC->isAssignmentOp()) {
      // A write inside an expression: what the variable holds is unknown.
      if (const VarDecl *VD = trackedVar(OC->getArg(0)))
        Vars.erase(VD);
      return TensorShape::unknown();
    }
  if (const auto *Call = dyn_cast<CallExpr>(E))
    return call(Call, Depth);
  return TensorShape::unknown();
}

TensorShape ShapeAnalysis::Evaluator::applyMember(const FieldDecl *FD,
                                                  const Expr *Where,
                                                  const TensorShape &In) {
  if (!M || !FD || FD->getParent() != M->Class)
    return TensorShape::unknown();
  std::string Name = FD->getIdentifier() ? quote(FD->getName()) : "a member";
  LayerSizes L = A.memberLayer(*M, FD);
  if (L.known())
    return applyLayer(L, In, Where, Name, Out);
  // A member that is a user module: what its forward() returns.
  if (Follow)
    if (const CXXRecordDecl *Sub = moduleClassOf(FD->getType(), A.C.Types))
      if (!isLibraryCode(Sub, A.Ctx.getSourceManager()))
        return userModule(Sub, In);
  // A Sequential member built from constant layers: its first layer takes
  // the input (what happens inside is reported where it is built).
  const Expr *Value = A.memberValue(*M, FD);
  llvm::SmallVector<std::pair<const Expr *, std::string>, 8> Modules;
  const Expr *Written = nullptr;
  if (!Value ||
      !sequentialModules(moduleConstruction(Value, Written), Modules) ||
      Modules.empty())
    return TensorShape::unknown();
  TensorShape S = In;
  std::vector<ShapeMismatch> Inside;
  for (unsigned I = 0; I < Modules.size(); ++I) {
    LayerSizes Inner = layerOf(Modules[I].first, A.Ctx, A.C.ExtraPreserving);
    std::string InnerName = !Modules[I].second.empty()
                                ? quote(Modules[I].second) + " of " + Name
                                : positionName(Inner, I) + " of " + Name;
    S = applyLayer(Inner, S, I == 0 ? Where : Modules[I].first, InnerName,
                   I == 0 ? Out : Inside);
    if (I == 0 && !Out.empty() && Out.back().Where == Where)
      Out.back().Layer = Inner;
  }
  return S;
}

TensorShape ShapeAnalysis::Evaluator::call(const CallExpr *Call,
                                           unsigned Depth) {
  // A module applied: `fc1(x)`, `fc1->forward(x)`.
  if (moduleForwardClass(Call, A.C.Types)) {
    const Expr *Obj = memberCallObject(Call);
    unsigned First = isa<CXXOperatorCallExpr>(Call) ? 1 : 0;
    if (!Obj || Call->getNumArgs() != First + 1)
      return TensorShape::unknown();
    TensorShape In = eval(Call->getArg(First), Depth + 1);
    const auto *FD = dyn_cast_or_null<FieldDecl>(objectDecl(Obj));
    if (FD && M && FD->getParent() == M->Class)
      return applyMember(FD, Call, In);
    // A layer built in place: `torch::nn::MaxPool2d(2)->forward(x)`.
    LayerSizes L = layerOf(stripExpr(Obj, Strip::Indirections), A.Ctx,
                           A.C.ExtraPreserving);
    if (L.known() && L.Construction)
      return applyLayer(L, In, Call, quote(L.className()), Out);
    if (!Follow)
      return TensorShape::unknown();
    return moduleOutput(Call, moduleForwardClass(Call, A.C.Types), Obj, In);
  }
  const FunctionDecl *FD = Call->getDirectCallee();
  TensorOp Op = tensorOp(FD);
  if (Op == TensorOp::None && FD &&
      matchesFunctionList(FD, A.C.ExtraPreserving))
    Op = TensorOp::Preserving;
  if (Op == TensorOp::None) {
    const FunctionDecl *Def = nullptr;
    const SourceManager &SM = A.Ctx.getSourceManager();
    if (Follow && FD && FD->hasBody(Def) && Def && !isLibraryCode(Def, SM))
      return userCall(Call, Def, Depth);
    // Defined in another file: what the program summary says of it.
    if (Follow && FD && !Def && A.C.Program && mayBeElsewhere(FD, SM))
      return userCall(Call, FD, Depth);
    return TensorShape::unknown();
  }
  return tensorOpResult(Call, Op, Depth);
}

TensorShape ShapeAnalysis::Evaluator::moduleOutput(const CallExpr *Call,
                                                   const CXXRecordDecl *Class,
                                                   const Expr *Obj,
                                                   const TensorShape &In) {
  if (!Class)
    return TensorShape::unknown();
  const SourceManager &SM = A.Ctx.getSourceManager();
  if (!isLibraryCode(Class, SM))
    return userModule(Class, In);
  // A layer or a Sequential built into a local variable.
  const auto *VD = dyn_cast_or_null<VarDecl>(objectDecl(Obj));
  if (!VD || !VD->hasLocalStorage() || isa<ParmVarDecl>(VD) ||
      VD->getType()->isReferenceType() || !VD->getInit() ||
      !A.onlyInitialised(VD))
    return TensorShape::unknown();
  LayerSizes L = layerOf(VD->getInit(), A.Ctx, A.C.ExtraPreserving);
  if (L.known())
    return applyLayer(L, In, Call, quote(L.className()), Out);
  const Expr *Written = nullptr;
  llvm::SmallVector<std::pair<const Expr *, std::string>, 8> Modules;
  if (!sequentialModules(moduleConstruction(VD->getInit(), Written), Modules))
    return TensorShape::unknown();
  TensorShape S = In;
  for (unsigned I = 0; I < Modules.size(); ++I) {
    LayerSizes Inner = layerOf(Modules[I].first, A.Ctx, A.C.ExtraPreserving);
    const Expr *Where =
        Inner.Construction ? Inner.Construction : Modules[I].first;
    std::string Name = !Modules[I].second.empty() ? quote(Modules[I].second)
                                                  : positionName(Inner, I);
    S = applyLayer(Inner, S, Where, Name, Out);
  }
  return S;
}

TensorShape ShapeAnalysis::Evaluator::userModule(const CXXRecordDecl *Impl,
                                                 const TensorShape &In) {
  const ModuleModel *Model = A.model(Impl);
  if (!Model)
    return TensorShape::unknown();
  const CXXMethodDecl *Fwd = nullptr;
  for (const CXXMethodDecl *F : Model->Forwards) {
    if (!F || F->getNumParams() != 1)
      continue;
    if (Fwd)
      return TensorShape::unknown(); // overloads
    Fwd = F;
  }
  // A forward() defined in another file: the program summary's.
  if (!Fwd && Model->Forwards.empty() && A.C.Program)
    for (const CXXMethodDecl *F : Impl->methods()) {
      if (!hasName(F, "forward") || F->getNumParams() != 1)
        continue;
      if (Fwd || F->hasBody() || !mayBeElsewhere(F, A.Ctx.getSourceManager()))
        return TensorShape::unknown();
      Fwd = F;
    }
  if (!Fwd)
    return TensorShape::unknown();
  return A.callShape(Fwd, Model, {In}, Level + 1);
}

TensorShape ShapeAnalysis::Evaluator::userCall(const CallExpr *Call,
                                               const FunctionDecl *Def,
                                               unsigned Depth) {
  // Only tensors are followed.
  if (!isTensorType(Def->getReturnType()))
    return TensorShape::unknown();
  // An operator call on a method (a lambda's `()`) passes the object first.
  unsigned Offset = isa<CXXOperatorCallExpr>(Call) && isa<CXXMethodDecl>(Def);
  llvm::SmallVector<TensorShape, 4> Args;
  for (unsigned I = Offset; I < Call->getNumArgs(); ++I)
    Args.push_back(isTensorType(Call->getArg(I)->getType())
                       ? eval(Call->getArg(I), Depth + 1)
                       : TensorShape::unknown());
  const ModuleModel *Model = nullptr;
  if (const auto *MD = dyn_cast<CXXMethodDecl>(Def))
    if (isModuleClass(MD->getParent(), A.C.Types))
      Model = A.model(MD->getParent());
  return A.callShape(Def, Model, Args, Level + 1);
}

TensorShape ShapeAnalysis::Evaluator::tensorOpResult(const CallExpr *Call,
                                                     TensorOp Op,
                                                     unsigned Depth) {
  const ASTContext &Ctx = A.Ctx;
  // The tensor operated on, and the other arguments.
  const Expr *Self = nullptr;
  llvm::SmallVector<const Expr *, 4> Rest;
  if (const Expr *Obj = memberCallObject(Call)) {
    if (!isTensorType(Obj->getType()))
      return TensorShape::unknown();
    Self = Obj;
    for (unsigned I = isa<CXXOperatorCallExpr>(Call) ? 1 : 0;
         I < Call->getNumArgs(); ++I)
      Rest.push_back(Call->getArg(I));
  } else if (Op != TensorOp::Factory) {
    if (Call->getNumArgs() == 0 || !isTensorType(Call->getArg(0)->getType()))
      return TensorShape::unknown();
    Self = Call->getArg(0);
    for (unsigned I = 1; I < Call->getNumArgs(); ++I)
      Rest.push_back(Call->getArg(I));
  } else {
    for (const Expr *Arg : Call->arguments())
      Rest.push_back(Arg);
  }
  const FunctionDecl *Callee = Call->getDirectCallee();
  std::string OpName =
      Callee && Callee->getIdentifier() ? quote(Callee->getName()) : "a call";
  SizeSource Here{Call, OpName, LayerSizes(), nullptr};

  if (Op == TensorOp::Factory) {
    // `from_blob(data, sizes, ...)`: the sizes come second.
    // `randint([low, ]high, sizes, ...)`: the first argument not an integer.
    unsigned SizesAt = hasName(Callee, "from_blob") ? 1 : 0;
    if (hasName(Callee, "randint"))
      while (SizesAt < Rest.size() &&
             Rest[SizesAt]->getType()->isIntegralOrEnumerationType())
        ++SizesAt;
    if (Rest.size() <= SizesAt)
      return TensorShape::unknown();
    std::optional<llvm::SmallVector<int64_t, 4>> Sizes =
        constantSizes(Rest[SizesAt], Ctx);
    if (!Sizes)
      return TensorShape::unknown();
    for (int64_t &D : *Sizes)
      if (D < 0)
        D = UnknownDim;
    return TensorShape::ofDims(*Sizes, Here);
  }

  TensorShape In = eval(Self, Depth + 1);
  switch (Op) {
  case TensorOp::Preserving:
    return In;
  case TensorOp::KeepChannels: {
    LayerSizes Pool;
    Pool.Kind = LayerKind::KeepChannels;
    return applyLayer(Pool, In, Call, OpName, Out);
  }
  case TensorOp::View: {
    if (Rest.empty())
      return TensorShape::unknown();
    std::optional<llvm::SmallVector<int64_t, 4>> Sizes =
        constantSizes(Rest[0], Ctx);
    if (!Sizes)
      return TensorShape::unknown();
    // One -1 is inferred when every other size of the input is known.
    unsigned Infer = 0, Unknown = 0;
    int64_t KnownProduct = 1;
    for (int64_t D : *Sizes) {
      if (D == -1)
        ++Infer;
      else if (D < 0)
        ++Unknown;
      else
        KnownProduct = times(KnownProduct, D);
    }
    (void)Unknown;
    if (Infer == 1 && In.Rank >= 0 && KnownProduct > 0 &&
        !llvm::is_contained(In.Dims, UnknownDim)) {
      int64_t Total = 1;
      for (int64_t D : In.Dims)
        Total = times(Total, D);
      if (Total > 0 && Total % KnownProduct == 0)
        for (int64_t &D : *Sizes)
          if (D == -1)
            D = Total / KnownProduct;
    }
    for (int64_t &D : *Sizes)
      if (D < 0)
        D = UnknownDim;
    return TensorShape::ofDims(*Sizes, Here);
  }
  case TensorOp::Flatten: {
    int64_t Start = 0, End = -1;
    if (!Rest.empty()) {
      std::optional<int64_t> S = constantInt(Rest[0], Ctx);
      if (!S)
        return TensorShape::unknown();
      Start = *S;
    }
    if (Rest.size() > 1) {
      std::optional<int64_t> E = constantInt(Rest[1], Ctx);
      if (!E)
        return TensorShape::unknown();
      End = *E;
    }
    if (In.Rank < 0) {
      // Dimensions Start.. to the last are merged into one: rank Start + 1.
      if (End != -1 || Start < 0 || Start > 8)
        return TensorShape::unknown();
      llvm::SmallVector<int64_t, 4> Dims(Start + 1, UnknownDim);
      TensorShape R = TensorShape::ofDims(Dims, Here);
      R.LastFrom = R.ChannelFrom = SizeSource();
      return R;
    }
    if (In.Rank == 0)
      return TensorShape::ofDims({1}, Here);
    int S = dimIndex(Start, In.Rank), E = dimIndex(End, In.Rank);
    if (S < 0 || E < 0 || S > E)
      return TensorShape::unknown();
    llvm::SmallVector<int64_t, 4> Dims(In.Dims.begin(), In.Dims.begin() + S);
    int64_t Product = 1;
    for (int I = S; I <= E; ++I)
      Product = In.Dims[I] == UnknownDim || Product == UnknownDim
                    ? UnknownDim
                    : times(Product, In.Dims[I]);
    Dims.push_back(Product);
    Dims.append(In.Dims.begin() + E + 1, In.Dims.end());
    TensorShape R = TensorShape::ofDims(Dims, Here);
    return R;
  }
  case TensorOp::Squeeze:
  case TensorOp::Unsqueeze: {
    if (In.Rank < 0 || Rest.size() != 1)
      return TensorShape::unknown();
    std::optional<int64_t> D = constantInt(Rest[0], Ctx);
    if (!D)
      return TensorShape::unknown();
    llvm::SmallVector<int64_t, 4> Dims(In.Dims.begin(), In.Dims.end());
    bool LastChanged = false;
    if (Op == TensorOp::Unsqueeze) {
      int I = dimIndex(*D, In.Rank + 1);
      if (I < 0)
        return TensorShape::unknown();
      Dims.insert(Dims.begin() + I, 1);
      LastChanged = I == In.Rank;
    } else {
      int I = dimIndex(*D, In.Rank);
      if (I < 0 || Dims[I] == UnknownDim)
        return TensorShape::unknown();
      if (Dims[I] == 1) {
        Dims.erase(Dims.begin() + I);
        LastChanged = I == In.Rank - 1;
      }
    }
    TensorShape R = TensorShape::ofDims(Dims, LastChanged ? Here : In.LastFrom);
    R.ChannelFrom = In.ChannelFrom;
    return R;
  }
  default:
    return TensorShape::unknown();
  }
}

void ShapeAnalysis::Evaluator::block(const CompoundStmt *CS, unsigned Depth) {
  if (!CS || Depth > MaxExprDepth)
    return;
  for (const Stmt *S : CS->body()) {
    if (const auto *DS = dyn_cast<DeclStmt>(S)) {
      for (const Decl *D : DS->decls())
        if (const auto *VD = dyn_cast<VarDecl>(D)) {
          if (!VD->hasInit())
            continue;
          if (VD->getType()->isReferenceType() ||
              !isTensorType(VD->getType())) {
            forgetMentioned(VD->getInit());
            continue;
          }
          TensorShape Sh = eval(VD->getInit());
          Vars[VD] = Sh;
        }
      continue;
    }
    if (const auto *RS = dyn_cast<ReturnStmt>(S)) {
      TensorShape R = eval(RS->getRetValue());
      if (Depth == 0)
        Returned.push_back(R);
      continue;
    }
    if (const auto *Inner = dyn_cast<CompoundStmt>(S)) {
      block(Inner, Depth + 1);
      continue;
    }
    if (isa<NullStmt>(S))
      continue;
    if (const auto *E = dyn_cast<Expr>(S)) {
      const Expr *P = peel(E);
      const Expr *LHS = nullptr, *RHS = nullptr;
      if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(P)) {
        if (OC->getOperator() == OO_Equal && OC->getNumArgs() == 2) {
          LHS = OC->getArg(0);
          RHS = OC->getArg(1);
        }
      } else if (const auto *BO = dyn_cast<BinaryOperator>(P)) {
        if (BO->getOpcode() == BO_Assign) {
          LHS = BO->getLHS();
          RHS = BO->getRHS();
        }
      }
      if (const VarDecl *VD = trackedVar(LHS)) {
        TensorShape Sh = eval(RHS);
        Vars[VD] = Sh;
        continue;
      }
      eval(P);
      forgetMentioned(P);
      continue;
    }
    // A branch, a loop, a try block, a label: what follows may see any of
    // several values.
    Vars.clear();
  }
}

//===----------------------------------------------------------------------===//
// The analysis
//===----------------------------------------------------------------------===//

static ModuleModelConfig modelConfig(const ShapeAnalysis::Config &C) {
  ModuleModelConfig M;
  M.Types = C.Types;
  M.Program = C.Program;
  return M;
}

ShapeAnalysis::ShapeAnalysis(const Config &C, ASTContext &Ctx)
    : C(C), Ctx(Ctx), Models(ModuleModels::of(Ctx, modelConfig(C))),
      Engine(C.MaxCallDepth), Returns(Engine) {}

ShapeAnalysis::~ShapeAnalysis() = default;

const ModuleModel *ShapeAnalysis::model(const CXXRecordDecl *RD) {
  return Models.get(RD);
}

const Expr *ShapeAnalysis::memberValue(const ModuleModel &M,
                                       const FieldDecl *FD) {
  const ModuleMember *MM = M.member(FD);
  if (!MM || !MM->isModule() || MM->StoredAfterSetup || !M.SetupVisible)
    return nullptr;
  const Expr *Value = nullptr;
  const Expr *ValueDecided = nullptr;
  for (unsigned I = 0; I < M.Setups.size(); ++I) {
    if (M.Setups[I].Opaque)
      return nullptr;
    if (I >= MM->Stores.size() || MM->Stores[I].empty())
      continue;
    for (const MemberStore &S : MM->Stores[I])
      if (S.Conditional || S.InLoop)
        return nullptr;
    const MemberStore &Last = MM->Stores[I].back();
    if (!Last.Value || Last.Kind == ValueKind::Null)
      return nullptr;
    if (!ValueDecided) {
      ValueDecided = Value = Last.Value;
      continue;
    }
    // Several setups: they must build the same layer.
    LayerSizes A = layerOf(Value, Ctx, C.ExtraPreserving);
    LayerSizes B = layerOf(Last.Value, Ctx, C.ExtraPreserving);
    if (!A.known() || A.Kind != B.Kind || A.Impl != B.Impl || A.In != B.In ||
        A.Out != B.Out)
      return nullptr;
  }
  return Value;
}

/// Whether every setup of \p M leaves \p FD as its default construction
/// (`torch::nn::Dropout2d drop;`, no initialiser written, never assigned).
static bool defaultBuilt(const ModuleModel &M, const FieldDecl *FD) {
  const ModuleMember *MM = M.member(FD);
  if (!MM || MM->Kind != MemberKind::Holder || MM->StoredAfterSetup ||
      !M.SetupVisible || FD->hasInClassInitializer())
    return false;
  bool Any = false;
  for (unsigned I = 0; I < M.Setups.size(); ++I) {
    if (M.Setups[I].Opaque)
      return false;
    if (I >= MM->Stores.size() || MM->Stores[I].empty())
      continue;
    if (MM->Stores[I].size() != 1)
      return false;
    const MemberStore &S = MM->Stores[I].front();
    if (S.Value || S.Kind == ValueKind::Null || S.Conditional)
      return false;
    Any = true;
  }
  return Any;
}

LayerSizes ShapeAnalysis::remoteMemberLayer(const ModuleModel &M,
                                            const FieldDecl *FD) {
  const ModuleMember *MM = M.member(FD);
  if (!C.Program || !MM || !MM->isModule() || MM->StoredAfterSetup ||
      !FD->getIdentifier() || M.Setups.empty())
    return LayerSizes();
  std::optional<KindInfo> K = kindOfImpl(MM->ModuleClass);
  if (!K)
    return LayerSizes();
  // Every setup is in another file, and their summaries agree.
  const RemoteMemberLayer *Found = nullptr;
  for (const SetupFunction &S : M.Setups) {
    if (S.Visible || !S.Decl)
      return LayerSizes();
    const RemoteFunction *R = C.Program->find(S.Decl);
    if (!R)
      return LayerSizes();
    const RemoteMemberLayer *L = nullptr;
    for (const RemoteMemberLayer &Each : R->MemberLayers)
      if (Each.Field == FD->getName())
        L = &Each;
    if (!L || (Found && (Found->Layer.Kind != L->Layer.Kind ||
                         Found->Layer.In != L->Layer.In ||
                         Found->Layer.Out != L->Layer.Out)))
      return LayerSizes();
    Found = L;
  }
  if (!Found || layerKindOf(Found->Layer.Kind) != K->Kind ||
      Found->Layer.SpatialDims != K->Spatial)
    return LayerSizes();
  LayerSizes L;
  L.Kind = K->Kind;
  L.Impl = MM->ModuleClass;
  L.SpatialDims = K->Spatial;
  L.In = Found->Layer.In;
  L.Out = Found->Layer.Out;
  L.Remote = std::make_shared<const RemoteSite>(Found->Layer.Applied.Site);
  return L;
}

LayerSizes ShapeAnalysis::memberLayer(const ModuleModel &M,
                                      const FieldDecl *FD) {
  if (const Expr *Value = memberValue(M, FD))
    return layerOf(Value, Ctx, C.ExtraPreserving);
  if (!M.SetupVisible)
    return remoteMemberLayer(M, FD);
  if (!defaultBuilt(M, FD))
    return LayerSizes();
  // A default-built layer has no sizes: only those that need none count.
  LayerSizes L;
  L.Impl = holderImpl(recordOf(FD->getType()));
  std::optional<KindInfo> K = kindOfImpl(L.Impl);
  if (K &&
      (K->Kind == LayerKind::Preserving || K->Kind == LayerKind::KeepChannels ||
       K->Kind == LayerKind::Flatten))
    L.Kind = K->Kind;
  return L;
}

std::vector<ShapeMismatch>
ShapeAnalysis::forwardMismatches(const CXXRecordDecl *RD) {
  std::vector<ShapeMismatch> Out;
  const ModuleModel *M = Models.get(RD);
  if (!M)
    return Out;
  for (const CXXMethodDecl *Fwd : M->Forwards) {
    if (!Fwd || Fwd->isDependentContext() || Fwd->isInvalidDecl())
      continue;
    Evaluator E(*this, M, Out);
    E.block(dyn_cast_or_null<CompoundStmt>(Fwd->getBody()));
  }
  return Out;
}

TensorShape ShapeAnalysis::shapeOf(const Expr *E) {
  std::vector<ShapeMismatch> Ignored;
  Evaluator Ev(*this, nullptr, Ignored);
  return Ev.eval(E);
}

TensorShape ShapeAnalysis::valueShape(const Expr *E, const FunctionDecl *In) {
  std::vector<ShapeMismatch> Ignored;
  const ModuleModel *M = nullptr;
  if (const auto *MD = dyn_cast_or_null<CXXMethodDecl>(In))
    if (isModuleClass(MD->getParent(), C.Types))
      M = model(MD->getParent());
  Evaluator Ev(*this, M, Ignored, /*Level=*/0);
  return Ev.eval(E);
}

unsigned ShapeAnalysis::argumentsKey(llvm::ArrayRef<TensorShape> Args) {
  std::string Key;
  for (const TensorShape &S : Args) {
    Key += std::to_string(S.Rank) + ":";
    for (int64_t D : S.Dims)
      Key += std::to_string(D) + ",";
    Key += std::to_string(S.LastDim) + "," + std::to_string(S.ChannelDim);
    // A symbolic shape: which parameter, and the layers applied to it.
    if (S.Symbol >= 0) {
      Key += ",s" + std::to_string(S.Symbol);
      for (const SizeSource &Step : S.Steps)
        Key += "," + std::to_string(reinterpret_cast<uintptr_t>(Step.Where)) +
               "/" +
               std::to_string(reinterpret_cast<uintptr_t>(Step.Remote.get()));
    }
    Key += ";";
  }
  auto [It, New] = ArgumentKeys.try_emplace(Key, ArgumentKeys.size());
  (void)New;
  return It->second;
}

TensorShape ShapeAnalysis::callShape(const FunctionDecl *FD,
                                     const ModuleModel *M,
                                     llvm::ArrayRef<TensorShape> Args,
                                     unsigned Level) {
  if (FD->isDependentContext() || FD->isInvalidDecl() || Nesting > 64)
    return TensorShape::unknown();
  const auto *Body = dyn_cast_or_null<CompoundStmt>(FD->getBody());
  if (!FD->hasBody())
    return remoteCallShape(FD, Args, Level).value_or(TensorShape::unknown());
  if (!Body)
    return TensorShape::unknown();
  auto Key = std::make_pair(FD, argumentsKey(Args));
  return Returns.get(Key, FD, Level, [&] {
    // One `return`, at the top of the body: what it gives.
    unsigned Count = 0;
    forEachDescendant(
        Body,
        [&](const Stmt *S) {
          if (isa<LambdaExpr>(S))
            return Descend::Skip;
          Count += isa<ReturnStmt>(S);
          return Descend::Children;
        },
        [](const Stmt *) {});
    if (Count != 1)
      return TensorShape::unknown();
    ++Nesting;
    std::vector<ShapeMismatch> Ignored;
    Evaluator Ev(*this, M, Ignored, Level);
    for (unsigned I = 0; I < FD->getNumParams() && I < Args.size(); ++I)
      Ev.bind(FD->getParamDecl(I), Args[I]);
    Ev.block(Body);
    --Nesting;
    return Ev.Returned.size() == 1 ? Ev.Returned.front()
                                   : TensorShape::unknown();
  });
}

std::optional<TensorShape> ShapeAnalysis::remoteCallShape(
    const FunctionDecl *FD, llvm::ArrayRef<TensorShape> Args, unsigned Level) {
  if (!C.Program || !mayBeElsewhere(FD, Ctx.getSourceManager()))
    return std::nullopt;
  const RemoteFunction *R = C.Program->find(FD);
  if (!R || !R->ReturnsShape)
    return std::nullopt;
  const RemoteShape &RS = *R->ReturnsShape;
  auto Key = std::make_pair(FD->getCanonicalDecl(), argumentsKey(Args));
  return Returns.get(Key, FD->getCanonicalDecl(), Level, [&] {
    auto Source = [](const RemoteSizeSource &From) {
      SizeSource S;
      S.Name = From.Name;
      S.Remote = std::make_shared<const RemoteSite>(From.Site);
      return S;
    };
    if (RS.Parameter) {
      // The caller's argument, with the other file's layers applied.
      TensorShape S = *RS.Parameter < Args.size() ? Args[*RS.Parameter]
                                                  : TensorShape::unknown();
      std::vector<ShapeMismatch> Ignored;
      for (const RemoteLayerStep &Step : RS.Steps) {
        std::optional<LayerKind> K = layerKindOf(Step.Kind);
        if (!K)
          return TensorShape::unknown(); // a layer of a later version
        LayerSizes L;
        L.Kind = *K;
        L.SpatialDims = Step.SpatialDims;
        L.In = Step.In;
        L.Out = Step.Out;
        SizeSource Self = Source(Step.Applied);
        Self.Layer = L;
        S = applyLayer(L, S, Self, Ignored);
      }
      return S;
    }
    TensorShape S;
    S.Rank = RS.Rank;
    S.Dims.assign(RS.Dims.begin(), RS.Dims.end());
    S.LastDim = RS.LastDim;
    S.ChannelDim = RS.ChannelDim;
    if (RS.LastFrom)
      S.LastFrom = Source(*RS.LastFrom);
    if (RS.ChannelFrom)
      S.ChannelFrom = Source(*RS.ChannelFrom);
    return S;
  });
}

TensorShape ShapeAnalysis::returnShapeOf(const FunctionDecl *FD) {
  if (!FD || !isTensorType(FD->getReturnType()))
    return TensorShape::unknown();
  llvm::SmallVector<TensorShape, 4> Args;
  for (unsigned I = 0; I < FD->getNumParams(); ++I) {
    TensorShape S;
    if (isTensorType(FD->getParamDecl(I)->getType()))
      S.Symbol = static_cast<int>(I);
    Args.push_back(std::move(S));
  }
  const ModuleModel *M = nullptr;
  if (const auto *MD = dyn_cast<CXXMethodDecl>(FD))
    if (isModuleClass(MD->getParent(), C.Types))
      M = model(MD->getParent());
  return callShape(FD, M, Args, /*Level=*/0);
}

bool ShapeAnalysis::onlyInitialised(const VarDecl *VD) {
  const auto *Owner = dyn_cast_or_null<FunctionDecl>(VD->getDeclContext());
  if (!Owner || !Owner->getBody())
    return false;
  auto Found = Written.find(Owner);
  if (Found == Written.end()) {
    llvm::DenseSet<const VarDecl *> &W = Written[Owner];
    auto Local = [](const Expr *E) -> const VarDecl * {
      const auto *DRE =
          dyn_cast_or_null<DeclRefExpr>(E ? E->IgnoreParenImpCasts() : nullptr);
      return DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
    };
    forEachDescendant(
        Owner->getBody(),
        [&](const Stmt *S) {
          if (const auto *BO = dyn_cast<BinaryOperator>(S)) {
            if (BO->isAssignmentOp())
              if (const VarDecl *V = Local(BO->getLHS()))
                W.insert(V);
          } else if (const auto *UO = dyn_cast<UnaryOperator>(S)) {
            if (UO->getOpcode() == UO_AddrOf || UO->isIncrementDecrementOp())
              if (const VarDecl *V = Local(UO->getSubExpr()))
                W.insert(V);
          } else if (const auto *MC = dyn_cast<CXXMemberCallExpr>(S)) {
            // In-place tensor methods end in `_`; a handle's own methods
            // (`operator=`, `swap`, `set_data`) replace what it holds.
            const CXXMethodDecl *MD = MC->getMethodDecl();
            if (MD &&
                (!MD->getIdentifier() || compat::endsWith(MD->getName(), "_") ||
                 hasName(MD, "swap") || hasName(MD, "set_data") ||
                 hasName(MD, "reset")))
              if (const VarDecl *V = Local(MC->getImplicitObjectArgument()))
                W.insert(V);
          } else if (const auto *DS = dyn_cast<DeclStmt>(S)) {
            // A non-const reference bound to it.
            for (const Decl *D : DS->decls())
              if (const auto *Ref = dyn_cast<VarDecl>(D))
                if (Ref->getType()->isReferenceType() &&
                    !Ref->getType().getNonReferenceType().isConstQualified())
                  if (const VarDecl *V = Local(Ref->getInit()))
                    W.insert(V);
          }
          if (const auto *Call = dyn_cast<CallExpr>(S)) {
            // Handed to a non-const reference (`std::swap`, `std::tie`, an
            // out-parameter), or the object of an assignment operator.
            const FunctionDecl *FD = Call->getDirectCallee();
            const auto *OC = dyn_cast<CXXOperatorCallExpr>(Call);
            if (OC && OC->isAssignmentOp() && OC->getNumArgs() > 0)
              if (const VarDecl *V = Local(OC->getArg(0)))
                W.insert(V);
            unsigned Offset = OC && FD && isa<CXXMethodDecl>(FD) ? 1 : 0;
            for (unsigned I = 0; I < Call->getNumArgs(); ++I) {
              const VarDecl *V = Local(Call->getArg(I));
              if (!V)
                continue;
              const ParmVarDecl *P =
                  FD && I >= Offset && I - Offset < FD->getNumParams()
                      ? FD->getParamDecl(I - Offset)
                      : nullptr;
              // LibTorch's forwarding templates (a holder's `operator()`,
              // `std::make_shared`) hand it on to what they call.
              if (!FD ||
                  (P && P->getType()->isLValueReferenceType() &&
                   !P->getType().getNonReferenceType().isConstQualified() &&
                   !(isLibraryCode(FD, Ctx.getSourceManager()) &&
                     isForwardingParam(FD, I - Offset))))
                W.insert(V);
            }
          }
          return Descend::Children;
        },
        [](const Stmt *) {});
    Found = Written.find(Owner);
  }
  return !Found->second.count(VD);
}

namespace {

/// The variable or member a statement stores a Sequential construction into
/// (`Sequential seq(...)`, `seq = register_module("seq", Sequential(...))`),
/// and that construction.
std::pair<const ValueDecl *, const Expr *> sequentialStore(const Stmt *S) {
  auto Construction = [](const Expr *E) -> const Expr * {
    const Expr *Written = nullptr;
    const Expr *C = moduleConstruction(E, Written);
    llvm::SmallVector<std::pair<const Expr *, std::string>, 8> Ignored;
    return C && sequentialModules(C, Ignored) ? C : nullptr;
  };
  if (const auto *DS = dyn_cast<DeclStmt>(S)) {
    if (!DS->isSingleDecl())
      return {nullptr, nullptr};
    const auto *VD = dyn_cast<VarDecl>(DS->getSingleDecl());
    if (!VD || !VD->hasInit() || VD->getType()->isReferenceType())
      return {nullptr, nullptr};
    return {VD, Construction(VD->getInit())};
  }
  const auto *E = dyn_cast<Expr>(S);
  if (!E)
    return {nullptr, nullptr};
  const auto *OC = dyn_cast<CXXOperatorCallExpr>(peel(E));
  if (!OC || OC->getOperator() != OO_Equal || OC->getNumArgs() != 2)
    return {nullptr, nullptr};
  const ValueDecl *D = objectDecl(OC->getArg(0));
  if (!D)
    return {nullptr, nullptr};
  return {D, Construction(OC->getArg(1))};
}

/// `seq->push_back(m)` / `seq->push_back("name", m)` on \p D: the module.
const Expr *pushBackOnto(const Stmt *S, const ValueDecl *D, std::string &Name) {
  const auto *E = dyn_cast<Expr>(S);
  const auto *MC = E ? dyn_cast<CXXMemberCallExpr>(peel(E)) : nullptr;
  if (!MC || MC->getNumArgs() < 1 || MC->getNumArgs() > 2)
    return nullptr;
  const CXXMethodDecl *MD = MC->getMethodDecl();
  if (!MD || !hasName(MD, "push_back") ||
      !isTorchNN(MD->getParent(), "SequentialImpl"))
    return nullptr;
  if (objectDecl(MC->getImplicitObjectArgument()) != D)
    return nullptr;
  if (MC->getNumArgs() == 2)
    if (const auto *SL =
            dyn_cast<StringLiteral>(peel(MC->getArg(0))->IgnoreImplicit()))
      Name = SL->getString().str();
  return MC->getArg(MC->getNumArgs() - 1);
}

bool mentions(const Stmt *S, const ValueDecl *D) {
  bool Found = false;
  forEachDescendant(
      S,
      [&](const Stmt *X) {
        if (const auto *DRE = dyn_cast<DeclRefExpr>(X))
          Found |= DRE->getDecl() == D;
        else if (const auto *ME = dyn_cast<MemberExpr>(X))
          Found |= ME->getMemberDecl() == D;
        return Found ? Descend::Stop : Descend::Children;
      },
      [](const Stmt *) {});
  return Found;
}

} // namespace

std::vector<ShapeMismatch>
ShapeAnalysis::sequentialMismatches(const FunctionDecl *FD) {
  std::vector<ShapeMismatch> Out;
  if (!FD || !FD->hasBody())
    return Out;
  llvm::SmallVector<ShapeAnalysis::SequenceBuild, 2> Builds;
  llvm::DenseSet<const Expr *> Done;

  // Sequentials stored in a variable or member by a statement of the body,
  // extended by the push_back statements that follow.
  if (const auto *Body = dyn_cast_or_null<CompoundStmt>(FD->getBody())) {
    llvm::SmallVector<std::pair<const ValueDecl *, unsigned>, 2> Open;
    for (const Stmt *S : Body->body()) {
      auto [D, Construction] = sequentialStore(S);
      if (D && Construction) {
        llvm::erase_if(Open, [&](const auto &P) { return P.first == D; });
        SequenceBuild B;
        B.Construction = Construction;
        sequentialModules(Construction, B.Modules);
        Builds.push_back(std::move(B));
        Open.push_back({D, static_cast<unsigned>(Builds.size() - 1)});
        continue;
      }
      bool Pushed = false;
      for (auto &[OD, Index] : Open) {
        std::string Name;
        if (const Expr *M = pushBackOnto(S, OD, Name)) {
          Builds[Index].Modules.push_back({M, Name});
          Pushed = true;
          break;
        }
      }
      if (Pushed)
        continue;
      llvm::erase_if(Open, [&](const auto &P) { return mentions(S, P.first); });
    }
  }
  for (const SequenceBuild &B : Builds)
    Done.insert(B.Construction);

  // Every other Sequential construction written in the function.
  auto Collect = [&](const Stmt *Root) {
    forEachDescendant(
        Root,
        [&](const Stmt *X) {
          if (isa<LambdaExpr>(X))
            return Descend::Skip; // a function of its own
          if (const auto *CE = dyn_cast<CXXConstructExpr>(X))
            if (!Done.count(CE)) {
              SequenceBuild B;
              if (sequentialModules(CE, B.Modules)) {
                B.Construction = CE;
                Builds.push_back(std::move(B));
              }
            }
          return Descend::Children;
        },
        [](const Stmt *) {});
  };
  if (const auto *Ctor = dyn_cast<CXXConstructorDecl>(FD))
    for (const CXXCtorInitializer *Init : Ctor->inits())
      if (Init->isWritten() && Init->getInit())
        Collect(Init->getInit());
  Collect(FD->getBody());

  applySequences(Builds, Out);
  return Out;
}

void ShapeAnalysis::applySequences(llvm::ArrayRef<SequenceBuild> Builds,
                                   std::vector<ShapeMismatch> &Out) {
  for (const SequenceBuild &B : Builds) {
    TensorShape S;
    for (unsigned I = 0; I < B.Modules.size(); ++I) {
      LayerSizes L = layerOf(B.Modules[I].first, Ctx, C.ExtraPreserving);
      std::string Name = !B.Modules[I].second.empty()
                             ? quote(B.Modules[I].second)
                             : positionName(L, I);
      const Expr *Where = L.Construction ? L.Construction : B.Modules[I].first;
      S = applyLayer(L, S, Where, Name, Out);
    }
  }
}

std::vector<ShapeMismatch>
ShapeAnalysis::memberInitMismatches(const CXXRecordDecl *RD) {
  std::vector<ShapeMismatch> Out;
  if (!RD || !RD->hasDefinition())
    return Out;
  llvm::SmallVector<ShapeAnalysis::SequenceBuild, 2> Builds;
  for (const FieldDecl *FD : RD->fields()) {
    if (!FD->hasInClassInitializer() || !FD->getInClassInitializer())
      continue;
    forEachDescendant(
        FD->getInClassInitializer(),
        [&](const Stmt *X) {
          if (isa<LambdaExpr>(X))
            return Descend::Skip;
          if (const auto *CE = dyn_cast<CXXConstructExpr>(X)) {
            SequenceBuild B;
            if (sequentialModules(CE, B.Modules)) {
              B.Construction = CE;
              Builds.push_back(std::move(B));
            }
          }
          return Descend::Children;
        },
        [](const Stmt *) {});
  }
  applySequences(Builds, Out);
  return Out;
}

} // namespace torch_tidy
