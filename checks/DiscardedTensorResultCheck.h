//===--- DiscardedTensorResultCheck.h - unused tensors ----------*- C++ -*-===//
#ifndef TORCH_TIDY_DISCARDEDTENSORRESULTCHECK_H
#define TORCH_TIDY_DISCARDEDTENSORRESULTCHECK_H

#include "clang-tidy/ClangTidyCheck.h"
#include "llvm/ADT/DenseSet.h"

#include <string>
#include <vector>

namespace torch_tidy {

/// A call to an out-of-place LibTorch operation (`x.to(device)`, `x.cuda()`,
/// `x.add(1)`, `torch::relu(x)`) whose new tensor is thrown away, so the
/// statement does nothing.
/// Docs: docs/checks/torch-discarded-tensor-result.md
class DiscardedTensorResultCheck : public clang::tidy::ClangTidyCheck {
public:
  DiscardedTensorResultCheck(llvm::StringRef Name,
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
  /// Reports \p Call, whose value is discarded; \p Statement is the whole
  /// statement when it is one (a fix-it may then assign the result).
  void report(const clang::CallExpr *Call, const clang::Expr *Statement,
              clang::ASTContext &Ctx);

  const std::string RawIgnoredFunctions;
  std::vector<std::string> IgnoredFunctions;
  bool InTemplate = false; // a fix-it would change every instantiation
  llvm::DenseSet<unsigned> Reported; // calls already diagnosed (templates)
};

} // namespace torch_tidy

#endif
