//===--- MissingEvalCheck.h - torch-missing-eval ----------------*- C++ -*-===//
#ifndef TORCH_TIDY_MISSINGEVALCHECK_H
#define TORCH_TIDY_MISSINGEVALCHECK_H

#include "torch-tidy/FunctionIndex.h"
#include "torch-tidy/ModelMode.h"

#include "clang-tidy/ClangTidyCheck.h"
#include "llvm/ADT/DenseSet.h"

#include <optional>

namespace torch_tidy {

/// An evaluation pass that runs a module with dropout or batch norm in
/// training mode (no `eval()` before it on every path), or a training pass
/// that runs it in the eval mode an earlier epoch's validation left it in.
/// Docs: docs/checks/torch-missing-eval.md
class MissingEvalCheck : public clang::tidy::ClangTidyCheck {
public:
  MissingEvalCheck(llvm::StringRef Name,
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
  void checkFunction(const clang::FunctionDecl *FD, ModelModeAnalysis &Modes);
  void noteDependence(const ModeDependence &D);

  const std::string RawModeDependent;
  const std::string RawModeIndependent;
  const std::string RawNoGradGuardClasses;
  ModelModeConfig Config;
  const FunctionIndex *Index = nullptr;
  clang::ASTContext *Ctx = nullptr;
  llvm::DenseSet<unsigned> Reported; // sites already diagnosed (templates)
  /// Loops already diagnosed for a module (one warning per pass and module).
  llvm::DenseSet<std::pair<const clang::Stmt *, const clang::ValueDecl *>>
      ReportedPasses;
};

} // namespace torch_tidy

#endif
