//===--- Losses.h - which loss a call computes, and on what -----*- C++ -*-===//
//
// The built-in losses whose input must hold one particular kind of value:
//
//   BCELoss, binary_cross_entropy                 probabilities in [0, 1]
//   NLLLoss, nll_loss, nll_loss2d, nll_loss_nd    log-probabilities
//   CrossEntropyLoss, cross_entropy(_loss)        raw logits (log_softmax inside)
//   BCEWithLogitsLoss, ..._with_logits            raw logits (sigmoid inside)
//
// and the regression losses, whose prediction and target must have one shape
// (a `[N, 1]` prediction against an `[N]` target broadcasts to `[N, N]`):
//
//   MSELoss, mse_loss                             L1Loss, l1_loss
//   SmoothL1Loss, smooth_l1_loss                  HuberLoss, huber_loss
//
// recognised at a call by declaration, never by a variable's name: a module
// call (`criterion(x, y)` through `ModuleHolder::operator()`,
// `criterion->forward(x, y)`, on a holder, an Impl or a smart pointer to one)
// of the loss's Impl class, or the `at::` / `torch::nn::functional::`
// function. A check asks the activation analysis about `LossCall::Input`.
//
// Also here, for what such checks say and fix: the activation written right
// as a loss's argument (`torch::sigmoid(z)`, `z.softmax(1)`), and the options
// every check that asks the activation analysis takes.
//
//===----------------------------------------------------------------------===//
#ifndef TORCH_TIDY_LOSSES_H
#define TORCH_TIDY_LOSSES_H

#include "torch-tidy/Activation.h"
#include "torch-tidy/Options.h"

#include "clang/AST/Expr.h"
#include "clang/Basic/LangOptions.h"
#include "clang/Basic/SourceManager.h"

#include <optional>
#include <string>

namespace torch_tidy {

/// The built-in losses that care about what their input holds.
enum class LossKind {
  None,
  BCE,           ///< expects probabilities
  BCEWithLogits, ///< expects logits, applies a sigmoid
  NLL,           ///< expects log-probabilities
  CrossEntropy,  ///< expects logits, applies log_softmax
  MSE,           ///< regression: squared error, input and target one shape
  L1,            ///< regression: absolute error
  SmoothL1,      ///< regression: smooth L1 (beta)
  Huber,         ///< regression: Huber (delta)
};

/// MSE, L1, SmoothL1 and Huber: elementwise between a prediction and a
/// target of the same shape (LibTorch broadcasts them when they differ).
bool isRegressionLoss(LossKind Kind);

/// How a loss is called.
enum class LossForm {
  Module,     ///< a `torch::nn::XxxLoss` module
  Function,   ///< `torch::xxx` (declared in `at::`)
  NNFunction, ///< `torch::nn::functional::xxx`
};

/// One call of a built-in loss.
struct LossCall {
  LossKind Kind = LossKind::None;
  LossForm Form = LossForm::Function;
  const clang::CallExpr *Call = nullptr;
  /// The input (the first tensor argument), as written.
  const clang::Expr *Input = nullptr;
  /// The target (the second argument), as written; null when not written.
  const clang::Expr *Target = nullptr;
  /// The criterion, for the module form.
  const clang::Expr *Object = nullptr;
  /// The function called, for the function forms.
  const clang::FunctionDecl *Callee = nullptr;

  explicit operator bool() const { return Kind != LossKind::None; }
};

/// The built-in loss \p Call computes; Kind == None when it is none of them
/// (another loss, an in-house one, not a loss at all).
LossCall builtinLossCall(const clang::CallExpr *Call,
                         const ActivationAnalysis &Analysis);

/// How a message names the loss \p L calls, as users spell it:
/// `'torch::nn::NLLLoss'`, `'torch::nll_loss2d'`,
/// `'torch::nn::functional::cross_entropy'`.
std::string describeLoss(const LossCall &L);

/// How a message names the loss \p Kind in form \p Form:
/// (CrossEntropy, Function) is `'torch::cross_entropy_loss'`.
std::string describeLoss(LossKind Kind, LossForm Form);

/// An activation written as an expression itself (parentheses, implicit
/// conversions and copies looked through).
struct WrittenActivation {
  ActivationOp Op = ActivationOp::None; ///< Sigmoid or Softmax; else none
  const clang::CallExpr *Call = nullptr;
  /// What it is applied to: `z` in `torch::sigmoid(z)` or `z.softmax(1)`.
  const clang::Expr *Operand = nullptr;
  /// Softmax: the dimension argument; null for the options form.
  const clang::Expr *Dim = nullptr;
  /// Softmax: whether a dtype argument is written.
  bool HasDtype = false;
  /// Where the function's name is written (`softmax` in `torch::softmax`).
  clang::SourceLocation NameLoc;

  explicit operator bool() const { return Op != ActivationOp::None; }
};

/// `torch::sigmoid(z)`, `z.sigmoid()`, `torch::special::expit(z)`,
/// `torch::softmax(z, dim[, dtype])`, `z.softmax(dim[, dtype])`,
/// `torch::nn::functional::softmax(z, options)`; Op == None otherwise.
WrittenActivation writtenActivation(const clang::Expr *E);

/// The text of \p E as written; std::nullopt when it is (partly) in a macro.
std::optional<std::string> writtenText(const clang::Expr *E,
                                       const clang::SourceManager &SM,
                                       const clang::LangOptions &LO);

/// The options of a check that asks the activation analysis:
/// `ProbabilityFunctions`, `LogitFunctions`, `LogitModules` (`;`-separated
/// qualified names) and `MaxCallDepth`, read once and stored back as read.
class ActivationOptions {
public:
  explicit ActivationOptions(const OptionReader &Reader);
  void store(const clang::tidy::ClangTidyCheck::OptionsView &Options,
             clang::tidy::ClangTidyOptions::OptionMap &Opts) const;
  const ActivationConfig &config() const { return Config; }

private:
  std::string RawProbabilityFunctions;
  std::string RawLogitFunctions;
  std::string RawLogitModules;
  ActivationConfig Config;
};

} // namespace torch_tidy

#endif
