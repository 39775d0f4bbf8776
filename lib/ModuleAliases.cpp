//===--- ModuleAliases.cpp - module handles that share one module ---------===//
//
// See ModuleAliases.h. Two readings of every user function, each one top-down
// walk of its body: the writes of module handles into variables and members,
// and the parameter updates between two modules. The writes give a forest of
// copies (each handle copies at most one other), kept in a union-find; the
// updates are followed out to the callers of a helper, and an update whose two
// modules fall in one set is an update of a module from itself.
//
//===----------------------------------------------------------------------===//
#include "torch-tidy/ModuleAliases.h"
#include "torch-tidy/Compat.h"

#include "torch-tidy/EvaluationOrder.h"

#include "clang/AST/DeclTemplate.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/StmtCXX.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallPtrSet.h"

#include <set>
#include <tuple>

using namespace clang;

namespace torch_tidy {

bool isCloneableModule(const CXXRecordDecl *Impl) {
  if (!Impl || !Impl->hasDefinition())
    return false;
  const CXXRecordDecl *Want = Impl->getCanonicalDecl();
  llvm::SmallVector<const CXXRecordDecl *, 8> Work{Impl->getDefinition()};
  llvm::SmallPtrSet<const CXXRecordDecl *, 8> Seen;
  while (!Work.empty() && Seen.size() < 64) {
    const CXXRecordDecl *D = Work.pop_back_val();
    if (!D || !Seen.insert(D).second || !D->hasDefinition())
      continue;
    for (const CXXBaseSpecifier &B : D->getDefinition()->bases()) {
      const CXXRecordDecl *BD = B.getType()->getAsCXXRecordDecl();
      if (!BD)
        continue;
      if (const auto *Spec = dyn_cast<ClassTemplateSpecializationDecl>(BD))
        if (hasQualifiedName(Spec, "torch::nn::Cloneable")) {
          const TemplateArgumentList &Args = Spec->getTemplateArgs();
          if (Args.size() == 1 && Args[0].getKind() == TemplateArgument::Type)
            if (const CXXRecordDecl *Arg =
                    Args[0].getAsType()->getAsCXXRecordDecl())
              if (Arg->getCanonicalDecl() == Want)
                return true;
        }
      Work.push_back(BD);
    }
  }
  return false;
}

bool isModuleHandleType(QualType T, const TypeConfig &Config) {
  if (T.isNull() || T->isReferenceType())
    return false;
  T = T.getCanonicalType();
  if (T->isPointerType()) {
    const CXXRecordDecl *RD = T->getPointeeType()->getAsCXXRecordDecl();
    return RD && !holderImpl(RD) && isModuleClass(RD, Config);
  }
  const CXXRecordDecl *RD = T->getAsCXXRecordDecl();
  if (!RD)
    return false;
  if (const CXXRecordDecl *Impl = holderImpl(RD))
    return isModuleClass(Impl, Config);
  return hasQualifiedName(RD, "std::shared_ptr") &&
         moduleClassOf(T, Config) != nullptr;
}

namespace {

/// A variable or member that a write can make a handle: not a parameter (a
/// caller gives it its value) and not a reference.
bool isHandleHome(const ValueDecl *D, const TypeConfig &Config) {
  if (!D || D->isInvalidDecl() || isa<ParmVarDecl>(D))
    return false;
  if (!isa<VarDecl>(D) && !isa<FieldDecl>(D))
    return false;
  return isModuleHandleType(D->getType(), Config);
}

enum class WriteKind {
  Null,  ///< nullptr, an empty shared_ptr: no module
  Copy,  ///< another handle: the same module
  Other, ///< a construction, clone(), a call's result: a module of its own
};

struct Classified {
  WriteKind Kind = WriteKind::Other;
  const ValueDecl *From = nullptr;
};

bool isNullValue(const Expr *E) {
  E = E->IgnoreParenImpCasts();
  if (isa<CXXNullPtrLiteralExpr>(E) || isa<GNUNullExpr>(E))
    return true;
  if (const auto *IL = dyn_cast<IntegerLiteral>(E))
    return IL->getValue() == 0;
  return false;
}

/// What a value written into a handle is.
Classified classify(const Expr *V, const TypeConfig &Config) {
  for (unsigned Hops = 0; V && Hops < 16; ++Hops) {
    V = stripExpr(V, Strip::Temporaries | Strip::Copies | Strip::HandleCopies |
                         Strip::Moves | Strip::Conversions | Strip::Defaults |
                         Strip::Accessors);
    if (!V)
      break;
    if (isNullValue(V))
      return {WriteKind::Null, nullptr};
    if (const auto *CE = dyn_cast<CXXConstructExpr>(V)) {
      const CXXRecordDecl *RD = recordOf(CE->getType());
      // `std::shared_ptr<NetImpl> p;`, `Net net(nullptr)`.
      if (CE->getNumArgs() == 0 && RD &&
          hasQualifiedName(RD, "std::shared_ptr"))
        return {WriteKind::Null, nullptr};
      if (CE->getNumArgs() >= 1 && isNullValue(CE->getArg(0)))
        return {WriteKind::Null, nullptr};
      return {WriteKind::Other, nullptr};
    }
    if (const auto *Call = dyn_cast<CallExpr>(V)) {
      const FunctionDecl *FD = Call->getDirectCallee();
      if (!FD)
        return {WriteKind::Other, nullptr};
      // `register_module(name, module)` returns the module it registers.
      if (const auto *MD = dyn_cast<CXXMethodDecl>(FD))
        if (hasName(MD, "register_module") &&
            hasQualifiedName(MD->getParent(), "torch::nn::Module") &&
            Call->getNumArgs() == 2) {
          V = Call->getArg(1);
          continue;
        }
      // A cast of a shared_ptr designates the same module.
      if (Call->getNumArgs() == 1 &&
          (hasQualifiedName(FD, "std::static_pointer_cast") ||
           hasQualifiedName(FD, "std::dynamic_pointer_cast") ||
           hasQualifiedName(FD, "std::const_pointer_cast"))) {
        V = Call->getArg(0);
        continue;
      }
      return {WriteKind::Other, nullptr};
    }
    if (const ValueDecl *D = objectDecl(V))
      if (moduleClassOf(D->getType(), Config))
        return {WriteKind::Copy, D};
    return {WriteKind::Other, nullptr};
  }
  return {WriteKind::Other, nullptr};
}

/// The variable or member an assignment's left side names directly.
const ValueDecl *assignedDecl(const Expr *E) {
  E = E->IgnoreParenImpCasts();
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E))
    return DRE->getDecl();
  if (const auto *ME = dyn_cast<MemberExpr>(E))
    if (isa<CXXThisExpr>(ME->getBase()->IgnoreParenImpCasts()))
      return ME->getMemberDecl();
  return nullptr;
}

