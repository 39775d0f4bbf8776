//===--- FromBlobLifetimeCheck.h - from_blob over dying storage -*- C++ -*-===//
#ifndef TORCH_TIDY_FROMBLOBLIFETIMECHECK_H
#define TORCH_TIDY_FROMBLOBLIFETIMECHECK_H

#include "torch-tidy/BlobLifetime.h"

#include "clang-tidy/ClangTidyCheck.h"
#include "llvm/ADT/DenseSet.h"

#include <string>

namespace torch_tidy {

/// A tensor made by `torch::from_blob` over storage that dies before it (a
/// local `std::vector`, array or `std::string`, a parameter taken by value, a
/// temporary) is returned, stored in a member or an outer container, or
/// captured, without `.clone()`: it then reads freed memory.
/// Docs: docs/checks/torch-from-blob-lifetime.md
class FromBlobLifetimeCheck : public clang::tidy::ClangTidyCheck {
public:
  FromBlobLifetimeCheck(llvm::StringRef Name,
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
  void report(const BlobLifetimeIssue &I, const clang::FunctionDecl *FD,
              bool InTemplate, clang::ASTContext &Ctx);

  const std::string RawFactoryFunctions;
  const std::string RawStorageClasses;
  BlobConfig Config;
  llvm::DenseSet<unsigned> Reported; // calls already diagnosed (templates)
};

} // namespace torch_tidy

#endif
