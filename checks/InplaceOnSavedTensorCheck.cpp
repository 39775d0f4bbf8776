//===--- InplaceOnSavedTensorCheck.cpp - torch-inplace-on-saved-tensor ----===//
//
// Rule: a tensor that an operation recorded by autograd saved for its
// backward pass (the output of sigmoid, tanh, exp, softmax, relu; an operand
// of mul, div, matmul, mm, pow whose other operand requires grad) must not be
// changed in place before that backward pass; LibTorch throws "one of the
// variables needed for gradient computation has been modified by an inplace
// operation" at backward(), after the whole forward pass has run.
//
// What is saved, and where it is changed: SavedTensors.h, on GradMode.h
// (autograd records at the saving operation), RequiresGrad.h and Graphs.h
// (its input is part of the graph). Reported when the graph may still be
// wanted (Graphs.h's mayBeWanted); a leaf that requires grad is
// torch-inplace-on-requires-grad's.
//
//===----------------------------------------------------------------------===//
#include "InplaceOnSavedTensorCheck.h"

#include "torch-tidy/Anchor.h"
#include "torch-tidy/Options.h"
#include "torch-tidy/Types.h"
#include "torch-tidy/WholeProgram.h"

#include "clang/AST/ASTContext.h"
#include "clang/Lex/Lexer.h"

using namespace clang;
using namespace clang::ast_matchers;

