//===--- FromBlobLifetimeCheck.cpp - from_blob over dying storage ---------===//
//
// Rule: `torch::from_blob(ptr, ...)` does not copy; the tensor it returns must
// not outlive the storage `ptr` points into. When the storage is a local, a
// parameter taken by value or a temporary, and the tensor is returned, stored
// where it outlives the storage, or captured by a lambda that escapes, it
// needs `.clone()` first. The BlobLifetime room finds where; this says it.
//
//===----------------------------------------------------------------------===//
#include "FromBlobLifetimeCheck.h"

#include "torch-tidy/Anchor.h"
#include "torch-tidy/Compat.h"
#include "torch-tidy/Options.h"
#include "torch-tidy/Types.h"

#include "clang/AST/ASTContext.h"
#include "clang/Lex/Lexer.h"

using namespace clang;
using namespace clang::ast_matchers;

namespace torch_tidy {

namespace {

std::string quoted(const NamedDecl *D) {
  return D && D->getIdentifier() ? "'" + D->getName().str() + "'" : "";
}

/// The storage as the message names it.
std::string storageText(const BlobLifetimeIssue &I, const PrintingPolicy &PP) {
  switch (I.Storage) {
  case BlobStorage::Local:
    return "local " + quoted(I.Var);
  case BlobStorage::Parameter:
    return "parameter " + quoted(I.Var) + " (taken by value)";
  case BlobStorage::Temporary:
    return "a temporary '" +
           I.TemporaryExpr->getType().getUnqualifiedType().getAsString(PP) +
           "'";
  }
  return "its storage";
}

/// When the storage dies.
std::string deathText(const BlobLifetimeIssue &I, const FunctionDecl *FD) {
  if (I.Storage == BlobStorage::Temporary)
    return "at the end of the full-expression";
  if (I.DiesAt.isValid())
    return "at the end of its scope";
  if (isa<CXXConstructorDecl>(FD))
    return "when the constructor returns";
  if (const auto *MD = dyn_cast<CXXMethodDecl>(FD))
    if (MD->getParent()->isLambda())
      return "when the lambda returns";
  if (FD->getIdentifier())
    return "when '" + FD->getName().str() + "' returns";
  return "when the function returns";
}

/// How the tensor gets out.
std::string escapeText(const BlobEscape &E) {
  std::string Subject;
  switch (E.Carrier) {
  case BlobCarrier::Tensor:
    Subject = "the tensor";
    break;
  case BlobCarrier::Container:
    Subject = "a container holding the tensor";
    break;
  case BlobCarrier::Lambda:
    Subject = "a lambda that captures the tensor";
    break;
  case BlobCarrier::Aggregate:
    Subject = "an object holding the tensor";
    break;
  }
  std::string Into = quoted(E.Into);
  switch (E.Kind) {
  case BlobEscapeKind::Returned:
    return Subject + " is returned";
  case BlobEscapeKind::Member:
    return Subject + " is stored in member " + Into;
  case BlobEscapeKind::NonLocal:
    return Subject + " is stored in " + Into + ", which outlives it";
  case BlobEscapeKind::UsedAfter:
    return Subject + " is kept in " + Into + " and used after that";
  }
  return Subject + " escapes";
}

/// \p E as written: without the implicit copies and conversions around it.
const Expr *written(const Expr *E) {
  return stripExpr(E, Strip::Temporaries | Strip::Copies);
}

/// Whether `.clone()` can be appended to \p E as written: a postfix
/// expression of type at::Tensor outside macros.
bool canAppendClone(const Expr *E) {
  if (!E || !isTensorType(E->getType()))
    return false;
  const Expr *W = written(E);
  if (!isTensorType(W->getType()))
    return false;
  if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(W)) {
    if (OC->getOperator() != OO_Subscript && OC->getOperator() != OO_Call)
      return false;
  } else if (!isa<DeclRefExpr>(W) && !isa<CallExpr>(W) && !isa<MemberExpr>(W) &&
             !isa<ParenExpr>(W)) {
    return false;
  }
  SourceLocation B = compat::beginLoc(W), End = compat::endLoc(W);
  return B.isValid() && End.isValid() && !B.isMacroID() && !End.isMacroID();
}

} // namespace

