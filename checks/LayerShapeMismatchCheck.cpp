//===--- LayerShapeMismatchCheck.cpp - layers that do not fit -------------===//
//
// Rule: a layer applied to the output of another must take what that layer
// gives: a Linear's in_features is the previous Linear's out_features, a
// Conv's in_channels the previous Conv's out_channels, a BatchNorm's or
// LayerNorm's size the size before it, a view's last size the next Linear's
// in_features. Only compile-time constants are compared; the Shapes room
// knows the layers, their order and what keeps a shape; this says it.
//
//===----------------------------------------------------------------------===//
#include "LayerShapeMismatchCheck.h"

#include "torch-tidy/Anchor.h"
#include "torch-tidy/Compat.h"
#include "torch-tidy/Options.h"
#include "torch-tidy/Types.h"
#include "torch-tidy/WholeProgram.h"

#include "clang/AST/ASTContext.h"

using namespace clang;
using namespace clang::ast_matchers;

namespace torch_tidy {

LayerShapeMismatchCheck::LayerShapeMismatchCheck(
    StringRef Name, tidy::ClangTidyContext *Context)
    : ClangTidyCheck(Name, Context),
      RawShapePreserving(
          OptionReader(Options, Name, Context).getNameList("ShapePreserving")) {
  Config.ExtraPreserving = parseList(RawShapePreserving);
  Config.Program = programSummary(Context);
}

void LayerShapeMismatchCheck::storeOptions(
    tidy::ClangTidyOptions::OptionMap &Opts) {
  Options.store(Opts, "ShapePreserving", RawShapePreserving);
}

void LayerShapeMismatchCheck::onStartOfTranslationUnit() {
  Shapes.reset();
  ShapesCtx = nullptr;
  Reported.clear();
}

void LayerShapeMismatchCheck::registerMatchers(MatchFinder *Finder) {
  registerAnchor(*Finder, *this);
}

void LayerShapeMismatchCheck::check(const MatchFinder::MatchResult &Result) {
  if (handOverUserCode(*this, Result,
                       {{UserCode::Functions, "fn"},
                        {UserCode::ClassesButLambdas, "class"}}))
    return;
  ASTContext &Ctx = *Result.Context;
  if (!Shapes || ShapesCtx != &Ctx) {
    Shapes = std::make_unique<ShapeAnalysis>(Config, Ctx);
    ShapesCtx = &Ctx;
  }
  // Templates are judged per instantiation, where the sizes are known.
  if (const auto *FD = Result.Nodes.getNodeAs<FunctionDecl>("fn")) {
    if (FD->isDependentContext() || FD->isInvalidDecl())
      return;
    for (const ShapeMismatch &M : Shapes->sequentialMismatches(FD))
      report(M, Ctx);
    return;
  }
  const auto *RD = Result.Nodes.getNodeAs<CXXRecordDecl>("class");
  if (!RD || RD->isDependentContext() || RD->isInvalidDecl())
    return;
  for (const ShapeMismatch &M : Shapes->memberInitMismatches(RD))
    report(M, Ctx);
  if (!isModuleClass(RD, Config.Types))
    return;
  for (const ShapeMismatch &M : Shapes->forwardMismatches(RD))
    report(M, Ctx);
}

void LayerShapeMismatchCheck::report(const ShapeMismatch &M, ASTContext &Ctx) {
  const SourceManager &SM = Ctx.getSourceManager();
  const auto *Call = dyn_cast<CallExpr>(M.Where);
  SourceLocation Loc = Call ? compat::beginLoc(Call) : M.Where->getBeginLoc();
  // Code written inside a LibTorch macro is LibTorch's.
  if (Loc.isInvalid() || isLibraryCode(SM.getSpellingLoc(Loc), SM))
    return;
  if (!Reported.insert(SM.getExpansionLoc(Loc).getRawEncoding()).second)
    return;
  const char *What = M.Channels ? "channels" : "features";
  diag(Loc, "%0 takes %1 input %2 but %3 before it gives %4; the forward "
            "pass throws at the first batch; make the two sizes agree")
      << M.LayerName << M.Expected << What << M.Source.Name << M.Given;
  if (M.Source.Where) {
    SourceLocation SLoc = sourceLocation(M.Source);
    if (SLoc.isValid())
      diag(SLoc, "%0 gives %1 %2 here", DiagnosticIDs::Note)
          << M.Source.Name << M.Given << What;
  }
  if (M.Layer.Construction && M.Layer.Construction != M.Where) {
    SourceLocation CLoc = M.Layer.Construction->getBeginLoc();
    if (CLoc.isValid())
      diag(CLoc, "%0 is built with %1 input %2 here", DiagnosticIDs::Note)
          << M.LayerName << M.Expected << What;
  } else if (M.Layer.Remote) {
    // Built by a constructor of another file (whole-program mode).
    SourceLocation CLoc = remoteLocation(SM, *M.Layer.Remote);
    if (CLoc.isValid())
      diag(CLoc, "%0 is built with %1 input %2 here", DiagnosticIDs::Note)
          << M.LayerName << M.Expected << What;
    else
      diag(Loc, "%0 is built with %1 input %2 at %3", DiagnosticIDs::Note)
          << M.LayerName << M.Expected << What
          << describeRemoteSite(*M.Layer.Remote);
  }
}

} // namespace torch_tidy
