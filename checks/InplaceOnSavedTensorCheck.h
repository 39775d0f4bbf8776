//===--- InplaceOnSavedTensorCheck.h - in-place, saved tensors --*- C++ -*-===//
#ifndef TORCH_TIDY_INPLACEONSAVEDTENSORCHECK_H
#define TORCH_TIDY_INPLACEONSAVEDTENSORCHECK_H

#include "torch-tidy/FunctionIndex.h"
#include "torch-tidy/GradMode.h"
#include "torch-tidy/Graphs.h"
#include "torch-tidy/RequiresGrad.h"
#include "torch-tidy/SavedTensors.h"

#include "clang-tidy/ClangTidyCheck.h"
#include "llvm/ADT/DenseSet.h"

#include <optional>

namespace torch_tidy {

/// An in-place operation on a tensor that an earlier operation recorded by
/// autograd saved for its backward pass (the output of `sigmoid`, an operand
/// of `mul` whose other operand requires grad), before that backward pass.
/// Docs: docs/checks/torch-inplace-on-saved-tensor.md
class InplaceOnSavedTensorCheck : public clang::tidy::ClangTidyCheck {
public:
  InplaceOnSavedTensorCheck(llvm::StringRef Name,
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
  void report(const SavedInplace &S);

  const std::string RawNoGradGuardClasses;
  const std::string RawParameterFunctions;
  GradModeConfig GradConfig;
  RequiresGradConfig ParamConfig;
  GraphConfig GraphsConfig;
  const FunctionIndex *Index = nullptr;
  clang::ASTContext *Ctx = nullptr;
  llvm::DenseSet<unsigned> Reported; // sites already diagnosed (templates)
};

} // namespace torch_tidy

#endif