struct Write {
  const ValueDecl *Into = nullptr;
  Classified What;
  const Expr *Value = nullptr;
  const FunctionDecl *In = nullptr;
  SourceLocation Loc;
};

/// The parameter lists, parameters and buffers a function's local variables
/// hold, by the module they belong to.
using LocalOwners = llvm::DenseMap<const VarDecl *, const ValueDecl *>;

bool isParameterListMethod(const CXXMethodDecl *MD) {
  return MD && MD->getIdentifier() &&
         compat::isOneOf(
             {"parameters", "named_parameters", "buffers", "named_buffers"},
             MD->getName()) &&
         hasQualifiedName(MD->getParent(), "torch::nn::Module");
}

/// Methods whose result is (part of) their object: an element of a list, the
/// value of an OrderedDict item, the data of a tensor.
bool isElementMethod(const CXXMethodDecl *MD) {
  return MD && MD->getIdentifier() &&
         compat::isOneOf({"data", "detach", "value", "at", "find", "begin",
                          "end", "front", "back", "view", "view_as", "flatten",
                          "reshape"},
                         MD->getName());
}

/// In-place tensor methods that write values read from their arguments.
bool isWritingMethod(const CXXMethodDecl *MD) {
  return MD && MD->getIdentifier() &&
         compat::isOneOf({"copy_", "add_", "sub_", "mul_", "div_", "lerp_",
                          "addcmul_", "set_", "set_data"},
                         MD->getName());
}

