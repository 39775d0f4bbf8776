//===--- InplaceOnRequiresGradCheck.cpp - torch-inplace-on-requires-grad --===//
//
// Rule: an in-place operation must not change a tensor that requires grad (a
// leaf such as a module parameter, or a view of one) while autograd records;
// LibTorch throws "a leaf Variable that requires grad is being used in an
// in-place operation". Updates of such tensors belong in a no-grad scope.
//
// Which tensors require grad: RequiresGrad.h. Whether autograd records at a
// statement, also through the callers of the function: GradMode.h. Both are
// decided once the whole TU is indexed (onEndOfTranslationUnit).
//
//===----------------------------------------------------------------------===//
#include "InplaceOnRequiresGradCheck.h"

#include "torch-tidy/Anchor.h"
#include "torch-tidy/EvaluationOrder.h"
#include "torch-tidy/Inplace.h"
#include "torch-tidy/Options.h"
#include "torch-tidy/TrainingLoop.h"
#include "torch-tidy/Types.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Lex/Lexer.h"

using namespace clang;
using namespace clang::ast_matchers;

namespace torch_tidy {

InplaceOnRequiresGradCheck::InplaceOnRequiresGradCheck(
    StringRef Name, tidy::ClangTidyContext *Context)
    : ClangTidyCheck(Name, Context),
      RawNoGradGuardClasses(OptionReader(Options, Name, Context)
                                .getNameList("NoGradGuardClasses")),
      RawParameterFunctions(OptionReader(Options, Name, Context)
                                .getNameList("ParameterFunctions")) {
  GradConfig.NoGradGuardClasses = parseList(RawNoGradGuardClasses);
  ParamConfig.ParameterFunctions = parseList(RawParameterFunctions);
  ParamConfig.MaxCallDepth = OptionReader(Options, Name, Context)
                                 .getCount("MaxCallDepth", DefaultMaxCallDepth);
}

void InplaceOnRequiresGradCheck::storeOptions(
    tidy::ClangTidyOptions::OptionMap &Opts) {
  Options.store(Opts, "NoGradGuardClasses", RawNoGradGuardClasses);
  Options.store(Opts, "ParameterFunctions", RawParameterFunctions);
  Options.store(Opts, "MaxCallDepth", ParamConfig.MaxCallDepth);
}

void InplaceOnRequiresGradCheck::onStartOfTranslationUnit() {
  Index.reset();
  Ctx = nullptr;
  Reported.clear();
}

void InplaceOnRequiresGradCheck::registerMatchers(MatchFinder *Finder) {
  registerAnchor(*Finder, *this);
}

void InplaceOnRequiresGradCheck::check(const MatchFinder::MatchResult &Result) {
  indexUserFunctions(*this, Result, Index, Ctx);
}

void InplaceOnRequiresGradCheck::onEndOfTranslationUnit() {
  if (!Index || !Ctx)
    return;
  GradModeAnalysis GradMode(GradConfig, *Index);
  RequiresGradAnalysis Grad(ParamConfig, *Index, GradMode);
  for (const FunctionDecl *FD : Index->functions())
    checkFunction(FD, GradMode, Grad);
  Index.reset();
}

//===----------------------------------------------------------------------===//
// In-place operations.

static StringRef nameOf(const NamedDecl *D) {
  return D && D->getIdentifier() ? D->getName() : StringRef();
}

namespace {
/// Finds the in-place operations of one body (lambda bodies excluded: they
/// are functions of their own), with the statement each one makes up.
class InplaceFinder {
public:
  explicit InplaceFinder(
      llvm::function_ref<void(const Expr *, const Stmt *)> Fn)
      : Fn(Fn) {}

  /// A statement and the statement it makes up (or null).
  using Item = std::pair<const Stmt *, const Stmt *>;

