//===--- Activation.h - what a model's output holds -------------*- C++ -*-===//
//
// Loss functions care about the last operation applied to their input: raw
// scores (logits) from a Linear/Conv layer or a matmul, probabilities from a
// sigmoid or softmax, or log-probabilities from log_softmax. This analysis
// answers that question for an expression, following the code of the
// translation unit:
//
//  - functional calls (`torch::sigmoid`, `torch::softmax`, `torch::log_softmax`,
//    `torch::matmul`, `torch::nn::functional::linear`, ...) and the Tensor
//    methods (`.sigmoid()`, `.softmax(1)`, `.matmul(w)`), looking through
//    shape-only operations (`.squeeze(1)`, `.view(-1)`, `.to(device)`) and
//    arithmetic that keeps logits logits (`x.matmul(w) + b`, `z / T`);
//  - module calls (`model->forward(x)`, `model(x)` through
//    `ModuleHolder::operator()`, `model.forward(x)` on a shared_ptr or a
//    reference): built-in layers by class (`Linear`, `Conv2d`, `Sigmoid`,
//    `Softmax`, `LogSoftmax`, pass-through `Dropout`/`Identity`/`Flatten`), user
//    modules by their `forward()` when it is defined in the TU;
//  - `torch::nn::Sequential` contents: the modules it is constructed with and
//    `push_back`ed (locals, members built in a constructor, factories returning
//    one), the last one that is not a pass-through deciding, `Functional`
//    wrappers by the function they wrap;
//  - local variables and parameters, by their last write before the use
//    (writes under a condition or in a loop must agree);
//  - helpers, member functions and lambdas defined in the TU, through memoised
//    per-function summaries with parameters mapped to the caller's arguments.
//
// A check asks about the input of a loss call:
//
//   Activation A = Analysis.valueOf(Call->getArg(0));
//   if (A.isLogits()) ...                       // BCELoss / nll_loss fed raw scores
//   if (A.isProbabilities() && A.Op == ActivationOp::Softmax) ...  // cross_entropy fed softmax
//   if (A.isLogProbabilities()) ...             // cross_entropy fed log_softmax
//
// and names the source in its message with describeActivationSource(A), with a
// note at A.Where.
//
// Everything works top-down from the expression asked about: no parent map is
// ever built. Functions are followed to a depth bound; recursion and unknown
// code give `Unknown`, never a guess.
//
//===----------------------------------------------------------------------===//
#ifndef TORCH_TIDY_ACTIVATION_H
#define TORCH_TIDY_ACTIVATION_H

#include "torch-tidy/Summaries.h"
#include "torch-tidy/Types.h"

#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"

#include <memory>
#include <string>
#include <vector>

namespace torch_tidy {

class ProgramSummary;
struct RemoteSite;

/// What a tensor holds, as far as a loss function is concerned.
enum class ActivationKind {
  Unknown, ///< not known: parameters, other TUs, mixed paths, other activations
  Logits,  ///< unbounded raw scores: Linear, Conv, Bilinear, matmul, linear
  Probabilities,    ///< values in [0, 1]: sigmoid, softmax
  LogProbabilities, ///< log_softmax, logsigmoid
  /// Only in the summary of a function or module: it returns its parameter
  /// `ParamIndex` (a module: its input) with nothing applied that matters.
  Parameter,
};

/// The operation that decided the kind.
enum class ActivationOp {
  None,
  Linear,     ///< a Linear / Bilinear layer, `linear`, `bilinear`
  Conv,       ///< a Conv / ConvTranspose layer, `conv2d`, ...
  Matmul,     ///< `matmul`, `mm`, `bmm`, `addmm`
  Sigmoid,    ///< `sigmoid`, `Sigmoid`, `special::expit`, a configured function
  Softmax,    ///< `softmax`, `Softmax`, `Softmax2d`
  LogSoftmax, ///< `log_softmax`, `LogSoftmax`
  LogSigmoid, ///< `log_sigmoid`, `logsigmoid`, `LogSigmoid`
  Custom,     ///< a configured in-house layer or function
};

/// The answer for one expression.
struct Activation {
  ActivationKind Kind = ActivationKind::Unknown;
  ActivationOp Op = ActivationOp::None;
  /// Where the deciding operation is written, possibly inside a function it
  /// was returned from: the layer or function call (`out->forward(x)`,
  /// `torch::sigmoid(z)`), or the module given to a `Sequential`
  /// (`torch::nn::Linear(8, 1)`).
  const clang::Expr *Where = nullptr;
  /// The layer class (`torch::nn::LinearImpl`) or function (`at::sigmoid`).
  const clang::NamedDecl *Decl = nullptr;
  /// The function of the TU the value was returned from, as called where the
  /// expression is written (a model's `forward()`, a helper, a lambda); null
  /// when the deciding operation is written in the function asked about.
  const clang::FunctionDecl *Via = nullptr;
  /// The value is the output of a `torch::nn::Sequential` (its last module
  /// decided), written where the expression is.
  bool ThroughSequential = false;
  /// With Kind == Parameter: which parameter is returned.
  unsigned ParamIndex = 0;
  /// The deciding operation is in another translation unit (WholeProgram.h):
  /// its place there; Where and Decl are null then.
  const RemoteSite *Remote = nullptr;

