//===--- LayerShapeMismatchCheck.h - layers that do not fit -----*- C++ -*-===//
#ifndef TORCH_TIDY_LAYERSHAPEMISMATCHCHECK_H
#define TORCH_TIDY_LAYERSHAPEMISMATCHCHECK_H

#include "torch-tidy/Shapes.h"

#include "clang-tidy/ClangTidyCheck.h"
#include "llvm/ADT/DenseSet.h"

#include <memory>
#include <string>

namespace torch_tidy {

/// Layers applied one after another (in a `torch::nn::Sequential`, or by a
/// module's `forward()`) whose sizes, all compile-time constants, do not fit:
/// a `Linear(256, 10)` after a `Linear(784, 128)`, a `Conv2d(32, ...)` after
/// a `Conv2d(..., 16, ...)`, a `view({-1, 400})` into a `Linear(784, ...)`.
/// Docs: docs/checks/torch-layer-shape-mismatch.md
class LayerShapeMismatchCheck : public clang::tidy::ClangTidyCheck {
public:
  LayerShapeMismatchCheck(llvm::StringRef Name,
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
  void report(const ShapeMismatch &M, clang::ASTContext &Ctx);

  const std::string RawShapePreserving;
  ShapeAnalysis::Config Config;
  std::unique_ptr<ShapeAnalysis> Shapes;
  clang::ASTContext *ShapesCtx = nullptr;
  llvm::DenseSet<unsigned> Reported; // layers already diagnosed (templates)
};

} // namespace torch_tidy

#endif
