//===--- RequiresGrad.h - which tensors require grad ------------*- C++ -*-===//
//
// Which expressions designate leaf tensors that require grad (or views of
// them, or containers holding them):
//  * module parameters: `parameters()` and `named_parameters()` of a
//    `torch::nn::Module` (items' `value()`, `pair().second`, `*item`, `[key]`),
//    the result of `register_parameter(name, t)` (unless `requires_grad` is
//    false), the `weight`/`bias` of LibTorch's layers (`Linear`, `Conv`,
//    normalisation, `Embedding`, ...), an optimizer's `parameters()` and its
//    param groups' `params()`, and configured functions;
//  * tensors made with `TensorOptions().requires_grad(true)` /
//    `torch::requires_grad()` options, or marked with `requires_grad_()` /
//    `set_requires_grad(true)`.
// followed through copies, references, `std::move`, containers, range-for
// loops, iterators, lambda captures, the members of user classes they are
// stored in, the return values of user functions, and the arguments of user
// functions (resolved through their callers). `grad()`, `data()`, `detach()`,
// `clone()` and arithmetic results are other tensors.
//
// Each function body is read once (in evaluation order, so a reassignment
// replaces what a variable holds); what it found is a summary of the function
// on the summary engine (Summaries.h): memoised, read down to MaxCallDepth.
//
//===----------------------------------------------------------------------===//
#ifndef TORCH_TIDY_REQUIRESGRAD_H
#define TORCH_TIDY_REQUIRESGRAD_H

#include "torch-tidy/FunctionIndex.h"
#include "torch-tidy/GradMode.h"
#include "torch-tidy/Summaries.h"

#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SmallVector.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace torch_tidy {

enum class GradSourceKind {
  ModuleParameters,    ///< `module->parameters()`, `named_parameters()`
  RegisteredParameter, ///< `register_parameter(name, tensor)`
  LayerParameter,      ///< `linear->weight`, `conv->bias`, ...
  OptimizerParameters, ///< `optimizer.parameters()`, `param_groups()[i].params()`
  ParameterFunction,   ///< a configured function returning parameters
  RequiresGradOption, ///< created with `TensorOptions().requires_grad(true)`
  SetRequiresGrad,    ///< `t.requires_grad_()`, `t.set_requires_grad(true)`
};

/// Where a tensor started requiring grad.
struct GradSource {
  GradSourceKind Kind;
  /// The expression that made it so (the `parameters()` call, the
  /// `requires_grad(true)` call, the `weight` member expression...).
  const clang::Expr *Where = nullptr;
};

/// What an expression or variable may hold: tensors that require grad from
/// known sources, or whatever callers pass for some parameters.
struct GradFlow {
  llvm::SmallVector<GradSource, 1> Sources;
  llvm::SmallVector<const clang::ParmVarDecl *, 1> Params;
  /// A view into such a tensor (`w[0]`, `w.view(...)`) rather than the tensor.
  bool View = false;

  bool empty() const { return Sources.empty() && Params.empty(); }
  void merge(const GradFlow &Other);
};

struct RequiresGradConfig {
  /// Functions or methods (qualified names) that return parameters, a tensor or
  /// a container of them, besides LibTorch's.
  std::vector<std::string> ParameterFunctions;
  /// How deep the analysis reads called functions for what they return or
  /// store (Summaries.h).
  unsigned MaxCallDepth = DefaultMaxCallDepth;
};

/// Why an expression designates a tensor that requires grad.
struct GradUse {
  GradSource Source;
  bool View = false;
  /// The calls through which the tensor reached the function as an argument,
  /// innermost first.
  llvm::SmallVector<const CallSite *, 2> Via;
  /// Set by requiresGradWhileRecording: the switch that leaves autograd on at
  /// the statement (AutoGradMode(true), a non-literal argument), if any.
  const GradRegion *Region = nullptr;
  /// Set by requiresGradWhileRecording: a call entering the outermost function
  /// of the path with autograd recording (null when nothing in the TU calls it).
  const CallSite *EnteredFrom = nullptr;
  /// Set by requiresGradWhileRecording when no call here enters that function
  /// recording but one in another file does (GradMode.h): the function, and
  /// how the program summary's calls enter it.
  const clang::FunctionDecl *EnteredElsewhere = nullptr;
  const RemoteCallers *RemoteEntry = nullptr;
};

