//===--- UnnamedGradGuardCheck.cpp - guards that die at once --------------===//
//
// Rule: a LibTorch RAII guard must be a named object. A temporary
// (`torch::NoGradGuard();`) is destroyed at the end of its statement, and
// `torch::NoGradGuard guard();` declares a function; in both cases the code
// that follows runs unguarded.
//
//===----------------------------------------------------------------------===//
#include "UnnamedGradGuardCheck.h"

#include "torch-tidy/Anchor.h"
#include "torch-tidy/Compat.h"
#include "torch-tidy/EvaluationOrder.h"
#include "torch-tidy/GradMode.h"
#include "torch-tidy/Options.h"
#include "torch-tidy/Types.h"

#include "clang/AST/ASTContext.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/StringSet.h"

using namespace clang;
using namespace clang::ast_matchers;

namespace torch_tidy {

namespace {

std::string sourceText(SourceRange R, const SourceManager &SM,
                       const LangOptions &LO) {
  if (R.isInvalid() || R.getBegin().isMacroID() || R.getEnd().isMacroID())
    return "";
  return Lexer::getSourceText(CharSourceRange::getTokenRange(R), SM, LO).str();
}

/// What the code after a guard that was never built misses.
std::string missedEffect(const CXXRecordDecl *RD, const CXXConstructExpr *CE) {
  static const GradModeConfig NoConfig;
  GradSwitch S = CE ? guardSwitch(CE, NoConfig) : GradSwitch::None;
  if (!CE && (isSameOrDerivedFrom(RD, "c10::NoGradGuard") ||
              isSameOrDerivedFrom(RD, "c10::InferenceMode")))
    S = GradSwitch::Disable;
  else if (!CE && isSameOrDerivedFrom(RD, "c10::AutoGradMode"))
    S = GradSwitch::Unknown;
  switch (S) {
  case GradSwitch::Disable:
    return "the code after it still records gradients";
  case GradSwitch::Enable:
    return "autograd stays disabled for the code after it";
  case GradSwitch::Unknown:
    return "the grad mode it sets does not hold for the code after it";
  case GradSwitch::None:
    break;
  }
  return "the code after it runs unguarded";
}

/// The name the fix-it gives the guard.
std::string guardName(const CXXRecordDecl *RD) {
  if (isSameOrDerivedFrom(RD, "c10::NoGradGuard"))
    return "no_grad";
  if (isSameOrDerivedFrom(RD, "c10::AutoGradMode"))
    return "grad_mode";
  if (isSameOrDerivedFrom(RD, "c10::InferenceMode"))
    return "inference_mode";
  return "guard";
}

/// Every name declared or used in \p Body, so the new guard shadows nothing
/// the function reads.
llvm::StringSet<> namesIn(const FunctionDecl *FD) {
  llvm::StringSet<> Names;
  for (const ParmVarDecl *P : FD->parameters())
    if (P->getIdentifier())
      Names.insert(P->getName());
  forEachDescendant(FD->getBody(), [&](const Stmt *S) {
    const NamedDecl *D = nullptr;
    if (const auto *DRE = dyn_cast<DeclRefExpr>(S))
      D = DRE->getDecl();
    else if (const auto *ME = dyn_cast<MemberExpr>(S))
      D = ME->getMemberDecl();
    if (D && D->getIdentifier())
      Names.insert(D->getName());
    if (const auto *DS = dyn_cast<DeclStmt>(S))
      for (const Decl *X : DS->decls())
        if (const auto *ND = dyn_cast<NamedDecl>(X))
          if (ND->getIdentifier())
            Names.insert(ND->getName());
    return Descend::Children;
  });
  return Names;
}

} // namespace

UnnamedGradGuardCheck::UnnamedGradGuardCheck(StringRef Name,
                                             tidy::ClangTidyContext *Context)
    : ClangTidyCheck(Name, Context),
      RawGuardClasses(
          OptionReader(Options, Name, Context).getNameList("GuardClasses")) {
  GuardClasses = parseList(RawGuardClasses);
}

void UnnamedGradGuardCheck::storeOptions(
    tidy::ClangTidyOptions::OptionMap &Opts) {
  Options.store(Opts, "GuardClasses", RawGuardClasses);
}

void UnnamedGradGuardCheck::onStartOfTranslationUnit() {
  Reported.clear();
  TakenIn = nullptr;
  Taken.clear();
}

void UnnamedGradGuardCheck::registerMatchers(MatchFinder *Finder) {
  registerAnchor(*Finder, *this);
}

bool UnnamedGradGuardCheck::isGuard(const CXXRecordDecl *RD) const {
  return RD && !RD->isInvalidDecl() && isLibTorchGuardClass(RD, GuardClasses);
}

void UnnamedGradGuardCheck::check(const MatchFinder::MatchResult &Result) {
  const FunctionDecl *FD = userFunction(*this, Result);
  if (!FD || !FD->getBody())
    return;
  InTemplate = FD->getTemplateInstantiationPattern() != nullptr;
  ASTContext &Ctx = *Result.Context;
  for (const DiscardedValue &V : discardedValuesIn(FD))
    reportTemporary(V.E, V.InBlock, FD, Ctx);
  // `torch::NoGradGuard guard();` declares a function in the block: a
  // declaration of FD's own (those in a lambda are its call operator's).
  for (const Decl *D : FD->decls())
    if (const auto *F = dyn_cast<FunctionDecl>(D))
      reportFunction(F, Ctx);
}

void UnnamedGradGuardCheck::reportTemporary(const Expr *Statement, bool FixIt,
                                            const FunctionDecl *FD,
                                            ASTContext &Ctx) {
  const Expr *X = stripExpr(Statement, Strip::Temporaries);
  const auto *Cast = dyn_cast<CXXFunctionalCastExpr>(X);
  if (Cast)
    X = stripExpr(Cast->getSubExpr(), Strip::Temporaries);
  const auto *CE = dyn_cast<CXXConstructExpr>(X);
  if (!CE || CE->containsErrors() || CE->isTypeDependent() ||
      !CE->getConstructor())
    return;
  const CXXRecordDecl *RD = CE->getConstructor()->getParent();
  if (!isGuard(RD))
    return;
  // The type as written: `torch::NoGradGuard()`, `torch::AutoGradMode(false)`.
  const TypeSourceInfo *TSI = nullptr;
  if (Cast)
    TSI = Cast->getTypeInfoAsWritten();
  else if (const auto *TO = dyn_cast<CXXTemporaryObjectExpr>(CE))
    TSI = TO->getTypeSourceInfo();
  if (!TSI)
    return;
  const Expr *Written = Cast ? static_cast<const Expr *>(Cast) : CE;
  const SourceManager &SM = Ctx.getSourceManager();
  const LangOptions &LO = Ctx.getLangOpts();
  SourceLocation Loc = Written->getBeginLoc();
  if (Loc.isInvalid() || SM.isInSystemHeader(SM.getSpellingLoc(Loc)))
    return;
  if (!Reported.insert(Loc.getRawEncoding()).second)
    return;

  SourceRange TypeRange = TSI->getTypeLoc().getSourceRange();
  std::string Type = sourceText(TypeRange, SM, LO);
  std::string Args;
  if (!Type.empty() && !Written->getEndLoc().isMacroID()) {
    SourceLocation AfterType =
        Lexer::getLocForEndOfToken(TypeRange.getEnd(), 0, SM, LO);
    Args = Lexer::getSourceText(
               CharSourceRange::getCharRange(
                   AfterType,
                   Lexer::getLocForEndOfToken(Written->getEndLoc(), 0, SM, LO)),
               SM, LO)
               .trim()
               .str();
  }
  bool Exact = !Type.empty() && !Args.empty();
  // In a template the written type may be a template parameter.
  if (Type.empty() || InTemplate)
    Type = RD->getQualifiedNameAsString();
  // `T name();` would declare a function again.
  StringRef Inner = StringRef(Args).drop_front().drop_back().trim();
  if (compat::startsWith(StringRef(Args), "(") && Inner.empty())
    Args.clear();
  else if (!Exact)
    Args = CE->getNumArgs() ? "(...)" : "";

  // A name nothing in the function uses, nor an earlier fix-it gave.
  if (TakenIn != FD) {
    Taken = namesIn(FD);
    TakenIn = FD;
  }
  std::string Name = guardName(RD);
  for (unsigned N = 2; Taken.contains(Name) && N < 100; ++N)
    Name = guardName(RD) + "_" + std::to_string(N);
  Taken.insert(Name);
  std::string Declaration = Type + " " + Name + Args;

  auto D = diag(Loc, "temporary '%0' is destroyed at the end of this "
                     "statement, so %1; give it a name: '%2;'")
           << Type << missedEffect(RD, CE) << Declaration;
  SourceRange Whole = Statement->getSourceRange();
  if (!FixIt || !Exact || InTemplate || Whole.getBegin().isMacroID() ||
      Whole.getEnd().isMacroID())
    return;
  D << FixItHint::CreateReplacement(CharSourceRange::getTokenRange(Whole),
                                    Declaration);
}

void UnnamedGradGuardCheck::reportFunction(const FunctionDecl *Declared,
                                           ASTContext &Ctx) {
  if (!compat::isLocalExternDecl(Declared) || Declared->isInvalidDecl() ||
      !Declared->getIdentifier())
    return;
  QualType RT = Declared->getReturnType();
  if (RT->isReferenceType() || RT->isPointerType() || RT->isDependentType())
    return;
  const CXXRecordDecl *RD = RT->getAsCXXRecordDecl();
  if (!isGuard(RD))
    return;
  const SourceManager &SM = Ctx.getSourceManager();
  SourceLocation Loc = Declared->getLocation();
  if (Loc.isInvalid() || SM.isInSystemHeader(SM.getSpellingLoc(Loc)))
    return;
  if (!Reported.insert(Loc.getRawEncoding()).second)
    return;
  std::string Type =
      sourceText(Declared->getReturnTypeSourceRange(), SM, Ctx.getLangOpts());
  if (Type.empty())
    Type = RD->getQualifiedNameAsString();
  std::string Name = Declared->getName().str();
  diag(Loc, "'%0' declares a function returning '%1', not a guard object "
            "(the most vexing parse), so no guard is built and %2; %3")
      << Name << Type << missedEffect(RD, nullptr)
      << (Declared->getNumParams() == 0
              ? "remove the parentheses: '" + Type + " " + Name + ";'"
              : "construct it with braces: '" + Type + " " + Name + "{...};'");
}

} // namespace torch_tidy