namespace torch_tidy {

InplaceOnSavedTensorCheck::InplaceOnSavedTensorCheck(
    StringRef Name, tidy::ClangTidyContext *Context)
    : ClangTidyCheck(Name, Context),
      RawNoGradGuardClasses(OptionReader(Options, Name, Context)
                                .getNameList("NoGradGuardClasses")),
      RawParameterFunctions(OptionReader(Options, Name, Context)
                                .getNameList("ParameterFunctions")) {
  GradConfig.NoGradGuardClasses = parseList(RawNoGradGuardClasses);
  GradConfig.Program = programSummary(Context);
  ParamConfig.ParameterFunctions = parseList(RawParameterFunctions);
  ParamConfig.MaxCallDepth = OptionReader(Options, Name, Context)
                                 .getCount("MaxCallDepth", DefaultMaxCallDepth);
  GraphsConfig.MaxCallDepth = ParamConfig.MaxCallDepth;
  GraphsConfig.Program = GradConfig.Program;
}

void InplaceOnSavedTensorCheck::storeOptions(
    tidy::ClangTidyOptions::OptionMap &Opts) {
  Options.store(Opts, "NoGradGuardClasses", RawNoGradGuardClasses);
  Options.store(Opts, "ParameterFunctions", RawParameterFunctions);
  Options.store(Opts, "MaxCallDepth", ParamConfig.MaxCallDepth);
}

void InplaceOnSavedTensorCheck::onStartOfTranslationUnit() {
  Index = nullptr;
  Ctx = nullptr;
  Reported.clear();
}

void InplaceOnSavedTensorCheck::registerMatchers(MatchFinder *Finder) {
  registerAnchor(*Finder, *this);
}

void InplaceOnSavedTensorCheck::check(const MatchFinder::MatchResult &Result) {
  indexUserFunctions(Result, Index, Ctx);
}

void InplaceOnSavedTensorCheck::onEndOfTranslationUnit() {
  if (!Index || !Ctx)
    return;
  GradModeAnalysis GradMode(GradConfig, *Index);
  RequiresGradAnalysis Grad(ParamConfig, *Index, GradMode);
  GraphAnalysis Graphs(GraphsConfig, Ctx->getSourceManager(), GradMode,
                       [&Grad](const Expr *E, const FunctionDecl *F) {
                         return Grad.requiresGrad(E, F).has_value();
                       });
  SavedTensorAnalysis Saved(GradMode, Graphs);
  for (const FunctionDecl *FD : Index->functions()) {
    for (const SavedInplace &S : Saved.inplaceOnSaved(FD)) {
      // A leaf that requires grad: torch-inplace-on-requires-grad's case.
      if (S.Var && Grad.requiresGrad(S.Op.Target, FD))
        continue;
      // The graph holding the saved tensor must still be wanted: the changed
      // tensor, or what the in-place call's value is written to, feeds a
      // backward pass, is returned or is handed on.
      bool Wanted = S.Returned || (S.Var && Graphs.mayBeWanted(S.Var, {FD})) ||
                    (S.Dest && Graphs.mayBeWanted(S.Dest, {FD}));
      if (!Wanted)
        continue;
      if (!Reported.insert(S.Op.Loc.getRawEncoding()).second)
        continue;
      report(S);
    }
  }
  Index = nullptr;
}

/// The source text of \p E when it is short and written plainly.
static std::string shortText(const Expr *E, const SourceManager &SM,
                             const LangOptions &LO) {
  CharSourceRange R = Lexer::makeFileCharRange(
      CharSourceRange::getTokenRange(E->getSourceRange()), SM, LO);
  if (R.isInvalid())
    return "";
  StringRef Text = Lexer::getSourceText(R, SM, LO);
  if (Text.empty() || Text.size() > 48 || Text.contains('\n'))
    return "";
  return Text.str();
}

void InplaceOnSavedTensorCheck::report(const SavedInplace &S) {
  const SourceManager &SM = Ctx->getSourceManager();
  const LangOptions &LO = Ctx->getLangOpts();
  std::string What;
  if (S.Var) {
    What = "'" + S.Var->getName().str() + "'";
    if (S.Save.Output)
      What += ", the output of '" + S.Save.Name +
              "', which autograd saved for its backward pass";
    else if (S.Save.OwnGradient)
      What += ", which '" + S.Save.Name + "' saved to compute its gradient";
    else
      What += ", which '" + S.Save.Name +
              "' saved for the gradient of its other operand";
  } else {
    What = "the output of '" + S.Save.Name +
           "', which autograd saved for its backward pass";
  }
  std::string Target =
      S.Var ? S.Var->getName().str()
            : shortText(S.Op.Target->IgnoreParenImpCasts(), SM, LO);
  std::string Clone =
      Target.empty() ? "a 'clone()' of it" : "'" + Target + ".clone()'";
  // A method or function named without the `_` must exist (there is no
  // out-of-place 'zero').
  bool HasOutOfPlace = !S.Op.OutOfPlace.empty() &&
                       (S.Op.NameLoc.isInvalid() || hasOutOfPlaceForm(S.Op));
  std::string Advice = !HasOutOfPlace
                           ? "change " + Clone + " instead"
                           : "use the out-of-place '" + S.Op.OutOfPlace +
                                 "', or change " + Clone + " instead";
  {
    auto D = diag(S.Op.Loc,
                  "in-place '%0' on %1: backward() will throw 'one of the "
                  "variables needed for gradient computation has been "
                  "modified by an inplace operation' after the forward pass "
                  "has run; %2")
             << S.Op.Spelling << What << Advice;
    // The value is used and nothing else reads the tensor afterwards: the
    // out-of-place form computes the same value without changing it.
    bool Certain = S.WholeValue && (S.Dest || S.Returned) &&
                   (S.Var ? S.OnlyUse : true) && HasOutOfPlace &&
                   S.Op.NameLoc.isValid() && !S.Op.NameLoc.isMacroID();
    if (Certain)
      D << FixItHint::CreateReplacement(
          CharSourceRange::getTokenRange(S.Op.NameLoc, S.Op.NameLoc),
          StringRef(S.Op.Spelling).drop_back());
  }
  // The name of a function called (`softmax` in `torch::softmax(h, 1)`), the
  // method's name, the operator.
  SourceLocation SaveLoc = S.Save.Call->getExprLoc();
  if (!isa<CXXOperatorCallExpr>(S.Save.Call))
    if (const auto *Callee = dyn_cast<DeclRefExpr>(
            S.Save.Call->getCallee()->IgnoreParenImpCasts()))
      SaveLoc = Callee->getLocation();
  if (S.Save.Output)
    diag(SaveLoc, "'%0' saves its output for the backward pass here",
         DiagnosticIDs::Note)
        << S.Save.Name;
  else
    diag(SaveLoc, "'%0' saves %1 here to compute %2", DiagnosticIDs::Note)
        << S.Save.Name << ("'" + S.Var->getName().str() + "'")
        << (S.Save.OwnGradient ? "its own gradient"
                               : "the gradient of its other operand");
}

} // namespace torch_tidy
