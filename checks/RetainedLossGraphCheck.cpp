//===--- RetainedLossGraphCheck.cpp - torch-retained-loss-graph -----------===//
//
// Rule: a loss or a model output computed while autograd records holds the
// graph of its iteration (every activation saved for backward). Stored in a
// container (`push_back`, `emplace_back`, `insert`, `c[k] = x`) or
// accumulated into a tensor (`total += loss`, `total = total + loss`) that
// outlives the loop, it keeps the graph of every iteration alive: memory
// grows with every batch. Store `detach()` or `item<T>()` of it instead.
//
// Silent when the graph may be wanted: the container or accumulator feeds a
// backward pass (a sequence summed on purpose, outputs concatenated for one
// backward), is returned, or is handed to a user function.
//
// Which values carry a graph: Graphs.h (a helper of another file through the
// program summary, WholeProgram.h); whether autograd records: GradMode.h,
// decided once the whole TU is indexed (onEndOfTranslationUnit).
//
//===----------------------------------------------------------------------===//
#include "RetainedLossGraphCheck.h"

#include "torch-tidy/Anchor.h"
#include "torch-tidy/Compat.h"
#include "torch-tidy/EvaluationOrder.h"
#include "torch-tidy/Options.h"
#include "torch-tidy/TrainingLoop.h"
#include "torch-tidy/Types.h"
#include "torch-tidy/WholeProgram.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/Lex/Lexer.h"

using namespace clang;
using namespace clang::ast_matchers;

