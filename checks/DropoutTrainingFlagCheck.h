//===--- DropoutTrainingFlagCheck.h - layers stuck in training --*- C++ -*-===//
#ifndef TORCH_TIDY_DROPOUTTRAININGFLAGCHECK_H
#define TORCH_TIDY_DROPOUTTRAININGFLAGCHECK_H

#include "torch-tidy/TrainingFlag.h"

#include "clang-tidy/ClangTidyCheck.h"
#include "llvm/ADT/DenseSet.h"

#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace torch_tidy {

/// A method of a `torch::nn::Module` subclass (or a helper it calls) runs a
/// functional dropout or batch norm with its training flag fixed on
/// (`torch::dropout(x, p, true)`, `F::dropout(x, F::DropoutFuncOptions())`,
/// `F::batch_norm(..., F::BatchNormFuncOptions().training(true))`), so the
/// layer stays in training mode after `eval()`.
/// Docs: docs/checks/torch-dropout-training-flag.md
class DropoutTrainingFlagCheck : public clang::tidy::ClangTidyCheck {
public:
  DropoutTrainingFlagCheck(llvm::StringRef Name,
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
  void report(const TrainingFlagUse &Use, const clang::CXXMethodDecl *Method,
              bool InTemplate, clang::ASTContext &Ctx);
  /// A call, in a helper of another file, that the program summary names.
  void reportRemote(const TrainingFlagUse &Use, clang::ASTContext &Ctx);

  const std::string RawTrainingFlagFunctions;
  std::vector<std::string> TrainingFlagFunctions;
  unsigned MaxCallDepth;
  std::shared_ptr<const ProgramSummary> Program;
  std::optional<TrainingFlagUses> Uses;
  llvm::DenseSet<unsigned> Reported; // calls already diagnosed
  std::set<std::string> ReportedRemote;
};

} // namespace torch_tidy

#endif
