//===--- ModelMode.cpp - train/eval mode of a module at a forward ---------===//
#include "torch-tidy/ModelMode.h"
#include "torch-tidy/Anchor.h"
#include "torch-tidy/Compat.h"
#include "torch-tidy/EvaluationOrder.h"
#include "torch-tidy/WholeProgram.h"

#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/StmtCXX.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/SmallVector.h"

#include <algorithm>
#include <functional>
#include <vector>

using namespace clang;

namespace torch_tidy {

Mode join(Mode A, const Mode &B) {
  A.Bits |= B.Bits;
  if (!A.TrainCall)
    A.TrainCall = B.TrainCall;
  if (!A.EvalCall)
    A.EvalCall = B.EvalCall;
  if (!A.FromCall)
    A.FromCall = B.FromCall;
  return A;
}

std::string describeObject(const ValueDecl *D) {
  if (D && D->getIdentifier())
    return "'" + D->getName().str() + "'";
  return "the module";
}

namespace {
/// The modes of the module objects on the paths reaching one point.
struct Flow {
  bool Reachable = true;
  llvm::DenseMap<const ValueDecl *, Mode> Objects;
  /// Bits every object gets: a switch on a module the walk cannot name.
  unsigned AnyBits = 0;
};
} // namespace

struct ModelModeAnalysis::Walked {
  const FunctionDecl *Owner = nullptr;
  bool Complete = true;
  std::vector<ForwardPoint> Forwards;
  /// The flow just before the statement holding each call of a user function,
  /// packed (a DenseMap takes 64 buckets, about 2.5 KB, at its first object,
  /// and one flow is kept per call until the end of the translation unit):
  /// appended while walking, then sorted by call (sealAtCalls), the last
  /// visit of a call winning.
  struct FlowAtCall {
    const Expr *Call;
    unsigned AnyBits;
    llvm::SmallVector<std::pair<const ValueDecl *, Mode>, 2> Objects;
  };
  std::vector<FlowAtCall> AtCalls;

  /// \p F is reachable (apply() reads nothing else).
  void addAtCall(const Expr *Call, const Flow &F) {
    AtCalls.push_back({Call, F.AnyBits, {F.Objects.begin(), F.Objects.end()}});
  }

  void sealAtCalls() {
    // Stable: of the visits of one call, the last stays last.
    std::stable_sort(AtCalls.begin(), AtCalls.end(),
                     [](const FlowAtCall &A, const FlowAtCall &B) {
                       return std::less<const Expr *>()(A.Call, B.Call);
                     });
    std::vector<FlowAtCall> Last;
    for (FlowAtCall &P : AtCalls) {
      if (!Last.empty() && Last.back().Call == P.Call)
        Last.back() = std::move(P);
      else
        Last.push_back(std::move(P));
    }
    AtCalls = std::move(Last);
  }

  /// The flow before \p Call, or null when none reached it.
  const FlowAtCall *atCall(const Expr *Call) const {
    auto It = std::lower_bound(AtCalls.begin(), AtCalls.end(), Call,
                               [](const FlowAtCall &P, const Expr *C) {
                                 return std::less<const Expr *>()(P.Call, C);
                               });
    return It != AtCalls.end() && It->Call == Call ? &*It : nullptr;
  }
  /// Local holder copies, smart pointers and pointers: what they designate.
  llvm::DenseMap<const ValueDecl *, const ValueDecl *> Aliases;
  /// Local modules and what they start as (Fresh or Unknown).
  llvm::DenseMap<const ValueDecl *, unsigned> Locals;

  const ValueDecl *canon(const ValueDecl *D) const {
    for (unsigned I = 0; D && I < 8; ++I) {
      auto It = Aliases.find(D);
      if (It == Aliases.end())
        break;
      D = It->second;
    }
    return D;
  }

  Mode initial(const ValueDecl *D) const {
    Mode M;
    if (const auto *VD = dyn_cast<VarDecl>(D)) {
      if (isa<ParmVarDecl>(VD)) {
        M.Bits = ModeEntry;
        return M;
      }
      if (VD->getDeclContext() == Owner) {
        auto It = Locals.find(VD);
        M.Bits = It != Locals.end() ? It->second : ModeUnknown;
        return M;
      }
      if (VD->hasGlobalStorage() && !VD->isStaticLocal() && Owner->isMain()) {
        M.Bits = ModeFresh;
        return M;
      }
    }
    M.Bits = ModeEntry; // a member, a global, a capture: the callers decide
    return M;
  }

  Mode lookup(const Flow &F, const ValueDecl *D) const {
    auto It = F.Objects.find(D);
    Mode M = It != F.Objects.end() ? It->second : initial(D);
    M.Bits |= F.AnyBits;
    return M;
  }

  Mode lookup(const FlowAtCall &F, const ValueDecl *D) const {
    Mode M = initial(D);
    for (const auto &KV : F.Objects)
      if (KV.first == D) {
        M = KV.second;
        break;
      }
    M.Bits |= F.AnyBits;
    return M;
  }