namespace torch_tidy {

RetainedLossGraphCheck::RetainedLossGraphCheck(StringRef Name,
                                               tidy::ClangTidyContext *Context)
    : ClangTidyCheck(Name, Context),
      RawLossFunctions(
          OptionReader(Options, Name, Context).getNameList("LossFunctions")),
      RawStoreMethods(
          OptionReader(Options, Name, Context).getNameList("StoreMethods")),
      RawNoGradGuardClasses(OptionReader(Options, Name, Context)
                                .getNameList("NoGradGuardClasses")) {
  Config.LossFunctions = parseList(RawLossFunctions);
  StoreMethods = parseList(RawStoreMethods);
  GradConfig.NoGradGuardClasses = parseList(RawNoGradGuardClasses);
  GradConfig.Program = programSummary(Context);
  Config.Program = GradConfig.Program;
  Config.MaxCallDepth = OptionReader(Options, Name, Context)
                            .getCount("MaxCallDepth", DefaultMaxCallDepth);
}

void RetainedLossGraphCheck::storeOptions(
    tidy::ClangTidyOptions::OptionMap &Opts) {
  Options.store(Opts, "LossFunctions", RawLossFunctions);
  Options.store(Opts, "StoreMethods", RawStoreMethods);
  Options.store(Opts, "NoGradGuardClasses", RawNoGradGuardClasses);
  Options.store(Opts, "MaxCallDepth", Config.MaxCallDepth);
}

void RetainedLossGraphCheck::onStartOfTranslationUnit() {
  Index = nullptr;
  Ctx = nullptr;
  Reported.clear();
}

void RetainedLossGraphCheck::registerMatchers(MatchFinder *Finder) {
  registerAnchor(*Finder, *this);
}

void RetainedLossGraphCheck::check(const MatchFinder::MatchResult &Result) {
  indexUserFunctions(Result, Index, Ctx);
}

void RetainedLossGraphCheck::onEndOfTranslationUnit() {
  if (!Index || !Ctx)
    return;
  GradModeAnalysis GradMode(GradConfig, *Index);
  GraphAnalysis Graphs(Config, Ctx->getSourceManager(), GradMode);
  for (const FunctionDecl *FD : Index->functions())
    forEachLoop(
        FD, [&](const Stmt *Loop, ArrayRef<const Stmt *>,
                const FunctionDecl *Owner) { checkLoop(Loop, Owner, Graphs); });
  Index = nullptr;
}

/// One place that keeps a tensor beyond its statement.
struct RetainedLossGraphCheck::Store {
  /// The container or accumulator.
  const ValueDecl *Target = nullptr;
  /// The tensors stored.
  llvm::SmallVector<const Expr *, 2> Values;
  /// Accumulated into a tensor rather than stored in a container.
  bool Accumulates = false;
  SourceLocation Loc;
};

/// A container of the standard library (`std::vector`, `std::map`, ...).
static bool isStdContainer(const Expr *Object) {
  const CXXRecordDecl *RD = Object ? recordOf(Object->getType()) : nullptr;
  return RD && RD->isInStdNamespace();
}

static const Expr *plain(const Expr *E) {
  return stripExpr(E, Strip::Temporaries | Strip::Copies | Strip::Moves);
}

std::optional<RetainedLossGraphCheck::Store>
RetainedLossGraphCheck::storeAt(const Stmt *S) const {
  Store Out;
  if (const auto *MC = dyn_cast<CXXMemberCallExpr>(S)) {
    const CXXMethodDecl *MD = MC->getMethodDecl();
    const Expr *Object = MC->getImplicitObjectArgument();
    if (!MD || !MD->getIdentifier() || !Object)
      return std::nullopt;
    bool Std = isStdContainer(Object) && isContainerInsertName(MD->getName());
    if (!Std && !matchesFunctionList(MD, StoreMethods))
      return std::nullopt;
    Out.Target = objectDecl(Object);
    for (const Expr *A : MC->arguments())
      if (isTensorType(A->getType()))
        Out.Values.push_back(A);
    Out.Loc = MC->getExprLoc();
  } else if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(S)) {
    if (OC->getNumArgs() != 2 || !isTensorType(OC->getArg(0)->getType()))
      return std::nullopt;
    OverloadedOperatorKind K = OC->getOperator();
    const Expr *LHS = plain(OC->getArg(0));
    if (K == OO_PlusEqual || K == OO_MinusEqual) {
      Out.Target = objectDecl(LHS);
      Out.Values.push_back(OC->getArg(1));
      Out.Accumulates = true;
    } else if (K == OO_Equal) {
      const auto *Sub = dyn_cast<CXXOperatorCallExpr>(LHS);
      if (Sub && Sub->getOperator() == OO_Subscript &&
          isStdContainer(Sub->getArg(0))) {
        // `history[epoch] = loss`
        Out.Target = objectDecl(Sub->getArg(0));
        Out.Values.push_back(OC->getArg(1));
      } else {
        // `total = total + loss`
        Out.Target = objectDecl(LHS);
        const auto *Sum = dyn_cast<CXXOperatorCallExpr>(plain(OC->getArg(1)));
        if (!Out.Target || !Sum || Sum->getNumArgs() != 2 ||
            (Sum->getOperator() != OO_Plus && Sum->getOperator() != OO_Minus))
          return std::nullopt;
        for (unsigned I = 0; I < 2; ++I)
          if (objectDecl(Sum->getArg(I)) == Out.Target)
            Out.Values.push_back(Sum->getArg(1 - I));
        Out.Accumulates = true;
      }
    } else {
      return std::nullopt;
    }
    Out.Loc = OC->getOperatorLoc();
  } else {
    return std::nullopt;
  }
  if (!Out.Target || Out.Values.empty())
    return std::nullopt;
  return Out;
}

/// `.detach()` after \p E when it is written as a postfix expression outside
/// macros; otherwise no fix.
static FixItHint detachFix(const Expr *E, const ASTContext &Ctx) {
  E = E->IgnoreImplicit();
  // Postfix expressions only: `a + b` would need parentheses.
  bool Postfix = isa<DeclRefExpr, MemberExpr, ParenExpr, CallExpr>(E);
  if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(E))
    Postfix = OC->getOperator() == OO_Call || OC->getOperator() == OO_Subscript;
  if (!Postfix)
    return {};
  SourceLocation B = compat::beginLoc(E), End = compat::endLoc(E);
  if (B.isInvalid() || End.isInvalid() || B.isMacroID() || End.isMacroID())
    return {};
  SourceLocation After = Lexer::getLocForEndOfToken(
      End, 0, Ctx.getSourceManager(), Ctx.getLangOpts());
  if (After.isInvalid())
    return {};
  return FixItHint::CreateInsertion(After, ".detach()");
}

