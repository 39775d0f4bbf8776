//===--- LossActivationMismatchCheck.h - loss/activation --------*- C++ -*-===//
#ifndef TORCH_TIDY_LOSSACTIVATIONMISMATCHCHECK_H
#define TORCH_TIDY_LOSSACTIVATIONMISMATCHCHECK_H

#include "torch-tidy/Activation.h"
#include "torch-tidy/Losses.h"

#include "clang-tidy/ClangTidyCheck.h"

#include <optional>

namespace torch_tidy {

/// A loss given the wrong kind of value: `NLLLoss` / `nll_loss` given raw
/// logits or probabilities (it expects log-probabilities), `CrossEntropyLoss`
/// / `cross_entropy` given probabilities (it applies log_softmax itself), and
/// `BCEWithLogitsLoss` / `binary_cross_entropy_with_logits` given
/// probabilities (it applies the sigmoid itself).
/// Docs: docs/checks/torch-loss-activation-mismatch.md
class LossActivationMismatchCheck : public clang::tidy::ClangTidyCheck {
public:
  LossActivationMismatchCheck(llvm::StringRef Name,
                              clang::tidy::ClangTidyContext *Context);
  bool isLanguageVersionSupported(
      const clang::LangOptions &LangOpts) const override {
    return LangOpts.CPlusPlus;
  }
  void registerMatchers(clang::ast_matchers::MatchFinder *Finder) override;
  void
  check(const clang::ast_matchers::MatchFinder::MatchResult &Result) override;
  void storeOptions(clang::tidy::ClangTidyOptions::OptionMap &Opts) override;
  void onStartOfTranslationUnit() override;

private:
  void checkLossCall(const clang::CallExpr *Call,
                     const clang::SourceManager &SM,
                     const clang::LangOptions &LO);
  void noteSource(const Activation &A, llvm::StringRef Holds,
                  llvm::StringRef Missing);
  void offerFix(const LossCall &L, const Activation &A,
                const clang::SourceManager &SM, const clang::LangOptions &LO);

  const ActivationOptions ActivationOpts;
  std::optional<ActivationAnalysis> Analysis;
  /// The SourceManager of the function being checked (notes in other files).
  const clang::SourceManager *SM = nullptr;
  llvm::DenseSet<unsigned> Reported; // calls already diagnosed (templates)
  bool InTemplate = false; // the function analysed is an instantiation
};

} // namespace torch_tidy

#endif