/// The module whose parameters (or buffers) \p E designates: a list of them,
/// one of them, or a part of one.
const ValueDecl *parameterOwner(const Expr *E, const LocalOwners &Locals,
                                const TypeConfig &Config) {
  for (unsigned Hops = 0; E && Hops < 32; ++Hops) {
    E = stripExpr(E, Strip::Temporaries | Strip::Copies | Strip::Moves |
                         Strip::Conversions);
    if (!E)
      return nullptr;
    if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
      const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
      return VD ? Locals.lookup(VD) : nullptr;
    }
    if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(E)) {
      OverloadedOperatorKind K = OC->getOperator();
      if ((K == OO_Subscript && OC->getNumArgs() == 2) ||
          ((K == OO_Star || K == OO_Arrow) && OC->getNumArgs() == 1)) {
        E = OC->getArg(0);
        continue;
      }
      return nullptr;
    }
    // A tensor member of a module (`target->weight`).
    if (const auto *ME = dyn_cast<MemberExpr>(E)) {
      if (!isTensorType(ME->getType()) || !isa<FieldDecl>(ME->getMemberDecl()))
        return nullptr;
      const ValueDecl *D = objectDecl(ME->getBase());
      return D && moduleClassOf(D->getType(), Config) ? D : nullptr;
    }
    if (const auto *UO = dyn_cast<UnaryOperator>(E)) {
      if (UO->getOpcode() != UO_Deref)
        return nullptr;
      E = UO->getSubExpr();
      continue;
    }
    if (const auto *MC = dyn_cast<CXXMemberCallExpr>(E)) {
      const CXXMethodDecl *MD = MC->getMethodDecl();
      if (isParameterListMethod(MD)) {
        const ValueDecl *D = objectDecl(MC->getImplicitObjectArgument());
        return D && moduleClassOf(D->getType(), Config) ? D : nullptr;
      }
      if (isElementMethod(MD) || isWritingMethod(MD)) {
        E = MC->getImplicitObjectArgument();
        continue;
      }
      return nullptr;
    }
    return nullptr;
  }
  return nullptr;
}

/// The first module other than \p Not whose parameters \p S reads.
const ValueDecl *readOwner(const Stmt *S, const ValueDecl *Not,
                           const LocalOwners &Locals,
                           const TypeConfig &Config) {
  const ValueDecl *Found = nullptr;
  forEachDescendant(S, [&](const Stmt *X) {
    if (isa<LambdaExpr>(X))
      return Descend::Skip;
    if (const auto *E = dyn_cast<Expr>(X))
      if (const ValueDecl *D = parameterOwner(E, Locals, Config))
        if (D != Not) {
          Found = D;
          return Descend::Stop;
        }
    return Descend::Children;
  });
  return Found;
}

bool isTensorObject(const Expr *E) {
  return E && isTensorClass(pointeeClass(E->getType()));
}

struct LocalSync {
  const Expr *Call = nullptr;
  const ValueDecl *Into = nullptr;
  const ValueDecl *From = nullptr;
  /// A call of a helper of another file: where it writes there.
  std::optional<RemoteSite> Remote;
};

class Analysis {
public:
  Analysis(const FunctionIndex &Index, const ModuleAliasConfig &Config,
           const SourceManager &SM)
      : Index(Index), Config(Config), SM(SM) {}

  std::vector<AliasedSync> run() {
    std::vector<ParameterSync> Pairs = pairs();
    if (Pairs.empty())
      return {};
    buildCopies();
    std::vector<AliasedSync> Out;
    for (const ParameterSync &P : Pairs) {
      if (P.Into == P.From || find(P.Into) != find(P.From))
        continue;
      AliasedSync A;
      A.Sync = P;
      auto It = Edges.find(P.Into);
      if (It == Edges.end())
        It = Edges.find(P.From);
      if (It == Edges.end())
        continue;
      A.Copies = It->second;
      Out.push_back(std::move(A));
    }
    return Out;
  }