  /// Visits \p Root and everything below it in the order of a recursive walk,
  /// each statement with the statement it makes up (or null), keeping its own
  /// stack so any depth of nesting is safe.
  void walk(const Stmt *Root, const Stmt *RootStatement) {
    llvm::SmallVector<Item, 32> Work{{Root, RootStatement}};
    llvm::SmallVector<Item, 8> Next; // the children of one statement, in order
    while (!Work.empty()) {
      auto [S, Statement] = Work.pop_back_val();
      if (!S)
        continue;
      Next.clear();
      visit(S, Statement, Next);
      Work.append(Next.rbegin(), Next.rend());
    }
  }

private:
  void visit(const Stmt *S, const Stmt *Statement,
             llvm::SmallVectorImpl<Item> &Next) {
    if (const auto *L = dyn_cast<LambdaExpr>(S)) {
      for (const Expr *Init : L->capture_inits())
        Next.push_back({Init, nullptr});
      return;
    }
    if (const auto *E = dyn_cast<Expr>(S)) {
      const Expr *Whole =
          Statement && isa<Expr>(Statement)
              ? cast<Expr>(Statement)->IgnoreImplicit()->IgnoreParens()
              : nullptr;
      if (Whole != E && Whole && isWrapper(E)) {
        // ExprWithCleanups and friends around the statement's expression.
        for (const Stmt *Child : S->children())
          Next.push_back({Child, Statement});
        return;
      }
      Fn(E, Whole == E ? Statement : nullptr);
    }
    if (const auto *CS = dyn_cast<CompoundStmt>(S)) {
      for (const Stmt *Child : CS->body())
        Next.push_back({Child, Child});
      return;
    }
    if (const auto *If = dyn_cast<IfStmt>(S)) {
      Next.push_back({If->getInit(), If->getInit()});
      Next.push_back({If->getConditionVariableDeclStmt(), nullptr});
      Next.push_back({If->getCond(), nullptr});
      Next.push_back({If->getThen(), If->getThen()});
      Next.push_back({If->getElse(), If->getElse()});
      return;
    }
    if (const auto *Sub = bodyOf(S)) {
      for (const Stmt *Child : S->children())
        Next.push_back({Child, Child == Sub ? Sub : nullptr});
      return;
    }
    for (const Stmt *Child : S->children())
      Next.push_back({Child, nullptr});
  }

  static bool isWrapper(const Expr *E) {
    return isa<ExprWithCleanups>(E) || isa<ImplicitCastExpr>(E) ||
           isa<ParenExpr>(E) || isa<MaterializeTemporaryExpr>(E) ||
           isa<CXXBindTemporaryExpr>(E) || isa<FullExpr>(E);
  }

  static const Stmt *bodyOf(const Stmt *S) {
    if (const auto *F = dyn_cast<ForStmt>(S))
      return F->getBody();
    if (const auto *R = dyn_cast<CXXForRangeStmt>(S))
      return R->getBody();
    if (const auto *W = dyn_cast<WhileStmt>(S))
      return W->getBody();
    if (const auto *D = dyn_cast<DoStmt>(S))
      return D->getBody();
    if (const auto *C = dyn_cast<SwitchCase>(S))
      return C->getSubStmt();
    if (const auto *L = dyn_cast<LabelStmt>(S))
      return L->getSubStmt();
    return nullptr;
  }

