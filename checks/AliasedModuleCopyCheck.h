//===--- AliasedModuleCopyCheck.h - torch-aliased-module-copy ---*- C++ -*-===//
#ifndef TORCH_TIDY_ALIASEDMODULECOPYCHECK_H
#define TORCH_TIDY_ALIASEDMODULECOPYCHECK_H

#include "torch-tidy/FunctionIndex.h"
#include "torch-tidy/ModuleAliases.h"

#include "clang-tidy/ClangTidyCheck.h"
#include "llvm/ADT/DenseSet.h"

#include <optional>

namespace torch_tidy {

/// A module handle (a `ModuleHolder` such as `torch::nn::Linear` or a
/// `TORCH_MODULE` type, a `std::shared_ptr` to a module) copied into a second
/// variable or member whose parameters the code then updates from the first
/// one's, as if the copy were a separate network (a target network, an
/// exponential moving average): both name one module, so the update does
/// nothing. A separate network is made with `clone()`.
/// Docs: docs/checks/torch-aliased-module-copy.md
class AliasedModuleCopyCheck : public clang::tidy::ClangTidyCheck {
public:
  AliasedModuleCopyCheck(llvm::StringRef Name,
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
  void report(const ModuleHandleCopy &Copy, const ParameterSync &Sync);

  ModuleAliasConfig Config;
  const FunctionIndex *Index = nullptr;
  clang::ASTContext *Ctx = nullptr;
  llvm::DenseSet<unsigned> Reported; // copies already diagnosed (templates)
};

} // namespace torch_tidy

#endif
