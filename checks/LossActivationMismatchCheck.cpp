//===--- LossActivationMismatchCheck.cpp - loss/activation mismatch -------===//
//
// Rule: a loss must be given the kind of value it expects. NLLLoss expects
// log-probabilities (not raw logits, not probabilities); CrossEntropyLoss and
// BCEWithLogitsLoss expect raw logits and apply log_softmax or the sigmoid
// themselves (not probabilities).
//
//===----------------------------------------------------------------------===//
#include "LossActivationMismatchCheck.h"

#include "torch-tidy/Anchor.h"
#include "torch-tidy/Compat.h"
#include "torch-tidy/EvaluationOrder.h"
#include "torch-tidy/Options.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/ExprCXX.h"
#include "clang/Lex/Lexer.h"

using namespace clang;
using namespace clang::ast_matchers;

namespace torch_tidy {

LossActivationMismatchCheck::LossActivationMismatchCheck(
    StringRef Name, tidy::ClangTidyContext *Context)
    : ClangTidyCheck(Name, Context),
      ActivationOpts(OptionReader(Options, Name, Context)) {}

void LossActivationMismatchCheck::storeOptions(
    tidy::ClangTidyOptions::OptionMap &Opts) {
  ActivationOpts.store(Options, Opts);
}

void LossActivationMismatchCheck::onStartOfTranslationUnit() {
  Analysis.reset();
  Reported.clear();
}

void LossActivationMismatchCheck::registerMatchers(MatchFinder *Finder) {
  registerAnchor(*Finder, *this);
}

void LossActivationMismatchCheck::check(
    const MatchFinder::MatchResult &Result) {
  const FunctionDecl *FD = userFunction(*this, Result);
  if (!FD || !FD->getBody())
    return;
  if (!Analysis)
    Analysis.emplace(ActivationOpts.config(), *Result.SourceManager);
  // A fix-it in a template instantiation would change every instantiation.
  InTemplate = FD->getTemplateInstantiationPattern() != nullptr;
  const SourceManager &SM = *Result.SourceManager;
  this->SM = &SM;
  const LangOptions &LO = Result.Context->getLangOpts();
  for (const CallExpr *CE : callsIn(FD))
    checkLossCall(CE, SM, LO);
}

/// The note at the operation that produced the value.
void LossActivationMismatchCheck::noteSource(const Activation &A,
                                             StringRef Holds,
                                             StringRef Missing) {
  SourceLocation Source = SM ? sourceLocation(A, *SM) : SourceLocation();
  if (Source.isInvalid())
    return;
  if (A.ThroughSequential)
    diag(Source,
         "the last module of the 'torch::nn::Sequential' is %0, which outputs "
         "%1",
         DiagnosticIDs::Note)
        << describeActivationOp(A) << Holds;
  else if (!Missing.empty())
    diag(Source, "%0 outputs %1 here, and no %2 follows", DiagnosticIDs::Note)
        << describeActivationOp(A) << Holds << Missing;
  else
    diag(Source, "%0 outputs %1 here", DiagnosticIDs::Note)
        << describeActivationOp(A) << Holds;
}

/// A fix-it where the activation is written right as the loss's argument and
/// the rewrite is certainly what the loss expects; else the note at the
/// source.
void LossActivationMismatchCheck::offerFix(const LossCall &L,
                                           const Activation &A,
                                           const SourceManager &SM,
                                           const LangOptions &LO) {
  WrittenActivation W = writtenActivation(L.Input);
  bool Here = W && !A.Via && !A.ThroughSequential && W.Op == A.Op;
  if (!Here || InTemplate) {
    noteSource(A, "probabilities", "");
    return;
  }
  // NLL on `torch::softmax(z, d)`: the missing log is `log_softmax(z, d)`.
  if (L.Kind == LossKind::NLL && W.Op == ActivationOp::Softmax && W.Dim &&
      W.NameLoc.isValid() && !W.NameLoc.isMacroID()) {
    CharSourceRange Name = CharSourceRange::getTokenRange(W.NameLoc, W.NameLoc);
    if (Lexer::getSourceText(Name, SM, LO) == "softmax") {
      diag(W.NameLoc, "'log_softmax' gives the log-probabilities %0 expects",
           DiagnosticIDs::Note)
          << describeLoss(L)
          << FixItHint::CreateReplacement(Name, "log_softmax");
      return;
    }
  }
  // CrossEntropyLoss on a softmax over the class dimension (1), or
  // BCEWithLogitsLoss on a sigmoid: the operand is what the loss expects.
  bool Drop =
      (L.Kind == LossKind::CrossEntropy && W.Op == ActivationOp::Softmax &&
       W.Dim && !W.HasDtype) ||
      (L.Kind == LossKind::BCEWithLogits && W.Op == ActivationOp::Sigmoid);
  if (Drop && W.Dim) {
    const auto *Lit = dyn_cast<IntegerLiteral>(W.Dim->IgnoreParenImpCasts());
    Drop = Lit && Lit->getValue() == 1;
  }
  std::optional<std::string> Operand =
      Drop ? writtenText(W.Operand, SM, LO) : std::nullopt;
  if (!Operand || !writtenText(L.Input, SM, LO)) {
    noteSource(A, "probabilities", "");
    return;
  }
  diag(compat::beginLoc(W.Call), "pass the logits to %0", DiagnosticIDs::Note)
      << describeLoss(L)
      << FixItHint::CreateReplacement(
             CharSourceRange::getTokenRange(L.Input->getSourceRange()),
             *Operand);
}

void LossActivationMismatchCheck::checkLossCall(const CallExpr *Call,
                                                const SourceManager &SM,
                                                const LangOptions &LO) {
  LossCall L = builtinLossCall(Call, *Analysis);
  if (L.Kind != LossKind::NLL && L.Kind != LossKind::CrossEntropy &&
      L.Kind != LossKind::BCEWithLogits)
    return;
  Activation A = Analysis->valueOf(L.Input);
  bool Logits = A.isLogits() && L.Kind == LossKind::NLL;
  if (!Logits && !A.isProbabilities())
    return;
  SourceLocation At = L.Input->getBeginLoc();
  if (!Reported.insert(At.getRawEncoding()).second)
    return;

  if (Logits) {
    diag(At,
         "%0 expects log-probabilities, but it is given raw logits from %1: "
         "it computes -x[target], which has no lower bound, so training "
         "pushes the target logit towards +inf; apply 'torch::log_softmax' "
         "first, or use %2 on the logits")
        << describeLoss(L) << describeActivationSource(A)
        << describeLoss(LossKind::CrossEntropy, L.Form);
    noteSource(A, "raw logits", "log_softmax");
    return;
  }
  switch (L.Kind) {
  case LossKind::NLL:
    diag(At, "%0 expects log-probabilities, but it is given probabilities "
             "from %1: without the log it computes -p[target], whose gradient "
             "vanishes for confidently wrong predictions; use "
             "'torch::log_softmax' instead, or %2 on the logits")
        << describeLoss(L) << describeActivationSource(A)
        << describeLoss(LossKind::CrossEntropy, L.Form);
    break;
  case LossKind::CrossEntropy:
    diag(At, "%0 applies log_softmax itself, but it is given probabilities "
             "from %1: a softmax over values in [0, 1] stays close to "
             "uniform, so the loss cannot approach 0 and its gradients are "
             "tiny; pass the logits instead")
        << describeLoss(L) << describeActivationSource(A);
    break;
  default:
    diag(At, "%0 applies a sigmoid itself, but it is given probabilities "
             "from %1: a second sigmoid maps them into [0.5, 0.73], so its "
             "predictions never fall below 0.5 and its gradients are tiny; "
             "pass the logits instead")
        << describeLoss(L) << describeActivationSource(A);
    break;
  }
  offerFix(L, A, SM, LO);
}

} // namespace torch_tidy
