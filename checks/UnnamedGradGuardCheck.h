//===--- UnnamedGradGuardCheck.h - guards that die at once ------*- C++ -*-===//
#ifndef TORCH_TIDY_UNNAMEDGRADGUARDCHECK_H
#define TORCH_TIDY_UNNAMEDGRADGUARDCHECK_H

#include "clang-tidy/ClangTidyCheck.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/StringSet.h"

#include <string>
#include <vector>

namespace torch_tidy {

/// A LibTorch RAII guard built as a temporary (`torch::NoGradGuard();`,
/// `torch::AutoGradMode(false);`, `c10::InferenceMode{};`), which is destroyed
/// at the end of its statement, or declared as a function by the most vexing
/// parse (`torch::NoGradGuard guard();`): either way it guards nothing.
/// Docs: docs/checks/torch-unnamed-grad-guard.md
class UnnamedGradGuardCheck : public clang::tidy::ClangTidyCheck {
public:
  UnnamedGradGuardCheck(llvm::StringRef Name,
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
  bool isGuard(const clang::CXXRecordDecl *RD) const;
  void reportTemporary(const clang::Expr *Statement, bool FixIt,
                       const clang::FunctionDecl *FD, clang::ASTContext &Ctx);
  void reportFunction(const clang::FunctionDecl *Declared,
                      clang::ASTContext &Ctx);

  const std::string RawGuardClasses;
  std::vector<std::string> GuardClasses;
  const clang::FunctionDecl *TakenIn = nullptr;
  llvm::StringSet<> Taken; // names used in TakenIn, and names given out
  bool InTemplate = false; // a fix-it would change every instantiation
  llvm::DenseSet<unsigned> Reported; // sites already diagnosed (templates)
};

} // namespace torch_tidy

#endif
