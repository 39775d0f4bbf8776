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

/// A function, method or constructor definition written in user code (not in
/// a system header such as LibTorch's). Template instantiations are included;
/// checks skip dependent (uninstantiated) bodies.
inline clang::ast_matchers::internal::BindableMatcher<clang::Decl> userFunctionDefinition() {
  using namespace clang::ast_matchers;
  return functionDecl(isDefinition(), unless(isExpansionInSystemHeader()));
}

} // namespace torch_tidy

#endif
