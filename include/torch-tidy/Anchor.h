//===--- Anchor.h - the one traversal anchor --------------------*- C++ -*-===//
//
// Every check needs the definitions written in user code: functions (methods,
// constructors, lambdas' call operators, template instantiations) and classes.
// Registering `functionDecl(...)` per check makes clang's MatchFinder try each
// check's matcher on every declaration of the translation unit, LibTorch's
// headers included (on LLVM 19, where clang-tidy still traverses them).
//
// Instead each check registers one matcher on the translation unit itself
// (registerAnchor), which MatchFinder tries once, and at the top of check() asks
// for the user-code definitions (handOverUserCode). They come from one index per
// AST, built on first use by a walk that enters no declaration at namespace level
// written in a system header, and offers the same definitions, in the same
// order, as MatchFinder's traversal (template instantiations, implicit members,
// lambda classes and call operators, local classes). The check's check() is then
// called once per definition with that definition bound, exactly as before, so
// its diagnostics, NOLINT comments and the header filter work unchanged.
//
// Nothing here climbs the AST.
//
//===----------------------------------------------------------------------===//
#ifndef TORCH_TIDY_ANCHOR_H
#define TORCH_TIDY_ANCHOR_H

#include "torch-tidy/FunctionIndex.h"

#include "clang-tidy/ClangTidyCheck.h"
#include "clang/AST/DeclBase.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <initializer_list>
#include <memory>
#include <optional>
#include <vector>

namespace torch_tidy {

/// What a check is handed.
enum class UserCode {
  /// FunctionDecl definitions (what `functionDecl(isUserCodeDefinition())` matched).
  Functions,
  /// CXXRecordDecl definitions, lambda classes included
  /// (`cxxRecordDecl(isUserCodeDefinition())`).
  Classes,
  /// CXXRecordDecl definitions that are not lambda classes.
  ClassesButLambdas,
};

/// One kind of definition and the name check() reads it under.
struct UserCodeBinding {
  UserCode Kind;
  llvm::StringRef ID;
};

/// The definitions written in user code of one AST, within its traversal
/// scope, in the order MatchFinder's traversal meets them: function and class
/// definitions whose expansion location is outside system headers. When the
/// scope is limited (clangd: the main file's declarations), also the class of
/// a method or constructor defined in scope, just before it.
class UserCodeIndex {
public:
  /// The index of \p Ctx, built on first use (shared by every check, freed with
  /// the ASTContext; rebuilt when the traversal scope changes).
  static const UserCodeIndex &of(clang::ASTContext &Ctx);

  llvm::ArrayRef<const clang::Decl *> definitions() const {
    return Definitions;
  }

  /// The function definitions among them (dependent and invalid ones left
  /// out), the lambdas written in them and the calls between them, indexed
  /// once on first use: every check that follows calls reads this one.
  const FunctionIndex &functionIndex() const;

  /// An analysis every check of this AST shares: one \p T per configuration
  /// (configurations compared with ==), made as `T(Config, Ctx)` on the first
  /// question with a copy of \p Config that it keeps, and freed with this
  /// index. What it answers must not depend on which check asked first.
  template <class T, class ConfigT>
  T &shared(const ConfigT &Config, clang::ASTContext &Ctx) const {
    static const char Kind = 0;
    for (const SharedAnalysis &S : Shared)
      if (S.Kind == &Kind &&
          *static_cast<const ConfigT *>(S.Config.get()) == Config)
        return *static_cast<T *>(S.Value.get());
    auto C = std::make_shared<const ConfigT>(Config);
    auto V = std::make_shared<T>(*C, Ctx);
    Shared.push_back({&Kind, C, V});
    return *V;
  }

  /// The same for an analysis with no configuration, made as `T(Ctx)`.
  template <class T> T &shared(clang::ASTContext &Ctx) const {
    return shared<Unconfigured<T>>(NoConfig(), Ctx);
  }

  /// Builds the index of \p Ctx's traversal scope (not cached; for tests and
  /// measurements).
  explicit UserCodeIndex(clang::ASTContext &Ctx);

private:
  const clang::SourceManager &SM;
  std::vector<const clang::Decl *> Definitions;
  std::vector<clang::Decl *> Scope;
  mutable std::unique_ptr<FunctionIndex> Functions;
  struct NoConfig {
    bool operator==(const NoConfig &) const { return true; }
  };
  template <class T> struct Unconfigured : T {
    Unconfigured(const NoConfig &, clang::ASTContext &Ctx) : T(Ctx) {}
  };
  /// One shared analysis: its kind (the address of a static of shared<T>),
  /// its configuration and itself, freed in that reverse order.
  struct SharedAnalysis {
    const void *Kind;
    std::shared_ptr<const void> Config;
    std::shared_ptr<void> Value;
  };
  mutable std::vector<SharedAnalysis> Shared;
};

/// The calls forEachCallBelow() meets in \p FD's body, in its order, listed by
/// one walk per function and kept for the translation unit (the loss checks
/// each read every function's calls). Valid until the end of the translation
/// unit.
llvm::ArrayRef<const clang::CallExpr *> callsIn(const clang::FunctionDecl *FD);

struct DiscardedValue;
/// The values forEachDiscardedValue() meets in \p FD's body, in its order,
/// listed the same way (two checks read every function's). Valid until the
/// end of the translation unit.
llvm::ArrayRef<DiscardedValue> discardedValuesIn(const clang::FunctionDecl *FD);

/// The only place a torch-* check registers a matcher: one matcher on the
/// translation unit, tried once per AST (also under clangd's limited traversal
/// scope, where the traversal still starts at the translation unit).
void registerAnchor(clang::ast_matchers::MatchFinder &Finder,
                    clang::tidy::ClangTidyCheck &Check);

/// Call first in check(). When \p Result is the anchor's match, calls
/// Check.check() once for each user-code definition of the kinds in
/// \p Bindings, bound under that binding's ID, in traversal order, and returns
/// true (check() then returns). Otherwise (a definition handed over) returns
/// false.
bool handOverUserCode(
    clang::tidy::ClangTidyCheck &Check,
    const clang::ast_matchers::MatchFinder::MatchResult &Result,
    std::initializer_list<UserCodeBinding> Bindings);

/// Call first in the check() of a check that judges function definitions: hands
/// the anchor's match over (handOverUserCode) and returns null then; else the
/// user function definition handed over, or null when it is to be skipped:
/// dependent (templates are analysed once per instantiation, where types are
/// known) or invalid.
const clang::FunctionDecl *
userFunction(clang::tidy::ClangTidyCheck &Check,
             const clang::ast_matchers::MatchFinder::MatchResult &Result);

/// The whole check() of a check that decides once the translation unit is
/// indexed (in onEndOfTranslationUnit, since a function's callers decide what
/// it is entered with): on the anchor's match, points \p Index at the
/// translation unit's UserCodeIndex::functionIndex() and keeps the AST context
/// in \p Ctx. Both stay valid until the end of the translation unit.
void indexUserFunctions(
    const clang::ast_matchers::MatchFinder::MatchResult &Result,
    const FunctionIndex *&Index, clang::ASTContext *&Ctx);

} // namespace torch_tidy

#endif
