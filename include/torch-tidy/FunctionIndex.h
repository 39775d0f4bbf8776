//===--- FunctionIndex.h - user functions and who calls them ----*- C++ -*-===//
//
// The functions defined in user code of one translation unit, and for each the
// calls (and constructions) written in user code that enter it, indexed by
// walking every function body once, top-down. Lambdas are functions of their
// own (their call operator), with the place they are written in. This is what
// lets an analysis ask "how can this function be entered?" without building
// clang's parent map.
//
// Fill it with add() from the definitions the anchor hands over (Anchor.h), then query
// after the whole TU was seen (ClangTidyCheck::onEndOfTranslationUnit).
//
//===----------------------------------------------------------------------===//
#ifndef TORCH_TIDY_FUNCTIONINDEX_H
#define TORCH_TIDY_FUNCTIONINDEX_H

#include "clang/AST/DeclCXX.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallVector.h"

#include <vector>

namespace torch_tidy {

/// A call or construction in user code that enters a user function.
struct CallSite {
  /// A CallExpr (calls, member calls, a lambda's `()`) or a CXXConstructExpr.
  const clang::Expr *Site = nullptr;
  /// The function whose body holds the call (a lambda's call operator for
  /// calls written in a lambda).
  const clang::FunctionDecl *Caller = nullptr;
  /// The definition called.
  const clang::FunctionDecl *Callee = nullptr;

  /// The argument passed for \p P (a parameter of Callee's definition), or
  /// null (a default argument, a variadic pack, another function's parameter).
  const clang::Expr *argumentFor(const clang::ParmVarDecl *P) const;
};

/// Where a lambda is written.
struct LambdaSite {
  const clang::LambdaExpr *Lambda = nullptr;
  /// The function whose body holds the lambda expression.
  const clang::FunctionDecl *Owner = nullptr;
};

class FunctionIndex {
public:
  explicit FunctionIndex(const clang::SourceManager &SM) : SM(SM) {}

  /// Indexes \p FD (a definition in user code; dependent ones are ignored), the
  /// lambdas written in it and the user functions it calls.
  void add(const clang::FunctionDecl *FD);

  /// Every indexed function, in the order they were found.
  llvm::ArrayRef<const clang::FunctionDecl *> functions() const {
    return Functions;
  }
  bool contains(const clang::FunctionDecl *FD) const {
    return Info.count(FD) != 0;
  }

  /// The indexed calls that enter \p FD (its definition).
  llvm::ArrayRef<CallSite> callers(const clang::FunctionDecl *FD) const;
  /// The indexed calls written in \p FD's body.
  llvm::ArrayRef<CallSite> callees(const clang::FunctionDecl *FD) const;
  /// For a lambda's call operator: where the lambda is written; else null.
  const LambdaSite *lambdaSite(const clang::FunctionDecl *FD) const;

  const clang::SourceManager &sourceManager() const { return SM; }

  /// The definition a call enters when it is a user function with a body.
  const clang::FunctionDecl *
  userDefinition(const clang::FunctionDecl *FD) const;

private:
  struct Entry {
    std::vector<CallSite> Callers;
    std::vector<CallSite> Callees;
    bool HasLambdaSite = false;
    LambdaSite Lambda;
  };
  void addLambda(const clang::LambdaExpr *L, const clang::FunctionDecl *Owner,
                 llvm::SmallVectorImpl<const clang::FunctionDecl *> &Work);

  const clang::SourceManager &SM;
  std::vector<const clang::FunctionDecl *> Functions;
  llvm::DenseMap<const clang::FunctionDecl *, Entry> Info;
  /// Calls of functions not indexed yet (their Entry is created on add).
  llvm::DenseMap<const clang::FunctionDecl *, std::vector<CallSite>>
      PendingCallers;
  llvm::DenseMap<const clang::CXXRecordDecl *, LambdaSite> Closures;
  /// userDefinition's answers: every call of every analysis asks it.
  mutable llvm::DenseMap<const clang::FunctionDecl *,
                         const clang::FunctionDecl *>
      UserDefinitions;
};

/// Calls \p Fn on the statements that make up \p FD's body, in order: a
/// constructor's member and base initialisers, then the body.
void forEachBodyPart(const clang::FunctionDecl *FD,
                     llvm::function_ref<void(const clang::Stmt *)> Fn);

} // namespace torch_tidy

#endif
