//===--- Shapes.h - sizes known at compile time -----------------*- C++ -*-===//
//
// What can be known about tensor sizes from the code alone, and nothing more:
//
//   constants   the value of an integer expression that is a compile-time
//               constant (literals, `constexpr`, `const` integers with
//               constant initialisers, template arguments, arithmetic on them)
//   layers      the sizes a LibTorch layer is built with: `Linear(784, 128)`,
//               `LinearOptions(784, 128).bias(false)`, `Conv2d(Conv2dOptions(
//               3, 16, 3).stride(2))`, `BatchNorm2d(16)`, `LayerNorm(
//               LayerNormOptions({128}))`, `Embedding(1000, 64)`; and which
//               layers keep their input's shape (activations, dropout,
//               identity, normalisation) or its channels (pooling)
//   tensors     a tensor's shape where known, with unknown dimensions and an
//               unknown rank allowed: factories with constant sizes
//               (`torch::randn({64, 784})`, `torch::randint(0, 9, {8, 1})`,
//               `torch::from_blob(p, {n, 1})`),
//               `view`/`reshape`/`flatten`/
//               `squeeze`/`unsqueeze` with constants, and the output of a
//               layer from its input
//   order       the layers applied one after another: the modules a
//               `torch::nn::Sequential` is built with (or `push_back`ed in
//               straight-line code), and the registered members a module's
//               `forward()` applies to one value in straight-line code
//   values      the shape of a tensor where it is used (valueShape): local
//               variables written only by their initialiser, the one
//               `return` of a called function and of a user module's `forward()`
//               (called with the shapes of the arguments, through holders,
//               `TORCH_MODULE` types, `std::shared_ptr<Net>`, references and
//               member modules), and `Sequential`s and layers held in local
//               variables, following calls up to `MaxCallDepth` levels down
//               (Summaries.h)
//
// Anything not known is unknown: a size from a variable or a constructor
// parameter, a value after a branch, an operation not listed here. A shape
// only ever says what certainly holds. Expressions are read with a depth
// bound; nothing climbs the AST.
//
//===----------------------------------------------------------------------===//
#ifndef TORCH_TIDY_SHAPES_H
#define TORCH_TIDY_SHAPES_H

#include "torch-tidy/ModuleModel.h"
#include "torch-tidy/Summaries.h"
#include "torch-tidy/WholeProgram.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringMap.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace torch_tidy {

/// An unknown size.
constexpr int64_t UnknownDim = -1;

/// The value of \p E when it is an integer constant expression (not
/// value-dependent), else std::nullopt.
std::optional<int64_t> constantInt(const clang::Expr *E,
                                   const clang::ASTContext &Ctx);

/// The sizes of an `IntArrayRef`/`std::vector<int64_t>` argument written as a
/// braced list or a single integer (`{-1, 256}`, `{x.size(0), 10}`, `128`):
/// each element's constant value or UnknownDim (a `-1` stays -1, which is
/// what `view` reads as "infer"). std::nullopt when the list itself is not
/// written there.
std::optional<llvm::SmallVector<int64_t, 4>>
constantSizes(const clang::Expr *E, const clang::ASTContext &Ctx);

/// What a LibTorch layer does to the sizes of its input.
enum class LayerKind {
  Unknown,      ///< anything else (a user module, an RNN, ...)
  Linear,       ///< last dimension In -> Out
  Conv,         ///< channels (dimension 1) In -> Out; spatial sizes change
  BatchNorm,    ///< reads channels (dimension 1) == In; keeps the shape
  LayerNorm,    ///< reads the last dimensions == NormalizedShape; keeps it
  Embedding,    ///< appends a dimension Out to its (index) input
  Preserving,   ///< keeps the shape (activations, dropout, identity)
  KeepChannels, ///< keeps batch and channels, changes spatial sizes (pooling)
  Flatten,      ///< `torch::nn::Flatten` (start_dim 1, end_dim -1)
};

/// A layer and the sizes it was built with (UnknownDim when not constant).
struct LayerSizes {
  LayerKind Kind = LayerKind::Unknown;
  /// The Impl class (`torch::nn::LinearImpl`), or null.
  const clang::CXXRecordDecl *Impl = nullptr;
  /// 1, 2 or 3 for Conv/BatchNorm (BatchNorm1d reads dimension 1 of a 2-D or
  /// 3-D input), 0 otherwise.
  unsigned SpatialDims = 0;
  /// in_features, in_channels, num_features; for LayerNorm the last entry of
  /// normalized_shape; num_embeddings for Embedding.
  int64_t In = UnknownDim;
  /// out_features, out_channels, embedding_dim.
  int64_t Out = UnknownDim;
  /// The expression the sizes were read from (the construction).
  const clang::Expr *Construction = nullptr;
  /// A member's layer built by a constructor of another file (its
  /// "member_layers" summary): the construction there, with Construction
  /// null.
  std::shared_ptr<const RemoteSite> Remote;