  llvm::function_ref<void(const Expr *, const Stmt *)> Fn;
};
} // namespace

void InplaceOnRequiresGradCheck::checkFunction(const FunctionDecl *FD,
                                               GradModeAnalysis &GradMode,
                                               RequiresGradAnalysis &Grad) {
  auto Visit = [&](const Expr *E, const Stmt *Statement) {
    std::optional<InplaceOp> Op = matchInplace(E);
    if (!Op)
      return;
    // In a chain `w.sub_(a).div_(b)` the first operation is the one reported.
    if (matchInplace(Op->Target->IgnoreParenImpCasts()))
      return;
    std::optional<GradUse> Use =
        Grad.requiresGradWhileRecording(Op->Target, E, FD);
    if (!Use)
      return;
    if (!Reported.insert(Op->Loc.getRawEncoding()).second)
      return;
    report(*Op, Statement, *Use, FD, GradMode);
  };
  InplaceFinder Finder(Visit);
  forEachBodyPart(FD, [&](const Stmt *S) { Finder.walk(S, nullptr); });
}

//===----------------------------------------------------------------------===//
// Diagnostics.

/// The source text of \p E when it is short and written plainly.
static std::string shortText(const Expr *E, const SourceManager &SM,
                             const LangOptions &LO) {
  // A macro argument maps back to the text written at the call of the macro.
  CharSourceRange R = Lexer::makeFileCharRange(
      CharSourceRange::getTokenRange(E->getSourceRange()), SM, LO);
  if (R.isInvalid())
    return "";
  StringRef Text = Lexer::getSourceText(R, SM, LO);
  if (Text.empty() || Text.size() > 48 || Text.contains('\n'))
    return "";
  return Text.str();
}

static bool isParameterSource(GradSourceKind K) {
  return K == GradSourceKind::ModuleParameters ||
         K == GradSourceKind::RegisteredParameter ||
         K == GradSourceKind::LayerParameter ||
         K == GradSourceKind::OptimizerParameters ||
         K == GradSourceKind::ParameterFunction;
}

/// How to spell `torch::NoGradGuard` in this TU, or empty when no spelling is
/// declared.
static std::string guardSpelling(ASTContext &Ctx) {
  for (const char *NSName : {"torch", "at", "c10"}) {
    for (const NamedDecl *ND :
         Ctx.getTranslationUnitDecl()->lookup(&Ctx.Idents.get(NSName))) {
      const auto *NS = dyn_cast<NamespaceDecl>(ND);
      if (!NS)
        continue;
      if (!NS->lookup(&Ctx.Idents.get("NoGradGuard")).empty())
        return std::string(NSName) + "::NoGradGuard";
    }
  }
  return "";
}

static bool mentionsName(const Stmt *S, StringRef Name) {
  return !forEachDescendant(S, [&](const Stmt *X) {
    if (const auto *DRE = dyn_cast<DeclRefExpr>(X))
      if (nameOf(DRE->getDecl()) == Name)
        return Descend::Stop;
    return Descend::Children;
  });
}

void InplaceOnRequiresGradCheck::report(const InplaceOp &Op,
                                        const Stmt *Statement,
                                        const GradUse &Use,
                                        const FunctionDecl *FD,
                                        GradModeAnalysis &GradMode) {
  const SourceManager &SM = Ctx->getSourceManager();
  const LangOptions &LO = Ctx->getLangOpts();
  bool Param = isParameterSource(Use.Source.Kind);
  const Expr *Named = Op.Target->IgnoreImplicit()->IgnoreParens();
  if (const auto *Arrow = dyn_cast<CXXOperatorCallExpr>(Named))
    if (Arrow->getOperator() == OO_Arrow && Arrow->getNumArgs() == 1)
      Named = Arrow->getArg(0); // `it` in `it->mul_(f)`
  std::string Text = shortText(Named, SM, LO);
  std::string Kind =
      Use.View ? (Param ? "a view of a module parameter"
                        : "a view of a tensor that requires grad")
               : (Param ? "a module parameter" : "a tensor that requires grad");
  std::string What = Text.empty() ? Kind : "'" + Text + "', " + Kind + ",";
  std::string Advice;
  if (Statement)
    Advice = "do the update inside a 'torch::NoGradGuard' scope";
  else if (!Op.OutOfPlace.empty())
    Advice = "do it inside a 'torch::NoGradGuard' scope if it should change "
             "the stored "
             "values, or use the out-of-place '" +
             Op.OutOfPlace + "' if it is part of the computation";
  else
    Advice = "do it inside a 'torch::NoGradGuard' scope";

  {
    auto D = diag(Op.Loc, "in-place '%0' on %1 while autograd is recording: "
                          "autograd cannot record an "
                          "in-place change to %2 that requires grad, so this "
                          "throws at run time; %3")
             << Op.Spelling << What
             << (Use.View ? "a view of a leaf tensor" : "a leaf tensor")
             << Advice;
    // Wrapping the statement is certainly right: its value is discarded, so it
    // is meant to change the stored values, which only works without autograd.
    std::string Guard = guardSpelling(*Ctx);
    const Stmt *S = Statement;
    if (S && !Guard.empty() && !S->getBeginLoc().isMacroID() &&
        !S->getEndLoc().isMacroID() && !mentionsName(S, "no_grad")) {
      SourceLocation AfterSemi = Lexer::findLocationAfterToken(
          S->getEndLoc(), tok::semi, SM, LO, false);
      if (AfterSemi.isValid())
        D << FixItHint::CreateInsertion(S->getBeginLoc(),
                                        "{ " + Guard + " no_grad; ")
          << FixItHint::CreateInsertion(AfterSemi, " }");
    }
  }

  for (const CallSite *C : Use.Via)
    diag(C->Site->getExprLoc(), "the tensor is passed to %0 here",
         DiagnosticIDs::Note)
        << describeFunction(C->Callee);

  // Where the tensor started requiring grad.
  const Expr *Where = Use.Source.Where;
  bool SameAsTarget = Where && Where->getExprLoc() == Op.Target->getExprLoc();
  if (Where && !SameAsTarget) {
    const auto *CE = dyn_cast<CallExpr>(Where);
    std::string Callee = CE && CE->getDirectCallee()
                             ? "'" + nameOf(CE->getDirectCallee()).str() + "()'"
                             : "";
    switch (Use.Source.Kind) {
    case GradSourceKind::ModuleParameters:
      diag(Where->getExprLoc(),
           "%0 returns the module's parameters, which require grad",
           DiagnosticIDs::Note)
          << Callee;
      break;
    case GradSourceKind::RegisteredParameter:
      diag(Where->getExprLoc(),
           "'register_parameter()' makes it a parameter that requires grad",
           DiagnosticIDs::Note);
      break;
    case GradSourceKind::LayerParameter:
      diag(Where->getExprLoc(),
           "a layer's weight and bias are parameters that require grad",
           DiagnosticIDs::Note);
      break;
    case GradSourceKind::OptimizerParameters:
      diag(
          Where->getExprLoc(),
          "%0 returns the parameters the optimizer updates, which require grad",
          DiagnosticIDs::Note)
          << Callee;
      break;
    case GradSourceKind::ParameterFunction:
      diag(Where->getExprLoc(),
           "%0 returns parameters (ParameterFunctions option)",
           DiagnosticIDs::Note)
          << Callee;
      break;
    case GradSourceKind::RequiresGradOption:
      diag(Where->getExprLoc(),
           "the tensor is created with 'requires_grad' set here",
           DiagnosticIDs::Note);
      break;
    case GradSourceKind::SetRequiresGrad:
      diag(Where->getExprLoc(), "%0 makes the tensor require grad here",
           DiagnosticIDs::Note)
          << Callee;
      break;
    }
  }
  // Why autograd records there.
  if (Use.Region) {
    const Stmt *Origin = Use.Region->Origin;
    if (Use.Region->Switch == GradSwitch::Enable)
      diag(Origin->getBeginLoc(), "autograd is switched back on here",
           DiagnosticIDs::Note);
    else
      diag(Origin->getBeginLoc(),
           "this grad-mode switch takes a value that is not a literal, so "
           "autograd may "
           "still record",
           DiagnosticIDs::Note);
    return;
  }
  // A no-grad guard earlier in the function whose block has already ended.
  const GradRegion *Ended = nullptr;
  for (const GradRegion &R : GradMode.regions(FD))
    if (R.Switch == GradSwitch::Disable && R.Guard &&
        SM.isBeforeInTranslationUnit(R.Origin->getBeginLoc(),
                                     Op.Call->getBeginLoc()))
      Ended = &R;
  if (Ended && !GradMode.regionAt(FD, Op.Call))
    diag(Ended->Guard->getLocation(),
         "the no-grad guard declared here ends with its block, before this "
         "statement",
         DiagnosticIDs::Note);
  if (Use.EnteredFrom)
    diag(Use.EnteredFrom->Site->getExprLoc(),
         "%0 runs with autograd recording when called here",
         DiagnosticIDs::Note)
        << describeFunction(Use.EnteredFrom->Callee);
}

} // namespace torch_tidy