  Flow join(const Flow &A, const Flow &B) const {
    if (!A.Reachable)
      return B;
    if (!B.Reachable)
      return A;
    Flow R = A;
    R.AnyBits |= B.AnyBits;
    for (const auto &KV : B.Objects) {
      auto It = R.Objects.find(KV.first);
      if (It != R.Objects.end())
        It->second = torch_tidy::join(It->second, KV.second);
      else
        R.Objects[KV.first] = torch_tidy::join(initial(KV.first), KV.second);
    }
    for (auto &KV : R.Objects)
      if (!B.Objects.count(KV.first))
        KV.second = torch_tidy::join(KV.second, initial(KV.first));
    return R;
  }
};

namespace {
/// Is \p E a construction of a new module (not a copy of another one)?
bool buildsModule(const Expr *E) {
  if (!E)
    return true; // default-initialised
  E = E->IgnoreImplicit();
  if (const auto *C = dyn_cast<CXXConstructExpr>(E)) {
    if (const CXXConstructorDecl *Ctor = C->getConstructor())
      if (Ctor->isCopyOrMoveConstructor()) {
        if (C->getNumArgs() == 1)
          return buildsModule(C->getArg(0));
        return false;
      }
    return true;
  }
  if (isa<CXXFunctionalCastExpr>(E) || isa<CXXTemporaryObjectExpr>(E))
    return true;
  if (const auto *CE = dyn_cast<CallExpr>(E))
    if (const FunctionDecl *FD = CE->getDirectCallee())
      return hasQualifiedName(FD, "std::make_shared") ||
             hasQualifiedName(FD, "std::make_unique");
  if (const auto *NE = dyn_cast<CXXNewExpr>(E))
    return NE != nullptr;
  return false;
}

/// Walks one function body, carrying the modes of the module objects along
/// every path (see the file comment of ModelMode.h).
class ModeWalker {
public:
  ModeWalker(AutogradEventAnalysis &Events, const FunctionIndex &Index,
             ModelModeAnalysis::Walked &Out)
      : Events(Events), Index(Index), Out(Out) {}

  void run(const Stmt *Body) {
    Flow F;
    stmt(Body, F);
    if (Truncated || Opaque)
      Out.Complete = false;
  }

private:
  static constexpr unsigned MaxDepth = 1500;
  static constexpr unsigned MaxSteps = 200000;

  struct Target {
    bool IsLoop = false;
    Flow Break;
    Flow Continue;
    bool SawBreak = false, SawContinue = false;
  };

  void mergeInto(Flow &Into, bool &Saw, const Flow &F) {
    if (!F.Reachable)
      return;
    Into = Saw ? Out.join(Into, F) : F;
    Saw = true;
  }

  Mode &slot(Flow &F, const ValueDecl *D) {
    auto It = F.Objects.find(D);
    if (It == F.Objects.end())
      It = F.Objects.insert({D, Out.initial(D)}).first;
    return It->second;
  }

  bool recording() const { return NonFinal == 0; }

  /// The calls of one expression (or declaration), in order.
  void apply(const Stmt *S, Flow &F) {
    if (!S || !F.Reachable)
      return;
    if (recording())
      forEachCallBelow(S, [&](const CallExpr *CE) {
        if (const FunctionDecl *Callee = CE->getDirectCallee())
          if (Index.userDefinition(Callee))
            Out.addAtCall(CE, F);
      });
    bool Whole = true;
    EventList Ev = Events.straightLine(S, &Whole);
    if (!Whole)
      F.AnyBits |= ModeUnknown; // a helper beyond MaxCallDepth may switch it
    // The mode of each object before the first switch of a run of switches
    // in one helper call that no exit separates (same Site, same ExitMark).
    llvm::DenseMap<
        std::pair<const ValueDecl *, std::pair<const CallExpr *, unsigned>>,
        Mode>
        RunStart;
    for (const AutogradEvent &E : Ev) {
      bool Weak = E.Conditional || E.AfterExit;
      if (E.Kind == EventKind::Eval || E.Kind == EventKind::Train) {
        const ValueDecl *D = Out.canon(E.Object);
        if (!D) {
          F.AnyBits |= ModeUnknown;
          continue;
        }
        Mode New;
        if (E.Kind == EventKind::Eval) {
          New.Bits = ModeEval;
          New.EvalCall = E.Site;
        } else {
          New.Bits = ModeTrainCall;
          New.TrainCall = E.Site;
        }
        Mode &M = slot(F, D);
        auto Run = RunStart.try_emplace({D, {E.Site, E.ExitMark}}, M);
        if (!Run.second && E.AfterExit && !E.Conditional)
          // Only an early exit of the helper skips it, and that exit skips
          // the earlier switches of the run too: on the paths that ran them,
          // this one overrides them (`eval(); ...; train();` after an early
          // `return`).
          M = join(New, Run.first->second);
        else
          M = Weak ? join(New, M) : New;
      } else if (E.Kind == EventKind::Opaque) {
        // Code this translation unit cannot read was handed the module: it
        // may have switched it.
        if (const ValueDecl *D = Out.canon(E.Object))
          if (isModuleClass(E.ObjectClass, Events.config().Types))
            slot(F, D).Bits |= ModeUnknown;
      } else if (E.Kind == EventKind::Forward && recording() &&
                 !Loops.empty()) {
        ForwardPoint P;
        P.Event = E;
        P.Object = Out.canon(E.Object);
        if (P.Object)
          P.In = Out.lookup(F, P.Object);
        P.Loop = Loops.back();
        P.Enclosing.append(Loops.begin(), Loops.end() - 1);
        Out.Forwards.push_back(P);
      }
    }
    if (endsPath(S))
      F.Reachable = false;
  }

