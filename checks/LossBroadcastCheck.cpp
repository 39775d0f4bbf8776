//===--- LossBroadcastCheck.cpp - [N, 1] against [N] ----------------------===//
//
// Rule: a regression loss compares its prediction and its target element by
// element, so they must have one shape. A prediction of shape [N, 1] (a model
// ending in `Linear(k, 1)`) against a target of shape [N] (a 1-D tensor), or
// the reverse, broadcasts to [N, N]: every prediction is compared with every
// target, and the minimum of that loss is the mean target for every sample.
// Only shapes the Shapes room knows are compared; an unknown rank is silence.
//
//===----------------------------------------------------------------------===//
#include "LossBroadcastCheck.h"

#include "torch-tidy/Anchor.h"
#include "torch-tidy/Compat.h"
#include "torch-tidy/EvaluationOrder.h"
#include "torch-tidy/Options.h"
#include "torch-tidy/Types.h"
#include "torch-tidy/WholeProgram.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/ExprCXX.h"
#include "clang/Lex/Lexer.h"

using namespace clang;
using namespace clang::ast_matchers;

namespace torch_tidy {

namespace {

/// `[N, 1]`: rank 2, last dimension 1, the first not known to be 1.
bool isColumn(const TensorShape &S) {
  return S.Rank == 2 && S.Dims[1] == 1 && S.Dims[0] != 1;
}

/// `[N]`: rank 1, not known to be 1.
bool isVector(const TensorShape &S) { return S.Rank == 1 && S.Dims[0] != 1; }

std::string dim(int64_t D) { return D == UnknownDim ? "N" : std::to_string(D); }

std::string describe(const TensorShape &S) {
  std::string Out = "[";
  for (unsigned I = 0; I < S.Dims.size(); ++I)
    Out += (I ? ", " : "") + dim(S.Dims[I]);
  return Out + "]";
}

/// Whether \p E can take `.squeeze(1)` as written, without parentheses.
bool isPostfix(const Expr *E) {
  E = E->IgnoreImplicit();
  if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(E))
    return OC->getOperator() == OO_Call || OC->getOperator() == OO_Subscript ||
           OC->getOperator() == OO_Arrow;
  return isa<DeclRefExpr, CallExpr, MemberExpr, ParenExpr, ArraySubscriptExpr,
             CXXTemporaryObjectExpr>(E);
}

} // namespace

LossBroadcastCheck::LossBroadcastCheck(StringRef Name,
                                       tidy::ClangTidyContext *Context)
    : ClangTidyCheck(Name, Context),
      RawShapePreserving(
          OptionReader(Options, Name, Context).getNameList("ShapePreserving")),
      RawRegressionLosses(OptionReader(Options, Name, Context)
                              .getNameList("RegressionLosses")) {
  Config.ExtraPreserving = parseList(RawShapePreserving);
  Config.MaxCallDepth = OptionReader(Options, Name, Context)
                            .getCount("MaxCallDepth", DefaultMaxCallDepth);
  Config.Program = programSummary(Context);
  RegressionLosses = parseList(RawRegressionLosses);
}

void LossBroadcastCheck::storeOptions(tidy::ClangTidyOptions::OptionMap &Opts) {
  Options.store(Opts, "RegressionLosses", RawRegressionLosses);
  Options.store(Opts, "ShapePreserving", RawShapePreserving);
  Options.store(Opts, "MaxCallDepth", Config.MaxCallDepth);
}

void LossBroadcastCheck::onStartOfTranslationUnit() {
  Shapes.reset();
  Losses.reset();
  ShapesCtx = nullptr;
  Reported.clear();
}

void LossBroadcastCheck::registerMatchers(MatchFinder *Finder) {
  registerAnchor(*Finder, *this);
}

void LossBroadcastCheck::check(const MatchFinder::MatchResult &Result) {
  const FunctionDecl *FD = userFunction(*this, Result);
  if (!FD || !FD->getBody())
    return;
  ASTContext &Ctx = *Result.Context;
  if (!Shapes || ShapesCtx != &Ctx) {
    Shapes = std::make_unique<ShapeAnalysis>(Config, Ctx);
    Losses.emplace(LossConfig, *Result.SourceManager);
    ShapesCtx = &Ctx;
  }
  // A fix-it in a template instantiation would change every instantiation.
  InTemplate = FD->getTemplateInstantiationPattern() != nullptr;
  const SourceManager &SM = *Result.SourceManager;
  const LangOptions &LO = Ctx.getLangOpts();
  for (const CallExpr *CE : callsIn(FD))
    checkCall(CE, FD, SM, LO);
}

