//===--- TrainingFlag.cpp - calls that take a training flag ---------------===//
#include "torch-tidy/TrainingFlag.h"

#include "torch-tidy/Compat.h"
#include "torch-tidy/EvaluationOrder.h"
#include "torch-tidy/Types.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/ExprCXX.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SmallPtrSet.h"

#include <set>
#include <tuple>

using namespace clang;

namespace torch_tidy {

namespace {

bool isBool(QualType T) {
  return T.getNonReferenceType().getCanonicalType()->isBooleanType();
}

/// The flag parameter of \p FD: the `bool` parameter `train` or `training`
/// of a LibTorch function, the first `bool` parameter of a configured one.
const ParmVarDecl *flagParameter(const FunctionDecl *FD, bool Configured) {
  for (const ParmVarDecl *P : FD->parameters()) {
    if (!isBool(P->getType()))
      continue;
    if (Configured)
      return P;
    if (P->getIdentifier() &&
        (P->getName() == "train" || P->getName() == "training"))
      return P;
  }
  return nullptr;
}

/// The `training_` field (TORCH_ARG(bool, training)) of an options struct
/// declared in library code.
const FieldDecl *trainingField(const CXXRecordDecl *RD,
                               const SourceManager &SM) {
  RD = RD ? RD->getDefinition() : nullptr;
  if (!RD || RD->isInvalidDecl() || !isLibraryCode(RD, SM))
    return nullptr;
  for (const FieldDecl *F : RD->fields())
    if (F->getIdentifier() && F->getName() == "training_" &&
        isBool(F->getType()))
      return F;
  return nullptr;
}

const CXXRecordDecl *optionsClassOf(QualType T) {
  const CXXRecordDecl *RD = T.getNonReferenceType()->getAsCXXRecordDecl();
  return RD ? RD->getDefinition() : nullptr;
}

std::optional<bool> constantBool(const Expr *E, const ASTContext &Ctx) {
  if (!E || E->isValueDependent() || E->isTypeDependent() ||
      E->containsErrors())
    return std::nullopt;
  bool Value = false;
  if (E->EvaluateAsBooleanCondition(Value, Ctx))
    return Value;
  return std::nullopt;
}

/// A drop probability that is a constant 0: the layer does nothing in either
/// mode.
bool isZeroProbability(const Expr *E, const ASTContext &Ctx) {
  if (!E || E->isValueDependent() || E->isTypeDependent() ||
      E->containsErrors())
    return false;
  Expr::EvalResult R;
  if (!E->EvaluateAsRValue(R, Ctx) || R.HasSideEffects)
    return false;
  if (R.Val.isFloat())
    return R.Val.getFloat().isZero();
  if (R.Val.isInt())
    return R.Val.getInt().isZero();
  return false;
}

bool isLiteralTrue(const Expr *E) {
  const auto *B = dyn_cast<CXXBoolLiteralExpr>(E->IgnoreParenImpCasts());
  return B && B->getValue();
}

const Expr *stripValue(const Expr *E) {
  while (E) {
    const Expr *Next = E->IgnoreImplicit()->IgnoreParens();
    if (Next == E)
      break;
    E = Next;
  }
  return E;
}

/// What an options argument built in the call sets `training` to.
struct OptionsRead {
  bool Known = false;
  /// The argument of the last `.training(...)`, or null for the default.
  const Expr *Setter = nullptr;
  /// The argument of the last `.p(...)`, or null.
  const Expr *P = nullptr;
};

/// Reads `F::DropoutFuncOptions().p(0.2).training(true)`: setters of the
/// options struct back to its construction (default or copy). Anything else
/// (a variable, a call, a conditional) is not known.
OptionsRead readOptions(const Expr *Arg, const CXXRecordDecl *RD) {
  OptionsRead Read;
  const Expr *E = Arg;
  const CXXRecordDecl *Canon = RD->getCanonicalDecl();
  for (unsigned Steps = 0; E && Steps < 64; ++Steps) {
    E = stripValue(E);
    if (const auto *DA = dyn_cast<CXXDefaultArgExpr>(E)) {
      E = DA->getExpr();
      continue;
    }
    if (const auto *FC = dyn_cast<CXXFunctionalCastExpr>(E)) {
      E = FC->getSubExpr();
      continue;
    }
    if (const auto *MC = dyn_cast<CXXMemberCallExpr>(E)) {
      const CXXMethodDecl *MD = MC->getMethodDecl();
      if (!MD || !MD->getIdentifier() || MD->getNumParams() != 1 ||
          MD->getParent()->getCanonicalDecl() != Canon)
        return {};
      // TORCH_ARG's setter returns the struct by reference.
      const CXXRecordDecl *Returned =
          MD->getReturnType()->isReferenceType()
              ? MD->getReturnType().getNonReferenceType()->getAsCXXRecordDecl()
              : nullptr;
      if (!Returned || Returned->getCanonicalDecl() != Canon)
        return {};
      // The last setter written is the outermost call.
      if (MD->getName() == "training" && !Read.Setter)
        Read.Setter = MC->getArg(0);
      if (MD->getName() == "p" && !Read.P)
        Read.P = MC->getArg(0);
      E = MC->getImplicitObjectArgument();
      continue;
    }
    if (const auto *CE = dyn_cast<CXXConstructExpr>(E)) {
      const CXXConstructorDecl *Ctor = CE->getConstructor();
      if (!Ctor)
        return {};
      if (Ctor->isCopyOrMoveConstructor() && CE->getNumArgs() == 1) {
        E = CE->getArg(0);
        continue;
      }
      for (const ParmVarDecl *P : Ctor->parameters())
        if (!P->getIdentifier() || P->getName() == "training")
          return {};
      Read.Known = true;
      return Read;
    }
    return {};
  }
  return {};
}

bool falseMeansTraining(const Expr *Cond, unsigned Depth);

/// `is_training()` of a module (`this->is_training()`, `child->is_training()`).
bool isTrainingQuery(const Expr *E) {
  const auto *MC = dyn_cast<CXXMemberCallExpr>(stripValue(E));
  const CXXMethodDecl *MD = MC ? MC->getMethodDecl() : nullptr;
  return MD && MD->getIdentifier() && MD->getName() == "is_training" &&
         isSameOrDerivedFrom(MD->getParent(), "torch::nn::Module");
}

/// Whether \p Cond being true means the module is training: `is_training()`,
/// or a conjunction with it (`p > 0 && is_training()`).
bool trueMeansTraining(const Expr *Cond, unsigned Depth = 0) {
  if (!Cond || Depth > 16)
    return false;
  Cond = stripValue(Cond);
  if (isTrainingQuery(Cond))
    return true;
  if (const auto *BO = dyn_cast<BinaryOperator>(Cond))
    if (BO->getOpcode() == BO_LAnd)
      return trueMeansTraining(BO->getLHS(), Depth + 1) ||
             trueMeansTraining(BO->getRHS(), Depth + 1);
  if (const auto *UO = dyn_cast<UnaryOperator>(Cond))
    if (UO->getOpcode() == UO_LNot)
      return falseMeansTraining(UO->getSubExpr(), Depth + 1);
  return false;
}

/// Whether \p Cond being false means the module is training:
/// `!is_training()`, or a disjunction with it (`!is_training() || p == 0`).
bool falseMeansTraining(const Expr *Cond, unsigned Depth) {
  if (!Cond || Depth > 16)
    return false;
  Cond = stripValue(Cond);
  if (const auto *BO = dyn_cast<BinaryOperator>(Cond))
    if (BO->getOpcode() == BO_LOr)
      return falseMeansTraining(BO->getLHS(), Depth + 1) ||
             falseMeansTraining(BO->getRHS(), Depth + 1);
  if (const auto *UO = dyn_cast<UnaryOperator>(Cond))
    if (UO->getOpcode() == UO_LNot)
      return trueMeansTraining(UO->getSubExpr(), Depth + 1);
  return false;
}

/// Whether running \p S always leaves the function (`return`, `throw`).
bool alwaysReturns(const Stmt *S) {
  if (const auto *CS = dyn_cast_or_null<CompoundStmt>(S))
    S = CS->body_empty() ? nullptr : CS->body_back();
  if (const auto *E = dyn_cast_or_null<Expr>(S))
    return isa<CXXThrowExpr>(E->IgnoreParenImpCasts());
  return isa_and_nonnull<ReturnStmt>(S);
}

/// The statements of \p S's children that run only while the module is
/// training: the branch of an `if` or `?:` on `is_training()`, and what
/// follows `if (!is_training()) return ...;` in a block.
void trainingOnlyChildren(const Stmt *S,
                          llvm::SmallPtrSetImpl<const Stmt *> &Out) {
  if (const auto *If = dyn_cast<IfStmt>(S)) {
    if (If->getInit() || If->getConditionVariable())
      return;
    if (trueMeansTraining(If->getCond()) && If->getThen())
      Out.insert(If->getThen());
    if (falseMeansTraining(If->getCond(), 0) && If->getElse())
      Out.insert(If->getElse());
  } else if (const auto *CO = dyn_cast<ConditionalOperator>(S)) {
    if (trueMeansTraining(CO->getCond()))
      Out.insert(CO->getTrueExpr());
    if (falseMeansTraining(CO->getCond(), 0))
      Out.insert(CO->getFalseExpr());
  } else if (const auto *CS = dyn_cast<CompoundStmt>(S)) {
    bool Training = false;
    for (const Stmt *Child : CS->body()) {
      if (Training) {
        Out.insert(Child);
        continue;
      }
      const auto *If = dyn_cast<IfStmt>(Child);
      if (If && !If->getElse() && !If->getInit() &&
          !If->getConditionVariable() && falseMeansTraining(If->getCond(), 0) &&
          alwaysReturns(If->getThen()))
        Training = true;
    }
  }
}

} // namespace

std::optional<TrainingFlagOn>
trainingFlagOn(const CallExpr *Call, const SourceManager &SM,
               llvm::ArrayRef<std::string> ExtraFunctions) {
  if (!Call || Call->isTypeDependent() || Call->containsErrors())
    return std::nullopt;
  const FunctionDecl *FD = Call->getDirectCallee();
  if (!FD || FD->isInvalidDecl() || !FD->getIdentifier())
    return std::nullopt;
  bool Configured = matchesFunctionList(FD, ExtraFunctions);
  if (!Configured) {
    if (const auto *MD = dyn_cast<CXXMethodDecl>(FD))
      if (!MD->isStatic())
        return std::nullopt;
    if (!inLibTorchNamespace(FD) || !isLibraryCode(FD, SM))
      return std::nullopt;
  }
  const ASTContext &Ctx = FD->getASTContext();
  unsigned N = std::min(Call->getNumArgs(), FD->getNumParams());

  if (const ParmVarDecl *P = flagParameter(FD, Configured)) {
    unsigned I = P->getFunctionScopeIndex();
    if (I >= N)
      return std::nullopt;
    const Expr *Arg = Call->getArg(I);
    if (isa<CXXDefaultArgExpr>(Arg))
      return std::nullopt; // the flag's default (rrelu: false)
    for (unsigned J = 0; J < N; ++J) {
      const ParmVarDecl *PJ = FD->getParamDecl(J);
      if (PJ->getIdentifier() && PJ->getName() == "p" &&
          isZeroProbability(Call->getArg(J), Ctx))
        return std::nullopt;
    }
    TrainingFlagOn On;
    On.Call = Call;
    On.Function = FD;
    On.Param = P;
    On.Value = Arg;
    if (isLiteralTrue(Arg))
      On.Source = FlagSource::Literal;
    else if (constantBool(Arg, Ctx) == std::optional<bool>(true))
      On.Source = FlagSource::Constant;
    else
      return std::nullopt;
    return On;
  }

  for (unsigned I = 0; I < N; ++I) {
    const ParmVarDecl *P = FD->getParamDecl(I);
    const CXXRecordDecl *RD = optionsClassOf(P->getType());
    const FieldDecl *Field = trainingField(RD, SM);
    if (!Field)
      continue;
    const Expr *Arg = Call->getArg(I);
    OptionsRead Read = readOptions(Arg, RD);
    if (!Read.Known || isZeroProbability(Read.P, Ctx))
      return std::nullopt;
    TrainingFlagOn On;
    On.Call = Call;
    On.Function = FD;
    On.Param = P;
    On.OptionsClass = RD;
    On.Options = isa<CXXDefaultArgExpr>(Arg) ? nullptr : Arg;
    if (Read.Setter) {
      On.Value = Read.Setter;
      if (isLiteralTrue(Read.Setter))
        On.Source = FlagSource::Setter;
      else if (constantBool(Read.Setter, Ctx) == std::optional<bool>(true))
        On.Source = FlagSource::ConstantSetter;
      else
        return std::nullopt;
      return On;
    }
    if (constantBool(Field->getInClassInitializer(), Ctx) !=
        std::optional<bool>(true))
      return std::nullopt;
    On.Source = FlagSource::Default;
    return On;
  }
  return std::nullopt;
}

llvm::StringRef flagSourceSpelling(FlagSource S) {
  switch (S) {
  case FlagSource::Literal:
    return "literal";
  case FlagSource::Constant:
    return "constant";
  case FlagSource::Setter:
    return "setter";
  case FlagSource::ConstantSetter:
    return "constant_setter";
  case FlagSource::Default:
    return "default";
  }
  return "literal";
}

std::optional<FlagSource> flagSourceOf(llvm::StringRef Spelling) {
  for (FlagSource S :
       {FlagSource::Literal, FlagSource::Constant, FlagSource::Setter,
        FlagSource::ConstantSetter, FlagSource::Default})
    if (flagSourceSpelling(S) == Spelling)
      return S;
  return std::nullopt;
}

std::string describeFlagOn(FlagSource S, llvm::StringRef Param,
                           llvm::StringRef OptionsClass) {
  std::string P = Param.empty() ? std::string("training") : Param.str();
  switch (S) {
  case FlagSource::Literal:
    return "its '" + P + "' argument is 'true'";
  case FlagSource::Constant:
    return "its '" + P + "' argument is a constant that is true";
  case FlagSource::Setter:
  case FlagSource::ConstantSetter:
    return "its options set 'training' to true";
  case FlagSource::Default:
    return "'" + OptionsClass.str() +
           "' sets 'training' to true unless told otherwise";
  }
  return "";
}

std::string flagOnEffect(llvm::StringRef FunctionName) {
  if (FunctionName.contains("dropout"))
    return "it keeps zeroing activations at random, and evaluation and "
           "inference outputs stay noisy and worse than the trained model's";
  if (FunctionName.contains("norm"))
    return "it keeps normalising with each batch's own statistics and "
           "updating the running ones, and evaluation outputs depend on the "
           "batch";
  return "evaluation outputs differ from the trained model's";
}

const CXXMethodDecl *runningModuleMethod(const FunctionDecl *FD) {
  const auto *MD = dyn_cast_or_null<CXXMethodDecl>(FD);
  if (!MD || MD->isStatic() || isa<CXXConstructorDecl>(MD) ||
      isa<CXXDestructorDecl>(MD) || MD->getParent()->isLambda())
    return nullptr;
  static const TypeConfig NoConfig;
  return isModuleClass(MD->getParent(), NoConfig) ? MD : nullptr;
}

std::string flagCallSpelling(const TrainingFlagOn &On, const SourceManager &SM,
                             const LangOptions &LO) {
  const FunctionDecl *FD = On.Function;
  std::string Name = FD->getName().str();
  if (const auto *DRE =
          dyn_cast<DeclRefExpr>(On.Call->getCallee()->IgnoreParenImpCasts())) {
    SourceRange R = DRE->getSourceRange();
    if (R.isValid() && !R.getBegin().isMacroID() && !R.getEnd().isMacroID() &&
        !DRE->hasExplicitTemplateArgs()) {
      std::string Text =
          Lexer::getSourceText(CharSourceRange::getTokenRange(R), SM, LO).str();
      if (!Text.empty() && Text.size() <= 60 &&
          compat::endsWith(StringRef(Text), Name))
        return Text;
    }
  }
  return FD->getQualifiedNameAsString();
}

using UseList = std::vector<TrainingFlagUse>;

struct TrainingFlagUses::Impl {
  Impl(const SourceManager &SM, std::vector<std::string> Extra,
       unsigned MaxCallDepth, std::function<bool(const FunctionDecl *)> Skip,
       std::shared_ptr<const ProgramSummary> Program)
      : SM(SM), Extra(std::move(Extra)), Engine(MaxCallDepth), Table(Engine),
        Skip(std::move(Skip)), Program(std::move(Program)) {}

