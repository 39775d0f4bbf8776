//===--- RetainedLossGraphCheck.h - torch-retained-loss-graph ---*- C++ -*-===//
#ifndef TORCH_TIDY_RETAINEDLOSSGRAPHCHECK_H
#define TORCH_TIDY_RETAINEDLOSSGRAPHCHECK_H

#include "torch-tidy/FunctionIndex.h"
#include "torch-tidy/GradMode.h"
#include "torch-tidy/Graphs.h"

#include "clang-tidy/ClangTidyCheck.h"
#include "llvm/ADT/DenseSet.h"

#include <optional>
#include <string>
#include <vector>

namespace torch_tidy {

/// A loss or model output computed with autograd on, stored in a container
/// or accumulated into a tensor that outlives the loop, without `detach()` or
/// `item()`: every iteration's graph stays alive.
/// Docs: docs/checks/torch-retained-loss-graph.md
class RetainedLossGraphCheck : public clang::tidy::ClangTidyCheck {
public:
  RetainedLossGraphCheck(llvm::StringRef Name,
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
  void onEndOfTranslationUnit() override;

private:
  struct Store;
  void checkLoop(const clang::Stmt *Loop, const clang::FunctionDecl *Owner,
                 GraphAnalysis &Graphs);
  std::optional<Store> storeAt(const clang::Stmt *S) const;

  const std::string RawLossFunctions;
  const std::string RawStoreMethods;
  const std::string RawNoGradGuardClasses;
  std::vector<std::string> StoreMethods;
  GraphConfig Config;
  GradModeConfig GradConfig;
  const FunctionIndex *Index = nullptr;
  clang::ASTContext *Ctx = nullptr;
  llvm::DenseSet<unsigned> Reported; // stores already diagnosed (templates)
};

} // namespace torch_tidy

#endif
