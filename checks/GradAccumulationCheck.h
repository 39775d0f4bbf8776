//===--- GradAccumulationCheck.h - torch-grad-accumulation ------*- C++ -*-===//
#ifndef TORCH_TIDY_GRADACCUMULATIONCHECK_H
#define TORCH_TIDY_GRADACCUMULATIONCHECK_H

#include "torch-tidy/Accumulation.h"
#include "torch-tidy/TrainingLoop.h"

#include "clang-tidy/ClangTidyCheck.h"
#include "llvm/ADT/DenseSet.h"

#include <optional>
#include <string>

namespace torch_tidy {

/// Gradient accumulation done wrong: a loop that steps an optimizer only
/// every k iterations (`if ((i + 1) % k == 0) opt.step();`) without dividing
/// the loss by k, or without applying the gradients left over after the loop
/// when the number of batches is not a multiple of k.
/// Docs: docs/checks/torch-grad-accumulation.md
class GradAccumulationCheck : public clang::tidy::ClangTidyCheck {
public:
  GradAccumulationCheck(llvm::StringRef Name,
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
  bool flushedAfter(const clang::Stmt *Loop,
                    llvm::ArrayRef<const clang::Stmt *> Enclosing,
                    const clang::FunctionDecl *Owner, const AutogradEvent &Step,
                    const AccumulationGuard &G, const clang::SourceManager &SM);

  const std::string RawOptimizerClasses;
  const std::string RawZeroGradFunctions;
  const std::string RawLossScaleFunctions;
  LoopConfig Config;
  AccumulationConfig AccConfig;
  std::optional<AutogradEventAnalysis> Events;
  std::optional<AccumulationAnalysis> Accumulation;
  llvm::DenseSet<unsigned> Reported; // calls and loops already diagnosed
  bool LostCode = false;             // mayHaveLostCode() of the TU
};

} // namespace torch_tidy

#endif
