//===--- LossBroadcastCheck.h - [N, 1] against [N] --------------*- C++ -*-===//
#ifndef TORCH_TIDY_LOSSBROADCASTCHECK_H
#define TORCH_TIDY_LOSSBROADCASTCHECK_H

#include "torch-tidy/Activation.h"
#include "torch-tidy/Losses.h"
#include "torch-tidy/Shapes.h"

#include "clang-tidy/ClangTidyCheck.h"
#include "llvm/ADT/DenseSet.h"

#include <memory>
#include <optional>
#include <string>

namespace torch_tidy {

/// A regression loss (`mse_loss`, `l1_loss`, `smooth_l1_loss`, `huber_loss`,
/// their `torch::nn` modules and `torch::nn::functional` forms) given a
/// prediction of shape `[N, 1]` and a target of shape `[N]`, or the reverse:
/// broadcasting computes the loss over all `[N, N]` pairs.
/// Docs: docs/checks/torch-loss-broadcast.md
class LossBroadcastCheck : public clang::tidy::ClangTidyCheck {
public:
  LossBroadcastCheck(llvm::StringRef Name,
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
  void checkCall(const clang::CallExpr *Call, const clang::FunctionDecl *In,
                 const clang::SourceManager &SM, const clang::LangOptions &LO);

  const std::string RawShapePreserving;
  const std::string RawRegressionLosses;
  ShapeAnalysis::Config Config;
  ActivationConfig LossConfig;
  std::vector<std::string> RegressionLosses;
  std::unique_ptr<ShapeAnalysis> Shapes;
  std::optional<ActivationAnalysis> Losses;
  clang::ASTContext *ShapesCtx = nullptr;
  bool InTemplate = false;
  llvm::DenseSet<unsigned> Reported; // loss calls already diagnosed
};

} // namespace torch_tidy

#endif