  static bool endsPath(const Stmt *S) {
    const auto *E = dyn_cast<Expr>(S);
    if (!E)
      return false;
    E = E->IgnoreImplicit();
    if (isa<CXXThrowExpr>(E))
      return true;
    if (const auto *CE = dyn_cast<CallExpr>(E))
      if (const FunctionDecl *FD = CE->getDirectCallee())
        return FD->isNoReturn();
    return false;
  }

  void declare(const DeclStmt *DS, Flow &F) {
    apply(DS, F);
    for (const Decl *D : DS->decls()) {
      const auto *VD = dyn_cast<VarDecl>(D);
      if (!VD)
        continue;
      QualType T = VD->getType();
      const CXXRecordDecl *RD = pointeeClass(T);
      if (!RD || !(isModuleClass(RD, Events.config().Types) ||
                   isModuleHolderClass(RD)))
        continue;
      const Expr *Init = VD->getInit();
      bool Owns = !T->isReferenceType() && !T->isPointerType();
      if (Init && (!Owns || !buildsModule(Init)))
        if (const ValueDecl *Target = objectDecl(Init)) {
          if (Target != VD)
            Out.Aliases[VD] = Target;
          continue;
        }
      unsigned Start = Owns && buildsModule(Init) ? ModeFresh : ModeUnknown;
      Out.Locals[VD] = Start;
      Mode M;
      M.Bits = Start;
      F.Objects[VD] = M;
    }
  }

  void stmt(const Stmt *S, Flow &F) {
    if (!S)
      return;
    if (Depth >= MaxDepth || ++Steps > MaxSteps) {
      Truncated = true;
      return;
    }
    ++Depth;
    visit(S, F);
    --Depth;
  }

  void visit(const Stmt *S, Flow &F) {
    if (const auto *CS = dyn_cast<CompoundStmt>(S)) {
      for (const Stmt *Child : CS->body())
        stmt(Child, F);
    } else if (const auto *If = dyn_cast<IfStmt>(S)) {
      stmt(If->getInit(), F);
      if (const DeclStmt *DS = If->getConditionVariableDeclStmt())
        declare(DS, F);
      else
        apply(If->getCond(), F);
      Flow Then = F;
      stmt(If->getThen(), Then);
      stmt(If->getElse(), F);
      F = Out.join(Then, F);
    } else if (isLoop(S)) {
      loop(S, F);
    } else if (const auto *Sw = dyn_cast<SwitchStmt>(S)) {
      stmt(Sw->getInit(), F);
      if (const DeclStmt *DS = Sw->getConditionVariableDeclStmt())
        declare(DS, F);
      else
        apply(Sw->getCond(), F);
      Target T;
      Targets.push_back(&T);
      Switches.push_back({F, false});
      Flow Body = F;
      Body.Reachable = false; // the body is entered at its labels
      stmt(Sw->getBody(), Body);
      bool SawDefault = Switches.back().second;
      Flow Entry = Switches.back().first;
      Switches.pop_back();
      Targets.pop_back();
      F = Body;
      if (T.SawBreak)
        F = Out.join(F, T.Break);
      if (!SawDefault)
        F = Out.join(F, Entry);
    } else if (const auto *SC = dyn_cast<SwitchCase>(S)) {
      if (!Switches.empty()) {
        F = Out.join(F, Switches.back().first);
        if (isa<DefaultStmt>(SC))
          Switches.back().second = true;
      }
      stmt(SC->getSubStmt(), F);
    } else if (isa<BreakStmt>(S)) {
      if (!Targets.empty())
        mergeInto(Targets.back()->Break, Targets.back()->SawBreak, F);
      F.Reachable = false;
    } else if (isa<ContinueStmt>(S)) {
      for (auto It = Targets.rbegin(); It != Targets.rend(); ++It)
        if ((*It)->IsLoop) {
          mergeInto((*It)->Continue, (*It)->SawContinue, F);
          break;
        }
      F.Reachable = false;
    } else if (const auto *R = dyn_cast<ReturnStmt>(S)) {
      apply(R->getRetValue(), F);
      F.Reachable = false;
    } else if (const auto *CR = dyn_cast<CoreturnStmt>(S)) {
      apply(CR->getOperand(), F);
      F.Reachable = false;
    } else if (isa<GotoStmt>(S) || isa<IndirectGotoStmt>(S)) {
      Opaque = true; // labels are not followed
      F.Reachable = false;
    } else if (const auto *L = dyn_cast<LabelStmt>(S)) {
      stmt(L->getSubStmt(), F);
    } else if (const auto *A = dyn_cast<AttributedStmt>(S)) {
      stmt(A->getSubStmt(), F);
    } else if (const auto *Try = dyn_cast<CXXTryStmt>(S)) {
      Flow Entry = F;
      stmt(Try->getTryBlock(), F);
      // A throw may come from anywhere in the try block.
      Flow Thrown = Out.join(Entry, F);
      for (unsigned I = 0; I < Try->getNumHandlers(); ++I) {
        Flow H = Thrown;
        H.Reachable = true;
        stmt(Try->getHandler(I)->getHandlerBlock(), H);
        F = Out.join(F, H);
      }
    } else if (const auto *DS = dyn_cast<DeclStmt>(S)) {
      declare(DS, F);
    } else if (isa<NullStmt>(S)) {
    } else {
      apply(S, F);
    }
  }

