//===--- GradMode.cpp - whether autograd records at a statement -----------===//
#include "torch-tidy/GradMode.h"
#include "torch-tidy/EvaluationOrder.h"
#include "torch-tidy/Summaries.h"

#include "torch-tidy/Types.h"
#include "torch-tidy/WholeProgram.h"

#include "clang/AST/StmtCXX.h"

#include <optional>

using namespace clang;

namespace torch_tidy {

static GradSwitch switchFor(const Expr *EnabledArg) {
  std::optional<bool> On = literalBool(EnabledArg);
  if (!On)
    return GradSwitch::Unknown;
  return *On ? GradSwitch::Enable : GradSwitch::Disable;
}

static bool isConfigured(const CXXRecordDecl *D, const GradModeConfig &Config) {
  for (const std::string &N : Config.NoGradGuardClasses)
    if (isSameOrDerivedFrom(D, N))
      return true;
  return false;
}

bool isGradGuardClass(const CXXRecordDecl *D, const GradModeConfig &Config) {
  return D && (isSameOrDerivedFrom(D, "c10::AutoGradMode") ||
               isSameOrDerivedFrom(D, "c10::InferenceMode") ||
               isConfigured(D, Config));
}

GradSwitch guardSwitch(const CXXConstructExpr *CE,
                       const GradModeConfig &Config) {
  if (!CE || !CE->getConstructor())
    return GradSwitch::None;
  const CXXRecordDecl *D = CE->getConstructor()->getParent();
  if (!isGradGuardClass(D, Config))
    return GradSwitch::None;
  if (isSameOrDerivedFrom(D, "c10::NoGradGuard") || isConfigured(D, Config))
    return GradSwitch::Disable;
  if (CE->getConstructor()->isCopyOrMoveConstructor())
    return GradSwitch::Unknown;
  if (isSameOrDerivedFrom(D, "c10::InferenceMode")) {
    // InferenceMode(bool enabled = true): enabling it disables autograd.
    GradSwitch S =
        CE->getNumArgs() == 0 ? GradSwitch::Enable : switchFor(CE->getArg(0));
    if (S == GradSwitch::Enable)
      return GradSwitch::Disable;
    if (S == GradSwitch::Disable)
      return GradSwitch::Enable;
    return S;
  }
  // c10::AutoGradMode(bool enabled).
  return CE->getNumArgs() == 0 ? GradSwitch::Unknown : switchFor(CE->getArg(0));
}

GradSwitch setEnabledSwitch(const CallExpr *CE) {
  const auto *MD =
      dyn_cast_or_null<CXXMethodDecl>(CE ? CE->getDirectCallee() : nullptr);
  if (!MD || !MD->isStatic() || !MD->getIdentifier() ||
      MD->getName() != "set_enabled" ||
      !hasQualifiedName(MD->getParent(), "c10::GradMode") ||
      CE->getNumArgs() != 1)
    return GradSwitch::None;
  return switchFor(CE->getArg(0));
}

/// The call that statement \p S is (`freeze();`, through implicit nodes and
/// parentheses), or null: only such calls may leave autograd switched for
/// the statements after them.
static const CallExpr *statementCall(const Stmt *S) {
  const auto *E = dyn_cast_or_null<Expr>(S);
  return E ? dyn_cast<CallExpr>(E->IgnoreImplicit()->IgnoreParens()) : nullptr;
}

namespace {
class RegionWalker {
public:
  RegionWalker(const GradModeConfig &Config, std::vector<GradRegion> &Regions,
               llvm::DenseMap<const Stmt *, unsigned> &Innermost,
               GradModeAnalysis &Analysis)
      : Config(Config), Regions(Regions), Innermost(Innermost),
        Analysis(Analysis) {}

