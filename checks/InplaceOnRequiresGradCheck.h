//===--- InplaceOnRequiresGradCheck.h - in-place ops ------------*- C++ -*-===//
#ifndef TORCH_TIDY_INPLACEONREQUIRESGRADCHECK_H
#define TORCH_TIDY_INPLACEONREQUIRESGRADCHECK_H

#include "torch-tidy/FunctionIndex.h"
#include "torch-tidy/GradMode.h"
#include "torch-tidy/Inplace.h"
#include "torch-tidy/InplaceEffects.h"
#include "torch-tidy/RequiresGrad.h"

#include "clang-tidy/ClangTidyCheck.h"
#include "llvm/ADT/DenseSet.h"

#include <optional>

namespace torch_tidy {

/// An in-place operation (`sub_()`, `-=`, `copy_()`, ...) on a tensor that
/// requires grad (a module parameter, a tensor made with
/// `requires_grad(true)`) while autograd is recording.
/// Docs: docs/checks/torch-inplace-on-requires-grad.md
class InplaceOnRequiresGradCheck : public clang::tidy::ClangTidyCheck {
public:
  InplaceOnRequiresGradCheck(llvm::StringRef Name,
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
  void checkFunction(const clang::FunctionDecl *FD, GradModeAnalysis &GradMode,
                     RequiresGradAnalysis &Grad,
                     InplaceEffectAnalysis &Effects);
  void report(const InplaceOp &Op, const clang::Stmt *Statement,
              const GradUse &Use, const clang::FunctionDecl *FD,
              GradModeAnalysis &GradMode);
  /// A call of a function defined in another file that changes, in place,
  /// the argument \p Arg that requires grad.
  void reportRemote(const clang::CallExpr *Call, const clang::Expr *Arg,
                    const RemoteInplace &Effect, const GradUse &Use,
                    const clang::FunctionDecl *FD, GradModeAnalysis &GradMode);
  /// The notes on why \p Target requires grad and why autograd records at
  /// \p Call (in \p FD).
  void noteWhy(const GradUse &Use, const clang::Expr *Target,
               const clang::Expr *Call, const clang::FunctionDecl *FD,
               GradModeAnalysis &GradMode);

  const std::string RawNoGradGuardClasses;
  const std::string RawParameterFunctions;
  GradModeConfig GradConfig;
  RequiresGradConfig ParamConfig;
  InplaceEffectConfig EffectConfig;
  const FunctionIndex *Index = nullptr;
  clang::ASTContext *Ctx = nullptr;
  llvm::DenseSet<unsigned> Reported; // sites already diagnosed (templates)
};

} // namespace torch_tidy

#endif