  /// The uses in \p Body (a function at \p Level), helpers included.
  UseList walk(const Stmt *Body, unsigned Level) {
    UseList Out;
    llvm::DenseSet<const CallExpr *> Seen;
    unsigned InLambda = 0;
    // Statements that run only in training mode, and how many of them the
    // walk is inside.
    llvm::SmallPtrSet<const Stmt *, 8> TrainingOnly;
    unsigned InTrainingOnly = 0;
    // A call of another file is known by the call here that runs it and
    // its place there.
    std::set<std::tuple<const CallExpr *, std::string, unsigned, unsigned>>
        SeenRemote;
    auto Add = [&](TrainingFlagUse U) {
      bool New = U.Remote
                     ? SeenRemote
                           .insert({U.ViaCall, U.Remote->Site.File,
                                    U.Remote->Site.Line, U.Remote->Site.Column})
                           .second
                     : Seen.insert(U.Flag.Call).second;
      if (New)
        Out.push_back(std::move(U));
    };
    forEachDescendant(
        Body,
        [&](const Stmt *S) {
          // A flag that is on only while training is right.
          if (TrainingOnly.count(S))
            ++InTrainingOnly;
          if (const auto *L = dyn_cast<LambdaExpr>(S)) {
            if (L->getCallOperator()->isDependentContext()) {
              if (TrainingOnly.count(S))
                --InTrainingOnly;
              return Descend::Skip;
            }
            ++InLambda;
            return Descend::Children;
          }
          trainingOnlyChildren(S, TrainingOnly);
          const auto *Call = dyn_cast<CallExpr>(S);
          if (!Call || Call->isTypeDependent() || Call->containsErrors() ||
              InTrainingOnly > 0)
            return Descend::Children;
          if (std::optional<TrainingFlagOn> On =
                  trainingFlagOn(Call, SM, Extra)) {
            TrainingFlagUse U;
            U.Flag = *On;
            U.InLambda = InLambda > 0;
            Add(U);
            return Descend::Children;
          }
          const FunctionDecl *Helper = helperOf(Call);
          if (!Helper) {
            // A helper of another file: its calls as the summary has them.
            if (const RemoteFunction *R = remoteHelperOf(Call))
              for (const RemoteTrainingFlag &T : R->TrainingFlags) {
                TrainingFlagUse U;
                U.Remote = T;
                U.InLambda = T.InLambda || InLambda > 0;
                U.Via = Call->getDirectCallee();
                U.ViaCall = Call;
                Add(std::move(U));
              }
            return Descend::Children;
          }
          UseList Below = Table.get(Helper, Level + 1, [&] {
            return walk(Helper->getBody(), Level + 1);
          });
          for (TrainingFlagUse U : Below) {
            U.InLambda = U.InLambda || InLambda > 0;
            U.Via = Helper;
            U.ViaCall = Call;
            Add(U);
          }
          return Descend::Children;
        },
        [&](const Stmt *S) {
          if (isa<LambdaExpr>(S))
            --InLambda;
          if (TrainingOnly.count(S))
            --InTrainingOnly;
        });
    return Out;
  }