  void walk(const Stmt *Root) {
    llvm::SmallVector<int, 8> SavedCurrent; // one per open scope
    forEachDescendant(
        Root,
        [&](const Stmt *S) {
          if (Current >= 0)
            Innermost[S] = static_cast<unsigned>(Current);
          // The calls that are statements of their own.
          if (!isa<Expr>(S))
            for (const Stmt *C : S->children())
              if (const CallExpr *CE = statementCall(C))
                Statements.insert(CE);
          if (const auto *L = dyn_cast<LambdaExpr>(S)) {
            // The body is the lambda's own function; only the captures run here.
            for (const Expr *Init : L->capture_inits())
              walk(Init);
            return Descend::Skip;
          }
          if (isScope(S)) {
            SavedCurrent.push_back(Current);
            return Descend::Children;
          }
          if (const auto *DS = dyn_cast<DeclStmt>(S)) {
            for (const Decl *D : DS->decls()) {
              const auto *VD = dyn_cast<VarDecl>(D);
              if (!VD)
                continue;
              walk(VD->getInit());
              if (!VD->hasLocalStorage() || VD->getType()->isReferenceType())
                continue;
              GradSwitch Sw =
                  guardSwitch(constructionOf(VD->getInit()), Config);
              if (Sw != GradSwitch::None)
                open(Sw, VD, DS);
            }
            return Descend::Skip;
          }
          return Descend::Children;
        },
        [&](const Stmt *S) {
          if (isScope(S)) {
            Current = SavedCurrent.pop_back_val();
            return;
          }
          if (const auto *CE = dyn_cast<CallExpr>(S)) {
            GradSwitch Sw = setEnabledSwitch(CE);
            if (Sw != GradSwitch::None) {
              open(Sw, nullptr, CE);
              return;
            }
            // A function that leaves autograd switched for its caller,
            // called as a statement of its own.
            if (!Statements.count(CE))
              return;
            const FunctionDecl *Callee = CE->getDirectCallee();
            if (std::optional<GradSwitch> Left =
                    Analysis.leavesRecording(Callee)) {
              open(*Left, nullptr, CE);
              Regions.back().Via = Callee;
            }
          }
        });
  }

private:
  static bool isScope(const Stmt *S) {
    return isa<CompoundStmt>(S) || isa<IfStmt>(S) || isa<ForStmt>(S) ||
           isa<WhileStmt>(S) || isa<DoStmt>(S) || isa<SwitchStmt>(S) ||
           isa<CXXForRangeStmt>(S) || isa<CXXCatchStmt>(S);
  }

  static const CXXConstructExpr *constructionOf(const Expr *E) {
    while (E) {
      E = E->IgnoreImplicit();
      if (const auto *CE = dyn_cast<CXXConstructExpr>(E)) {
        // `auto g = torch::NoGradGuard();` before C++17 copies a temporary.
        if (CE->getNumArgs() == 1 &&
            CE->getConstructor()->isCopyOrMoveConstructor()) {
          E = CE->getArg(0);
          continue;
        }
        return CE;
      }
      if (const auto *FC = dyn_cast<CXXFunctionalCastExpr>(E)) {
        E = FC->getSubExpr();
        continue;
      }
      return nullptr;
    }
    return nullptr;
  }

  void open(GradSwitch Sw, const VarDecl *Guard, const Stmt *Origin) {
    GradRegion R;
    R.Switch = Sw;
    R.Guard = Guard;
    R.Origin = Origin;
    R.Outer = Current;
    Regions.push_back(R);
    Current = static_cast<int>(Regions.size()) - 1;
  }

