//===--- UnregisteredModuleMemberCheck.cpp - unregistered members ---------===//
//
// Rule: a tensor or submodule member that a constructor (or a Cloneable's
// reset()) fills with a new object must reach register_parameter,
// register_buffer or register_module in that construction, when the member is
// used and every constructor is visible in the translation unit.
//
//===----------------------------------------------------------------------===//
#include "UnregisteredModuleMemberCheck.h"

#include "torch-tidy/Anchor.h"
#include "torch-tidy/Compat.h"
#include "torch-tidy/Options.h"
#include "torch-tidy/TrainingLoop.h"
#include "torch-tidy/WholeProgram.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/ExprCXX.h"
#include "clang/Lex/Lexer.h"

using namespace clang;
using namespace clang::ast_matchers;

namespace torch_tidy {

UnregisteredModuleMemberCheck::UnregisteredModuleMemberCheck(
    StringRef Name, tidy::ClangTidyContext *Context)
    : ClangTidyCheck(Name, Context),
      RawRegistrationFunctions(OptionReader(Options, Name, Context)
                                   .getNameList("RegistrationFunctions")),
      RawStatelessModuleClasses(OptionReader(Options, Name, Context)
                                    .getNameList("StatelessModuleClasses")) {
  Config.RegistrationFunctions = parseList(RawRegistrationFunctions);
  Config.StatelessModuleClasses = parseList(RawStatelessModuleClasses);
  Config.Program = programSummary(Context);
  Config.MaxCallDepth = OptionReader(Options, Name, Context)
                            .getCount("MaxCallDepth", DefaultMaxCallDepth);
}

void UnregisteredModuleMemberCheck::storeOptions(
    tidy::ClangTidyOptions::OptionMap &Opts) {
  Options.store(Opts, "RegistrationFunctions", RawRegistrationFunctions);
  Options.store(Opts, "StatelessModuleClasses", RawStatelessModuleClasses);
  Options.store(Opts, "MaxCallDepth", Config.MaxCallDepth);
}

void UnregisteredModuleMemberCheck::onStartOfTranslationUnit() {
  Classes.clear();
  Reported.clear();
  Ctx = nullptr;
}

void UnregisteredModuleMemberCheck::registerMatchers(MatchFinder *Finder) {
  registerAnchor(*Finder, *this);
}

void UnregisteredModuleMemberCheck::check(
    const MatchFinder::MatchResult &Result) {
  if (handOverUserCode(*this, Result, {{UserCode::ClassesButLambdas, "class"}}))
    return;
  const auto *RD = Result.Nodes.getNodeAs<CXXRecordDecl>("class");
  // Templates are judged per instantiation, where the types are known.
  if (!RD || RD->isDependentContext() || RD->isInvalidDecl() ||
      !isModuleClass(RD, Config.Types))
    return;
  Ctx = Result.Context;
  Classes.push_back(RD);
}

void UnregisteredModuleMemberCheck::onEndOfTranslationUnit() {
  // "Never registered" is a claim of absence: not over code clang could not
  // compile, where the registration may be the statement it dropped.
  if (Ctx && mayHaveLostCode(*Ctx))
    Classes.clear();
  if (Classes.empty() || !Ctx)
    return;
  ModuleModels &Models = ModuleModels::of(*Ctx, Config);
  llvm::SmallVector<const ModuleModel *, 8> Built;
  for (const CXXRecordDecl *RD : Classes)
    if (const ModuleModel *M = Models.get(RD))
      Built.push_back(M);
  // Registrations found in this check's own classes only, whatever other
  // checks sharing the models have built.
  RegistrationIndex Registrations(Built);
  for (const ModuleModel *M : Built)
    checkModel(*M, Models, Registrations);
  Classes.clear();
}

/// Tensors handed to constructors that are the module's own: every
/// construction of the translation unit makes them anew.
using OwnParams = llvm::SmallPtrSet<const ParmVarDecl *, 2>;

/// What a store puts in a member: a handed-in tensor of \p Own is new.
static ValueKind kindOf(const MemberStore &S, const OwnParams &Own) {
  if (S.Kind == ValueKind::Borrowed && S.Param && Own.count(S.Param))
    return ValueKind::Fresh;
  return S.Kind;
}

/// The state of a member after one construction.
static ValueKind stateAfter(const ModuleModel &M, const ModuleMember &Mem,
                            unsigned Setup, const OwnParams &Own) {
  if (M.Setups[Setup].Opaque)
    return ValueKind::Unknown;
  unsigned Bits = 0;
  for (const MemberStore &S : Mem.Stores[Setup]) {
    unsigned B = 1u << static_cast<unsigned>(kindOf(S, Own));
    // An element added to an array keeps the ones added before.
    Bits = S.Conditional || S.Element ? (Bits | B) : B;
  }
  auto Has = [&](ValueKind K) {
    return Bits & (1u << static_cast<unsigned>(K));
  };
  if (Has(ValueKind::Registered))
    return ValueKind::Registered;
  if (Has(ValueKind::Unknown) || Has(ValueKind::Borrowed))
    return ValueKind::Unknown;
  if (Has(ValueKind::Fresh))
    return ValueKind::Fresh;
  return ValueKind::Null;
}

void UnregisteredModuleMemberCheck::checkModel(const ModuleModel &M,
                                               ModuleModels &Models,
                                               const RegistrationIndex &Regs) {
  // "Never registered" is only sound when every construction is visible.
  if (!M.SetupVisible || M.UntracedRegistration)
    return;
  llvm::StringSet<> FixNames;
  for (const ModuleMember &Mem : M.Members)
    if (Mem.Kind != MemberKind::Config && Mem.Field->getIdentifier())
      checkMember(M, Mem, Models, Regs, FixNames);
}

/// The registration name a fix-it gives a member: `fc_` and `m_fc` become `fc`.
static std::string registrationNameFor(const FieldDecl *FD) {
  llvm::StringRef N = FD->getName();
  llvm::StringRef Base = N.rtrim('_');
  if (compat::startsWith(Base, "m_") && Base.size() > 2)
    Base = Base.drop_front(2);
  return Base.empty() ? N.str() : Base.str();
}

/// Is \p Name, or a computed name that could equal it, registered for
/// anything but \p Mem?
static bool registersMember(const ModuleMember &Mem, const CallExpr *Call) {
  if (llvm::any_of(Mem.Registrations,
                   [&](const Registration &R) { return R.Call == Call; }))
    return true;
  for (const auto &Stores : Mem.Stores)
    for (const MemberStore &S : Stores)
      if (S.RegistrationCall == Call)
        return true;
  return false;
}

static bool nameTaken(const ModuleModel &M, const ModuleMember &Mem,
                      llvm::StringRef Name) {
  for (const ModuleModel::NameUse &N : M.RegisteredNames) {
    if (registersMember(Mem, N.Call))
      continue;
    if (N.Literal ? N.Name == Name
                  : (N.Name.empty() || compat::startsWith(Name, N.Name)))
      return true;
  }
  return false;
}

static bool isSetupDefinition(const ModuleModel &M, const FunctionDecl *FD) {
  for (const SetupFunction &S : M.Setups)
    if (FD && S.Definition == FD)
      return true;
  return false;
}

/// The expression a fix wraps, for the one new object stored in \p Setup;
/// null when the fix is not certain.
static const Expr *fixableValue(const ModuleModel &M, const ModuleMember &Mem,
                                unsigned Setup, const SourceManager &SM,
                                const LangOptions &LO, const OwnParams &Own,
                                bool TensorFix) {
  const MemberStore *Cand = nullptr;
  bool ImplicitFresh = false;
  for (const MemberStore &S : Mem.Stores[Setup]) {
    bool Implicit = S.Initializer && !S.InitList && !S.InClassInit;
    ValueKind K = kindOf(S, Own);
    if (K == ValueKind::Null)
      continue;
    if (K != ValueKind::Fresh)
      return nullptr;
    if (Implicit) { // a default-constructed holder, overwritten below
      ImplicitFresh = true;
      continue;
    }
    if (Cand)
      return nullptr; // several new objects: registering each would clash
    Cand = &S;
  }
  if (!Cand || Cand->InLoop || Cand->InClassInit || !Cand->Value ||
      !isSetupDefinition(M, Cand->In) || (ImplicitFresh && Cand->Conditional))
    return nullptr;

  const Expr *W = Cand->Value;
  if (Cand->InitList) {
    // `fc(torch::nn::Linear(3, 4))`: wrap the one argument.
    const Expr *E = W->IgnoreImplicit();
    if (const auto *CE = dyn_cast<CXXConstructExpr>(E);
        CE && !isa<CXXTemporaryObjectExpr>(CE)) {
      if (CE->getNumArgs() != 1)
        return nullptr;
      E = CE->getArg(0);
    }
    W = E;
    const CXXCtorInitializer *I = Cand->CtorInit;
    if (!I || I->getLParenLoc().isInvalid() || I->getRParenLoc().isInvalid())
      return nullptr;
    // The argument must be all that is written between the parentheses.
    SourceLocation Open =
        Lexer::getLocForEndOfToken(I->getLParenLoc(), 0, SM, LO);
    CharSourceRange Inside =
        CharSourceRange::getCharRange(Open, I->getRParenLoc());
    CharSourceRange Arg = CharSourceRange::getTokenRange(W->getSourceRange());
    if (Lexer::getSourceText(Inside, SM, LO).trim() !=
        Lexer::getSourceText(Arg, SM, LO).trim())
      return nullptr;
  }
  if (W->getBeginLoc().isMacroID() || W->getEndLoc().isMacroID() ||
      SM.getFileID(W->getBeginLoc()) != SM.getFileID(W->getEndLoc()))
    return nullptr;

  QualType T = W->IgnoreImplicit()->getType();
  const CXXRecordDecl *RD = T.isNull() ? nullptr : T->getAsCXXRecordDecl();
  if (!RD)
    return nullptr;
  if (Mem.Kind == MemberKind::Tensor) {
    // Only a tensor made to require grad is certainly a parameter, and only
    // one handed in new by every construction certainly a buffer.
    if (!isTensorClass(RD) || !TensorFix)
      return nullptr;
    return W;
  }
  const CXXRecordDecl *ValueModule = holderImpl(RD);
  if (!ValueModule && hasQualifiedName(RD, "std::shared_ptr"))
    ValueModule = pointeeClass(T);
  if (!ValueModule || !Mem.ModuleClass)
    return nullptr;
  if (ValueModule->getCanonicalDecl() == Mem.ModuleClass->getCanonicalDecl())
    return W;
  if (Mem.Kind == MemberKind::SharedModule && ValueModule->hasDefinition() &&
      ValueModule->isDerivedFrom(Mem.ModuleClass))
    return W;
  return nullptr;
}

void UnregisteredModuleMemberCheck::checkMember(const ModuleModel &M,
                                                const ModuleMember &Mem,
                                                ModuleModels &Models,
                                                const RegistrationIndex &Regs,
                                                llvm::StringSet<> &FixNames) {
  // Registered after construction (a lazily built layer), by a derived class
  // or by another module: not this check's business.
  for (const Registration &R : Regs.of(Mem.Field))
    if (R.Class != M.Class || (!R.InSetup && !M.SetupReached.count(R.Root)))
      return;
  // A tensor that methods keep replacing is a cache, not module state.
  if (Mem.Kind == MemberKind::Tensor && Mem.StoredAfterSetup)
    return;
  // ReLU, pooling, Flatten...: registering them changes nothing.
  if (Mem.Stateless)
    return;

  // A tensor handed to a constructor (`mean_(std::move(mean))`) is the
  // module's own when every construction of the translation unit makes it
  // anew; one that passes anything else (another module's parameter: weight
  // tying) or none at all leaves it borrowed.
  OwnParams Own;
  bool HandedRequiresGrad = false;
  if (Mem.Kind == MemberKind::Tensor)
    for (const auto &Stores : Mem.Stores)
      for (const MemberStore &S : Stores)
        if (S.Kind == ValueKind::Borrowed && S.Param && !Own.count(S.Param) &&
            Models.newTensorsFor(S.Param, HandedRequiresGrad))
          Own.insert(S.Param);

  llvm::SmallVector<unsigned, 2> Bad, Good;
  for (unsigned I = 0; I < M.Setups.size(); ++I) {
    if (Mem.registeredBy(I))
      Good.push_back(I);
    else if (stateAfter(M, Mem, I, Own) == ValueKind::Fresh)
      Bad.push_back(I);
  }
  if (Bad.empty())
    return;
  // Unused members cost nothing to training.
  if (Mem.Uses.empty() && !M.HasInvisibleMethods)
    return;
  const FieldDecl *FD = Mem.Field;
  if (!Reported.insert(FD->getLocation().getRawEncoding()).second)
    return;

  const SourceManager &SM = Ctx->getSourceManager();
  const LangOptions &LO = Ctx->getLangOpts();
  bool IsTensor = Mem.Kind == MemberKind::Tensor;
  bool IsArray = Mem.Kind == MemberKind::ModuleArray;
  // A parameter when made to require grad or given to an optimizer; a buffer
  // when every new tensor it gets is handed in (fixed state such as a
  // normalisation's mean); else the author's call.
  bool Param = IsTensor &&
               (Mem.RequiresGrad || HandedRequiresGrad || Models.optimised(FD));
  bool Buffer = false;
  if (IsTensor && !Param && !Own.empty()) {
    Buffer = true;
    for (unsigned I : Bad)
      for (const MemberStore &S : Mem.Stores[I])
        if (S.Kind == ValueKind::Fresh)
          Buffer = false;
  }
  // The name another construction registers it under, or its own name.
  std::string Name = registrationNameFor(FD);
  for (const ModuleModel::NameUse &N : M.RegisteredNames)
    if (N.Literal && !N.Name.empty() && registersMember(Mem, N.Call))
      Name = N.Name;

  // Fix-its: one per construction that misses the registration.
  llvm::SmallVector<const Expr *, 2> Fixes;
  bool TensorFix = Mem.RequiresGrad || Buffer;
  bool Fixable = !IsArray && !nameTaken(M, Mem, Name) &&
                 !FixNames.count(Name) && (!IsTensor || TensorFix);
  for (unsigned I : Bad) {
    if (!Fixable)
      break;
    const Expr *W = fixableValue(M, Mem, I, SM, LO, Own, TensorFix);
    if (!W) {
      Fixable = false;
      break;
    }
    // A store that also runs in a construction that registers the member
    // would register it twice.
    for (unsigned G : Good)
      for (const MemberStore &S : Mem.Stores[G])
        if (S.Value == W || S.Value->IgnoreImplicit() == W->IgnoreImplicit())
          Fixable = false;
    if (!llvm::is_contained(Fixes, W))
      Fixes.push_back(W);
  }
  if (!Fixable)
    Fixes.clear();

  {
    DiagnosticBuilder D = [&]() {
      if (!Good.empty()) {
        std::string Bad0 = describeSetup(M.Setups[Bad.front()]);
        std::string Good0 = describeSetup(M.Setups[Good.front()]);
        if (IsTensor)
          return diag(FD->getLocation(),
                      "tensor member %0 is not registered by %1, although %2 "
                      "registers it: "
                      "modules built by %1 miss it in 'parameters()' and "
                      "'buffers()', so the "
                      "optimizer never updates it and 'to()' and "
                      "'save()'/'load()' skip it; "
                      "register it there too")
                 << FD << Bad0 << Good0;
        return diag(FD->getLocation(),
                    "submodule %0 is not registered by %1, although %2 "
                    "registers it: modules "
                    "built by %1 miss its parameters in 'parameters()', so the "
                    "optimizer never "
                    "updates them, and 'to()', 'train()'/'eval()' and "
                    "'save()'/'load()' skip "
                    "it; register it there too")
               << FD << Bad0 << Good0;
      }
      if (Buffer)
        return diag(FD->getLocation(),
                    "tensor member %0 holds a tensor handed to the "
                    "constructor, which every construction in this file "
                    "makes anew, and is never registered: it is missing from "
                    "'buffers()', so 'to()' leaves it on its device and "
                    "'save()'/'load()' skip it; it does not require grad and "
                    "no optimizer is given it, so it is fixed state: assign "
                    "it with '%1 = register_buffer(\"%2\", ...)' where it is "
                    "stored")
               << FD << FD->getName() << Name;
      if (IsArray)
        return diag(FD->getLocation(),
                    "submodules held in %0 are never registered with "
                    "'register_module()': their parameters are missing from "
                    "'parameters()', so the optimizer never updates them, "
                    "and 'to()', 'train()'/'eval()' and 'save()'/'load()' "
                    "skip them; register each one where it is built "
                    "('register_module(\"%1\" + std::to_string(i), ...)') "
                    "or hold them in a 'torch::nn::ModuleList'")
               << FD << Name;
      if (Param && !Mem.RequiresGrad && !HandedRequiresGrad)
        return diag(FD->getLocation(),
                    "tensor member %0 is given to an optimizer but is never "
                    "registered with 'register_parameter()': it is missing "
                    "from 'parameters()', so 'to()' leaves it on its device "
                    "and 'save()'/'load()' skip it; assign it with "
                    "'%1 = register_parameter(\"%2\", ...)' where it is built")
               << FD << FD->getName() << Name;
      if (Param)
        return diag(FD->getLocation(),
                    "tensor member %0 requires grad but is never registered "
                    "with "
                    "'register_parameter()': it is missing from "
                    "'parameters()', so the "
                    "optimizer never updates it, and 'to()' and "
                    "'save()'/'load()' skip it; "
                    "assign it with '%1 = register_parameter(\"%2\", ...)' "
                    "where it is built")
               << FD << FD->getName() << Name;
      if (IsTensor)
        return diag(FD->getLocation(),
                    "tensor member %0 is never registered with "
                    "'register_parameter()' or "
                    "'register_buffer()': it is missing from 'parameters()' "
                    "and 'buffers()', so "
                    "the optimizer never updates it and 'to()' and "
                    "'save()'/'load()' skip it; "
                    "register it with 'register_parameter()' if it is learned "
                    "or "
                    "'register_buffer()' if it is fixed state")
               << FD;
      if (!IsTensor && isModeOnlyModuleClass(Mem.ModuleClass))
        return diag(FD->getLocation(),
                    "submodule %0 is never registered with "
                    "'register_module()': 'train()'/'eval()' do not reach it, "
                    "so it keeps dropping activations after 'eval()', at "
                    "validation and inference, and 'to()' and "
                    "'save()'/'load()' skip it; assign it with "
                    "'%1 = register_module(\"%2\", ...)' where it is built")
               << FD << FD->getName() << Name;
      return diag(FD->getLocation(),
                  "submodule %0 is never registered with 'register_module()': "
                  "its parameters "
                  "are missing from 'parameters()', so the optimizer never "
                  "updates them, and "
                  "'to()', 'train()'/'eval()' and 'save()'/'load()' skip it; "
                  "assign it with "
                  "'%1 = register_module(\"%2\", ...)' where it is built")
             << FD << FD->getName() << Name;
    }();
    std::string Call = (!IsTensor ? "register_module(\""
                        : Buffer  ? "register_buffer(\""
                                  : "register_parameter(\"") +
                       Name + "\", ";
    for (const Expr *W : Fixes) {
      SourceLocation End =
          Lexer::getLocForEndOfToken(W->getEndLoc(), 0, SM, LO);
      D << FixItHint::CreateInsertion(W->getBeginLoc(), Call)
        << FixItHint::CreateInsertion(End, ")");
    }
    if (!Fixes.empty())
      FixNames.insert(Name);
  }

  // Notes: where it gets its unregistered object, where another constructor
  // registers it, where it is used.
  llvm::SmallVector<std::pair<unsigned, const MemberStore *>, 2> Built;
  for (unsigned I : Bad) {
    const MemberStore *Last = nullptr;
    for (const MemberStore &S : Mem.Stores[I])
      if (kindOf(S, Own) == ValueKind::Fresh && S.Value &&
          (S.InitList || S.InClassInit || !S.Initializer))
        Last = &S;
    if (Last && Last->Value->getBeginLoc().isValid())
      Built.push_back({I, Last});
  }
  // A store written in the setup itself says more than one reached through a helper.
  llvm::stable_sort(Built, [](const auto &A, const auto &B) {
    return A.second->Direct && !B.second->Direct;
  });
  llvm::DenseSet<unsigned> Noted;
  for (const auto &[I, S] : Built) {
    if (!Noted.insert(S->Value->getBeginLoc().getRawEncoding()).second)
      continue;
    if (S->Kind == ValueKind::Borrowed && S->Param)
      diag(S->Value->getBeginLoc(),
           "%0 stores in %1 the tensor passed as %2 here, without "
           "registering it",
           DiagnosticIDs::Note)
          << describeSetup(M.Setups[I]) << FD << S->Param;
    else if (S->Element)
      diag(S->Value->getBeginLoc(),
           "%0 adds a new module to %1 here without registering it",
           DiagnosticIDs::Note)
          << describeSetup(M.Setups[I]) << FD;
    else if (S->Direct || !S->In)
      diag(S->Value->getBeginLoc(),
           "%0 stores a new %1 in %2 here without registering it",
           DiagnosticIDs::Note)
          << describeSetup(M.Setups[I]) << (IsTensor ? "tensor" : "module")
          << FD;
    else
      diag(S->Value->getBeginLoc(),
           "%0 stores a new %1 in %2 here, through %3, without registering it",
           DiagnosticIDs::Note)
          << describeSetup(M.Setups[I]) << (IsTensor ? "tensor" : "module")
          << FD << describeFunction(S->In);
    // Through a function of another file: where it stores it there.
    SourceLocation There =
        S->Remote ? remoteLocation(SM, *S->Remote) : SourceLocation();
    if (There.isValid())
      diag(There, "%0 stores it here", DiagnosticIDs::Note)
          << describeFunction(S->In);
  }
  if (!Good.empty()) {
    SourceLocation At;
    for (const Registration &R : Mem.Registrations)
      if (R.Setup == static_cast<int>(Good.front()) && R.Site) {
        At = R.Site->getBeginLoc();
        break;
      }
    if (At.isInvalid())
      for (const MemberStore &S : Mem.Stores[Good.front()])
        if (S.Kind == ValueKind::Registered && S.Value) {
          At = S.RegistrationCall ? compat::beginLoc(S.RegistrationCall)
                                  : S.Value->getBeginLoc();
          break;
        }
    if (At.isValid())
      diag(At, "%0 registers it here", DiagnosticIDs::Note)
          << describeSetup(M.Setups[Good.front()]);
  }
  llvm::SmallPtrSet<const FunctionDecl *, 4> Seen;
  for (const MemberUse &U : Mem.Uses) {
    if (Seen.size() == 3)
      break;
    if (!Seen.insert(U.In).second)
      continue;
    diag(U.Ref->getMemberLoc(), "%0 is used here", DiagnosticIDs::Note) << FD;
  }
}

} // namespace torch_tidy