  /// What an iteration leaves for the next one: an `eval()` of this
  /// iteration is an `eval()` of an earlier iteration there.
  /// An `eval()` that was already in force when the loop was entered (\p In)
  /// and was not called again is not one of an earlier iteration.
  Flow backEdge(Flow F, const Flow &In) {
    for (auto &KV : F.Objects) {
      Mode &M = KV.second;
      if (!(M.Bits & ModeEval))
        continue;
      Mode Before = In.Reachable ? Out.lookup(In, KV.first) : Mode();
      if ((Before.Bits & ModeEval) && Before.EvalCall == M.EvalCall)
        continue;
      M.Bits = (M.Bits & ~ModeEval) | ModeEvalLoop;
    }
    if ((F.AnyBits & ModeEval) && !(In.AnyBits & ModeEval))
      F.AnyBits = (F.AnyBits & ~ModeEval) | ModeEvalLoop;
    return F;
  }

  void loop(const Stmt *L, Flow &F) {
    if (const auto *For = dyn_cast<ForStmt>(L)) {
      stmt(For->getInit(), F);
    } else if (const auto *RF = dyn_cast<CXXForRangeStmt>(L)) {
      stmt(RF->getInit(), F);
      apply(RF->getRangeInit(), F);
    }
    Flow In = F;
    Flow End; // the end of the last iteration walked
    Flow Exit;
    for (unsigned Pass = 0; Pass < 2; ++Pass) {
      bool Final = Pass == 1;
      if (!Final)
        ++NonFinal;
      Target T;
      T.IsLoop = true;
      Targets.push_back(&T);
      Loops.push_back(L);
      Flow I = Pass == 0 ? In : Out.join(In, backEdge(End, In));
      iteration(L, I, T);
      Loops.pop_back();
      Targets.pop_back();
      if (!Final)
        --NonFinal;
      End = I;
      // A loop is taken to run at least once: it is left at the end of an
      // iteration or by a `break`.
      Exit = I;
      if (T.SawBreak)
        Exit = Out.join(Exit, T.Break);
    }
    F = Exit;
    if (!F.Reachable && !In.Reachable)
      F.Reachable = false;
  }

  void iteration(const Stmt *L, Flow &I, Target &T) {
    auto Body = [&](const Stmt *B) {
      stmt(B, I);
      if (T.SawContinue)
        I = Out.join(I, T.Continue);
    };
    if (const auto *For = dyn_cast<ForStmt>(L)) {
      if (const DeclStmt *DS = For->getConditionVariableDeclStmt())
        declare(DS, I);
      apply(For->getCond(), I);
      Body(For->getBody());
      apply(For->getInc(), I);
    } else if (const auto *RF = dyn_cast<CXXForRangeStmt>(L)) {
      if (const DeclStmt *DS = RF->getLoopVarStmt())
        declare(DS, I);
      Body(RF->getBody());
    } else if (const auto *W = dyn_cast<WhileStmt>(L)) {
      if (const DeclStmt *DS = W->getConditionVariableDeclStmt())
        declare(DS, I);
      else
        apply(W->getCond(), I);
      Body(W->getBody());
    } else if (const auto *D = dyn_cast<DoStmt>(L)) {
      Body(D->getBody());
      apply(D->getCond(), I);
    }
  }

