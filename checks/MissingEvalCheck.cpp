//===--- MissingEvalCheck.cpp - torch-missing-eval ------------------------===//
//
// Rule: a module whose behaviour depends on train()/eval() (dropout, batch
// norm, or contents that cannot be seen) must be in eval mode on every path
// into an evaluation pass, and back in training mode when a training pass
// follows the evaluation of an earlier epoch. The modes come from the
// ModelMode room, which follows helpers and callers to MaxCallDepth; the
// check only decides which of them is a bug and says so. Decided once the
// whole TU is indexed (onEndOfTranslationUnit), since a function's callers
// decide the mode it is entered in.
//
//===----------------------------------------------------------------------===//
#include "MissingEvalCheck.h"

#include "torch-tidy/Anchor.h"
#include "torch-tidy/Compat.h"
#include "torch-tidy/Options.h"
#include "torch-tidy/WholeProgram.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Lex/Lexer.h"

using namespace clang;
using namespace clang::ast_matchers;

namespace torch_tidy {

MissingEvalCheck::MissingEvalCheck(StringRef Name,
                                   tidy::ClangTidyContext *Context)
    : ClangTidyCheck(Name, Context),
      RawModeDependent(OptionReader(Options, Name, Context)
                           .getNameList("ModeDependentModuleClasses")),
      RawModeIndependent(OptionReader(Options, Name, Context)
                             .getNameList("ModeIndependentModuleClasses")),
      RawNoGradGuardClasses(OptionReader(Options, Name, Context)
                                .getNameList("NoGradGuardClasses")) {
  Config.ModeDependentClasses = parseList(RawModeDependent);
  Config.ModeIndependentClasses = parseList(RawModeIndependent);
  Config.Grad.NoGradGuardClasses = parseList(RawNoGradGuardClasses);
  Config.Grad.Program = programSummary(Context);
  Config.Loop.MaxCallDepth = OptionReader(Options, Name, Context)
                                 .getCount("MaxCallDepth", DefaultMaxCallDepth);
  Config.Modules.MaxCallDepth = Config.Loop.MaxCallDepth;
  Config.Loop.Program = programSummary(Context);
  Config.Modules.Program = Config.Loop.Program;
}

void MissingEvalCheck::storeOptions(tidy::ClangTidyOptions::OptionMap &Opts) {
  Options.store(Opts, "ModeDependentModuleClasses", RawModeDependent);
  Options.store(Opts, "ModeIndependentModuleClasses", RawModeIndependent);
  Options.store(Opts, "NoGradGuardClasses", RawNoGradGuardClasses);
  Options.store(Opts, "MaxCallDepth", Config.Loop.MaxCallDepth);
}

void MissingEvalCheck::onStartOfTranslationUnit() {
  Index = nullptr;
  Ctx = nullptr;
  Reported.clear();
  ReportedPasses.clear();
}

void MissingEvalCheck::registerMatchers(MatchFinder *Finder) {
  registerAnchor(*Finder, *this);
}

void MissingEvalCheck::check(const MatchFinder::MatchResult &Result) {
  indexUserFunctions(Result, Index, Ctx);
}

void MissingEvalCheck::onEndOfTranslationUnit() {
  // "No eval() before it" is a claim of absence: not over code clang could
  // not compile, where the eval() may be the statement it dropped.
  if (!Index || !Ctx || mayHaveLostCode(*Ctx)) {
    Index = nullptr;
    return;
  }
  ModelModeAnalysis Modes(Config, *Index, *Ctx);
  for (const FunctionDecl *FD : Index->functions())
    checkFunction(FD, Modes);
  Index = nullptr;
}

/// What the module does wrong in the mode it is in.
static const char *harmInTraining(const ModeDependence &D) {
  llvm::StringRef Remote = D.Remote ? llvm::StringRef(D.Remote->Harm) : "";
  if ((!D.Unknown && D.Class && isModeOnlyModuleClass(D.Class)) ||
      Remote == "dropout")
    return "dropout keeps zeroing activations at random";
  if ((!D.Unknown && D.Class &&
       isSameOrDerivedFrom(D.Class, "torch::nn::BatchNormImplBase")) ||
      Remote == "batchnorm")
    return "batch norm normalises with each batch's own statistics and "
           "overwrites its running averages with evaluation data";
  return "its dropout and batch-norm layers behave as in training (random "
         "dropout, batch statistics, running averages updated from "
         "evaluation data)";
}

void MissingEvalCheck::noteDependence(const ModeDependence &D) {
  if (const RemoteMode *R = D.Remote) {
    // Known from the constructor's summary in another file.
    SourceLocation At = D.Member
                            ? D.Member->getLocation()
                            : remoteLocation(Ctx->getSourceManager(), R->Site);
    if (At.isInvalid())
      return;
    std::string What = R->Class.empty() ? "a module" : "a '" + R->Class + "'";
    if (D.Member)
      diag(At,
           "%0 holds %1 (built in the constructor, %2), which behaves "
           "differently in training and eval mode",
           DiagnosticIDs::Note)
          << D.Member << What << describeRemoteSite(R->Site);
    else
      diag(At,
           "the constructor builds %0, which behaves differently in "
           "training and eval mode",
           DiagnosticIDs::Note)
          << What;
    return;
  }
  if (!D.Member || !D.Class)
    return;
  if (D.Unknown)
    diag(D.Member->getLocation(),
         "%0 is a %1 whose contents are not known here; they may behave "
         "differently in training and eval mode",
         DiagnosticIDs::Note)
        << D.Member << D.Class;
  else
    diag(D.Member->getLocation(),
         "%0 is a %1, which behaves differently in training and eval mode",
         DiagnosticIDs::Note)
        << D.Member << D.Class;
}

/// How to write the module of \p P at \p Before in \p Owner: `model->` for a
/// holder or a pointer, `model.` for a module held by value or reference;
/// empty when it is not a name visible there.
static std::string moduleAccess(const ForwardPoint &P,
                                const FunctionDecl *Owner,
                                SourceLocation Before,
                                const SourceManager &SM) {
  AutogradEvent E = P.Event;
  E.Object = P.Object;
  std::string Access = spellObjectAccess(E, Owner, Before, SM);
  if (Access.empty() || Access.back() != '.')
    return Access;
  // `model.eval()` does not compile on a ModuleHolder: it is reached by `->`.
  QualType T = P.Object->getType().getNonReferenceType();
  if (const CXXRecordDecl *RD = T->getAsCXXRecordDecl())
    if (isModuleHolderClass(RD))
      Access.replace(Access.size() - 1, 1, "->");
  return Access;
}

void MissingEvalCheck::checkFunction(const FunctionDecl *FD,
                                     ModelModeAnalysis &Modes) {
  const SourceManager &SM = Ctx->getSourceManager();
  bool InTemplate = FD->getTemplateInstantiationPattern() != nullptr;
  for (const ForwardPoint &P : Modes.forwards(FD)) {
    if (!P.Object || !P.Event.Site || (P.In.Bits & ModeUnknown))
      continue;
    ModeDependence Dep = Modes.dependenceOf(P.Object, P.Event.ObjectClass, FD);
    if (!Dep.Depends)
      continue;
    PassInfo Pass = Modes.pass(P, FD);
    if (Pass.Kind == PassKind::None)
      continue;
    if (Pass.Kind == PassKind::Training &&
        !Modes.gradMode().at(FD, P.Event.Site).Records)
      continue; // a frozen network run under no_grad (a target network)
    Mode M = P.In;
    if (M.Bits & ModeEntry) {
      M.Bits &= ~ModeEntry;
      M = join(M, Modes.entryMode(FD, P.Object));
      if (M.Bits & ModeUnknown)
        continue;
    }
    SourceLocation At = compat::beginLoc(P.Event.Site);
    if (At.isInvalid() || isLibraryCode(At, SM))
      continue;
    std::string Name = describeObject(P.Object);
    const Stmt *Body = loopBody(P.Loop);
    const auto *Block = dyn_cast_or_null<CompoundStmt>(Body);
    SourceLocation Top = Block && !Block->body_empty()
                             ? Block->body_front()->getBeginLoc()
                             : SourceLocation();
    std::string Access =
        moduleAccess(P, FD, Top.isValid() ? Top : P.Loop->getBeginLoc(), SM);

    if (Pass.Kind == PassKind::Evaluation) {
      // A train() right before a pass that measures nothing is deliberate
      // (re-estimating batch-norm statistics under no_grad).
      bool Training =
          (M.Bits & ModeFresh) || ((M.Bits & ModeTrainCall) && Pass.Measures);
      if (!Training)
        continue;
      if (!Reported.insert(At.getRawEncoding()).second ||
          !ReportedPasses.insert({P.Loop, P.Object}).second)
        continue;
      diag(At, "%0 runs in training mode in this evaluation loop, which has "
               "no 'eval()' before it on every path: %1, so the %2 computed "
               "here are wrong and noisy; call '%3eval()' before the loop, "
               "and '%3train()' before training resumes")
          << Name << harmInTraining(Dep)
          << (Pass.Measures ? "loss and metrics" : "outputs") << Access;
      if (P.Event.Via)
        diag(compat::beginLoc(P.Event.Call),
             "the forward call, reached from the loop through %0",
             DiagnosticIDs::Note)
            << describeFunction(P.Event.Via);
      if (M.FromCall)
        diag(M.FromCall->getBeginLoc(),
             "%0 is called here with %1 in training mode", DiagnosticIDs::Note)
            << describeFunction(FD) << Name;
      else if ((M.Bits & ModeTrainCall) && M.TrainCall)
        diag(compat::beginLoc(M.TrainCall),
             "'train()' is called here, the last mode set on some path to "
             "the loop",
             DiagnosticIDs::Note);
      else if ((M.Bits & ModeFresh) && isa<VarDecl>(P.Object) &&
               !isLibraryCode(P.Object->getLocation(), SM))
        diag(P.Object->getLocation(),
             "%0 is built here, in training mode, and no 'eval()' reaches "
             "the loop",
             DiagnosticIDs::Note)
            << Name;
      noteDependence(Dep);
      continue;
    }

    // A training pass in the eval mode an earlier iteration left; said once
    // per loop and module.
    if (!(M.Bits & ModeEvalLoop))
      continue;
    if (!Reported.insert(At.getRawEncoding()).second ||
        !ReportedPasses.insert({P.Loop, P.Object}).second)
      continue;
    {
      auto D = diag(At, "%0 is still in eval mode from the 'eval()' of an "
                        "earlier iteration when this training loop runs it: "
                        "from the second epoch on, dropout is off and batch "
                        "norm uses its frozen running statistics, so the "
                        "model trains differently from how it was set up; "
                        "call '%1train()' before each training pass")
               << Name << Access;
      // Certain where the training loop's body is a block written here:
      // train() at its top puts the module back in training mode whatever
      // ran before.
      if (!Access.empty() && Top.isValid() && !Top.isMacroID() && !InTemplate &&
          !isLibraryCode(Top, SM)) {
        StringRef Indent = Lexer::getIndentationForLine(Top, SM);
        D << FixItHint::CreateInsertion(Top,
                                        Access + "train();\n" + Indent.str());
      }
    }
    if (M.EvalCall) {
      const FunctionDecl *Callee = M.EvalCall->getDirectCallee();
      bool Direct =
          Callee && Callee->getIdentifier() &&
          (Callee->getName() == "eval" || Callee->getName() == "train");
      if (Direct || !Callee)
        diag(compat::beginLoc(M.EvalCall),
             "'eval()' is called here, and 'train()' is not called again "
             "before the next training pass",
             DiagnosticIDs::Note);
      else
        diag(compat::beginLoc(M.EvalCall),
             "%0 calls 'eval()' here, and 'train()' is not called again "
             "before the next training pass",
             DiagnosticIDs::Note)
            << describeFunction(Callee);
    }
    if (M.FromCall)
      diag(M.FromCall->getBeginLoc(),
           "%0 is called here with %1 possibly left in eval mode",
           DiagnosticIDs::Note)
          << describeFunction(FD) << Name;
    if (P.Event.Via)
      diag(compat::beginLoc(P.Event.Call),
           "the forward call, reached from the loop through %0",
           DiagnosticIDs::Note)
          << describeFunction(P.Event.Via);
    noteDependence(Dep);
  }
}

} // namespace torch_tidy