  bool known() const { return Kind != ActivationKind::Unknown; }
  bool isLogits() const { return Kind == ActivationKind::Logits; }
  bool isProbabilities() const { return Kind == ActivationKind::Probabilities; }
  bool isLogProbabilities() const {
    return Kind == ActivationKind::LogProbabilities;
  }
  /// Same kind (and parameter); where it came from does not matter.
  bool sameKind(const Activation &O) const {
    return Kind == O.Kind &&
           (Kind != ActivationKind::Parameter || ParamIndex == O.ParamIndex);
  }
};

struct ActivationConfig {
  TypeConfig Types;
  /// Functions whose result is a probability in [0, 1] (in-house sigmoids).
  std::vector<std::string> ProbabilityFunctions;
  /// Functions whose result is raw scores (in-house linear layers).
  std::vector<std::string> LogitFunctions;
  /// Module classes (Impl or holder) whose output is raw scores, like Linear.
  std::vector<std::string> LogitModules;
  /// How many calls below the expression asked about values are followed
  /// (Summaries.h: a function N calls down is read when N <= MaxCallDepth).
  unsigned MaxCallDepth = DefaultMaxCallDepth;
  /// The other translation units' summaries (WholeProgram.h), or null.
  std::shared_ptr<const ProgramSummary> Program;
};

/// Answers "what does this tensor hold" for expressions of one TU. Create one
/// per TU (it memoises per function) and ask it about any expression.
class ActivationAnalysis {
public:
  ActivationAnalysis(const ActivationConfig &Config,
                     const clang::SourceManager &SM);
  ~ActivationAnalysis();

  /// What \p E holds where it is written.
  Activation valueOf(const clang::Expr *E);

  /// What a call of \p FD returns (its definition's return statements), with
  /// Kind == Parameter when it returns a parameter unchanged. Memoised unless
  /// the depth bound cut the walk short.
  Activation returnOf(const clang::FunctionDecl *FD);

  /// What calling the module that \p ModuleExpr designates returns (a layer,
  /// a holder, a user module, a Sequential), with Kind == Parameter when it
  /// returns its input unchanged (Dropout, Identity).
  Activation moduleOutput(const clang::Expr *ModuleExpr);

  /// The Impl class of a module call (`model->forward(x)`, `model(x)`,
  /// `model.forward(x)`), the object expression and the index of its first
  /// input argument; null when \p Call calls no module.
  const clang::CXXRecordDecl *moduleCall(const clang::CallExpr *Call,
                                         const clang::Expr **Object = nullptr,
                                         unsigned *FirstInput = nullptr) const;

  /// How many times the function declaring local variable \p VD names it
  /// (lambdas included, the declaration not counted).
  unsigned referenceCount(const clang::VarDecl *VD);

  /// The statement declaring local variable \p VD, when it declares nothing
  /// else; else null.
  const clang::DeclStmt *soleDeclaration(const clang::VarDecl *VD);

private:
  /// Evaluates expressions of one function (a private member class: it reads
  /// the tables below).
  class Evaluator;
  /// What a module call returns (a private member class: it reads the
  /// tables below).
  class ModuleEvaluator;
  /// The writes of one function or class, by variable (Activation.cpp).
  struct WriteMap;
  const WriteMap &writesIn(const clang::Decl *Owner);
  Activation summaryAt(const clang::FunctionDecl *FD, unsigned Depth);
  /// The function a call of \p FD is followed into: its definition in user
  /// code, or (whole-program mode) \p FD when another translation unit's
  /// summary tells what it returns; else null.
  const clang::FunctionDecl *followable(const clang::FunctionDecl *FD) const;
  /// What a call of \p FD returns according to the program summary.
  Activation remoteReturn(const clang::FunctionDecl *FD) const;
  Activation factoryAt(const clang::FunctionDecl *FD, unsigned Depth);

  const ActivationConfig &Config;
  const clang::SourceManager &SM;
  /// Recursion guard (functions, writes and members being evaluated), depth
  /// bound and truncation of the three tables below.
  SummaryEngine Engine;
  /// What a call of a function returns.
  Summaries<const clang::FunctionDecl *, Activation> Returns;
  /// What a factory returning a Sequential or Functional gives when called.
  Summaries<const clang::FunctionDecl *, Activation> SequentialFactories;
  /// The value of a write to a variable, per function whose parameters count.
  Summaries<std::pair<const void *, const void *>, Activation> WriteValues;
  llvm::DenseMap<const clang::Decl *, std::unique_ptr<WriteMap>> Writes;
  unsigned Nesting = 0; // recursion guard for pathological code
};

/// Where the operation that decided \p A is written: the beginning of
/// A.Where, or its place in another translation unit (A.Remote); invalid when
/// neither is known.
clang::SourceLocation sourceLocation(const Activation &A,
                                     const clang::SourceManager &SM);

/// The class of the object a module call is made on as written (the holder
/// `Net` rather than its `ModuleHolder<NetImpl>` base), looking through `->`.
const clang::CXXRecordDecl *writtenObjectClass(const clang::Expr *Obj);

/// How a message names the operation of \p A: `a 'torch::nn::Linear' layer`,
/// `'matmul'`, `'torch::sigmoid'`.
std::string describeActivationOp(const Activation &A);

/// How a message names where the value of \p A comes from:
/// `'NetImpl::forward()', which ends in a 'torch::nn::Linear' layer`, or
/// `a 'torch::nn::Sequential' whose last module is a 'torch::nn::Linear' layer`.
std::string describeActivationSource(const Activation &A);

} // namespace torch_tidy

#endif