  AutogradEventAnalysis &Events;
  const FunctionIndex &Index;
  ModelModeAnalysis::Walked &Out;
  llvm::SmallVector<Target *, 4> Targets;
  llvm::SmallVector<std::pair<Flow, bool>, 2> Switches;
  llvm::SmallVector<const Stmt *, 4> Loops;
  unsigned NonFinal = 0;
  unsigned Depth = 0;
  unsigned Steps = 0;
  bool Truncated = false;
  bool Opaque = false;
};
} // namespace

ModelModeAnalysis::ModelModeAnalysis(const ModelModeConfig &Config,
                                     const FunctionIndex &Index,
                                     ASTContext &Ctx)
    : Config(Config), Index(Index), Ctx(Ctx),
      Events(Config.Loop, Ctx.getSourceManager()), GradMode(Config.Grad, Index),
      Models(ModuleModels::of(Ctx, Config.Modules)),
      Callers(Config.Loop.MaxCallDepth) {}

ModelModeAnalysis::~ModelModeAnalysis() = default;

const ModelModeAnalysis::Walked &
ModelModeAnalysis::walk(const FunctionDecl *FD) {
  std::unique_ptr<Walked> &W = Walks[FD];
  if (W)
    return *W;
  W = std::make_unique<Walked>();
  W->Owner = FD;
  if (!FD->getBody() || FD->isDependentContext()) {
    W->Complete = false;
    return *W;
  }
  Walked *Raw = W.get(); // the map may grow while walking
  ModeWalker(Events, Index, *Raw).run(FD->getBody());
  Raw->sealAtCalls();
  return *Raw;
}

std::vector<ForwardPoint> ModelModeAnalysis::forwards(const FunctionDecl *FD) {
  // Only a loop makes a pass: a function without one is read only when a
  // caller's or callee's question needs it (so that MaxCallDepth bounds what
  // is read from each loop).
  // A loop of its own, not one in a lambda, from the loops every analysis
  // shares (forEachLoop).
  bool HasLoop = false;
  forEachLoop(FD, [&](const Stmt *, llvm::ArrayRef<const Stmt *>,
                      const FunctionDecl *Owner) {
    if (Owner == FD)
      HasLoop = true;
  });
  if (!HasLoop)
    return {};
  const Walked &W = walk(FD);
  if (!W.Complete)
    return {};
  return W.Forwards;
}

/// The object \p Obj of \p Callee as the call \p CS designates it.
static const ValueDecl *objectAtCall(const CallSite &CS,
                                     const FunctionDecl *Callee,
                                     const ValueDecl *Obj) {
  if (const auto *P = dyn_cast<ParmVarDecl>(Obj)) {
    if (P->getDeclContext() != Callee)
      return nullptr;
    const Expr *Arg = CS.argumentFor(P);
    return Arg ? objectDecl(Arg) : nullptr;
  }
  if (isa<FieldDecl>(Obj)) {
    // A method of the same object: called on `this`, from a method.
    const auto *CE = dyn_cast<CallExpr>(CS.Site);
    const Expr *On = CE ? memberCallObject(CE) : nullptr;
    if (!On || !isa<CXXThisExpr>(On->IgnoreParenImpCasts()))
      return nullptr;
    return Obj;
  }
  if (isa<VarDecl>(Obj))
    return Obj; // a global, or a local captured by a lambda
  return nullptr;
}

Mode ModelModeAnalysis::entryMode(const FunctionDecl *FD, const ValueDecl *Obj,
                                  unsigned Level) {
  auto Key = std::make_pair(std::make_pair(FD, Obj), Level);
  auto Known = EntryModes.find(Key);
  if (Known != EntryModes.end())
    return Known->second;
  Mode R;
  if (!Callers.follows(Level) || !Callers.enter(FD))
    return R;
  for (const CallSite &CS : Index.callers(FD)) {
    const ValueDecl *At = objectAtCall(CS, FD, Obj);
    if (!At || !CS.Caller)
      continue;
    const Walked &W = walk(CS.Caller);
    if (!W.Complete)
      continue;
    const Walked::FlowAtCall *Before = W.atCall(CS.Site);
    if (!Before)
      continue;
    At = W.canon(At);
    Mode M = W.lookup(*Before, At);
    if (M.Bits & ModeEntry) {
      M.Bits &= ~ModeEntry;
      M = join(M, entryMode(CS.Caller, At, Level + 1));
    }
    M.FromCall = CS.Site;
    R = join(R, M);
  }
  Callers.leave(FD);
  EntryModes[Key] = R;
  return R;
}

static bool isLossClass(const CXXRecordDecl *RD) {
  if (const CXXRecordDecl *Impl = holderImpl(RD))
    RD = Impl;
  if (!RD || !RD->getIdentifier())
    return false;
  const auto *NS = dyn_cast<NamespaceDecl>(RD->getDeclContext());
  return NS && NS->getIdentifier() && NS->getName() == "nn" &&
         compat::endsWith(RD->getName(), "LossImpl");
}

/// A LibTorch call that computes a loss or a metric.
static bool isMeasure(const CallExpr *CE) {
  const FunctionDecl *FD = CE->getDirectCallee();
  if (!FD || !FD->getIdentifier()) {
    // `criterion(output, target)` on a loss holder.
    return FD && isa<CXXMethodDecl>(FD) &&
           FD->getOverloadedOperator() == OO_Call &&
           isLossClass(calleeObjectClass(CE));
  }
  StringRef N = FD->getName();
  if (const auto *MD = dyn_cast<CXXMethodDecl>(FD)) {
    if (isLossClass(calleeObjectClass(CE)))
      return N == "forward";
    if (!isTensorClass(MD->getParent()))
      return false;
    return compat::isOneOf({"item", "argmax", "argmin", "eq", "topk", "max"},
                           N);
  }
  const auto *NS = dyn_cast<NamespaceDecl>(FD->getDeclContext());
  if (!NS || !NS->getIdentifier())
    return false;
  StringRef Space = NS->getName();
  if (Space != "at" && Space != "torch" && Space != "functional")
    return false;
  return compat::endsWith(N, "_loss") || compat::startsWith(N, "nll_loss") ||
         compat::isOneOf({"cross_entropy", "binary_cross_entropy",
                          "binary_cross_entropy_with_logits", "kl_div",
                          "argmax", "argmin", "eq", "topk"},
                         N);
}

bool ModelModeAnalysis::measures(const Stmt *S, unsigned Depth) {
  bool Found = false;
  forEachCallBelow(S, [&](const CallExpr *CE) {
    if (Found)
      return;
    if (isMeasure(CE)) {
      Found = true;
      return;
    }
    if (const FunctionDecl *Callee = CE->getDirectCallee())
      if (const FunctionDecl *Def = Index.userDefinition(Callee))
        Found = measuresIn(Def, Depth + 1);
  });
  return Found;
}

bool ModelModeAnalysis::measuresIn(const FunctionDecl *FD, unsigned Depth) {
  if (Depth > Config.Loop.MaxCallDepth || !FD->getBody())
    return false;
  auto It = Measuring.find(FD);
  if (It != Measuring.end())
    return It->second;
  Measuring[FD] = false; // recursion adds nothing
  bool R = measures(FD->getBody(), Depth);
  Measuring[FD] = R;
  return R;
}

unsigned ModelModeAnalysis::loopKinds(const Stmt *S) {
  auto It = Kinds.find(S);
  if (It != Kinds.end())
    return It->second;
  EventList Ev = isLoop(S) ? Events.iteration(S) : Events.straightLine(S);
  unsigned K = 0;
  for (const AutogradEvent &E : Ev)
    K |= 1u << unsigned(E.Kind);
  Kinds[S] = K;
  return K;
}

PassInfo ModelModeAnalysis::pass(const ForwardPoint &P,
                                 const FunctionDecl *Owner) {
  PassInfo R;
  if (!P.Loop || !Owner)
    return R;
  unsigned Kinds = loopKinds(P.Loop);
  if (Kinds & (1u << unsigned(EventKind::Backward))) {
    R.Kind = PassKind::Training;
    return R;
  }
  if (Kinds & (1u << unsigned(EventKind::OptimizerStep)))
    return R;
  // Forward without backward() inside a pass that calls backward() later
  // (a sum of losses over chunks) is training.
  for (const Stmt *Outer : P.Enclosing)
    if (loopKinds(Outer) & (1u << unsigned(EventKind::Backward)))
      return R;
  if (Owner->getBody() &&
      (loopKinds(Owner->getBody()) & (1u << unsigned(EventKind::Backward))))
    return R;
  R.NoGrad = !GradMode.at(Owner, P.Event.Site).Records;
  R.Measures = measures(loopBody(P.Loop), 0);
  if (R.NoGrad || R.Measures)
    R.Kind = PassKind::Evaluation;
  return R;
}

static bool inList(const CXXRecordDecl *RD, llvm::ArrayRef<std::string> Names) {
  for (const std::string &N : Names) {
    llvm::StringRef Name = N;
    Name.consume_front("::");
    if (isSameOrDerivedFrom(RD, Name))
      return true;
  }
  return false;
}

/// LibTorch modules whose forward() reads is_training(): dropouts, batch and
/// instance norm, RReLU, and the transformer layers (dropout 0.1 by default).
static bool isLibTorchModeDependent(const CXXRecordDecl *RD) {
  if (isModeOnlyModuleClass(RD))
    return true;
  static const llvm::StringRef Names[] = {
      "torch::nn::BatchNorm1dImpl",
      "torch::nn::BatchNorm2dImpl",
      "torch::nn::BatchNorm3dImpl",
      "torch::nn::InstanceNorm1dImpl",
      "torch::nn::InstanceNorm2dImpl",
      "torch::nn::InstanceNorm3dImpl",
      "torch::nn::RReLUImpl",
      "torch::nn::TransformerImpl",
      "torch::nn::TransformerEncoderImpl",
      "torch::nn::TransformerEncoderLayerImpl",
      "torch::nn::TransformerDecoderImpl",
      "torch::nn::TransformerDecoderLayerImpl",
  };
  return isSameOrDerivedFromAny(RD, Names);
}

static bool isContainerClass(const CXXRecordDecl *RD) {
  static const llvm::StringRef Containers[] = {"torch::nn::SequentialImpl",
                                               "torch::nn::ModuleListImpl",
                                               "torch::nn::ModuleDictImpl"};
  return isSameOrDerivedFromAny(RD, Containers);
}

/// A method of \p RD that calls `is_training()`, or null.
static const CallExpr *isTrainingCall(const CXXRecordDecl *RD) {
  for (const CXXMethodDecl *MD : RD->methods()) {
    const FunctionDecl *Def = nullptr;
    if (!MD->hasBody(Def) || !Def || Def->isDependentContext())
      continue;
    // The calls of the method as every analysis shares them (callsIn).
    for (const CallExpr *CE : callsIn(Def)) {
      const FunctionDecl *FD = CE->getDirectCallee();
      if (FD && FD->getIdentifier() && FD->getName() == "is_training")
        return CE;
    }
  }
  return nullptr;
}

ModeDependence ModelModeAnalysis::dependence(const CXXRecordDecl *RD) {
  return dependence(RD, 0);
}

/// A container (`Sequential`, ...) held by value, holder or pointer.
static bool isContainerObject(QualType T) {
  const CXXRecordDecl *RD = pointeeClass(T);
  if (const CXXRecordDecl *Impl = RD ? holderImpl(RD) : nullptr)
    RD = Impl;
  return RD && isContainerClass(RD);
}

/// The construction of a container a value is built by: `Sequential(a, b)`
/// (also as the module given to `register_module`), or null.
static const CXXConstructExpr *containerBuild(const Expr *E) {
  for (unsigned Hops = 0; E && Hops < 8; ++Hops) {
    E = E->IgnoreImplicit();
    if (const auto *CE = dyn_cast<CallExpr>(E)) {
      // register_module("name", Sequential(...)) returns what it registers.
      const FunctionDecl *FD = CE->getDirectCallee();
      if (!FD || !FD->getIdentifier() || FD->getName() != "register_module" ||
          CE->getNumArgs() < 2)
        return nullptr;
      E = CE->getArg(CE->getNumArgs() - 1);
      continue;
    }
    if (const auto *FC = dyn_cast<CXXFunctionalCastExpr>(E)) {
      E = FC->getSubExpr();
      continue;
    }
    if (const auto *C = dyn_cast<CXXConstructExpr>(E)) {
      const CXXRecordDecl *RD =
          C->getConstructor() ? C->getConstructor()->getParent() : nullptr;
      if (!RD || !isContainerClass(holderImpl(RD) ? holderImpl(RD) : RD))
        return nullptr;
      // A copy, or a holder made from the container's shared_ptr.
      if (C->getNumArgs() == 1 &&
          (C->getConstructor()->isCopyOrMoveConstructor() ||
           isContainerObject(C->getArg(0)->getType()))) {
        E = C->getArg(0);
        continue;
      }
      return C;
    }
    return nullptr;
  }
  return nullptr;
}

ModeDependence ModelModeAnalysis::contents(llvm::ArrayRef<const Expr *> Built,
                                           llvm::ArrayRef<const Stmt *> Bodies,
                                           const ValueDecl *D, unsigned Depth) {
  ModeDependence Unknown;
  Unknown.Depends = Unknown.Unknown = true;
  llvm::SmallVector<const Expr *, 8> Parts;
  bool Any = false;
  for (const Expr *E : Built) {
    if (!E)
      continue;
    const Expr *X = E->IgnoreImplicit();
    if (isa<CXXNullPtrLiteralExpr>(X))
      continue;
    if (const auto *C = dyn_cast<CXXConstructExpr>(X))
      if (C->getNumArgs() == 1 &&
          isa<CXXNullPtrLiteralExpr>(C->getArg(0)->IgnoreImplicit()))
        continue; // `Sequential seq{nullptr}`
    const CXXConstructExpr *C = containerBuild(E);
    if (!C)
      return Unknown;
    Any = true;
    for (const Expr *Arg : C->arguments())
      Parts.push_back(Arg);
  }
  if (!Any)
    return Unknown;
  // What is added later: `seq->push_back(layer)`.
  bool Opaque = false;
  for (const Stmt *Body : Bodies)
    forEachCallBelow(Body, [&](const CallExpr *CE) {
      const auto *MC = dyn_cast<CXXMemberCallExpr>(CE);
      if (!MC || !MC->getMethodDecl() || !MC->getMethodDecl()->getIdentifier())
        return;
      if (objectDecl(MC->getImplicitObjectArgument()) != D)
        return;
      StringRef N = MC->getMethodDecl()->getName();
      if (N == "push_back" && MC->getNumArgs() >= 1)
        Parts.push_back(MC->getArg(MC->getNumArgs() - 1));
      else if (N == "extend" || N == "insert" || N == "update")
        Opaque = true;
    });
  if (Opaque)
    return Unknown;
  ModeDependence R;
  for (const Expr *Part : Parts) {
    const CXXRecordDecl *RD =
        moduleClassOf(Part->getType(), Config.Modules.Types);
    if (!RD)
      return Unknown; // an AnyModule, a name of a module elsewhere
    ModeDependence Sub = dependence(RD, Depth + 1);
    if (Sub.Depends && (!R.Depends || (R.Unknown && !Sub.Unknown)))
      R = Sub;
  }
  return R;
}

ModeDependence ModelModeAnalysis::dependenceOf(const ValueDecl *Object,
                                               const CXXRecordDecl *RD,
                                               const FunctionDecl *Owner) {
  const CXXRecordDecl *Impl = RD ? holderImpl(RD) : nullptr;
  const CXXRecordDecl *Cls = Impl ? Impl : RD;
  const auto *VD = dyn_cast_or_null<VarDecl>(Object);
  // A local container built from its modules, in the function holding it.
  if (Cls && isContainerClass(Cls) && VD && !isa<ParmVarDecl>(VD) &&
      VD->hasLocalStorage() && Owner && Owner->getBody() &&
      VD->getDeclContext() == Owner && !VD->getType()->isReferenceType())
    return contents({VD->getInit()}, {Owner->getBody()}, VD, 0);
  return dependence(RD, 0);
}

ModeDependence ModelModeAnalysis::dependence(const CXXRecordDecl *RD,
                                             unsigned Depth) {
  ModeDependence Unknown;
  Unknown.Depends = Unknown.Unknown = true;
  if (!RD)
    return Unknown;
  if (const CXXRecordDecl *Impl = holderImpl(RD))
    RD = Impl;
  if (const CXXRecordDecl *Def = RD->getDefinition())
    RD = Def;
  else
    return Unknown;
  auto It = Dependence.find(RD);
  if (It != Dependence.end())
    return It->second;
  ModeDependence R;
  Unknown.Class = RD;
  Dependence[RD] = R; // a cycle adds nothing
  if (inList(RD, Config.ModeIndependentClasses)) {
    // R stays independent.
  } else if (inList(RD, Config.ModeDependentClasses) ||
             isLibTorchModeDependent(RD)) {
    R.Depends = true;
    R.Class = RD;
  } else if (isContainerClass(RD) ||
             hasQualifiedName(RD, "torch::nn::Module")) {
    R = Unknown; // what it holds is decided where it is filled
  } else if (isLibraryCode(RD, Ctx.getSourceManager())) {
    // Any other LibTorch module: no train/eval behaviour.
  } else if (Depth > 8 || !isModuleClass(RD, Config.Modules.Types)) {
    R = Unknown;
  } else if (const ModuleModel *M = Models.get(RD)) {
    if (isTrainingCall(RD)) {
      R.Depends = true;
      R.Class = RD;
    }
    llvm::SmallVector<const Stmt *, 4> Bodies;
    for (const CXXMethodDecl *MD : RD->methods()) {
      const FunctionDecl *Def = nullptr;
      if (MD->hasBody(Def) && Def && !Def->isDependentContext())
        Bodies.push_back(Def->getBody());
    }
    for (const CXXConstructorDecl *Ctor : RD->ctors()) {
      const FunctionDecl *Def = nullptr;
      if (Ctor->hasBody(Def) && Def && !Def->isDependentContext())
        forEachBodyPart(Def, [&](const Stmt *S) { Bodies.push_back(S); });
    }
    for (const ModuleMember &Member : M->Members) {
      if (R.Depends && !R.Unknown)
        break;
      if (!Member.isModule())
        continue;
      ModeDependence D;
      if (Member.ModuleClass && isContainerClass(Member.ModuleClass) &&
          M->SetupVisible) {
        llvm::SmallVector<const Expr *, 4> Built;
        for (const auto &Setup : Member.Stores)
          for (const MemberStore &Store : Setup)
            Built.push_back(Store.Value
                                ? Store.Value
                                : Member.Field->getInClassInitializer());
        D = contents(Built, Bodies, Member.Field, Depth);
        if (D.Depends && !D.Class)
          D.Class = Member.ModuleClass;
      } else {
        D = dependence(Member.ModuleClass, Depth + 1);
      }
      if (D.Depends && (!R.Depends || (R.Unknown && !D.Unknown))) {
        R = D;
        R.Member = Member.Field;
        if (!D.Class)
          R.Class = Member.ModuleClass;
      }
    }
    for (const CXXBaseSpecifier &B : RD->bases()) {
      if (R.Depends && !R.Unknown)
        break;
      const CXXRecordDecl *Base = B.getType()->getAsCXXRecordDecl();
      if (!Base || isLibraryCode(Base, Ctx.getSourceManager()))
        continue;
      ModeDependence D = dependence(Base, Depth + 1);
      if (D.Depends && (!R.Depends || (R.Unknown && !D.Unknown)))
        R = D;
    }
  } else {
    R = Unknown;
  }
  // What is not known here may be known where the constructor is defined.
  if (R.Unknown && Config.Loop.Program)
    if (std::optional<ModeDependence> There = remoteDependence(RD))
      R = *There;
  Dependence[RD] = R;
  return R;
}

std::optional<ModeDependence>
ModelModeAnalysis::remoteDependence(const CXXRecordDecl *RD) {
  const SourceManager &SM = Ctx.getSourceManager();
  std::optional<ModeDependence> R;
  for (const CXXConstructorDecl *C : RD->ctors()) {
    if (C->isImplicit() || C->isCopyOrMoveConstructor() || C->isDeleted())
      continue;
    if (!mayBeElsewhere(C, SM))
      return std::
          nullopt; // defined here (or not a constructor another file has)
    const RemoteFunction *F = Config.Loop.Program->find(C);
    if (!F || !F->Builds)
      return std::nullopt;
    if (!R)
      R.emplace();
    if (F->Builds->Depends && !R->Depends) {
      R->Depends = true;
      R->Remote = &*F->Builds;
      for (const FieldDecl *Field : RD->fields())
        if (Field->getIdentifier() && Field->getName() == F->Builds->Member)
          R->Member = Field;
    }
  }
  return R;
}

} // namespace torch_tidy
