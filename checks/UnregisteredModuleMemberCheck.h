//===--- UnregisteredModuleMemberCheck.h - unregistered members -*- C++ -*-===//
#ifndef TORCH_TIDY_UNREGISTEREDMODULEMEMBERCHECK_H
#define TORCH_TIDY_UNREGISTEREDMODULEMEMBERCHECK_H

#include "torch-tidy/ModuleModel.h"

#include "clang-tidy/ClangTidyCheck.h"
#include "llvm/ADT/StringSet.h"

namespace torch_tidy {

/// A `torch::nn::Module` subclass with a tensor or submodule member that its
/// constructors build but never register, so `parameters()`, `to()`,
/// `train()`/`eval()` and `save()`/`load()` miss it.
/// Docs: docs/checks/torch-unregistered-module-member.md
class UnregisteredModuleMemberCheck : public clang::tidy::ClangTidyCheck {
public:
  UnregisteredModuleMemberCheck(llvm::StringRef Name,
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
  void checkModel(const ModuleModel &M, ModuleModels &Models,
                  const RegistrationIndex &Regs);
  void checkMember(const ModuleModel &M, const ModuleMember &Mem,
                   ModuleModels &Models, const RegistrationIndex &Regs,
                   llvm::StringSet<> &FixNames);

  const std::string RawRegistrationFunctions;
  const std::string RawStatelessModuleClasses;
  ModuleModelConfig Config;
  clang::ASTContext *Ctx = nullptr;
  /// Module class definitions of the TU, judged once the whole TU is known
  /// (a derived class may register a base's member).
  llvm::SmallVector<const clang::CXXRecordDecl *, 8> Classes;
  llvm::DenseSet<unsigned>
      Reported; // member locations (template instantiations)
};

} // namespace torch_tidy

#endif
