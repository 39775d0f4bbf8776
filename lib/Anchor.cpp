//===--- Anchor.cpp - the one traversal anchor of every torch-* check -----===//

#include "torch-tidy/Anchor.h"
#include "torch-tidy/Compat.h"
#include "torch-tidy/EvaluationOrder.h"
#include "torch-tidy/Types.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/ASTMatchers/ASTMatchers.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/STLExtras.h"

#include <memory>
#include <mutex>

using namespace clang;
using namespace clang::ast_matchers;

namespace torch_tidy {

namespace {

/// The binding of the anchor's match: the translation unit.
constexpr llvm::StringLiteral AnchorID = "torch-tidy-anchor";

/// What `isUserCodeDefinition()` (Matchers.h) tests: a definition whose
/// expansion location is not in a system header.
bool isUserCodeDefinition(const Decl *D, const SourceManager &SM) {
  bool Definition;
  if (const auto *FD = dyn_cast<FunctionDecl>(D))
    Definition = FD->isThisDeclarationADefinition();
  else if (const auto *RD = dyn_cast<CXXRecordDecl>(D))
    Definition = RD->isThisDeclarationADefinition();
  else
    return false;
  if (!Definition)
    return false;
  SourceLocation Loc = SM.getExpansionLoc(D->getBeginLoc());
  return Loc.isInvalid() || !isLibraryCode(Loc, SM);
}

/// Walks down from the traversal scope the way MatchFinder's traversal does
/// (the same RecursiveASTVisitor settings and the same special cases, copied
/// from clang's MatchASTVisitor), so the definitions come out in the order the
/// per-check matchers used to fire on them; but it never enters a declaration
/// at namespace level (the translation unit's, a namespace's, a linkage
/// specification's) written in a system header.
class UserCodeCollector : public RecursiveASTVisitor<UserCodeCollector> {
  using Base = RecursiveASTVisitor<UserCodeCollector>;

public:
  UserCodeCollector(const SourceManager &SM, std::vector<const Decl *> &Out)
      : SM(SM), Out(Out) {}

  bool shouldVisitTemplateInstantiations() const { return true; }
  bool shouldVisitImplicitCode() const { return true; }
  // As MatchFinder: the lambda's body is walked from the LambdaExpr (below),
  // after its class.
  bool shouldVisitLambdaBody() const { return false; }

  bool TraverseDecl(Decl *D) {
    if (!D)
      return true;
    if (!isa<TranslationUnitDecl>(D) && isAtNamespaceLevel(D)) {
      SourceLocation Loc = SM.getExpansionLoc(D->getBeginLoc());
      if (Loc.isValid() && isLibraryCode(Loc, SM))
        return true;
    }
    if (isUserCodeDefinition(D, SM))
      Out.push_back(D);
    return Base::TraverseDecl(D);
  }

  // MatchASTVisitor::dataTraverseNode, without its traversal-mode bookkeeping:
  // range-for statements, rewritten binary operators and lambdas are walked in
  // the same order (and as often) as MatchFinder walks them.
  bool dataTraverseNode(Stmt *S, DataRecursionQueue *Queue) {
    if (auto *RF = dyn_cast<CXXForRangeStmt>(S)) {
      TraverseStmt(RF->getInit());
      TraverseStmt(RF->getRangeInit());
      for (auto *SubStmt : RF->children())
        if (SubStmt != RF->getBody())
          TraverseStmt(SubStmt);
      TraverseStmt(RF->getBody());
      return true;
    }
    if (auto *RBO = dyn_cast<CXXRewrittenBinaryOperator>(S)) {
      TraverseStmt(const_cast<Expr *>(RBO->getLHS()));
      TraverseStmt(const_cast<Expr *>(RBO->getRHS()));
      for (auto *SubStmt : RBO->children())
        TraverseStmt(SubStmt);
      return true;
    }
    if (auto *LE = dyn_cast<LambdaExpr>(S)) {
      for (auto I : llvm::zip(LE->captures(), LE->capture_inits())) {
        auto C = std::get<0>(I);
        TraverseLambdaCapture(LE, &C, std::get<1>(I));
      }
      TraverseDecl(LE->getLambdaClass());
      TypeLoc TL = LE->getCallOperator()->getTypeSourceInfo()->getTypeLoc();
      FunctionProtoTypeLoc Proto = TL.getAsAdjusted<FunctionProtoTypeLoc>();
      if (auto *TPL = LE->getTemplateParameterList()) {
        for (NamedDecl *D : *TPL)
          TraverseDecl(D);
        if (Expr *RequiresClause = TPL->getRequiresClause())
          TraverseStmt(RequiresClause);
      }
      if (LE->hasExplicitParameters())
        for (ParmVarDecl *Param : Proto.getParams())
          TraverseDecl(Param);
      const auto *T = Proto.getTypePtr();
      for (const auto &E : T->exceptions())
        TraverseType(E);
      if (Expr *NE = T->getNoexceptExpr())
        TraverseStmt(NE, Queue);
      if (LE->hasExplicitResultType())
        TraverseTypeLoc(Proto.getReturnLoc());
      TraverseStmt(const_cast<Expr *>(compat::trailingRequiresClause(LE)));
      TraverseStmt(LE->getBody());
      return true;
    }
    return Base::dataTraverseNode(S, Queue);
  }

private:
  /// \p D is written directly in the translation unit, a namespace or a
  /// linkage specification (extern "C++" { ... }, export { ... }).
  static bool isAtNamespaceLevel(const Decl *D) {
    const DeclContext *DC = D->getLexicalDeclContext();
    return DC && DC->getRedeclContext()->isFileContext();
  }

