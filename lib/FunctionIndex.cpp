//===--- FunctionIndex.cpp - user functions and who calls them ------------===//
#include "torch-tidy/FunctionIndex.h"
#include "torch-tidy/EvaluationOrder.h"
#include "torch-tidy/Types.h"

#include "clang/AST/DeclTemplate.h"

using namespace clang;

namespace torch_tidy {

const Expr *CallSite::argumentFor(const ParmVarDecl *P) const {
  if (!P || !Callee || P->getDeclContext() != Callee)
    return nullptr;
  unsigned I = P->getFunctionScopeIndex();
  const Expr *Arg = nullptr;
  if (const auto *CE = dyn_cast<CallExpr>(Site)) {
    // An operator call on a method (a lambda's `()`) passes the object first.
    const auto *MD = dyn_cast<CXXMethodDecl>(Callee);
    if (isa<CXXOperatorCallExpr>(CE) && MD && !MD->isStatic())
      ++I;
    if (I < CE->getNumArgs())
      Arg = CE->getArg(I);
  } else if (const auto *CC = dyn_cast<CXXConstructExpr>(Site)) {
    if (I < CC->getNumArgs())
      Arg = CC->getArg(I);
  }
  if (!Arg || isa<CXXDefaultArgExpr>(Arg))
    return nullptr;
  return Arg;
}

void forEachBodyPart(const FunctionDecl *FD,
                     llvm::function_ref<void(const Stmt *)> Fn) {
  if (!FD)
    return;
  if (const auto *Ctor = dyn_cast<CXXConstructorDecl>(FD))
    for (const CXXCtorInitializer *Init : Ctor->inits())
      if (Init && Init->getInit())
        Fn(Init->getInit());
  if (const Stmt *Body = FD->getBody())
    Fn(Body);
}

const FunctionDecl *
FunctionIndex::userDefinition(const FunctionDecl *FD) const {
  if (!FD)
    return nullptr;
  auto [It, New] = UserDefinitions.try_emplace(FD, nullptr);
  if (!New)
    return It->second;
  const FunctionDecl *Def = nullptr;
  if (!FD->hasBody(Def) || !Def || Def->isInvalidDecl() ||
      Def->isDependentContext() || isLibraryCode(Def, SM))
    return nullptr;
  It->second = Def;
  return Def;
}

llvm::ArrayRef<CallSite> FunctionIndex::callers(const FunctionDecl *FD) const {
  auto It = Info.find(FD);
  if (It == Info.end())
    return {};
  return It->second.Callers;
}

llvm::ArrayRef<CallSite> FunctionIndex::callees(const FunctionDecl *FD) const {
  auto It = Info.find(FD);
  if (It == Info.end())
    return {};
  return It->second.Callees;
}

const LambdaSite *FunctionIndex::lambdaSite(const FunctionDecl *FD) const {
  const auto *MD = dyn_cast_or_null<CXXMethodDecl>(FD);
  if (!MD || !MD->getParent()->isLambda())
    return nullptr;
  auto It = Closures.find(MD->getParent());
  return It == Closures.end() ? nullptr : &It->second;
}

void FunctionIndex::addLambda(
    const LambdaExpr *L, const FunctionDecl *Owner,
    llvm::SmallVectorImpl<const FunctionDecl *> &Work) {
  const CXXRecordDecl *Closure = L->getLambdaClass();
  if (!Closure)
    return;
  Closures.try_emplace(Closure, LambdaSite{L, Owner});
  if (const FunctionTemplateDecl *Generic = L->getDependentCallOperator()) {
    // A generic lambda: its body is analysed in each instantiation.
    for (const FunctionDecl *Spec : Generic->specializations())
      if (const FunctionDecl *Def = userDefinition(Spec))
        Work.push_back(Def);
    return;
  }
  if (const FunctionDecl *Def = userDefinition(L->getCallOperator()))
    Work.push_back(Def);
}

namespace {
/// Collects the calls and lambdas of one body; lambda bodies are left to the
/// lambda's own entry.
class CallCollector {
public:
  CallCollector(const FunctionIndex &Index, const FunctionDecl *Owner,
                llvm::SmallVectorImpl<CallSite> &Calls,
                llvm::SmallVectorImpl<const LambdaExpr *> &Lambdas)
      : Index(Index), Owner(Owner), Calls(Calls), Lambdas(Lambdas) {}

  void walk(const Stmt *Root) {
    forEachDescendant(Root, [&](const Stmt *S) {
      if (const auto *L = dyn_cast<LambdaExpr>(S)) {
        Lambdas.push_back(L);
        for (const Expr *Init : L->capture_inits())
          walk(Init);
        return Descend::Skip;
      }
      if (const auto *CE = dyn_cast<CallExpr>(S)) {
        if (const FunctionDecl *Def =
                Index.userDefinition(CE->getDirectCallee()))
          Calls.push_back(CallSite{CE, Owner, Def});
      } else if (const auto *CC = dyn_cast<CXXConstructExpr>(S)) {
        if (const FunctionDecl *Def =
                Index.userDefinition(CC->getConstructor()))
          Calls.push_back(CallSite{CC, Owner, Def});
      }
      return Descend::Children;
    });
  }

private:
  const FunctionIndex &Index;
  const FunctionDecl *Owner;
  llvm::SmallVectorImpl<CallSite> &Calls;
  llvm::SmallVectorImpl<const LambdaExpr *> &Lambdas;
};
} // namespace

void FunctionIndex::add(const FunctionDecl *FD) {
  llvm::SmallVector<const FunctionDecl *, 8> Work;
  if (FD && FD->doesThisDeclarationHaveABody() && !FD->isDependentContext() &&
      !FD->isInvalidDecl())
    Work.push_back(FD);
  while (!Work.empty()) {
    const FunctionDecl *F = Work.pop_back_val();
    if (Info.count(F))
      continue;
    Entry &E = Info[F];
    auto Pending = PendingCallers.find(F);
    if (Pending != PendingCallers.end()) {
      E.Callers = std::move(Pending->second);
      PendingCallers.erase(Pending);
    }
    Functions.push_back(F);

    llvm::SmallVector<CallSite, 16> Calls;
    llvm::SmallVector<const LambdaExpr *, 4> Lambdas;
    CallCollector Collector(*this, F, Calls, Lambdas);
    forEachBodyPart(F, [&](const Stmt *S) { Collector.walk(S); });

    for (const LambdaExpr *L : Lambdas)
      addLambda(L, F, Work);
    for (const CallSite &C : Calls) {
      Info[F].Callees.push_back(C);
      auto It = Info.find(C.Callee);
      if (It != Info.end()) {
        It->second.Callers.push_back(C);
      } else {
        PendingCallers[C.Callee].push_back(C);
        Work.push_back(C.Callee);
      }
    }
  }
}

} // namespace torch_tidy