  bool known() const { return Kind != LayerKind::Unknown; }
  /// The layer's class as users write it: `Linear`, `Conv2d`, `BatchNorm1d`.
  std::string className() const;
};

/// The sizes of the layer \p E constructs (a holder `torch::nn::Linear(...)`,
/// an Impl, `std::make_shared<LinearImpl>(...)`, with positional sizes or an
/// options object built in place), or of a module class the user lists in
/// \p ExtraPreserving (qualified names) as shape-preserving. Kind Unknown for
/// anything else.
LayerSizes layerOf(const clang::Expr *E, const clang::ASTContext &Ctx,
                   llvm::ArrayRef<std::string> ExtraPreserving = {});

/// Where a known size comes from, for messages.
struct SizeSource {
  const clang::Expr *Where =
      nullptr;      ///< the layer's application or construction, the view
  std::string Name; ///< `'fc1'`, `'view'`, `the Linear at position 2`
  LayerSizes Layer; ///< the layer, when a layer made the size
  /// In another file of the program (a function's "shape_return" summary):
  /// the place there, with Where null.
  std::shared_ptr<const RemoteSite> Remote;
};

/// Where a note about \p S points in this translation unit (a call's
/// beginning, else the expression's), or an invalid location for a remote
/// source or none.
clang::SourceLocation sourceLocation(const SizeSource &S);

/// What is known of a tensor's shape.
struct TensorShape {
  /// The rank, or -1 when unknown.
  int Rank = -1;
  /// With a known rank: each dimension, UnknownDim when not known.
  llvm::SmallVector<int64_t, 4> Dims;
  /// With an unknown rank: the last dimension and the channels (dimension 1
  /// of a tensor of rank 3 or more), UnknownDim when not known.
  int64_t LastDim = UnknownDim;
  int64_t ChannelDim = UnknownDim;
  /// What gave the last dimension and the channels.
  SizeSource LastFrom, ChannelFrom;
  /// In ShapeAnalysis::returnShapeOf(): this is the shape of the function's
  /// parameter Symbol (not known there) with the layers Steps applied to it
  /// in order; -1 when the shape does not follow a parameter. What the
  /// other fields say is what holds for any shape of that parameter.
  int Symbol = -1;
  llvm::SmallVector<SizeSource, 0> Steps;

  static TensorShape unknown() { return {}; }
  static TensorShape ofDims(llvm::ArrayRef<int64_t> Dims,
                            const SizeSource &From);
  bool rankKnown() const { return Rank >= 0; }
  /// The last dimension, or UnknownDim.
  int64_t last() const;
  /// Dimension 1 of a tensor of rank 3 or more (the channels of a conv
  /// layout), or UnknownDim.
  int64_t channels() const;
  bool anythingKnown() const;
};

/// A layer given an input it cannot take.
struct ShapeMismatch {
  /// The application of the layer (a forward call) or its construction in a
  /// Sequential.
  const clang::Expr *Where = nullptr;
  std::string LayerName;
  LayerSizes Layer;
  /// The size the layer takes (its In) and the size it is given.
  int64_t Expected = UnknownDim;
  int64_t Given = UnknownDim;
  /// Whether the sizes are channels (Conv, BatchNorm) rather than features.
  bool Channels = false;
  /// What gave the size.
  SizeSource Source;
};

/// The shape of \p Layer's output for \p In; records a mismatch in \p Out
/// when \p Layer cannot take \p In (both sizes known and different).
TensorShape applyLayer(const LayerSizes &Layer, const TensorShape &In,
                       const clang::Expr *Where, llvm::StringRef Name,
                       std::vector<ShapeMismatch> &Out);
/// The same with the layer's application described by \p Self (a remote
/// one records no mismatch). A symbolic input (TensorShape::Symbol) gives a
/// symbolic output with the layer appended to its steps.
TensorShape applyLayer(const LayerSizes &Layer, const TensorShape &In,
                       const SizeSource &Self, std::vector<ShapeMismatch> &Out);

/// LayerKind spelled as in a summary file (`linear`, `conv`, ...), and back.
llvm::StringRef layerKindSpelling(LayerKind K);
std::optional<LayerKind> layerKindOf(llvm::StringRef Spelling);

/// \p S (a size source of this translation unit or a remote one) as a
/// summary describes it.
RemoteSizeSource remoteSizeSource(const SizeSource &S,
                                  const clang::SourceManager &SM);

/// The constant-shape questions asked of one translation unit. Holds the
/// module models it reads (forward() of a module subclass).
class ShapeAnalysis {
public:
  struct Config {
    /// Functions and module classes (qualified names) that keep their input's
    /// shape, besides LibTorch's activations, dropouts and identity.
    std::vector<std::string> ExtraPreserving;
    TypeConfig Types;
    /// How many calls below the expression asked about valueShape() reads
    /// (Summaries.h: a function N calls down is read when N <= MaxCallDepth).
    unsigned MaxCallDepth = DefaultMaxCallDepth;
    /// The program summary, for the module models (ModuleModelConfig).
    std::shared_ptr<const ProgramSummary> Program;
  };

