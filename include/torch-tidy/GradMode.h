//===--- GradMode.h - whether autograd records at a statement ---*- C++ -*-===//
//
// Whether a statement runs with autograd recording, judged top-down:
//  * inside a function: the innermost grad-mode switch in force, i.e. an RAII
//    guard declared earlier in an enclosing block (`torch::NoGradGuard`,
//    `torch::AutoGradMode(false)`, `c10::InferenceMode`, configured classes) or
//    a `GradMode::set_enabled(...)` call earlier in an enclosing block, or a
//    call of a function that leaves autograd switched when it returns (its
//    last switch is such a call, at the top level of its body; with a
//    program summary, also a function of another file). A guard
//    lasts until the end of the block it is declared in, so one declared in a
//    sibling block that already ended covers nothing;
//  * across functions: a function runs with autograd recording when some call
//    that enters it (FunctionIndex) does, or when nothing in the TU calls it
//    (its callers are elsewhere; autograd records by default). A lambda that is
//    never called by name runs where it is written. With a program summary
//    (WholeProgram.h), the calls of the other translation units count too: a
//    function they call recording records, and one that they call only with
//    autograd off (and nothing here calls) does not.
//
// Regions are computed once per function and queried by statement, so any
// check can ask "is this call/loop/statement under no_grad?" from its own walk.
//
//===----------------------------------------------------------------------===//
#ifndef TORCH_TIDY_GRADMODE_H
#define TORCH_TIDY_GRADMODE_H

#include "torch-tidy/FunctionIndex.h"

#include "clang/AST/DeclCXX.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/Stmt.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/SmallVector.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace torch_tidy {

/// What a grad-mode guard or call does to autograd.
enum class GradSwitch {
  None,    ///< not a grad-mode switch
  Disable, ///< `NoGradGuard`, `AutoGradMode(false)`, `InferenceMode()`, `set_enabled(false)`
  Enable, ///< `AutoGradMode(true)`, `InferenceMode(false)`, `set_enabled(true)`
  Unknown, ///< a switch whose argument is not a literal: not known to disable autograd
};

class ProgramSummary;
struct RemoteCallers;

struct GradModeConfig {
  /// Classes that disable autograd while an object of them is alive (in-house
  /// guards), besides LibTorch's; qualified names.
  std::vector<std::string> NoGradGuardClasses;
  /// The other translation units' summaries (WholeProgram.h), or null: how
  /// their calls enter this unit's functions.
  std::shared_ptr<const ProgramSummary> Program;
};

/// LibTorch's grad-mode guard classes (`c10::NoGradGuard` and its aliases
/// `torch::NoGradGuard`/`at::NoGradGuard`, `c10::AutoGradMode`,
/// `c10::InferenceMode`) and the configured ones.
bool isGradGuardClass(const clang::CXXRecordDecl *D,
                      const GradModeConfig &Config);

/// What constructing a guard with \p CE does (None when it is not a guard).
GradSwitch guardSwitch(const clang::CXXConstructExpr *CE,
                       const GradModeConfig &Config);

/// What a `c10::GradMode::set_enabled(x)` call does (None for other calls).
GradSwitch setEnabledSwitch(const clang::CallExpr *CE);

/// A switch as a summary spells it (`off`, `on`, `unknown`), and back.
llvm::StringRef gradSwitchSpelling(GradSwitch S);
std::optional<GradSwitch> gradSwitchOf(llvm::StringRef Spelling);

/// A part of a function body under one grad-mode switch.
struct GradRegion {
  GradSwitch Switch = GradSwitch::None;
  /// The guard variable, or null for a `set_enabled` call.
  const clang::VarDecl *Guard = nullptr;
  /// The guard's declaration statement, the `set_enabled` call, or the call
  /// of a function that leaves autograd switched (Via).
  const clang::Stmt *Origin = nullptr;
  /// The function whose call switched autograd for the rest of the block
  /// (GradModeAnalysis::leavesRecording), or null.
  const clang::FunctionDecl *Via = nullptr;
  /// The region this one is nested in (index into regions()), or -1.
  int Outer = -1;
};