  const SourceManager &SM;
  std::vector<const Decl *> &Out;
};

/// Under a limited traversal scope (clangd: the main file's own declarations)
/// a method or constructor defined in scope may belong to a class defined
/// outside it (in a header of clangd's preamble): hands the class over too,
/// just before its first such definition, so that the checks judging classes
/// see a class whose constructor or methods the file defines. With the whole
/// translation unit in scope every such class is in the index already.
void addClassesOfMethods(std::vector<const Decl *> &Definitions,
                         const SourceManager &SM) {
  llvm::DenseSet<const Decl *> Have(Definitions.begin(), Definitions.end());
  std::vector<const Decl *> Out;
  Out.reserve(Definitions.size());
  for (const Decl *D : Definitions) {
    if (const auto *MD = dyn_cast<CXXMethodDecl>(D))
      if (const CXXRecordDecl *RD = MD->getParent()->getDefinition())
        if (!RD->isLambda() && isUserCodeDefinition(RD, SM) &&
            Have.insert(RD).second)
          Out.push_back(RD);
    Out.push_back(D);
  }
  Definitions = std::move(Out);
}

} // namespace

UserCodeIndex::UserCodeIndex(ASTContext &Ctx) : SM(Ctx.getSourceManager()) {
  // A vector (LLVM 19) or an ArrayRef (LLVM 22).
  auto S = Ctx.getTraversalScope();
  Scope.assign(S.begin(), S.end());
  UserCodeCollector Collector(Ctx.getSourceManager(), Definitions);
  // From the translation unit, as MatchFinder: RecursiveASTVisitor then walks
  // only the traversal scope's declarations when it is limited (clangd).
  Collector.TraverseAST(Ctx);
  if (Scope.size() != 1 || Scope.front() != Ctx.getTranslationUnitDecl())
    addClassesOfMethods(Definitions, Ctx.getSourceManager());
}

namespace {
/// The indexes of the live ASTs (clangd builds several at once, on different
/// threads).
struct UserCodeIndexRegistry {
  std::mutex Lock;
  llvm::DenseMap<const ASTContext *, std::unique_ptr<UserCodeIndex>> Indexes;

  static UserCodeIndexRegistry &get() {
    static UserCodeIndexRegistry *R =
        new UserCodeIndexRegistry(); // never destroyed
    return *R;
  }

