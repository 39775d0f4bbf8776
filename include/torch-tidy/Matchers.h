//===--- Matchers.h - the anchors torch-tidy checks match ------*- C++ -*-===//
//
// Checks anchor on a few rare, top-level nodes in user code and walk down from
// there. Nothing here climbs the AST: an upward matcher (hasParent, hasAncestor)
// makes clang build the parent map of the whole TU, LibTorch headers included.
//
//===----------------------------------------------------------------------===//
#ifndef TORCH_TIDY_MATCHERS_H
#define TORCH_TIDY_MATCHERS_H

#include "clang/ASTMatchers/ASTMatchers.h"

namespace torch_tidy {

/// \p Node is a definition written outside system headers. The anchor's whole
/// test in one matcher: it is tried on every function (and class) of the TU,
/// LibTorch's headers included, once per check, and each nested matcher costs
/// a dispatch. Same meaning as `isDefinition(), unless(isExpansionInSystemHeader())`.
AST_POLYMORPHIC_MATCHER(isUserCodeDefinition,
                        AST_POLYMORPHIC_SUPPORTED_TYPES(clang::FunctionDecl,
                                                        clang::CXXRecordDecl)) {
  if (!Node.isThisDeclarationADefinition())
    return false;
  const clang::SourceManager &SM = Finder->getASTContext().getSourceManager();
  clang::SourceLocation Loc = SM.getExpansionLoc(Node.getBeginLoc());
  return Loc.isInvalid() || !SM.isInSystemHeader(Loc);
}

/// A function, method or constructor definition written in user code (not in
/// a system header such as LibTorch's). Template instantiations are included;
/// checks skip dependent (uninstantiated) bodies.
inline clang::ast_matchers::internal::BindableMatcher<clang::Decl> userFunctionDefinition() {
  using namespace clang::ast_matchers;
  return functionDecl(isUserCodeDefinition());
}

/// A class definition written in user code (module classes are among them).
inline clang::ast_matchers::internal::BindableMatcher<clang::Decl> userClassDefinition() {
  using namespace clang::ast_matchers;
  return cxxRecordDecl(isUserCodeDefinition());
}

} // namespace torch_tidy

#endif