  /// Every update, followed out through the callers of helpers (the
  /// handles' writes are collected on the way).
  std::vector<ParameterSync> pairs() {
    std::vector<std::pair<const FunctionDecl *, LocalSync>> Syncs;
    for (const FunctionDecl *FD : Index.functions()) {
      if (!FD || FD->isInvalidDecl() || FD->isDependentContext())
        continue;
      collectWrites(FD);
      for (LocalSync &S : collectSyncs(FD))
        Syncs.push_back({FD, std::move(S)});
      if (const auto *MD = dyn_cast<CXXMethodDecl>(FD))
        collectMemberInitialisers(MD->getParent());
    }
    std::vector<ParameterSync> Pairs;
    for (const auto &[FD, S] : Syncs) {
      // A helper of another file is one level down from its call, as one of
      // this file would be.
      unsigned Depth = S.Remote ? 1 : 0;
      if (Depth > Config.MaxCallDepth)
        continue;
      unsigned Budget = 256;
      Expanded.clear();
      expand(FD, S.Call, S.Into, S.From, S.Remote, Depth, nullptr, nullptr,
             Pairs, Budget);
    }
    return Pairs;
  }

private:
  void addWrite(const ValueDecl *Into, const Expr *Value,
                const FunctionDecl *In, SourceLocation Loc) {
    if (!Value || !isHandleHome(Into, Config.Types) || Loc.isInvalid())
      return;
    Write W{Into, classify(Value, Config.Types), Value, In, Loc};
    if (W.What.Kind == WriteKind::Null ||
        (W.What.Kind == WriteKind::Copy && W.What.From == Into))
      return;
    Writes[Into].push_back(W);
  }

  void collectWrites(const FunctionDecl *FD) {
    if (const auto *Ctor = dyn_cast<CXXConstructorDecl>(FD))
      for (const CXXCtorInitializer *Init : Ctor->inits()) {
        if (!Init || !Init->isMemberInitializer() || !Init->getInit())
          continue;
        const Expr *Value = Init->getInit();
        SourceLocation Loc = Init->getSourceLocation();
        if (const auto *DI = dyn_cast<CXXDefaultInitExpr>(Value)) {
          Value = DI->getExpr();
          Loc = Value ? Value->getExprLoc() : SourceLocation();
        } else if (!Init->isWritten()) {
          continue; // implicit default construction
        }
        addWrite(Init->getMember(), Value, FD, Loc);
      }
    // The body's writes are read by collectSyncs' walk (writeAt).
  }

