//===--- InplaceEffects.cpp - in-place changes to a caller's tensors ------===//
#include "torch-tidy/InplaceEffects.h"
#include "torch-tidy/FunctionIndex.h"
#include "torch-tidy/Inplace.h"
#include "torch-tidy/Types.h"

#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"

using namespace clang;

namespace torch_tidy {

const Expr *InplaceEffectAnalysis::argumentFor(const CallExpr *Call,
                                               unsigned Index) {
  if (isa<CXXOperatorCallExpr>(Call))
    return nullptr; // its first argument may be the object
  if (Index >= Call->getNumArgs())
    return nullptr;
  const Expr *Arg = Call->getArg(Index);
  return isa<CXXDefaultArgExpr>(Arg) ? nullptr : Arg;
}

std::vector<RemoteInplace>
InplaceEffectAnalysis::effects(const FunctionDecl *FD, unsigned Level) {
  if (!FD)
    return {};
  const FunctionDecl *Def = nullptr;
  if (FD->hasBody(Def) && Def) {
    if (Def->isDependentContext() || isLibraryCode(Def, SM))
      return {};
    return EffectsOf.get(Def, Level, [&] { return read(Def, Level); });
  }
  // No body here: what the summary pass found where it is defined.
  if (!Config.Program || !mayBeElsewhere(FD, SM))
    return {};
  const FunctionDecl *Key = FD->getCanonicalDecl();
  return EffectsOf.get(Key, Level, [&] {
    const RemoteFunction *R = Config.Program->find(FD);
    return R ? R->Inplace : std::vector<RemoteInplace>();
  });
}

std::vector<RemoteInplace> InplaceEffectAnalysis::read(const FunctionDecl *Def,
                                                       unsigned Level) {
  std::vector<RemoteInplace> Out;
  // One effect per parameter and operation.
  auto Add = [&](const GradFlow &Flow, const RemoteInplace &Effect) {
    for (const ParmVarDecl *P : Flow.Params) {
      if (P->getDeclContext() != Def)
        continue; // a parameter of the function a lambda is written in
      RemoteInplace I = Effect;
      I.ParamIndex = P->getFunctionScopeIndex();
      bool Known = false;
      for (const RemoteInplace &O : Out)
        Known |= O.ParamIndex == I.ParamIndex && O.Spelling == I.Spelling &&
                 samePlace(O.Site, I.Site);
      if (!Known)
        Out.push_back(std::move(I));
    }
  };
  auto Visit = [&](const Expr *E, const Stmt *) {
    if (std::optional<InplaceOp> Op = matchInplace(E)) {
      // In a chain `w.sub_(a).div_(b)` the first operation names the tensor.
      if (matchInplace(Op->Target->IgnoreParenImpCasts()) ||
          GradMode.disabledAt(Def, Op->Call))
        return;
      RemoteInplace I;
      I.Spelling = Op->Spelling;
      I.Site = siteOf(Op->Loc, SM);
      Add(Grad.flowOf(Op->Target, Def), I);
      return;
    }
    const auto *Call = dyn_cast<CallExpr>(E);
    const FunctionDecl *Callee = Call ? Call->getDirectCallee() : nullptr;
    if (!Callee || isLibraryCode(Callee, SM) || GradMode.disabledAt(Def, Call))
      return;
    for (const RemoteInplace &Sub : effects(Callee, Level + 1))
      if (const Expr *Arg = argumentFor(Call, Sub.ParamIndex))
        Add(Grad.flowOf(Arg, Def), Sub);
  };
  forEachBodyPart(Def,
                  [&](const Stmt *S) { forEachExprWithStatement(S, Visit); });
  return Out;
}

} // namespace torch_tidy
