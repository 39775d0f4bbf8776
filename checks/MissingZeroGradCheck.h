//===--- MissingZeroGradCheck.h - torch-missing-zero-grad -------*- C++ -*-===//
#ifndef TORCH_TIDY_MISSINGZEROGRADCHECK_H
#define TORCH_TIDY_MISSINGZEROGRADCHECK_H

#include "torch-tidy/TrainingLoop.h"

#include "clang-tidy/ClangTidyCheck.h"

#include <optional>

namespace torch_tidy {

/// A training loop whose iteration calls `backward()` and an optimizer's
/// `step()` but never clears gradients, or clears them between the two.
/// Docs: docs/checks/torch-missing-zero-grad.md
class MissingZeroGradCheck : public clang::tidy::ClangTidyCheck {
public:
  MissingZeroGradCheck(llvm::StringRef Name,
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
  void checkLoop(const clang::Stmt *Loop,
                 llvm::ArrayRef<const clang::Stmt *> Enclosing,
                 const clang::FunctionDecl *Owner,
                 const clang::SourceManager &SM);

  const std::string RawOptimizerClasses;
  const std::string RawZeroGradFunctions;
  LoopConfig Config;
  std::optional<AutogradEventAnalysis> Events;
  llvm::DenseSet<unsigned>
      Reported;          // loops and calls already diagnosed (templates)
  bool LostCode = false; // mayHaveLostCode() of the translation unit
};

} // namespace torch_tidy

#endif
