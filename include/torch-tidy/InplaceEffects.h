//===--- InplaceEffects.h - changes to a caller's tensors -------*- C++ -*-===//
//
// What a call of a function changes in place among the tensors its caller
// passes: `void apply_update(torch::Tensor &p, double lr) { p.sub_(...); }`
// changes its parameter 0 with `sub_`. A tensor is passed by handle, so a
// parameter taken by value (`torch::Tensor p`, `std::vector<torch::Tensor>`)
// shares its storage with the caller's just as a reference does.
//
// A function's effects are read from its body: the in-place operations
// (Inplace.h) on what a parameter holds (RequiresGrad.h's flow, which follows
// copies, references, containers, range-for loops and iterators), and the
// effects of the functions it calls on what it passes them, down to
// MaxCallDepth (Summaries.h). An operation under a switch of the function's
// own that turns autograd off (GradMode.h) is no effect: the caller cannot
// make it record. A function with no body here is read from the program
// summary (WholeProgram.h), which is what the summary pass writes with this
// analysis for the functions another translation unit calls.
//
//===----------------------------------------------------------------------===//
#ifndef TORCH_TIDY_INPLACEEFFECTS_H
#define TORCH_TIDY_INPLACEEFFECTS_H

#include "torch-tidy/GradMode.h"
#include "torch-tidy/RequiresGrad.h"
#include "torch-tidy/Summaries.h"
#include "torch-tidy/WholeProgram.h"

#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "clang/Basic/SourceManager.h"

#include <memory>
#include <vector>

namespace torch_tidy {

struct InplaceEffectConfig {
  /// How deep the functions a function calls are read (Summaries.h).
  unsigned MaxCallDepth = DefaultMaxCallDepth;
  /// The program summary for functions with no body here, or null.
  std::shared_ptr<const ProgramSummary> Program;
};

class InplaceEffectAnalysis {
public:
  InplaceEffectAnalysis(const InplaceEffectConfig &Config,
                        const clang::SourceManager &SM,
                        RequiresGradAnalysis &Grad, GradModeAnalysis &GradMode)
      : Config(Config), SM(SM), Grad(Grad), GradMode(GradMode),
        Engine(Config.MaxCallDepth), EffectsOf(Engine) {}

  /// The in-place changes a call of \p Callee makes to what its caller
  /// passes, one per parameter and operation (the operation's place as a
  /// RemoteSite, in this file or another). \p Callee is one call below the
  /// function asking (level 1), as a helper is for the other analyses; a
  /// function of another file counts as such a call.
  std::vector<RemoteInplace> effectsOf(const clang::FunctionDecl *Callee) {
    return effects(Callee, 1);
  }

  /// The argument of \p Call that \p FD's parameter \p Index receives, or null
  /// (a default argument, an operator call).
  static const clang::Expr *argumentFor(const clang::CallExpr *Call,
                                        unsigned Index);

private:
  std::vector<RemoteInplace> effects(const clang::FunctionDecl *FD,
                                     unsigned Level);
  std::vector<RemoteInplace> read(const clang::FunctionDecl *Def,
                                  unsigned Level);

  const InplaceEffectConfig &Config;
  const clang::SourceManager &SM;
  RequiresGradAnalysis &Grad;
  GradModeAnalysis &GradMode;
  SummaryEngine Engine;
  Summaries<const clang::FunctionDecl *, std::vector<RemoteInplace>> EffectsOf;
};

} // namespace torch_tidy

#endif
