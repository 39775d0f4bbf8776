//===--- GraphBreakCheck.h - torch-graph-break ------------------*- C++ -*-===//
#ifndef TORCH_TIDY_GRAPHBREAKCHECK_H
#define TORCH_TIDY_GRAPHBREAKCHECK_H

#include "torch-tidy/FunctionIndex.h"
#include "torch-tidy/GradMode.h"
#include "torch-tidy/GraphPaths.h"

#include "clang-tidy/ClangTidyCheck.h"
#include "llvm/ADT/DenseSet.h"

#include <optional>
#include <string>

namespace torch_tidy {

/// A value given to `backward()`, or one term of the sum it is, computed
/// from a model output over a way that cuts autograd's graph (`detach()`,
/// `data()`, `item()` re-wrapped with `torch::tensor`, `from_blob` over
/// `data_ptr()`, `argmax`, `round`, comparisons, integer casts).
/// Docs: docs/checks/torch-graph-break.md
class GraphBreakCheck : public clang::tidy::ClangTidyCheck {
public:
  GraphBreakCheck(llvm::StringRef Name, clang::tidy::ClangTidyContext *Context);
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
  void checkFunction(const clang::FunctionDecl *FD, GraphPathAnalysis &Paths);
  void reportWhole(const clang::CallExpr *Backward, const GraphPath &P);
  void reportTerm(const GraphTerm &T, const GraphPath &P,
                  const clang::CallExpr *Backward);
  void notes(const GraphPath &P);
  /// Where the path is cut (in another file when the program summary says
  /// so), and where its model output comes from.
  /// \p WarnedAtCut: the warning is at the cut itself (a cut of this file).
  void cutNote(const GraphCut &C, bool WarnedAtCut = false);
  void outputNote(const ModelOutput &O);

  const std::string RawNoGradGuardClasses;
  GraphPathConfig Config;
  GradModeConfig GradConfig;
  const FunctionIndex *Index = nullptr;
  clang::ASTContext *Ctx = nullptr;
  llvm::DenseSet<const clang::Expr *> Reported; // cuts already diagnosed
};

} // namespace torch_tidy

#endif