/// Whether a statement may run with autograd recording, and why.
struct GradVerdict {
  bool Records = true;
  /// The innermost switch in force in the function (null: none, the
  /// function's entry mode decides).
  const GradRegion *Region = nullptr;
  /// When the function's callers decide: a call that enters it with autograd
  /// recording (null when nothing in the TU calls it, or for a lambda run
  /// where it is written).
  const CallSite *EnteredFrom = nullptr;
};

class GradModeAnalysis {
public:
  GradModeAnalysis(const GradModeConfig &Config, const FunctionIndex &Index)
      : Config(Config), Index(Index) {}

  /// The grad-mode regions of \p FD's own body (lambdas excluded), outer ones
  /// first.
  llvm::ArrayRef<GradRegion> regions(const clang::FunctionDecl *FD);

  /// The innermost region in force at \p S (a statement or expression of
  /// \p FD's body, lambdas excluded), or null.
  const GradRegion *regionAt(const clang::FunctionDecl *FD,
                             const clang::Stmt *S);

  /// Whether \p S (in \p FD) is covered by a switch that disables autograd.
  bool disabledAt(const clang::FunctionDecl *FD, const clang::Stmt *S) {
    const GradRegion *R = regionAt(FD, S);
    return R && R->Switch == GradSwitch::Disable;
  }

  /// Whether \p FD can be entered with autograd recording. Valid once the
  /// index holds the whole TU.
  bool entersRecording(const clang::FunctionDecl *FD,
                       const CallSite **From = nullptr);

  /// How the other translation units' calls enter \p FD (program summary),
  /// or null when there is none or none of them calls it. \p AbsentMeans:
  /// what this analysis takes for no record, when the answer decides how
  /// \p FD is entered (ProgramSummary::callers); none when it is for a note.
  const RemoteCallers *
  remoteCallers(const clang::FunctionDecl *FD,
                std::optional<bool> AbsentMeans = {}) const;

  /// How a call of \p FD leaves autograd when it returns: Disable when its
  /// last switch, at the top level of its body, turns autograd off (a
  /// `GradMode::set_enabled(false)` call, or a call of a function that leaves
  /// it off), Enable when it turns it back on, Unknown when it switches it
  /// in a way not known at the return (a value that is not a literal, a
  /// switch in a branch or a loop, or one an early `return` may skip), none
  /// when it switches nothing that outlives it (guards end with the body).
  /// A function with no body here is read from the program summary.
  std::optional<GradSwitch> leavesRecording(const clang::FunctionDecl *FD);

  /// Whether \p S in \p FD may run with autograd recording.
  GradVerdict at(const clang::FunctionDecl *FD, const clang::Stmt *S);

  /// Where \p FD is entered from: its calls, or for a lambda never called by
  /// name, the place it is written (returned through \p Written).
  llvm::ArrayRef<CallSite> entries(const clang::FunctionDecl *FD,
                                   const LambdaSite **Written);

private:
  struct FunctionRegions {
    std::vector<GradRegion> Regions;
    llvm::DenseMap<const clang::Stmt *, unsigned> Innermost;
  };
  const FunctionRegions &compute(const clang::FunctionDecl *FD);
  void propagate();
  std::optional<GradSwitch> leftAtEnd(const clang::FunctionDecl *Def);

  const GradModeConfig &Config;
  const FunctionIndex &Index;
  llvm::DenseMap<const clang::FunctionDecl *, FunctionRegions> Cache;
  bool Propagated = false;
  /// Functions that can be entered with autograd recording, with the call that
  /// does it (null when not known to be called).
  llvm::DenseMap<const clang::FunctionDecl *, const CallSite *> Recording;
  /// leavesRecording(), by canonical declaration, and the definitions being
  /// read (the recursion guard and the depth bound).
  llvm::DenseMap<const clang::FunctionDecl *, std::optional<GradSwitch>> Leaves;
  llvm::SmallVector<const clang::FunctionDecl *, 4> Leaving;
  bool LeavesCut = false;
};

} // namespace torch_tidy

#endif