  /// The write statement \p S of \p FD's body makes, if any.
  void writeAt(const Stmt *S, const FunctionDecl *FD) {
    if (const auto *DS = dyn_cast<DeclStmt>(S)) {
      for (const Decl *D : DS->decls())
        if (const auto *VD = dyn_cast<VarDecl>(D))
          if (VD->getInit())
            addWrite(VD, VD->getInit(), FD, VD->getLocation());
    } else if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(S)) {
      if (OC->getOperator() == OO_Equal && OC->getNumArgs() == 2)
        addWrite(assignedDecl(OC->getArg(0)), OC->getArg(1), FD,
                 OC->getOperatorLoc());
    } else if (const auto *BO = dyn_cast<BinaryOperator>(S)) {
      if (BO->getOpcode() == BO_Assign)
        addWrite(assignedDecl(BO->getLHS()), BO->getRHS(), FD,
                 BO->getOperatorLoc());
    }
  }

  /// The default member initialisers of a class without a constructor of
  /// its own (a constructor written in user code hands them over as its
  /// initialisers): writes of the implicit constructor, `In` null.
  void collectMemberInitialisers(const CXXRecordDecl *RD) {
    if (!RD || RD->isLambda() || RD->isInvalidDecl() ||
        !ClassesSeen.insert(RD).second || !RD->hasDefinition() ||
        RD->hasUserDeclaredConstructor())
      return;
    for (const FieldDecl *F : RD->fields())
      if (F->hasInClassInitializer())
        if (const Expr *Init = F->getInClassInitializer())
          addWrite(F, Init, nullptr, Init->getExprLoc());
  }

  std::vector<LocalSync> collectSyncs(const FunctionDecl *FD) {
    std::vector<LocalSync> Out;
    const Stmt *Body = FD->getBody();
    if (!Body)
      return Out;
    LocalOwners Locals;
    auto Note = [&](const VarDecl *VD, const Expr *Init) {
      if (!VD || !Init || Locals.count(VD))
        return;
      if (const ValueDecl *D = parameterOwner(Init, Locals, Config.Types))
        Locals[VD] = D;
    };
    auto Record = [&](const Expr *Call, const Expr *Dest, const Stmt *Reads) {
      const ValueDecl *Into = parameterOwner(Dest, Locals, Config.Types);
      if (!Into)
        return;
      if (const ValueDecl *From = readOwner(Reads, Into, Locals, Config.Types))
        Out.push_back({Call, Into, From, std::nullopt});
    };
    // One walk for the body's writes and its syncs.
    forEachDescendant(Body, [&](const Stmt *S) {
      if (isa<LambdaExpr>(S))
        return Descend::Skip; // a function of its own in the index
      writeAt(S, FD);
      if (const auto *CE = dyn_cast<CallExpr>(S))
        remoteSyncs(CE, Out);
      if (const auto *DS = dyn_cast<DeclStmt>(S)) {
        for (const Decl *D : DS->decls())
          if (const auto *VD = dyn_cast<VarDecl>(D))
            Note(VD, VD->getInit());
      } else if (const auto *FR = dyn_cast<CXXForRangeStmt>(S)) {
        Note(FR->getLoopVariable(), FR->getRangeInit());
      } else if (const auto *MC = dyn_cast<CXXMemberCallExpr>(S)) {
        const Expr *Obj = MC->getImplicitObjectArgument();
        if (isWritingMethod(MC->getMethodDecl()) && isTensorObject(Obj))
          for (const Expr *Arg : MC->arguments()) {
            size_t Before = Out.size();
            Record(MC, Obj, Arg);
            if (Out.size() != Before)
              break;
          }
      } else if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(S)) {
        OverloadedOperatorKind K = OC->getOperator();
        if ((K == OO_Equal || K == OO_PlusEqual || K == OO_MinusEqual ||
             K == OO_StarEqual) &&
            OC->getNumArgs() == 2 && isTensorObject(OC->getArg(0)))
          Record(OC, OC->getArg(0), OC->getArg(1));
      } else if (const auto *CE = dyn_cast<CallExpr>(S)) {
        const FunctionDecl *Callee = CE->getDirectCallee();
        if (Callee && CE->getNumArgs() == 2 &&
            hasQualifiedName(Callee, "torch::nn::utils::vector_to_parameters"))
          Record(CE, CE->getArg(1), CE->getArg(0));
      }
      return Descend::Children;
    });
    return Out;
  }

  /// The updates a call of a helper of another file makes between the
  /// modules passed to it, as the program summary has them.
  void remoteSyncs(const CallExpr *Call, std::vector<LocalSync> &Out) const {
    const FunctionDecl *Callee = Call->getDirectCallee();
    if (!Config.Program || !Callee || isa<CXXOperatorCallExpr>(Call) ||
        !mayBeElsewhere(Callee, SM))
      return;
    const FunctionDecl *Def = Callee->getDefinition();
    if (Def && Def->getBody())
      return;
    // Only a call handed two modules can update one from the other: no other
    // call asks the summary (what it asks is what the file's result reads).
    unsigned Modules = 0;
    for (const Expr *Arg : Call->arguments())
      if (moduleClassOf(Arg->getType().getNonReferenceType(), Config.Types))
        ++Modules;
    if (Modules < 2)
      return;
    const RemoteFunction *R = Config.Program->find(Callee);
    if (!R)
      return;
    for (const RemoteParameterSync &P : R->ParameterSyncs) {
      if (P.Into >= Call->getNumArgs() || P.From >= Call->getNumArgs())
        continue;
      const ValueDecl *Into = objectDecl(Call->getArg(P.Into));
      const ValueDecl *From = objectDecl(Call->getArg(P.From));
      if (!Into || !From || Into == From)
        continue;
      Out.push_back({Call, Into, From, P.Site});
    }
  }

  /// \p A runs before \p B, so that B's copy is what the handle holds after.
  bool before(const Write &A, const Write &B) const {
    if (A.In == B.In)
      return SM.isBeforeInTranslationUnit(A.Loc, B.Loc);
    // A member built in a constructor (an implicit one: In null) and copied
    // in another method.
    return isa<FieldDecl>(A.Into) && isConstruction(A.In) &&
           !isConstruction(B.In);
  }
  static bool isConstruction(const FunctionDecl *FD) {
    return !FD || isa<CXXConstructorDecl>(FD);
  }

  void buildCopies() {
    for (auto &[Into, Ws] : Writes) {
      const ValueDecl *Source = nullptr;
      bool OneSource = true;
      for (const Write &W : Ws)
        if (W.What.Kind == WriteKind::Copy) {
          if (Source && Source != W.What.From)
            OneSource = false;
          Source = W.What.From;
        }
      if (!Source || !OneSource)
        continue;
      std::vector<ModuleHandleCopy> Copies;
      for (const Write &C : Ws) {
        if (C.What.Kind != WriteKind::Copy)
          continue;
        bool AfterAll = llvm::all_of(Ws, [&](const Write &O) {
          return O.What.Kind != WriteKind::Other || before(O, C);
        });
        if (AfterAll)
          Copies.push_back({Into, Source, C.Value, C.In});
      }
      if (Copies.empty())
        continue;
      Edges[Into] = std::move(Copies);
      unite(Into, Source);
    }
  }

  const ValueDecl *find(const ValueDecl *D) {
    for (unsigned Steps = 0; Steps < 4096; ++Steps) {
      auto It = Parent.find(D);
      if (It == Parent.end() || It->second == D)
        return D;
      D = It->second;
    }
    return D;
  }
  void unite(const ValueDecl *A, const ValueDecl *B) {
    const ValueDecl *RA = find(A), *RB = find(B);
    if (RA != RB)
      Parent[RA] = RB;
  }

  /// The decl \p D is passed as by \p CS (a parameter of \p Callee), or \p D.
  static const ValueDecl *atCaller(const ValueDecl *D, const CallSite &CS) {
    if (const auto *P = dyn_cast<ParmVarDecl>(D))
      return objectDecl(CS.argumentFor(P));
    return D;
  }

  static bool callsOnThis(const CallSite &CS) {
    const auto *MC = dyn_cast<CXXMemberCallExpr>(CS.Site);
    return MC && isa<CXXThisExpr>(
                     MC->getImplicitObjectArgument()->IgnoreParenImpCasts());
  }

  void expand(const FunctionDecl *FD, const Expr *Call, const ValueDecl *Into,
              const ValueDecl *From, const std::optional<RemoteSite> &Remote,
              unsigned Depth, const FunctionDecl *Via, const Expr *ViaCall,
              std::vector<ParameterSync> &Out, unsigned &Budget) {
    // A helper that calls itself (with its arguments swapped) is read once
    // per pair of modules.
    if (!Expanded.insert({FD, Into, From}).second)
      return;
    Out.push_back({Call, Into, From, Via, ViaCall, Remote});
    bool IntoParam = isa<ParmVarDecl>(Into) && Into->getDeclContext() == FD;
    bool FromParam = isa<ParmVarDecl>(From) && From->getDeclContext() == FD;
    if ((!IntoParam && !FromParam) || Depth >= Config.MaxCallDepth)
      return;
    // A member that is not passed in is the callee's own: its callers must
    // call it on the same object.
    bool KeepsMember = (!IntoParam && isa<FieldDecl>(Into)) ||
                       (!FromParam && isa<FieldDecl>(From));
    for (const CallSite &CS : Index.callers(FD)) {
      if (Budget == 0)
        return;
      --Budget;
      if (!CS.Caller || (KeepsMember && !callsOnThis(CS)))
        continue;
      const ValueDecl *I = atCaller(Into, CS), *F = atCaller(From, CS);
      if (!I || !F || I == F)
        continue;
      expand(CS.Caller, Call, I, F, Remote, Depth + 1, FD, CS.Site, Out,
             Budget);
    }
  }

  const FunctionIndex &Index;
  const ModuleAliasConfig &Config;
  const SourceManager &SM;
  llvm::MapVector<const ValueDecl *, std::vector<Write>> Writes;
  llvm::DenseMap<const ValueDecl *, std::vector<ModuleHandleCopy>> Edges;
  llvm::DenseMap<const ValueDecl *, const ValueDecl *> Parent;
  llvm::SmallPtrSet<const CXXRecordDecl *, 16> ClassesSeen;
  std::set<
      std::tuple<const FunctionDecl *, const ValueDecl *, const ValueDecl *>>
      Expanded;
};

} // namespace

std::vector<AliasedSync> findAliasedSyncs(const FunctionIndex &Index,
                                          const ModuleAliasConfig &Config,
                                          const SourceManager &SM) {
  return Analysis(Index, Config, SM).run();
}

std::vector<ParameterSync> findParameterSyncs(const FunctionIndex &Index,
                                              const ModuleAliasConfig &Config,
                                              const SourceManager &SM) {
  return Analysis(Index, Config, SM).pairs();
}

} // namespace torch_tidy