  ShapeAnalysis(const Config &C, clang::ASTContext &Ctx);
  ~ShapeAnalysis();

  /// The layers of every `torch::nn::Sequential` built in \p FD (its body and
  /// member initialisers), applied in order to an input of unknown shape:
  /// the layers that cannot take what the layer before gives. The modules of
  /// one Sequential are those it is constructed with, followed by those
  /// `push_back`ed onto the same variable or member in the statements of the
  /// body that follow, while nothing else touches it.
  std::vector<ShapeMismatch>
  sequentialMismatches(const clang::FunctionDecl *FD);

  /// The same for every Sequential built by a default member initialiser of
  /// \p RD (`torch::nn::Sequential layer1{Conv2d(...), ...};`).
  std::vector<ShapeMismatch>
  memberInitMismatches(const clang::CXXRecordDecl *RD);

  /// For a module subclass: each forward() defined in the TU applies the
  /// registered members to its values; the members whose sizes (from the one
  /// construction every setup agrees on) do not fit what they are given.
  std::vector<ShapeMismatch> forwardMismatches(const clang::CXXRecordDecl *RD);

  /// The sizes a member holder of \p M was built with (its only construction
  /// in every visible setup, outside branches and loops), or Kind Unknown.
  /// When no setup of the class is visible here, the layer every setup's
  /// program summary agrees on ("member_layers").
  LayerSizes memberLayer(const ModuleModel &M, const clang::FieldDecl *FD);
  /// The value that construction stores (as written), or null.
  const clang::Expr *memberValue(const ModuleModel &M,
                                 const clang::FieldDecl *FD);

  /// The shape of \p E read alone (factories, views and layer calls on them;
  /// local variables are not followed).
  TensorShape shapeOf(const clang::Expr *E);

  /// The shape of the tensor \p E where it is written: what shapeOf() reads,
  /// and also local variables whose only write is their initialiser, the
  /// single `return` of a function or lambda defined in user code, and a
  /// module's output: a user module's `forward()` (its one `return`, read
  /// with the shape of the input; member modules, `Sequential`s and user
  /// modules included), a `Sequential` or a layer built into a local
  /// variable. Calls are followed up to Config::MaxCallDepth levels below
  /// the function holding \p E; beyond, and for anything not known, the
  /// shape is unknown. With \p In, the function holding \p E: in a method of
  /// a module class, its registered members are applied as in `forward()`.
  TensorShape valueShape(const clang::Expr *E,
                         const clang::FunctionDecl *In = nullptr);

  /// For the summary pass: the shape of what a call of \p FD returns, read
  /// with each tensor parameter i symbolic (TensorShape::Symbol = i), so
  /// that another translation unit can apply the result to its arguments.
  TensorShape returnShapeOf(const clang::FunctionDecl *FD);

  /// Whether local variable \p VD is written only by its initialiser: never
  /// assigned, handed to a non-const reference, bound to one, its address
  /// taken, or changed by an in-place method (`x.unsqueeze_(1)`).
  bool onlyInitialised(const clang::VarDecl *VD);

  const ModuleModel *model(const clang::CXXRecordDecl *RD);

private:
  class Evaluator;
  struct SequenceBuild;
  void applySequences(llvm::ArrayRef<SequenceBuild> Builds,
                      std::vector<ShapeMismatch> &Out);
  /// What a call of \p FD returns given the shapes of its arguments, read at
  /// call depth \p Level; \p M is the module model of a module's method.
  TensorShape callShape(const clang::FunctionDecl *FD, const ModuleModel *M,
                        llvm::ArrayRef<TensorShape> Args, unsigned Level);
  unsigned argumentsKey(llvm::ArrayRef<TensorShape> Args);
  /// The layer of \p FD by the summaries of \p M's setups, all defined in
  /// other files, or Kind Unknown.
  LayerSizes remoteMemberLayer(const ModuleModel &M,
                               const clang::FieldDecl *FD);
  /// What a call of \p FD (no body here) returns by the program summary.
  std::optional<TensorShape> remoteCallShape(const clang::FunctionDecl *FD,
                                             llvm::ArrayRef<TensorShape> Args,
                                             unsigned Level);
  const Config &C;
  clang::ASTContext &Ctx;
  /// The translation unit's shared models (ModuleModels::of).
  ModuleModels &Models;
  SummaryEngine Engine;
  /// What a function returns, by function and the shapes of its arguments.
  Summaries<std::pair<const clang::FunctionDecl *, unsigned>, TensorShape>
      Returns;
  llvm::StringMap<unsigned> ArgumentKeys;
  /// The local variables written other than by their initialiser, by the
  /// function that declares them.
  llvm::DenseMap<const clang::Decl *, llvm::DenseSet<const clang::VarDecl *>>
      Written;
  unsigned Nesting = 0; // bounds the reading of calls within calls
};

} // namespace torch_tidy

#endif