  const GradModeConfig &Config;
  std::vector<GradRegion> &Regions;
  llvm::DenseMap<const Stmt *, unsigned> &Innermost;
  GradModeAnalysis &Analysis;
  llvm::SmallPtrSet<const CallExpr *, 16> Statements;
  int Current = -1;
};
} // namespace

const GradModeAnalysis::FunctionRegions &
GradModeAnalysis::compute(const FunctionDecl *FD) {
  auto It = Cache.find(FD);
  if (It != Cache.end())
    return It->second;
  FunctionRegions R;
  RegionWalker W(Config, R.Regions, R.Innermost, *this);
  forEachBodyPart(FD, [&](const Stmt *S) { W.walk(S); });
  return Cache[FD] = std::move(R);
}

llvm::ArrayRef<GradRegion> GradModeAnalysis::regions(const FunctionDecl *FD) {
  return compute(FD).Regions;
}

const GradRegion *GradModeAnalysis::regionAt(const FunctionDecl *FD,
                                             const Stmt *S) {
  const FunctionRegions &R = compute(FD);
  auto It = R.Innermost.find(S);
  if (It == R.Innermost.end())
    return nullptr;
  return &R.Regions[It->second];
}

llvm::ArrayRef<CallSite> GradModeAnalysis::entries(const FunctionDecl *FD,
                                                   const LambdaSite **Written) {
  if (Written)
    *Written = nullptr;
  llvm::ArrayRef<CallSite> Calls = Index.callers(FD);
  if (Calls.empty() && Written)
    *Written = Index.lambdaSite(FD);
  return Calls;
}

void GradModeAnalysis::propagate() {
  Propagated = true;
  // Lambdas never called by name run where they are written.
  llvm::DenseMap<const FunctionDecl *,
                 llvm::SmallVector<const FunctionDecl *, 2>>
      WrittenIn;
  llvm::SmallVector<const FunctionDecl *, 16> Work;
  for (const FunctionDecl *F : Index.functions()) {
    const LambdaSite *Written = nullptr;
    bool Called = !entries(F, &Written).empty();
    if (!Called && Written) {
      WrittenIn[Written->Owner].push_back(F);
      continue;
    }
    // Entered from another file: recording when a call there records (the
    // program summary says), or, without one, when nothing in the TU calls
    // it, autograd's default for callers not seen.
    const RemoteCallers *Remote = remoteCallers(F, /*AbsentMeans=*/!Called);
    if (Remote ? Remote->Recording : !Called) {
      Recording.try_emplace(F, nullptr);
      Work.push_back(F);
    }
  }
  // What C enters directly: the callees of its calls (with the call) and the
  // lambdas written in it (with the lambda expression, null when not known).
  auto ForEachEntered = [&](const FunctionDecl *C, auto Fn) {
    for (const CallSite &Site : Index.callees(C))
      Fn(Site.Callee, &Site, Site.Site);
    auto It = WrittenIn.find(C);
    if (It == WrittenIn.end())
      return;
    for (const FunctionDecl *L : It->second) {
      const LambdaSite *Written = Index.lambdaSite(L);
      Fn(L, nullptr, Written ? Written->Lambda : nullptr);
    }
  };
  // A call or lambda under `AutoGradMode(true)` (or a switch that is not known
  // to disable autograd) records whatever its caller's mode.
  for (const FunctionDecl *C : Index.functions())
    ForEachEntered(C, [&](const FunctionDecl *Target, const CallSite *Site,
                          const Stmt *At) {
      const GradRegion *R = At ? regionAt(C, At) : nullptr;
      if (R && R->Switch != GradSwitch::Disable &&
          Recording.try_emplace(Target, Site).second)
        Work.push_back(Target);
    });
  while (!Work.empty()) {
    const FunctionDecl *C = Work.pop_back_val();
    ForEachEntered(C, [&](const FunctionDecl *Target, const CallSite *Site,
                          const Stmt *At) {
      if (At && disabledAt(C, At))
        return;
      if (Recording.try_emplace(Target, Site).second)
        Work.push_back(Target);
    });
  }
}

bool GradModeAnalysis::entersRecording(const FunctionDecl *FD,
                                       const CallSite **From) {
  if (!Propagated)
    propagate();
  auto It = Recording.find(FD);
  if (From)
    *From = It == Recording.end() ? nullptr : It->second;
  if (It != Recording.end())
    return true;
  // Not indexed (e.g. a function the index never saw): autograd's default.
  return !Index.contains(FD);
}

const RemoteCallers *
GradModeAnalysis::remoteCallers(const FunctionDecl *FD,
                                std::optional<bool> AbsentMeans) const {
  if (!Config.Program || !isProgramVisible(FD))
    return nullptr;
  return Config.Program->callers(FD, AbsentMeans);
}

std::optional<GradSwitch>
GradModeAnalysis::leavesRecording(const FunctionDecl *FD) {
  if (!FD || FD->isDependentContext())
    return std::nullopt;
  const FunctionDecl *Key = FD->getCanonicalDecl();
  auto It = Leaves.find(Key);
  if (It != Leaves.end())
    return It->second;
  std::optional<GradSwitch> Out;
  bool Complete = true;
  if (const FunctionDecl *Def = Index.userDefinition(FD)) {
    // A function being read gives nothing (recursion).
    if (llvm::is_contained(Leaving, Def))
      return std::nullopt;
    // Read to the default depth of the analyses that follow calls.
    if (Leaving.size() > DefaultMaxCallDepth) {
      LeavesCut = true;
      return std::nullopt;
    }
    bool Outer = LeavesCut;
    LeavesCut = false;
    Leaving.push_back(Def);
    Out = leftAtEnd(Def);
    Leaving.pop_back();
    // Not kept when a read below was cut: the same call, read from nearer
    // the top, may see further.
    Complete = !LeavesCut;
    LeavesCut = LeavesCut || Outer;
  } else if (Config.Program && mayBeElsewhere(FD, Index.sourceManager())) {
    if (const RemoteFunction *R = Config.Program->find(FD))
      Out = gradSwitchOf(R->GradAtReturn);
  }
  if (Complete)
    Leaves[Key] = Out;
  return Out;
}

std::optional<GradSwitch> GradModeAnalysis::leftAtEnd(const FunctionDecl *Def) {
  const auto *Body = dyn_cast_or_null<CompoundStmt>(Def->getBody());
  if (!Body || Body->body_empty())
    return std::nullopt;
  // What a statement does to autograd when it is a switch of its own: a
  // `set_enabled` call or a call of a function that leaves autograd switched.
  auto SwitchOf = [&](const Stmt *S) -> std::optional<GradSwitch> {
    const CallExpr *CE = statementCall(S);
    if (!CE)
      return std::nullopt;
    GradSwitch Sw = setEnabledSwitch(CE);
    if (Sw != GradSwitch::None)
      return Sw;
    return leavesRecording(CE->getDirectCallee());
  };
  std::optional<GradSwitch> State;
  bool Exact = true; // no return or throw before the end may skip a switch
  const Stmt *Last = Body->body_back();
  for (const Stmt *S : Body->body()) {
    if (std::optional<GradSwitch> Sw = SwitchOf(S)) {
      State = *Sw;
      continue;
    }
    // Any other statement: a switch inside it may not run, and a return
    // inside it may skip the switches after it.
    bool Switches = false;
    forEachDescendant(
        S,
        [&](const Stmt *X) {
          if (isa<LambdaExpr>(X))
            return Descend::Skip;
          if ((isa<ReturnStmt>(X) || isa<CXXThrowExpr>(X)) && S != Last)
            Exact = false;
          if (const auto *CE = dyn_cast<CallExpr>(X))
            if (setEnabledSwitch(CE) != GradSwitch::None)
              Switches = true;
          if (!isa<Expr>(X))
            for (const Stmt *C : X->children())
              if (C && SwitchOf(C))
                Switches = true;
          return Descend::Children;
        },
        [](const Stmt *) {});
    if (Switches)
      State = GradSwitch::Unknown;
  }
  if (State && !Exact)
    return GradSwitch::Unknown;
  return State;
}

llvm::StringRef gradSwitchSpelling(GradSwitch S) {
  switch (S) {
  case GradSwitch::Disable:
    return "off";
  case GradSwitch::Enable:
    return "on";
  default:
    return "unknown";
  }
}

std::optional<GradSwitch> gradSwitchOf(llvm::StringRef Spelling) {
  if (Spelling == "off")
    return GradSwitch::Disable;
  if (Spelling == "on")
    return GradSwitch::Enable;
  if (Spelling == "unknown")
    return GradSwitch::Unknown;
  return std::nullopt;
}

GradVerdict GradModeAnalysis::at(const FunctionDecl *FD, const Stmt *S) {
  GradVerdict V;
  V.Region = regionAt(FD, S);
  if (V.Region) {
    V.Records = V.Region->Switch != GradSwitch::Disable;
    return V;
  }
  V.Records = entersRecording(FD, &V.EnteredFrom);
  return V;
}

} // namespace torch_tidy