void LossBroadcastCheck::checkCall(const CallExpr *Call, const FunctionDecl *In,
                                   const SourceManager &SM,
                                   const LangOptions &LO) {
  const Expr *Prediction = nullptr, *Target = nullptr;
  std::string Loss;
  LossCall L = builtinLossCall(Call, *Losses);
  if (isRegressionLoss(L.Kind)) {
    Prediction = L.Input;
    Target = L.Target;
    Loss = describeLoss(L);
  } else if (!RegressionLosses.empty() && !L) {
    // An in-house regression loss: a module class or a function.
    const Expr *Obj = nullptr;
    unsigned First = 0;
    if (const CXXRecordDecl *Impl = Losses->moduleCall(Call, &Obj, &First)) {
      const CXXRecordDecl *Holder = writtenObjectClass(Obj);
      for (const std::string &Name : RegressionLosses)
        if (isSameOrDerivedFrom(Impl, Name) ||
            (Holder && isSameOrDerivedFrom(Holder, Name))) {
          Loss = "'" + Impl->getQualifiedNameAsString() + "'";
          break;
        }
    } else if (matchesFunctionList(Call->getDirectCallee(), RegressionLosses) &&
               !isa<CXXMemberCallExpr>(Call)) {
      First = isa<CXXOperatorCallExpr>(Call) ? 1 : 0;
      Loss = "'" + Call->getDirectCallee()->getQualifiedNameAsString() + "'";
    }
    if (!Loss.empty() && Call->getNumArgs() >= First + 2) {
      Prediction = Call->getArg(First);
      Target = Call->getArg(First + 1);
    }
  }
  if (!Prediction || !Target || !isTensorType(Prediction->getType()) ||
      !isTensorType(Target->getType()))
    return;

  TensorShape P = Shapes->valueShape(Prediction, In);
  if (P.Rank != 1 && P.Rank != 2)
    return;
  TensorShape T = Shapes->valueShape(Target, In);
  bool ColumnPrediction = isColumn(P) && isVector(T);
  bool ColumnTarget = isVector(P) && isColumn(T);
  if (!ColumnPrediction && !ColumnTarget)
    return;
  SourceLocation At = compat::beginLoc(Call);
  if (At.isInvalid() || isLibraryCode(SM.getSpellingLoc(At), SM) ||
      !Reported.insert(SM.getExpansionLoc(At).getRawEncoding()).second)
    return;

  const TensorShape &Column = ColumnPrediction ? P : T;
  const TensorShape &Vector = ColumnPrediction ? T : P;
  std::string Pairs =
      "[" + dim(Column.Dims[0]) + ", " + dim(Vector.Dims[0]) + "]";
  {
    auto D = diag(At, "%0 is given a prediction of shape %1 and a target of "
                      "shape %2: broadcasting compares every prediction with "
                      "every target (%3), so the model learns to predict the "
                      "mean target; %4")
             << Loss << describe(P) << describe(T) << Pairs
             << (ColumnPrediction ? "call '.squeeze(1)' on the prediction"
                                  : "call '.unsqueeze(1)' on the prediction or "
                                    "'.squeeze(1)' on the target");
    // The fix-it gives the prediction the target's shape. Certain when the
    // prediction is written here, outside macros and template instantiations.
    std::optional<std::string> Text =
        InTemplate ? std::nullopt : writtenText(Prediction, SM, LO);
    if (Text) {
      SourceRange R = Prediction->getSourceRange();
      std::string Reshape = ColumnPrediction ? ".squeeze(1)" : ".unsqueeze(1)";
      if (isPostfix(Prediction))
        D << FixItHint::CreateInsertion(
            Lexer::getLocForEndOfToken(R.getEnd(), 0, SM, LO), Reshape);
      else
        D << FixItHint::CreateReplacement(CharSourceRange::getTokenRange(R),
                                          "(" + *Text + ")" + Reshape);
    }
  }
  // Notes: where the size-1 dimension and the vector's shape come from.
  auto Note = [&](const SizeSource &From, bool IsPrediction, bool IsColumn,
                  const TensorShape &S) {
    if (From.Name.empty())
      return;
    SourceLocation Loc = sourceLocation(From);
    if (From.Remote) {
      // In another file: there when it can be read, else at the loss here,
      // naming the place.
      Loc = remoteLocation(SM, *From.Remote);
      if (Loc.isInvalid()) {
        diag(At,
             "the %select{target|prediction}0's %select{shape %1|last "
             "dimension of size 1}2 comes from %3 (%4), in a function "
             "called here",
             DiagnosticIDs::Note)
            << IsPrediction << describe(S) << IsColumn << From.Name
            << describeRemoteSite(*From.Remote);
        return;
      }
    } else if (Loc.isInvalid() || isLibraryCode(SM.getSpellingLoc(Loc), SM)) {
      return;
    }
    if (IsColumn)
      diag(Loc,
           "the %select{target|prediction}0's last dimension of size 1 "
           "comes from %1 here",
           DiagnosticIDs::Note)
          << IsPrediction << From.Name;
    else
      diag(Loc, "the %select{target|prediction}0's shape %1 comes from %2 here",
           DiagnosticIDs::Note)
          << IsPrediction << describe(S) << From.Name;
  };
  Note(P.LastFrom, true, ColumnPrediction, P);
  Note(T.LastFrom, false, ColumnTarget, T);
}

} // namespace torch_tidy