  static void forget(void *Ctx) {
    UserCodeIndexRegistry &R = get();
    std::lock_guard<std::mutex> G(R.Lock);
    R.Indexes.erase(static_cast<const ASTContext *>(Ctx));
  }
};
} // namespace

const UserCodeIndex &UserCodeIndex::of(ASTContext &Ctx) {
  UserCodeIndexRegistry &R = UserCodeIndexRegistry::get();
  {
    std::lock_guard<std::mutex> G(R.Lock);
    auto It = R.Indexes.find(&Ctx);
    auto S = Ctx.getTraversalScope();
    if (It != R.Indexes.end() && llvm::equal(It->second->Scope, S))
      return *It->second;
  }
  auto Index = std::make_unique<UserCodeIndex>(Ctx);
  const UserCodeIndex &Result = *Index;
  std::lock_guard<std::mutex> G(R.Lock);
  auto Inserted = R.Indexes.try_emplace(&Ctx, nullptr);
  if (Inserted.second)
    Ctx.AddDeallocation(&UserCodeIndexRegistry::forget, &Ctx);
  Inserted.first->second = std::move(Index);
  return Result;
}

namespace {
/// Each function's calls (callsIn), one vector per function so that a list
/// handed out stays where it is while others are added.
class CallLists {
public:
  explicit CallLists(ASTContext &) {}
  ArrayRef<const CallExpr *> of(const FunctionDecl *FD) {
    auto [It, New] = Lists.try_emplace(FD);
    if (New && FD->getBody())
      forEachCallBelow(FD->getBody(),
                       [&](const CallExpr *CE) { It->second.push_back(CE); });
    return It->second;
  }

private:
  llvm::DenseMap<const FunctionDecl *, std::vector<const CallExpr *>> Lists;
};
} // namespace

ArrayRef<const CallExpr *> callsIn(const FunctionDecl *FD) {
  ASTContext &Ctx = FD->getASTContext();
  return UserCodeIndex::of(Ctx).shared<CallLists>(Ctx).of(FD);
}

namespace {
/// Each function's discarded values (discardedValuesIn), kept as CallLists
/// keeps calls.
class DiscardedLists {
public:
  explicit DiscardedLists(ASTContext &) {}
  ArrayRef<DiscardedValue> of(const FunctionDecl *FD) {
    auto [It, New] = Lists.try_emplace(FD);
    if (New && FD->getBody())
      forEachDiscardedValue(FD->getBody(), [&](const DiscardedValue &V) {
        It->second.push_back(V);
      });
    return It->second;
  }

private:
  llvm::DenseMap<const FunctionDecl *, std::vector<DiscardedValue>> Lists;
};
} // namespace

ArrayRef<DiscardedValue> discardedValuesIn(const FunctionDecl *FD) {
  ASTContext &Ctx = FD->getASTContext();
  return UserCodeIndex::of(Ctx).shared<DiscardedLists>(Ctx).of(FD);
}

void registerAnchor(MatchFinder &Finder, tidy::ClangTidyCheck &Check) {
  Finder.addMatcher(translationUnitDecl().bind(AnchorID), &Check);
}

namespace {
/// Calls the check with the bound nodes of one handed-over definition.
class HandOver : public internal::BoundNodesTreeBuilder::Visitor {
public:
  HandOver(tidy::ClangTidyCheck &Check, ASTContext &Ctx)
      : Check(Check), Ctx(Ctx) {}
  void visitMatch(const BoundNodes &Nodes) override {
    // What MatchFinder sets around every callback.
    TraversalKindScope RAII(Ctx, Check.getCheckTraversalKind());
    Check.check(MatchFinder::MatchResult(Nodes, &Ctx));
  }

private:
  tidy::ClangTidyCheck &Check;
  ASTContext &Ctx;
};

bool hasKind(const Decl *D, UserCode Kind) {
  switch (Kind) {
  case UserCode::Functions:
    return isa<FunctionDecl>(D);
  case UserCode::Classes:
    return isa<CXXRecordDecl>(D);
  case UserCode::ClassesButLambdas: {
    const auto *RD = dyn_cast<CXXRecordDecl>(D);
    return RD && !RD->isLambda();
  }
  }
  return false;
}
} // namespace

bool handOverUserCode(tidy::ClangTidyCheck &Check,
                      const MatchFinder::MatchResult &Result,
                      std::initializer_list<UserCodeBinding> Bindings) {
  if (!Result.Nodes.getNodeAs<TranslationUnitDecl>(AnchorID))
    return false;
  ASTContext &Ctx = *Result.Context;
  HandOver Visitor(Check, Ctx);
  for (const Decl *D : UserCodeIndex::of(Ctx).definitions()) {
    for (const UserCodeBinding &B : Bindings) {
      if (!hasKind(D, B.Kind))
        continue;
      internal::BoundNodesTreeBuilder Builder;
      Builder.setBinding(B.ID, DynTypedNode::create(*D));
      Builder.visitMatches(&Visitor);
    }
  }
  return true;
}

const FunctionDecl *userFunction(clang::tidy::ClangTidyCheck &Check,
                                 const MatchFinder::MatchResult &Result) {
  if (handOverUserCode(Check, Result, {{UserCode::Functions, "fn"}}))
    return nullptr;
  const auto *FD = Result.Nodes.getNodeAs<FunctionDecl>("fn");
  if (!FD || FD->isDependentContext() || FD->isInvalidDecl())
    return nullptr;
  return FD;
}

const FunctionIndex &UserCodeIndex::functionIndex() const {
  if (!Functions) {
    Functions = std::make_unique<FunctionIndex>(SM);
    for (const Decl *D : Definitions)
      if (const auto *FD = dyn_cast<FunctionDecl>(D))
        if (!FD->isDependentContext() && !FD->isInvalidDecl())
          Functions->add(FD);
  }
  return *Functions;
}

void indexUserFunctions(const MatchFinder::MatchResult &Result,
                        const FunctionIndex *&Index, ASTContext *&Ctx) {
  if (!Result.Nodes.getNodeAs<TranslationUnitDecl>(AnchorID))
    return;
  Ctx = Result.Context;
  Index = &UserCodeIndex::of(*Ctx).functionIndex();
}

} // namespace torch_tidy
