//===--- ModuleAliases.h - module handles that share one module -*- C++ -*-===//
//
// A `ModuleHolder` (`torch::nn::Linear`, a `TORCH_MODULE(Net)` type), a
// `std::shared_ptr` to a module or a pointer to one is a handle: copying it
// makes a second name for the same module, never a second module (that is
// `clone()`). This room says, for one translation unit:
//
// - which variables and members are such a second name: every write of a
//   module handle into a local variable or a member (an initialisation, a
//   constructor's member initialiser, an assignment, through
//   `register_module`) is read, and a variable or member whose writes all copy
//   one other handle (`Net target = policy;`, `target_(policy_)`,
//   `target_ = policy_`) shares that handle's module. Writes of `nullptr` do
//   not count; a write of anything else (a construction, `clone()`, the
//   result of a call) makes it a module of its own, unless it comes before
//   the copy (in a constructor, for a member whose copy is made in another
//   method or later in that constructor; earlier in the same function, for a
//   local variable). Handles that copy each other, directly or through a
//   third one, share one module.
//
// - where the parameters of one module are updated from those of another, as
//   between two separate networks: a `copy_`, `mul_`/`add_`, `lerp_`, `set_`
//   or an assignment of an element of `a->parameters()` (or
//   `named_parameters()`, `buffers()`, followed through local variables,
//   range `for` loops, `[i]`, `.value()` and `.data()`) whose arguments read
//   the parameters of the other module, or
//   `torch::nn::utils::vector_to_parameters`. When the two modules are
//   parameters of a helper (`void soft_update(Net &target, Net &source)`),
//   they are followed out to the arguments of its callers, up to
//   `MaxCallDepth` levels (the summary engine's meaning: the function holding
//   the handles is level 0). A helper whose body is in another file is read
//   from the program summary ("parameter_syncs": the pairs of its parameters
//   it updates one from the other, WholeProgram.h), as if its update were
//   written at its call.
//
// Decided once the whole translation unit is indexed; nothing here climbs the
// AST.
//
//===----------------------------------------------------------------------===//
#ifndef TORCH_TIDY_MODULEALIASES_H
#define TORCH_TIDY_MODULEALIASES_H

#include "torch-tidy/FunctionIndex.h"
#include "torch-tidy/Summaries.h"
#include "torch-tidy/Types.h"
#include "torch-tidy/WholeProgram.h"

#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"

#include <memory>
#include <optional>
#include <vector>

namespace torch_tidy {

struct ModuleAliasConfig {
  TypeConfig Types;
  unsigned MaxCallDepth = DefaultMaxCallDepth;
  /// The program summary, for helpers defined in other files; may be null.
  std::shared_ptr<const ProgramSummary> Program;
};

/// A write that makes one module handle a copy of another.
struct ModuleHandleCopy {
  /// The variable or member written.
  const clang::ValueDecl *Into = nullptr;
  /// The handle it copies.
  const clang::ValueDecl *From = nullptr;
  /// The value as written (`policy_` in `target_(policy_)`).
  const clang::Expr *Value = nullptr;
  /// The function the write is in; null for a default member initialiser of
  /// a class whose constructor is implicit.
  const clang::FunctionDecl *In = nullptr;
};

/// An update of one module's parameters from another module's.
struct ParameterSync {
  /// The statement that writes the parameters (inside a helper when reached
  /// through one).
  const clang::Expr *Call = nullptr;
  /// The module updated and the module read, as named where the handles are.
  const clang::ValueDecl *Into = nullptr;
  const clang::ValueDecl *From = nullptr;
  /// The outermost helper the update was reached through and its call in the
  /// function naming Into and From; null when written there.
  const clang::FunctionDecl *Via = nullptr;
  const clang::Expr *ViaCall = nullptr;
  /// When the write is in a helper of another file: its place there. Call is
  /// then the call of that helper in this file.
  std::optional<RemoteSite> Remote;
};

/// A parameter update between two handles of one module.
struct AliasedSync {
  /// The copies that make the two handles one module, the first one written
  /// on the updated module's side (never empty).
  std::vector<ModuleHandleCopy> Copies;
  ParameterSync Sync;
};

/// Reads \p Index (filled with every user function of the translation unit)
/// and returns every parameter update between handles that share a module.
std::vector<AliasedSync> findAliasedSyncs(const FunctionIndex &Index,
                                          const ModuleAliasConfig &Config,
                                          const clang::SourceManager &SM);

/// For the summary pass: every parameter update between two modules, as
/// named at each level of helpers it is followed out to (those with the two
/// modules as the parameters of one function are what a call of it does).
std::vector<ParameterSync> findParameterSyncs(const FunctionIndex &Index,
                                              const ModuleAliasConfig &Config,
                                              const clang::SourceManager &SM);

/// A holder of a module, a std::shared_ptr to a module or a pointer to one:
/// an object whose copy names the same module. A reference is not a handle of
/// its own.
bool isModuleHandleType(clang::QualType T, const TypeConfig &Config);

/// Whether \p Impl derives from `torch::nn::Cloneable<Impl>`, whose `clone()`
/// makes a deep copy of it (a module that does not inherits
/// `Module::clone()`, which throws).
bool isCloneableModule(const clang::CXXRecordDecl *Impl);

} // namespace torch_tidy

#endif