void RetainedLossGraphCheck::checkLoop(const Stmt *Loop,
                                       const FunctionDecl *Owner,
                                       GraphAnalysis &Graphs) {
  const SourceManager &SM = Ctx->getSourceManager();
  const Stmt *Body = loopBody(Loop);
  if (!Body)
    return;
  forEachDescendant(Body, [&](const Stmt *X) {
    // Lambdas are functions of their own; nested loops are asked about
    // themselves.
    if (isa<LambdaExpr>(X) || (X != Body && isLoop(X)))
      return Descend::Skip;
    std::optional<Store> St = storeAt(X);
    if (!St)
      return Descend::Children;

    // What outlives the loop, and where its uses can be read.
    llvm::SmallVector<const FunctionDecl *, 4> Scope;
    if (const auto *VD = dyn_cast<VarDecl>(St->Target)) {
      if (isa<ParmVarDecl>(VD) || !VD->hasLocalStorage() ||
          VD->getType()->isReferenceType() ||
          isWrittenWithin(VD->getLocation(), Loop, SM))
        return Descend::Children;
      const auto *Decl =
          dyn_cast_or_null<FunctionDecl>(VD->getParentFunctionOrMethod());
      if (!Decl)
        return Descend::Children;
      Scope.push_back(Decl);
    } else if (const auto *Field = dyn_cast<FieldDecl>(St->Target)) {
      for (const FunctionDecl *FD : Index->functions())
        if (const auto *MD = dyn_cast<CXXMethodDecl>(FD))
          if (MD->getParent() == Field->getParent())
            Scope.push_back(MD);
    } else {
      return Descend::Children;
    }

    for (const Expr *Value : St->Values) {
      std::optional<GraphOrigin> O = Graphs.graphOf(Value, Owner);
      // The graph of this iteration: recorded inside the loop.
      if (!O || !isWrittenWithin(compat::beginLoc(O->Site), Loop, SM))
        continue;
      if (Graphs.mayBeWanted(St->Target, Scope))
        return Descend::Children;
      if (!Reported.insert(St->Loc.getRawEncoding()).second)
        return Descend::Children;
      diag(St->Loc, "%select{a loss|a model output}0 that carries this "
                    "iteration's autograd graph is %select{stored in|"
                    "accumulated into}1 %2, which outlives the loop: the "
                    "graph of every iteration, activations included, stays "
                    "alive and memory grows with every batch; %select{store|"
                    "accumulate}1 its 'detach()', or a number from "
                    "'item<double>()'")
          << (O->Loss ? 0 : 1) << (St->Accumulates ? 1 : 0) << St->Target
          << detachFix(Value, *Ctx);
      SourceLocation RecordedAt =
          O->Call
              ? O->Call->getExprLoc()
              : (O->Remote ? remoteLocation(SM, *O->Remote) : SourceLocation());
      if (O->Via && RecordedAt.isValid())
        diag(RecordedAt,
             "the graph is recorded by this %select{loss|forward pass}0, "
             "called from the loop through %1",
             DiagnosticIDs::Note)
            << (O->Loss ? 0 : 1) << describeFunction(O->Via);
      else if (O->Via) // in a file that cannot be read here
        diag(O->Site->getExprLoc(),
             "the graph is recorded by a %select{loss|forward pass}0 in %1 "
             "(%2), called here",
             DiagnosticIDs::Note)
            << (O->Loss ? 0 : 1) << describeFunction(O->Via)
            << (O->Remote ? describeRemoteSite(*O->Remote) : std::string());
      else
        diag(O->Call->getExprLoc(),
             "the graph is recorded by this %select{loss|forward pass}0",
             DiagnosticIDs::Note)
            << (O->Loss ? 0 : 1);
      diag(St->Target->getLocation(), "%0 is declared here, outside the loop",
           DiagnosticIDs::Note)
          << St->Target;
      return Descend::Children;
    }
    return Descend::Children;
  });
}

} // namespace torch_tidy
