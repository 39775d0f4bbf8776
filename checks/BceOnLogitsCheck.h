//===--- BceOnLogitsCheck.h - torch-bce-on-logits ---------------*- C++ -*-===//
#ifndef TORCH_TIDY_BCEONLOGITSCHECK_H
#define TORCH_TIDY_BCEONLOGITSCHECK_H

#include "torch-tidy/Activation.h"
#include "torch-tidy/Losses.h"

#include "clang-tidy/ClangTidyCheck.h"

#include <optional>

namespace torch_tidy {

/// `BCELoss` / `binary_cross_entropy` given raw logits (the output of a model
/// that ends in a Linear/Conv/matmul layer), and `BCELoss` given the output of
/// a sigmoid applied right before it (numerically unstable).
/// Docs: docs/checks/torch-bce-on-logits.md
class BceOnLogitsCheck : public clang::tidy::ClangTidyCheck {
public:
  BceOnLogitsCheck(llvm::StringRef Name,
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
  struct LossCall;
  bool lossCall(const clang::CallExpr *Call, LossCall &Out) const;
  void checkLossCall(const clang::CallExpr *Call,
                     const clang::SourceManager &SM,
                     const clang::LangOptions &LO);
  llvm::SmallVector<clang::FixItHint, 3>
  withLogitsFix(const LossCall &L, const clang::Expr *Logits,
                const clang::SourceManager &SM, const clang::LangOptions &LO,
                clang::SourceLocation &Where);

  const std::string RawBCELossClasses;
  const std::string RawBCEFunctions;
  std::vector<std::string> BCELossClasses;
  std::vector<std::string> BCEFunctions;
  const ActivationOptions ActivationOpts;
  const bool SuggestWithLogits;
  std::optional<ActivationAnalysis> Analysis;
  llvm::DenseSet<unsigned> Reported; // calls already diagnosed (templates)
  bool InTemplate = false; // the function analysed is an instantiation
};

} // namespace torch_tidy

#endif
