//===--- AliasedModuleCopyCheck.cpp - torch-aliased-module-copy -----------===//
//
// Rule: a copy of a module handle is the same module. When the code updates
// the parameters of one handle from another's (a target network's hard or
// soft update, an exponential moving average) and the two are copies of one
// handle, the update does nothing and the "separate" network trains along
// with the other; the copy must be a `clone()`.
//
// Which handles share a module, and where parameters are updated between two
// modules: ModuleAliases.h, decided once the whole TU is indexed
// (onEndOfTranslationUnit); an update made by a helper of another file is
// read from the program summary.
//
//===----------------------------------------------------------------------===//
#include "AliasedModuleCopyCheck.h"

#include "torch-tidy/Anchor.h"
#include "torch-tidy/Compat.h"
#include "torch-tidy/Options.h"
#include "torch-tidy/TrainingLoop.h"
#include "torch-tidy/Types.h"
#include "torch-tidy/WholeProgram.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/Lex/Lexer.h"

using namespace clang;
using namespace clang::ast_matchers;

namespace torch_tidy {

namespace {

/// The handle written as the copied value, where `clone()` can replace it: a
/// plain name (`policy`, `policy_`, `this->policy_`), also inside
/// `register_module(name, policy_)`.
const Expr *writtenHandle(const Expr *Value) {
  const Expr *W =
      stripExpr(Value, Strip::Temporaries | Strip::Copies |
                           Strip::HandleCopies | Strip::Conversions);
  if (const auto *MC = dyn_cast_or_null<CXXMemberCallExpr>(W)) {
    const CXXMethodDecl *MD = MC->getMethodDecl();
    if (MD && hasName(MD, "register_module") && MC->getNumArgs() == 2)
      W = stripExpr(MC->getArg(1), Strip::Temporaries | Strip::Copies |
                                       Strip::HandleCopies |
                                       Strip::Conversions);
  }
  if (!W)
    return nullptr;
  if (isa<DeclRefExpr>(W))
    return W;
  if (const auto *ME = dyn_cast<MemberExpr>(W))
    if (isa<CXXThisExpr>(ME->getBase()->IgnoreParenImpCasts()))
      return W;
  return nullptr;
}

/// The name a fix-it can spell \p RD with: a class at namespace scope, not a
/// template specialisation, not in an anonymous namespace.
std::string spellableName(const CXXRecordDecl *RD) {
  if (!RD || !RD->getIdentifier() || isa<ClassTemplateSpecializationDecl>(RD) ||
      !RD->getDeclContext()->isFileContext() || RD->isInAnonymousNamespace())
    return "";
  return RD->getQualifiedNameAsString();
}

bool inTemplateInstantiation(const FunctionDecl *FD) {
  if (!FD)
    return false;
  if (FD->isTemplateInstantiation() || FD->getTemplateInstantiationPattern())
    return true;
  if (const auto *MD = dyn_cast<CXXMethodDecl>(FD))
    return isa<ClassTemplateSpecializationDecl>(MD->getParent()) ||
           MD->getParent()->getTemplateInstantiationPattern();
  return false;
}

} // namespace

AliasedModuleCopyCheck::AliasedModuleCopyCheck(StringRef Name,
                                               tidy::ClangTidyContext *Context)
    : ClangTidyCheck(Name, Context) {
  Config.MaxCallDepth = OptionReader(Options, Name, Context)
                            .getCount("MaxCallDepth", DefaultMaxCallDepth);
  Config.Program = programSummary(Context);
}

void AliasedModuleCopyCheck::storeOptions(
    tidy::ClangTidyOptions::OptionMap &Opts) {
  Options.store(Opts, "MaxCallDepth", Config.MaxCallDepth);
}

void AliasedModuleCopyCheck::onStartOfTranslationUnit() {
  Index = nullptr;
  Ctx = nullptr;
  Reported.clear();
}

void AliasedModuleCopyCheck::registerMatchers(MatchFinder *Finder) {
  registerAnchor(*Finder, *this);
}

void AliasedModuleCopyCheck::check(const MatchFinder::MatchResult &Result) {
  indexUserFunctions(Result, Index, Ctx);
}

void AliasedModuleCopyCheck::onEndOfTranslationUnit() {
  if (!Index || !Ctx)
    return;
  for (const AliasedSync &A :
       findAliasedSyncs(*Index, Config, Ctx->getSourceManager()))
    for (const ModuleHandleCopy &Copy : A.Copies)
      report(Copy, A.Sync);
  Index = nullptr;
}

void AliasedModuleCopyCheck::report(const ModuleHandleCopy &Copy,
                                    const ParameterSync &Sync) {
  const SourceManager &SM = Ctx->getSourceManager();
  SourceLocation Loc = Copy.Value->getExprLoc();
  const Expr *Handle = writtenHandle(Copy.Value);
  if (Handle)
    Loc = Handle->getBeginLoc();
  if (Loc.isInvalid() || isLibraryCode(SM.getSpellingLoc(Loc), SM))
    return;
  if (!Reported.insert(SM.getExpansionLoc(Loc).getRawEncoding()).second)
    return;

  // The copy to make: clone() of the copied handle, cast back to its class.
  const CXXRecordDecl *Impl =
      moduleClassOf(Copy.From->getType().getNonReferenceType(), Config.Types);
  bool Cloneable = isCloneableModule(Impl);
  std::string ImplName = spellableName(Impl);
  std::string HandleText;
  if (Handle && !Handle->getBeginLoc().isMacroID() &&
      !Handle->getEndLoc().isMacroID())
    HandleText = Lexer::getSourceText(
                     CharSourceRange::getTokenRange(Handle->getSourceRange()),
                     SM, Ctx->getLangOpts())
                     .str();
  std::string Fix;
  if (Cloneable && !ImplName.empty() && !HandleText.empty())
    Fix = "std::dynamic_pointer_cast<" + ImplName + ">(" + HandleText +
          "->clone())";
  // Certain only when the copy's home holds exactly that class by a holder or
  // a shared_ptr, and the code is not shared by template instantiations.
  QualType IntoType = Copy.Into->getType();
  bool Fixable = !Fix.empty() && !IntoType->isPointerType() &&
                 moduleClassOf(IntoType, Config.Types) == Impl &&
                 !inTemplateInstantiation(Copy.In) &&
                 !(isa<FieldDecl>(Copy.Into) &&
                   isa<ClassTemplateSpecializationDecl>(
                       cast<FieldDecl>(Copy.Into)->getParent())) &&
                 (IntoType->isRecordType() &&
                  (holderImpl(recordOf(IntoType)) ||
                   hasQualifiedName(recordOf(IntoType), "std::shared_ptr"))) &&
                 isModuleHandleType(Copy.From->getType().getNonReferenceType(),
                                    Config.Types);

  // A variable declared 'auto' takes its type from the replacement: the
  // shared_ptr that clone() gives is turned back into the holder it was.
  if (Fixable) {
    const auto *VD = dyn_cast<VarDecl>(Copy.Into);
    if (VD && VD->getType()->getContainedDeducedType() &&
        holderImpl(recordOf(IntoType))) {
      std::string Holder = spellableName(recordOf(IntoType));
      if (Holder.empty())
        Fixable = false;
      else
        Fix = Holder + "(" + Fix + ")";
    }
  }

  std::string Remedy;
  if (Cloneable)
    Remedy = "make a separate copy with '" +
             (Fix.empty() ? std::string("clone()") : Fix) + "'";
  else if (Impl && !isLibraryCode(Impl, SM) && Impl->getIdentifier())
    Remedy = "derive '" + Impl->getName().str() +
             "' from 'torch::nn::Cloneable<" + Impl->getName().str() +
             ">' (implementing 'reset()') and make a separate copy with "
             "'clone()'";
  else
    Remedy = "make a separate copy with 'clone()' of a "
             "'torch::nn::Cloneable' module";

  {
    auto D = diag(Loc, "%0 is a copy of the module handle %1, not of the "
                       "module: both name one network, so updating %2 from "
                       "%3 does nothing and %2 trains along with %3; %4")
             << Copy.Into << Copy.From << Sync.Into << Sync.From << Remedy;
    if (Fixable)
      D << FixItHint::CreateReplacement(
          CharSourceRange::getTokenRange(Handle->getSourceRange()), Fix);
  }
  // A helper of another file updates them: its call here is where the
  // update is reached from.
  const FunctionDecl *Via = Sync.Via;
  const Expr *ViaCall = Sync.ViaCall;
  if (Sync.Remote && !ViaCall) {
    ViaCall = Sync.Call;
    if (const auto *CE = dyn_cast<CallExpr>(Sync.Call))
      Via = CE->getDirectCallee();
  }
  if (ViaCall && Via) {
    diag(compat::beginLoc(ViaCall),
         "%0 updates the parameters of %1 from %2 here, as if they were "
         "separate networks%3",
         DiagnosticIDs::Note)
        << describeFunction(Via) << Sync.Into << Sync.From
        << (Sync.Remote ? " (at " + describeRemoteSite(*Sync.Remote) + ")"
                        : std::string());
    SourceLocation Written = Sync.Remote ? remoteLocation(SM, *Sync.Remote)
                                         : compat::beginLoc(Sync.Call);
    if (Written.isValid())
      diag(Written, "the parameters are written here", DiagnosticIDs::Note);
  } else {
    diag(compat::beginLoc(Sync.Call),
         "the parameters of %0 are updated from %1 here, as if they were "
         "separate networks",
         DiagnosticIDs::Note)
        << Sync.Into << Sync.From;
  }
}

} // namespace torch_tidy