  /// The definition a call enters when it is a helper to follow.
  const FunctionDecl *helperOf(const CallExpr *Call) const {
    const FunctionDecl *Callee = Call->getDirectCallee();
    if (!Callee)
      return nullptr;
    const FunctionDecl *Def = Callee->getDefinition();
    if (!Def || !Def->getBody() || Def->isInvalidDecl() ||
        Def->isDependentContext() || isLibraryCode(Def, SM))
      return nullptr;
    // Lambdas are read where they are written.
    if (const auto *MD = dyn_cast<CXXMethodDecl>(Def))
      if (MD->getParent()->isLambda())
        return nullptr;
    if (Skip && Skip(Def))
      return nullptr;
    return Def;
  }

  /// The program summary's facts of a helper called with no body here.
  const RemoteFunction *remoteHelperOf(const CallExpr *Call) const {
    const FunctionDecl *Callee = Call->getDirectCallee();
    if (!Program || !Callee || !mayBeElsewhere(Callee, SM))
      return nullptr;
    const FunctionDecl *Def = Callee->getDefinition();
    if ((Def && Def->getBody()) || (Skip && Skip(Callee)))
      return nullptr;
    return Program->find(Callee);
  }

  const SourceManager &SM;
  std::vector<std::string> Extra;
  SummaryEngine Engine;
  Summaries<const FunctionDecl *, UseList> Table;
  std::function<bool(const FunctionDecl *)> Skip;
  std::shared_ptr<const ProgramSummary> Program;
};

TrainingFlagUses::TrainingFlagUses(
    const SourceManager &SM, std::vector<std::string> ExtraFunctions,
    unsigned MaxCallDepth, std::function<bool(const FunctionDecl *)> SkipHelper,
    std::shared_ptr<const ProgramSummary> Program)
    : P(std::make_unique<Impl>(SM, std::move(ExtraFunctions), MaxCallDepth,
                               std::move(SkipHelper), std::move(Program))) {}

TrainingFlagUses::~TrainingFlagUses() = default;

std::vector<TrainingFlagUse> TrainingFlagUses::in(const FunctionDecl *FD) {
  if (!FD || !FD->getBody() || FD->isDependentContext())
    return {};
  // The function asked about is level 0 and is read even when it is also a
  // helper of another (its memoised summary would name helpers relative to
  // that one's callers).
  if (!P->Engine.enter(FD))
    return {};
  UseList Out;
  P->Engine.complete([&] { Out = P->walk(FD->getBody(), 0); });
  P->Engine.leave(FD);
  return Out;
}

} // namespace torch_tidy
