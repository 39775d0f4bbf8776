//===--- Compat.h - the one place for LLVM-version differences --*- C++ -*-===//
//
// torch-tidy builds against several LLVM majors (19 is the default, 22 is tested
// too). Every `#if LLVM_VERSION_MAJOR` of the project lives in this header, so a
// port to a new major starts and ends here.
//
//===----------------------------------------------------------------------===//
#ifndef TORCH_TIDY_COMPAT_H
#define TORCH_TIDY_COMPAT_H

#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/Basic/Diagnostic.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Config/llvm-config.h"

#include <initializer_list>
#include <optional>
#include <string>

#if LLVM_VERSION_MAJOR < 14
#error "torch-tidy needs LLVM 14 or newer"
#endif

// LLVM 22 moved ClangTidyModuleRegistry into ClangTidyModule.h and deprecated
// the old header (removed in LLVM 24).
#include "clang-tidy/ClangTidyCheck.h"
#include "clang-tidy/ClangTidyDiagnosticConsumer.h"
#include "clang-tidy/ClangTidyModule.h"
#if LLVM_VERSION_MAJOR < 22
#include "clang-tidy/ClangTidyModuleRegistry.h"
#endif

namespace torch_tidy::compat {

/// StringRef::starts_with / ends_with came in LLVM 16 and startswith /
/// endswith went in LLVM 20: no spelling works in every supported major.
inline bool startsWith(llvm::StringRef S, llvm::StringRef Prefix) {
  return S.size() >= Prefix.size() && S.substr(0, Prefix.size()) == Prefix;
}
inline bool endsWith(llvm::StringRef S, llvm::StringRef Suffix) {
  return S.size() >= Suffix.size() &&
         S.substr(S.size() - Suffix.size()) == Suffix;
}

/// Whether \p S is one of \p Names. LLVM 14 and 15's llvm::is_contained takes
/// no braced list.
inline bool isOneOf(std::initializer_list<llvm::StringRef> Names,
                    llvm::StringRef S) {
  for (llvm::StringRef N : Names)
    if (N == S)
      return true;
  return false;
}

/// A pure virtual method (LLVM 18 renamed isPure to isPureVirtual).
inline bool isPureVirtual(const clang::CXXMethodDecl *MD) {
#if LLVM_VERSION_MAJOR >= 18
  return MD->isPureVirtual();
#else
  return MD->isPure();
#endif
}

/// Decl::isLocalExternDecl, const in every major (before LLVM 15 it was not).
inline bool isLocalExternDecl(const clang::Decl *D) {
  return const_cast<clang::Decl *>(D)->isLocalExternDecl();
}

/// A check option's raw value, copied: OptionsView::get returns an
/// llvm::Optional<std::string> before LLVM 15, an llvm::Optional<StringRef> in
/// 15 and a std::optional<StringRef> from 16.
inline std::optional<std::string>
rawOption(const clang::tidy::ClangTidyCheck::OptionsView &Options,
          llvm::StringRef Name) {
  if (auto V = Options.get(Name))
    return std::string(*V);
  return std::nullopt;
}

/// Whether a configuration diagnostic can be reported now. clang-tidy 14 to 16
/// build the checks for --dump-config and --list-checks with no diagnostics
/// engine, and ClangTidyContext::configurationDiag then dereferences null (their
/// own checks crash on a bad option value there too); a file is being analysed
/// exactly when there is one. Later majors always have an engine.
inline bool
canReportConfigurationDiag(const clang::tidy::ClangTidyContext *Context) {
#if LLVM_VERSION_MAJOR < 17
  return !Context->getCurrentFile().empty();
#else
  (void)Context;
  return true;
#endif
}

/// The expression of a lambda's trailing requires-clause, or null (LLVM 21
/// wrapped it in an AssociatedConstraint).
inline const clang::Expr *trailingRequiresClause(const clang::LambdaExpr *LE) {
#if LLVM_VERSION_MAJOR >= 21
  return LE->getTrailingRequiresClause().ConstraintExpr;
#else
  return LE->getTrailingRequiresClause();
#endif
}

/// Where a call starts and ends. LLVM 22 made CallExpr::getBeginLoc/getEndLoc
/// inline non-virtual members that no longer dispatch to CXXOperatorCallExpr:
/// through a `const CallExpr *`, `model(x)` begins at its `(` and `a + b` ends
/// at its `+`. Going through Stmt dispatches on the node's class in every
/// major, so locations of calls are taken here.
inline clang::SourceLocation beginLoc(const clang::Stmt *S) {
  return S->getBeginLoc();
}
inline clang::SourceLocation endLoc(const clang::Stmt *S) {
  return S->getEndLoc();
}

/// How clang::PrecompiledPreamble::Build takes its DiagnosticsEngine (LLVM 22:
/// an IntrusiveRefCntPtr), and its mangled name: torch-clangd wraps it
/// (tools/torch-clangd/PreambleBodies.cpp; tools/CMakeLists.txt passes
/// --wrap for each spelling).
#if LLVM_VERSION_MAJOR >= 22
using PreambleDiagnostics = llvm::IntrusiveRefCntPtr<clang::DiagnosticsEngine>;
#define TORCH_TIDY_PRECOMPILED_PREAMBLE_BUILD                                  \
  "_ZN5clang19PrecompiledPreamble5BuildERKNS_18CompilerInvocationEPKN4llvm12"  \
  "MemoryBufferENS_14PreambleBoundsENS4_18IntrusiveRefCntPtrINS_"              \
  "17DiagnosticsEngineEEENS9_INS4_3vfs10FileSystemEEESt10shared_ptrINS_"       \
  "22PCHContainerOperationsEEbNS4_9StringRefERNS_17PreambleCallbacksE"
#else
using PreambleDiagnostics = clang::DiagnosticsEngine &;
#define TORCH_TIDY_PRECOMPILED_PREAMBLE_BUILD                                  \
  "_ZN5clang19PrecompiledPreamble5BuildERKNS_18CompilerInvocationEPKN4llvm12"  \
  "MemoryBufferENS_14PreambleBoundsERNS_17DiagnosticsEngineENS4_"              \
  "18IntrusiveRefCntPtrINS4_3vfs10FileSystemEEESt10shared_ptrINS_"             \
  "22PCHContainerOperationsEEbNS4_9StringRefERNS_17PreambleCallbacksE"
#endif

} // namespace torch_tidy::compat

#endif
