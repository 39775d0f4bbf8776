//===--- SchedulerMisuseCheck.h - torch-scheduler-misuse --------*- C++ -*-===//
#ifndef TORCH_TIDY_SCHEDULERMISUSECHECK_H
#define TORCH_TIDY_SCHEDULERMISUSECHECK_H

#include "torch-tidy/Passes.h"
#include "torch-tidy/TrainingLoop.h"

#include "clang-tidy/ClangTidyCheck.h"
#include "llvm/ADT/DenseSet.h"

#include <optional>
#include <string>
#include <vector>

namespace torch_tidy {

/// A learning-rate scheduler stepped at the wrong place: a
/// ReduceLROnPlateauScheduler given the training loss while a validation loss
/// is computed in the same epoch, an epoch-based scheduler stepped in the
/// per-batch loop, or a scheduler stepped before the optimizer in an
/// iteration. Docs: docs/checks/torch-scheduler-misuse.md
class SchedulerMisuseCheck : public clang::tidy::ClangTidyCheck {
public:
  SchedulerMisuseCheck(llvm::StringRef Name,
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
                 const clang::FunctionDecl *Owner);
  bool perBatchScheduler(const clang::CXXRecordDecl *Cls) const;

  const std::string RawOptimizerClasses;
  const std::string RawPerBatchSchedulerClasses;
  std::vector<std::string> PerBatchSchedulerClasses;
  LoopConfig Config;
  std::optional<AutogradEventAnalysis> Events;
  std::optional<PassAnalysis> Passes;
  llvm::DenseSet<unsigned> Reported; // calls already diagnosed (templates)
  bool LostCode = false;             // mayHaveLostCode() of the TU
};

} // namespace torch_tidy

#endif