class RequiresGradAnalysis {
public:
  RequiresGradAnalysis(const RequiresGradConfig &Config,
                       const FunctionIndex &Index, GradModeAnalysis &GradMode)
      : Config(Config), Index(Index), GradMode(GradMode),
        Engine(Config.MaxCallDepth), FactsOf(Engine), FieldFlows(Engine) {}

  /// What \p E, an expression of \p FD's body, may hold (parameters of FD and
  /// of the functions it is nested in are left unresolved).
  GradFlow flowOf(const clang::Expr *E, const clang::FunctionDecl *FD);

  /// Why \p E (in \p FD) designates a tensor that requires grad, following the
  /// callers of FD for its parameters; std::nullopt when it does not or is not
  /// known to.
  std::optional<GradUse> requiresGrad(const clang::Expr *E,
                                      const clang::FunctionDecl *FD);

  /// As requiresGrad, but only along a way of reaching \p At (the statement
  /// holding E) on which autograd records: the tensor requires grad and
  /// autograd records at the same time.
  std::optional<GradUse>
  requiresGradWhileRecording(const clang::Expr *E, const clang::Stmt *At,
                             const clang::FunctionDecl *FD);

  /// True for the `grad()`/`mutable_grad()` of a tensor.
  static bool isGradAccessor(const clang::CallExpr *CE);

private:
  class Walker;
  struct Facts {
    /// What each variable holds where it is read.
    llvm::DenseMap<const clang::DeclRefExpr *, GradFlow> Refs;
    /// What the function may return.
    GradFlow Return;
    /// What the function stores into members of `this`.
    llvm::DenseMap<const clang::FieldDecl *, GradFlow> FieldStores;
  };
  /// What reading \p FD's body, at \p Level calls below the function asked
  /// about, found; null when it was not read (depth bound, recursion).
  std::shared_ptr<const Facts> facts(const clang::FunctionDecl *FD,
                                     unsigned Level);
  GradFlow eval(const clang::Expr *E, const Facts &F, unsigned Depth = 0);
  GradFlow callFlow(const clang::CallExpr *CE, const Facts &F, unsigned Depth);
  GradFlow fieldFlow(const clang::FieldDecl *FD);
  /// The user-code definitions of \p RD's methods, listed once per class (a
  /// class's member list holds every field too: thousands, for each field).
  llvm::SmallVector<const clang::FunctionDecl *, 8>
  methodDefinitions(const clang::CXXRecordDecl *RD);
  std::optional<GradUse> resolve(GradFlow Flow, const clang::Stmt *At,
                                 const clang::FunctionDecl *FD,
                                 bool NeedRecording);

  const RequiresGradConfig &Config;
  const FunctionIndex &Index;
  GradModeAnalysis &GradMode;
  SummaryEngine Engine;
  Summaries<const clang::FunctionDecl *, std::shared_ptr<const Facts>> FactsOf;
  Summaries<const clang::FieldDecl *, GradFlow> FieldFlows;
  llvm::DenseMap<const clang::CXXRecordDecl *,
                 llvm::SmallVector<const clang::FunctionDecl *, 8>>
      MethodDefinitions;
  /// The level of the function whose body is being read.
  unsigned Level = 0;
  /// What a lambda's captured variables hold where the lambda is written.
  llvm::DenseMap<
      std::pair<const clang::CXXRecordDecl *, const clang::ValueDecl *>,
      GradFlow>
      Captures;
};

} // namespace torch_tidy

#endif