FromBlobLifetimeCheck::FromBlobLifetimeCheck(StringRef Name,
                                             tidy::ClangTidyContext *Context)
    : ClangTidyCheck(Name, Context),
      RawFactoryFunctions(
          OptionReader(Options, Name, Context).getNameList("FactoryFunctions")),
      RawStorageClasses(
          OptionReader(Options, Name, Context).getNameList("StorageClasses")) {
  Config.ExtraFactories = parseList(RawFactoryFunctions);
  Config.ExtraStorageClasses = parseList(RawStorageClasses);
}

void FromBlobLifetimeCheck::storeOptions(
    tidy::ClangTidyOptions::OptionMap &Opts) {
  Options.store(Opts, "FactoryFunctions", RawFactoryFunctions);
  Options.store(Opts, "StorageClasses", RawStorageClasses);
}

void FromBlobLifetimeCheck::onStartOfTranslationUnit() { Reported.clear(); }

void FromBlobLifetimeCheck::registerMatchers(MatchFinder *Finder) {
  registerAnchor(*Finder, *this);
}

void FromBlobLifetimeCheck::check(const MatchFinder::MatchResult &Result) {
  const FunctionDecl *FD = userFunction(*this, Result);
  if (!FD || !FD->getBody())
    return;
  bool InTemplate = FD->getTemplateInstantiationPattern() != nullptr;
  for (const BlobLifetimeIssue &I : findBlobLifetimeIssues(FD, Config))
    report(I, FD, InTemplate, *Result.Context);
}

void FromBlobLifetimeCheck::report(const BlobLifetimeIssue &I,
                                   const FunctionDecl *FD, bool InTemplate,
                                   ASTContext &Ctx) {
  const SourceManager &SM = Ctx.getSourceManager();
  SourceLocation Loc = compat::beginLoc(I.Call);
  // Code written inside a LibTorch macro is LibTorch's.
  if (Loc.isInvalid() || isLibraryCode(SM.getSpellingLoc(Loc), SM))
    return;
  if (!Reported.insert(Loc.getRawEncoding()).second)
    return;
  const BlobEscape &First = I.Escapes.front();
  std::string Storage = storageText(I, Ctx.getPrintingPolicy());
  const FunctionDecl *Callee = I.Call->getDirectCallee();
  std::string Factory = Callee ? Callee->getQualifiedNameAsString() : "";

  // The fix-it: `.clone()` at every escape, when each one has a tensor
  // expression written there to clone.
  bool Fixable = !InTemplate;
  llvm::SmallVector<const Expr *, 4> CloneAt;
  for (const BlobEscape &E : I.Escapes) {
    if (!canAppendClone(E.CloneAt)) {
      Fixable = false;
      break;
    }
    if (!llvm::is_contained(CloneAt, E.CloneAt))
      CloneAt.push_back(E.CloneAt);
  }

  {
    auto D = diag(Loc, "'%0' does not copy %1, which is destroyed %2, but %3; "
                       "call '.clone()' where the tensor escapes so that it "
                       "owns its data")
             << Factory << Storage << deathText(I, FD) << escapeText(First);
    if (Fixable)
      for (const Expr *E : CloneAt) {
        SourceLocation End = Lexer::getLocForEndOfToken(
            compat::endLoc(written(E)), 0, SM, Ctx.getLangOpts());
        if (End.isValid())
          D << FixItHint::CreateInsertion(End, ".clone()");
      }
  }
  if (I.Var)
    diag(I.Var->getLocation(), "%0 is declared here", DiagnosticIDs::Note)
        << I.Var;
  if (I.DiesAt.isValid())
    diag(I.DiesAt, "%0 is destroyed here", DiagnosticIDs::Note) << I.Var;
  if (First.Kind == BlobEscapeKind::UsedAfter) {
    diag(First.Where->getExprLoc(), "%0 is used here, after that",
         DiagnosticIDs::Note)
        << First.Into;
  } else if (First.Where && First.Where->getExprLoc() != Loc) {
    diag(First.Where->getExprLoc(), "the tensor escapes here",
         DiagnosticIDs::Note);
  }
}

} // namespace torch_tidy
