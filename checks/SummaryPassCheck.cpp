//===--- SummaryPassCheck.cpp - whole-program summary pass ----------------===//
//
// Writes, for each function with external linkage defined in the main file,
// what a call of it returns, the training-loop events it performs, the
// in-place changes it makes to what its caller passes, the tensors it places
// on a literal device, the device it returns, what it stores into and
// registers of the members of a module it is handed and, for a module's
// constructor, whether the module behaves differently in training and eval
// mode, and the autograd graph and the shape of a returned tensor, as the
// analyses of this translation unit see them; and, for every
// user function the translation unit calls, whether a call of it runs with
// autograd recording (WholeProgram.h).
//
//===----------------------------------------------------------------------===//
#include "SummaryPassCheck.h"

#include "torch-tidy/Anchor.h"
#include "torch-tidy/EvaluationOrder.h"
#include "torch-tidy/Options.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"

#include <cstdlib>

using namespace clang;
using namespace clang::ast_matchers;

namespace torch_tidy {

namespace {
/// The options of another check, read under its name.
tidy::ClangTidyCheck::OptionsView optionsOf(llvm::StringRef Check,
                                            tidy::ClangTidyContext *Context) {
  return tidy::ClangTidyCheck::OptionsView(
      Check, Context->getOptions().CheckOptions, Context);
}
} // namespace

SummaryPassCheck::SummaryPassCheck(StringRef Name,
                                   tidy::ClangTidyContext *Context)
    : ClangTidyCheck(Name, Context), Context(Context) {
  RawOutput = compat::rawOption(Options, "Output").value_or("");
  const char *Env = std::getenv("TORCH_TIDY_SUMMARY_OUTPUT");
  Output = Env && *Env ? std::string(Env) : RawOutput;
  auto Bce = optionsOf("torch-bce-on-logits", Context);
  ActivationOpts.emplace(OptionReader(Bce, "torch-bce-on-logits", Context));
  // Every analysis reads the same program summary, which notes what they ask
  // of it (the "reads" of the output): ours, and those of the checks that run
  // beside this pass. Without an output nothing is written, and nothing is
  // logged (clangd runs no summary pass, but a configuration may name it).
  Program =
      Output.empty() ? programSummary(Context) : loggingProgramSummary(Context);
  ActivationCfg = ActivationOpts->config();
  ActivationCfg.Program = Program;
  auto ZeroGrad = optionsOf("torch-missing-zero-grad", Context);
  OptionReader LoopReader(ZeroGrad, "torch-missing-zero-grad", Context);
  RawOptimizerClasses = LoopReader.getNameList("OptimizerClasses");
  RawZeroGradFunctions = LoopReader.getNameList("ZeroGradFunctions");
  Loop.Types.ExtraOptimizerClasses = parseList(RawOptimizerClasses);
  Loop.ZeroGradFunctions = parseList(RawZeroGradFunctions);
  Loop.MaxCallDepth = LoopReader.getCount("MaxCallDepth", DefaultMaxCallDepth);
  Loop.Program = Program;
  auto Inplace = optionsOf("torch-inplace-on-requires-grad", Context);
  OptionReader InplaceReader(Inplace, "torch-inplace-on-requires-grad",
                             Context);
  RawNoGradGuardClasses = InplaceReader.getNameList("NoGradGuardClasses");
  RawParameterFunctions = InplaceReader.getNameList("ParameterFunctions");
  GradConfig.NoGradGuardClasses = parseList(RawNoGradGuardClasses);
  GradConfig.Program = Loop.Program;
  ParamConfig.ParameterFunctions = parseList(RawParameterFunctions);
  ParamConfig.MaxCallDepth =
      InplaceReader.getCount("MaxCallDepth", DefaultMaxCallDepth);
  EffectConfig.MaxCallDepth = ParamConfig.MaxCallDepth;
  EffectConfig.Program = Loop.Program;
  auto Device = optionsOf("torch-module-hardcoded-device", Context);
  OptionReader DeviceReader(Device, "torch-module-hardcoded-device", Context);
  RawAllowedDeviceFunctions =
      DeviceReader.getNameList("AllowedDeviceFunctions");
  DeviceOpts.AllowedDeviceFunctions = parseList(RawAllowedDeviceFunctions);
  DeviceOpts.MaxCallDepth =
      DeviceReader.getCount("MaxCallDepth", DefaultMaxCallDepth);
  DeviceOpts.Program = Loop.Program;
  auto Eval = optionsOf("torch-missing-eval", Context);
  OptionReader EvalReader(Eval, "torch-missing-eval", Context);
  RawModeDependent = EvalReader.getNameList("ModeDependentModuleClasses");
  RawModeIndependent = EvalReader.getNameList("ModeIndependentModuleClasses");
  ModeOpts.ModeDependentClasses = parseList(RawModeDependent);
  ModeOpts.ModeIndependentClasses = parseList(RawModeIndependent);
  ModeOpts.Loop.MaxCallDepth =
      EvalReader.getCount("MaxCallDepth", DefaultMaxCallDepth);
  ModeOpts.Modules.MaxCallDepth = ModeOpts.Loop.MaxCallDepth;
  ModeOpts.Loop.Program = Loop.Program;
  ModeOpts.Modules.Program = Loop.Program;
  auto Unregistered = optionsOf("torch-unregistered-module-member", Context);
  OptionReader RegReader(Unregistered, "torch-unregistered-module-member",
                         Context);
  RawRegistrationFunctions = RegReader.getNameList("RegistrationFunctions");
  RawStatelessModuleClasses = RegReader.getNameList("StatelessModuleClasses");
  RegistrationOpts.RegistrationFunctions = parseList(RawRegistrationFunctions);
  RegistrationOpts.StatelessModuleClasses =
      parseList(RawStatelessModuleClasses);
  RegistrationOpts.MaxCallDepth =
      RegReader.getCount("MaxCallDepth", DefaultMaxCallDepth);
  RegistrationOpts.Program = Loop.Program;
  auto Retained = optionsOf("torch-retained-loss-graph", Context);
  OptionReader RetainedReader(Retained, "torch-retained-loss-graph", Context);
  RawLossFunctions = RetainedReader.getNameList("LossFunctions");
  GraphCfg.LossFunctions = parseList(RawLossFunctions);
  GraphCfg.MaxCallDepth =
      RetainedReader.getCount("MaxCallDepth", DefaultMaxCallDepth);
  GraphCfg.Program = Loop.Program;
  PathCfg.MaxCallDepth = OptionReader(optionsOf("torch-graph-break", Context),
                                      "torch-graph-break", Context)
                             .getCount("MaxCallDepth", DefaultMaxCallDepth);
  PathCfg.Program = Loop.Program;
  auto Broadcast = optionsOf("torch-loss-broadcast", Context);
  OptionReader BroadcastReader(Broadcast, "torch-loss-broadcast", Context);
  RawShapePreserving = BroadcastReader.getNameList("ShapePreserving");
  ShapeCfg.ExtraPreserving = parseList(RawShapePreserving);
  ShapeCfg.MaxCallDepth =
      BroadcastReader.getCount("MaxCallDepth", DefaultMaxCallDepth);
  ShapeCfg.Program = Loop.Program;
  auto Dropout = optionsOf("torch-dropout-training-flag", Context);
  OptionReader DropoutReader(Dropout, "torch-dropout-training-flag", Context);
  RawTrainingFlagFunctions = DropoutReader.getNameList("TrainingFlagFunctions");
  TrainingFlagFunctions = parseList(RawTrainingFlagFunctions);
  FlagCallDepth = DropoutReader.getCount("MaxCallDepth", DefaultMaxCallDepth);
  AliasCfg.MaxCallDepth =
      OptionReader(optionsOf("torch-aliased-module-copy", Context),
                   "torch-aliased-module-copy", Context)
          .getCount("MaxCallDepth", DefaultMaxCallDepth);
  AliasCfg.Program = Loop.Program;
}

void SummaryPassCheck::storeOptions(tidy::ClangTidyOptions::OptionMap &Opts) {
  Options.store(Opts, "Output", RawOutput);
}

void SummaryPassCheck::registerMatchers(MatchFinder *Finder) {
  registerAnchor(*Finder, *this);
}

void SummaryPassCheck::onStartOfTranslationUnit() {
  Activations.reset();
  Events.reset();
  Index = nullptr;
  Ctx = nullptr;
  Writer = SummaryWriter();
  WrittenReads.reset();
  if (!Output.empty() && Program)
    Program->logReads();
}

SummaryPassCheck::~SummaryPassCheck() {
  // The checks that ran beside this pass may have asked more of the summary
  // after onEndOfTranslationUnit() (the order in which clang-tidy ends its
  // checks is not ours to choose); every check is done when the checks are
  // destroyed, after the translation unit. Write the reads again if they
  // grew. Once written, the file can be written again; a failure here has
  // no translation unit to report to, and leaves the first write, whose
  // reads are those of this pass.
  if (!WrittenReads || !Program)
    return;
  std::vector<std::string> Functions = Program->functionReads();
  std::vector<std::pair<std::string, bool>> Callers = Program->callerReads();
  if (Functions.size() + Callers.size() == *WrittenReads)
    return;
  Writer.setReads(std::move(Functions), std::move(Callers));
  std::string Error;
  Writer.write(Output, Error);
}

void SummaryPassCheck::check(const MatchFinder::MatchResult &Result) {
  // Summarised at the end: what autograd records in a function depends on
  // the guards of the whole file (GradMode.h).
  indexUserFunctions(Result, Index, Ctx);
}

std::optional<RemoteDeviceReturn>
SummaryPassCheck::remoteDeviceReturn(const DeviceProvenance &P,
                                     const FunctionDecl *FD,
                                     const SourceManager &SM) const {
  RemoteDeviceReturn R;
  switch (P.Origin) {
  case DeviceOrigin::Literal: {
    R.Origin = RemoteDeviceReturn::OriginKind::Literal;
    if (P.Remote) {
      R.Literal = *P.Remote;
      return R;
    }
    if (!P.Written)
      return std::nullopt;
    R.Literal.Accelerator = P.Accelerator;
    R.Literal.TypeName = P.TypeName;
    R.Literal.Placed = describePlacement(P, SM, Ctx->getLangOpts());
    if (P.Accelerator && P.Availability)
      if (const FunctionDecl *Q = P.Availability->getDirectCallee())
        R.Literal.Query = Q->getQualifiedNameAsString() + "()";
    R.Literal.Site =
        siteOf(isa<CXXMemberCallExpr>(P.Written) ? P.Written->getExprLoc()
                                                 : P.Written->getBeginLoc(),
               SM);
    return R;
  }
  case DeviceOrigin::Parameter:
    if (!P.Param || P.Param->getDeclContext() != FD)
      return std::nullopt;
    R.Origin = RemoteDeviceReturn::OriginKind::Parameter;
    R.ParamIndex = P.Param->getFunctionScopeIndex();
    return R;
  case DeviceOrigin::Tensor:
    R.Origin = RemoteDeviceReturn::OriginKind::Tensor;
    return R;
  case DeviceOrigin::None:
    R.Origin = RemoteDeviceReturn::OriginKind::None;
    return R;
  case DeviceOrigin::Unknown:
    break;
  }
  return std::nullopt;
}

/// \p C as the summary writes it.
static RemoteCut remoteCutOf(const GraphCut &C, const SourceManager &SM) {
  if (C.Remote)
    return *C.Remote;
  RemoteCut R;
  R.Kind = GraphPathAnalysis::cutSpelling(C.Kind).str();
  R.Name = GraphPathAnalysis::cutName(C).str();
  R.Rewrap = GraphPathAnalysis::rewrapName(C);
  R.Site = siteOf(C.At->getExprLoc(), SM);
  return R;
}

std::optional<RemoteGraphPaths>
SummaryPassCheck::graphPaths(const FunctionDecl *FD, const SourceManager &SM,
                             GraphPathAnalysis &Paths) {
  std::optional<GraphTerm> T = Paths.returnPathsOf(FD);
  if (!T || (T->Paths.empty() && T->Parameters.empty()))
    return std::nullopt;
  RemoteGraphPaths Out;
  Out.Unknown = T->Unknown;
  for (const GraphPath &P : T->Paths) {
    RemoteGraphPath R;
    if (const auto *PV = dyn_cast_or_null<ParmVarDecl>(P.Output.Object))
      if (PV->getParentFunctionOrMethod() == FD)
        R.ModuleParameter = PV->getFunctionScopeIndex();
    if (P.Output.Remote) {
      R.Module = P.Output.Remote->Module;
      R.Forward = P.Output.Remote->Forward;
    } else {
      if (P.Output.Module)
        R.Module = P.Output.Module->getQualifiedNameAsString();
      R.Forward = siteOf(P.Output.Call->getExprLoc(), SM);
    }
    if (P.Cut)
      R.Cut = remoteCutOf(*P.Cut, SM);
    if (R.Forward.File.empty() || (R.Cut && R.Cut->Site.File.empty()))
      Out.Unknown |= !R.Cut; // a place that cannot be named: not claimed
    else
      Out.Paths.push_back(std::move(R));
  }
  for (const auto &[Index, Cut] : T->Parameters) {
    RemoteParameterFlow F;
    F.Parameter = Index;
    if (Cut)
      F.Cut = remoteCutOf(*Cut, SM);
    bool Seen = llvm::any_of(Out.Parameters, [&](const RemoteParameterFlow &G) {
      return G.Parameter == F.Parameter &&
             G.Cut.has_value() == F.Cut.has_value() &&
             (!F.Cut || samePlace(G.Cut->Site, F.Cut->Site));
    });
    if (!Seen)
      Out.Parameters.push_back(std::move(F));
  }
  if (Out.Paths.empty() && Out.Parameters.empty())
    return std::nullopt;
  return Out;
}

std::optional<RemoteShape>
SummaryPassCheck::returnShape(const FunctionDecl *FD, const SourceManager &SM,
                              ShapeAnalysis &Shapes) {
  TensorShape S = Shapes.returnShapeOf(FD);
  RemoteShape Out;
  if (S.Symbol >= 0) {
    // The caller's argument with these layers applied.
    Out.Parameter = static_cast<unsigned>(S.Symbol);
    for (const SizeSource &Step : S.Steps) {
      RemoteLayerStep L;
      L.Kind = layerKindSpelling(Step.Layer.Kind).str();
      L.SpatialDims = Step.Layer.SpatialDims;
      L.In = Step.Layer.In;
      L.Out = Step.Layer.Out;
      L.Applied = remoteSizeSource(Step, SM);
      if (L.Applied.Site.File.empty())
        return std::nullopt;
      Out.Steps.push_back(std::move(L));
    }
    return Out;
  }
  if (!S.anythingKnown())
    return std::nullopt;
  Out.Rank = S.Rank;
  Out.Dims.assign(S.Dims.begin(), S.Dims.end());
  Out.LastDim = S.LastDim;
  Out.ChannelDim = S.ChannelDim;
  auto From = [&](const SizeSource &Src) -> std::optional<RemoteSizeSource> {
    RemoteSizeSource R = remoteSizeSource(Src, SM);
    if (R.Site.File.empty())
      return std::nullopt;
    return R;
  };
  // Only the sources of sizes that are known.
  if (S.last() != UnknownDim)
    Out.LastFrom = From(S.LastFrom);
  if (S.channels() != UnknownDim)
    Out.ChannelFrom = From(S.ChannelFrom);
  return Out;
}

void SummaryPassCheck::summarise(const FunctionDecl *FD,
                                 const SourceManager &SM, Analyses &An) {
  // Only what another translation unit can call and cannot see: functions
  // with external linkage whose body is in this main file.
  if (!isProgramVisible(FD) || FD->isTemplateInstantiation() ||
      !SM.isInMainFile(SM.getExpansionLoc(FD->getLocation())))
    return;
  std::string USR = usrOf(FD);
  if (USR.empty())
    return;
  Writer.addDefined(USR);
  std::string Name = FD->getQualifiedNameAsString();
  RemoteSite Def = siteOf(FD->getLocation(), SM);
  summariseModuleEffects(FD, USR, Name, Def, SM, An.Models);

  if (isTensorType(FD->getReturnType())) {
    Activation A = Activations->returnOf(FD);
    if (A.known()) {
      RemoteReturn R;
      R.Kind = A.Kind;
      R.Op = A.Op;
      R.ParamIndex = A.ParamIndex;
      R.ThroughSequential = A.ThroughSequential;
      if (A.Remote)
        R.Site = *A.Remote;
      else if (A.Where)
        R.Site = siteOf(A.Where->getBeginLoc(), SM, describeActivationOp(A));
      Writer.addReturn(USR, Name, Def, R);
    }
    // The graph a call returns: another file that keeps the result cannot
    // see that it holds one.
    if (std::optional<GraphOrigin> G = An.Graphs.returnedGraph(FD)) {
      RemoteGraphReturn R;
      R.Loss = G->Loss;
      if (G->Call)
        R.Site = siteOf(G->Call->getExprLoc(), SM);
      else if (G->Remote)
        R.Site = *G->Remote;
      if (!R.Site.File.empty())
        Writer.addGraphReturn(USR, Name, Def, R);
    }
    if (std::optional<RemoteGraphPaths> P = graphPaths(FD, SM, An.Paths))
      Writer.addGraphPaths(USR, Name, Def, *P);
    // Its shape: another file's loss compares it with a target.
    if (std::optional<RemoteShape> S = returnShape(FD, SM, An.Shapes))
      Writer.addShapeReturn(USR, Name, Def, *S);
  }

  // A function that leaves autograd off (or on) for the rest of its
  // caller's block.
  if (std::optional<GradSwitch> Left = An.GradMode.leavesRecording(FD))
    Writer.addGradAtReturn(USR, Name, Def, gradSwitchSpelling(*Left));

  // The dropouts a helper runs in training mode: the module of another file
  // that calls it cannot see them.
  std::vector<RemoteTrainingFlag> Flags = trainingFlags(FD, SM, An.Flags);
  if (!Flags.empty())
    Writer.addTrainingFlags(USR, Name, Def, Flags);

  // The layers a module's constructor or reset() builds: a forward() of
  // another file applies them.
  std::vector<RemoteMemberLayer> Layers = memberLayers(FD, SM, An.Shapes);
  if (!Layers.empty())
    Writer.addMemberLayers(USR, Name, Def, Layers);

  // A target network's update: the file that copies the handles it is given
  // cannot see it.
  auto Synced = An.Syncs.find(FD->getCanonicalDecl());
  if (Synced != An.Syncs.end())
    Writer.addParameterSyncs(USR, Name, Def, Synced->second);

  std::vector<RemoteInplace> Inplace = An.Effects.effectsOf(FD);
  if (!Inplace.empty())
    Writer.addInplace(USR, Name, Def, Inplace);

  // A module's own methods are judged where they are defined; a helper's
  // placements are judged in the module that calls it.
  const auto *MD = dyn_cast<CXXMethodDecl>(FD);
  if (!MD || !isModuleClass(MD->getParent(), DeviceOpts.Types)) {
    std::vector<RemoteDevice> Placed;
    for (const DevicePlacement &P : An.Devices.placements(FD)) {
      if (P.Remote) {
        Placed.push_back(*P.Remote);
        continue;
      }
      if (P.Device.Remote) { // a device returned by a function of another file
        Placed.push_back(*P.Device.Remote);
        Placed.back().HostRead = P.HostRead;
        continue;
      }
      RemoteDevice D;
      D.Accelerator = P.Device.Accelerator;
      D.TypeName = P.Device.TypeName;
      D.Placed = describePlacement(P.Device, SM, Ctx->getLangOpts());
      D.Query = availabilityQuery(P);
      D.HostRead = P.HostRead;
      const Expr *At = P.Device.Written ? P.Device.Written : P.Call;
      if (!At)
        continue;
      D.Site = siteOf(isa<CXXMemberCallExpr>(At) ? At->getExprLoc()
                                                 : At->getBeginLoc(),
                      SM);
      Placed.push_back(std::move(D));
    }
    if (!Placed.empty())
      Writer.addDevices(USR, Name, Def, Placed);
  }

  // The device a function returns: another file that calls it to place a
  // tensor cannot see where that device comes from.
  if (isDeviceValueType(FD->getReturnType())) {
    DeviceProvenance P = An.Devices.returned(FD);
    std::optional<RemoteDeviceReturn> R = remoteDeviceReturn(P, FD, SM);
    if (R)
      Writer.addDeviceReturn(USR, Name, Def, *R);
  }

  // What a module's constructor builds: another file that cannot see the
  // constructor's body cannot see what its containers hold.
  if (const auto *Ctor = dyn_cast<CXXConstructorDecl>(FD)) {
    const CXXRecordDecl *RD = Ctor->getParent();
    if (!Ctor->isCopyOrMoveConstructor() &&
        isModuleClass(RD, ModeOpts.Modules.Types)) {
      ModeDependence D = An.Modes.dependence(RD);
      if (!D.Unknown) {
        RemoteMode M;
        M.Depends = D.Depends;
        if (D.Remote) {
          M = *D.Remote;
        } else if (D.Depends) {
          if (D.Member && D.Member->getIdentifier())
            M.Member = D.Member->getName().str();
          if (D.Class) {
            M.Class = D.Class->getQualifiedNameAsString();
            if (isModeOnlyModuleClass(D.Class))
              M.Harm = "dropout";
            else if (isSameOrDerivedFrom(D.Class,
                                         "torch::nn::BatchNormImplBase"))
              M.Harm = "batchnorm";
          }
        }
        M.Site = Def;
        Writer.addBuilds(USR, Name, Def, M);
      }
    }
  }

  EventList Ev = Events->summary(FD);
  if (Ev.empty())
    return;
  std::vector<RemoteEvent> Out;
  for (const AutogradEvent &E : Ev) {
    RemoteEvent R;
    R.Kind = E.Kind;
    R.Conditional = E.Conditional;
    R.AfterExit = E.AfterExit;
    R.ExitMark = E.ExitMark;
    R.Custom = E.Custom;
    R.InClosure = E.InClosure;
    if (const auto *P = dyn_cast_or_null<ParmVarDecl>(E.Object)) {
      if (P->getDeclContext() == FD) {
        R.Object = RemoteEvent::ObjectKind::Parameter;
        R.ParamIndex = P->getFunctionScopeIndex();
      }
    } else if (const auto *F = dyn_cast_or_null<FieldDecl>(E.Object)) {
      if (MD && F->getParent() == MD->getParent()->getDefinition()) {
        R.Object = RemoteEvent::ObjectKind::Field;
        R.FieldName = F->getName().str();
      }
    }
    if (E.Remote)
      R.Site = *E.Remote;
    else if (E.Call)
      R.Site = siteOf(E.Call->getExprLoc(), SM);
    Out.push_back(std::move(R));
  }
  Writer.addEvents(USR, Name, Def, Out);
}

std::vector<RemoteMemberLayer>
SummaryPassCheck::memberLayers(const FunctionDecl *FD, const SourceManager &SM,
                               ShapeAnalysis &Shapes) const {
  std::vector<RemoteMemberLayer> Out;
  const auto *MD = dyn_cast<CXXMethodDecl>(FD);
  if (!MD || !isModuleClass(MD->getParent(), DeviceOpts.Types))
    return Out;
  // Only when this file sees every setup of the class, so that a member's
  // layer is the one they all build.
  const ModuleModel *M = Shapes.model(MD->getParent());
  if (!M || !M->SetupVisible ||
      llvm::none_of(M->Setups, [&](const SetupFunction &S) {
        return S.Definition &&
               S.Definition->getCanonicalDecl() == FD->getCanonicalDecl();
      }))
    return Out;
  for (const ModuleMember &Member : M->Members) {
    if (!Member.isModule() || !Member.Field->getIdentifier())
      continue;
    LayerSizes L = Shapes.memberLayer(*M, Member.Field);
    if (!L.known())
      continue;
    RemoteMemberLayer R;
    R.Field = Member.Field->getName().str();
    R.Layer.Kind = layerKindSpelling(L.Kind).str();
    R.Layer.SpatialDims = L.SpatialDims;
    R.Layer.In = L.In;
    R.Layer.Out = L.Out;
    R.Layer.Applied.Name = "'" + R.Field + "'";
    // A layer built without sizes (`torch::nn::ReLU relu;`) is where the
    // member is declared.
    R.Layer.Applied.Site = siteOf(L.Construction ? L.Construction->getBeginLoc()
                                                 : Member.Field->getLocation(),
                                  SM);
    if (!R.Layer.Applied.Site.File.empty())
      Out.push_back(std::move(R));
  }
  return Out;
}

std::map<const FunctionDecl *, std::vector<RemoteParameterSync>>
SummaryPassCheck::parameterSyncs(const SourceManager &SM) const {
  std::map<const FunctionDecl *, std::vector<RemoteParameterSync>> Out;
  for (const ParameterSync &P : findParameterSyncs(*Index, AliasCfg, SM)) {
    // The two modules are parameters of one function: what a call of it
    // does to the modules its caller passes.
    const auto *Into = dyn_cast<ParmVarDecl>(P.Into);
    const auto *From = dyn_cast<ParmVarDecl>(P.From);
    if (!Into || !From || Into == From ||
        Into->getDeclContext() != From->getDeclContext())
      continue;
    const auto *FD = dyn_cast<FunctionDecl>(Into->getDeclContext());
    if (!FD)
      continue;
    RemoteParameterSync R;
    R.Into = Into->getFunctionScopeIndex();
    R.From = From->getFunctionScopeIndex();
    R.Site = P.Remote ? *P.Remote : siteOf(compat::beginLoc(P.Call), SM);
    std::vector<RemoteParameterSync> &Of = Out[FD->getCanonicalDecl()];
    bool Seen = llvm::any_of(Of, [&](const RemoteParameterSync &O) {
      return O.Into == R.Into && O.From == R.From && samePlace(O.Site, R.Site);
    });
    if (!Seen && !R.Site.File.empty())
      Of.push_back(std::move(R));
  }
  return Out;
}

std::vector<RemoteTrainingFlag>
SummaryPassCheck::trainingFlags(const FunctionDecl *FD, const SourceManager &SM,
                                TrainingFlagUses &Flags) const {
  std::vector<RemoteTrainingFlag> Out;
  if (runningModuleMethod(FD))
    return Out;
  for (const TrainingFlagUse &U : Flags.in(FD)) {
    if (U.Remote) {
      Out.push_back(*U.Remote);
      Out.back().InLambda = U.InLambda;
      continue;
    }
    const TrainingFlagOn &F = U.Flag;
    SourceLocation Loc = SM.getExpansionLoc(compat::beginLoc(F.Call));
    if (Loc.isInvalid() || isLibraryCode(Loc, SM))
      continue;
    RemoteTrainingFlag R;
    R.Function = flagCallSpelling(F, SM, Ctx->getLangOpts());
    R.Name = F.Function->getName().str();
    R.Source = flagSourceSpelling(F.Source).str();
    if (F.Param->getIdentifier())
      R.Param = F.Param->getName().str();
    if (F.OptionsClass)
      R.Options = F.OptionsClass->getName().str();
    R.InLambda = U.InLambda;
    R.Site = siteOf(Loc, SM);
    Out.push_back(std::move(R));
  }
  return Out;
}

void SummaryPassCheck::summariseModuleEffects(
    const FunctionDecl *FD, const std::string &USR, const std::string &Name,
    const RemoteSite &Def, const SourceManager &SM, ModuleModels &Models) {
  if (isa<CXXConstructorDecl>(FD))
    return;
  if (std::optional<ValueKind> K = Models.returnKindOf(FD))
    Writer.addModuleReturn(USR, Name, Def, *K);
  std::vector<RemoteModuleEffects> Out;
  for (int Object = -1; Object < static_cast<int>(FD->getNumParams());
       ++Object) {
    std::optional<HandedModuleEffects> E = Models.effectsOn(FD, Object);
    if (!E)
      continue;
    RemoteModuleEffects R;
    R.Object = Object;
    R.Opaque = E->Opaque;
    for (const HandedModuleEffects::Member &M : E->Members) {
      if (!M.Field->getIdentifier())
        continue;
      RemoteModuleEffects::Member RM;
      RM.Field = M.Field->getName().str();
      RM.Registrations.assign(M.Registrations.begin(), M.Registrations.end());
      for (const MemberStore &St : M.Stores) {
        RemoteModuleEffects::Store S;
        S.Kind = St.Kind;
        S.Conditional = St.Conditional;
        S.InLoop = St.InLoop;
        S.Element = St.Element;
        const Expr *At = St.Value ? St.Value : St.Site;
        if (St.Remote)
          S.Site = *St.Remote;
        else if (At)
          S.Site = siteOf(At->getBeginLoc(), SM);
        RM.Stores.push_back(std::move(S));
      }
      R.Members.push_back(std::move(RM));
    }
    Out.push_back(std::move(R));
  }
  if (!Out.empty())
    Writer.addModuleEffects(USR, Name, Def, Out);
}

void SummaryPassCheck::summariseCalls(const FunctionDecl *FD,
                                      const SourceManager &SM,
                                      GradModeAnalysis &GradMode) {
  forEachBodyPart(FD, [&](const Stmt *Part) {
    forEachDescendant(Part, [&](const Stmt *S) {
      // A lambda's calls are its call operator's, an indexed function.
      if (isa<LambdaExpr>(S))
        return Descend::Skip;
      const FunctionDecl *Callee = nullptr;
      if (const auto *CE = dyn_cast<CallExpr>(S))
        Callee = CE->getDirectCallee();
      else if (const auto *CE = dyn_cast<CXXConstructExpr>(S))
        Callee = CE->getConstructor();
      if (!isProgramVisible(Callee) || Callee->isDependentContext() ||
          isLibraryCode(Callee, SM))
        return Descend::Children;
      std::string USR = usrOf(Callee);
      if (!USR.empty())
        Writer.addCall(USR, Callee->getQualifiedNameAsString(),
                       GradMode.at(FD, S).Records,
                       siteOf(cast<Expr>(S)->getExprLoc(), SM));
      return Descend::Children;
    });
  });
}

void SummaryPassCheck::onEndOfTranslationUnit() {
  if (Output.empty())
    return;
  if (Index && Ctx) {
    const SourceManager &SM = Ctx->getSourceManager();
    Activations.emplace(ActivationCfg, SM);
    Events.emplace(Loop, SM);
    GradModeAnalysis GradMode(GradConfig, *Index);
    RequiresGradAnalysis Grad(ParamConfig, *Index, GradMode);
    InplaceEffectAnalysis Effects(EffectConfig, SM, Grad, GradMode);
    DeviceAnalysis Devices(DeviceOpts);
    ModelModeAnalysis Modes(ModeOpts, *Index, *Ctx);
    ModuleModels &Models = ModuleModels::of(*Ctx, RegistrationOpts);
    GraphAnalysis Graphs(GraphCfg, SM, GradMode);
    GraphPathAnalysis Paths(PathCfg, SM, GradMode);
    ShapeAnalysis Shapes(ShapeCfg, *Ctx);
    // Methods of modules are judged where they are defined, not as helpers.
    TrainingFlagUses Flags(
        SM, TrainingFlagFunctions, FlagCallDepth,
        [](const FunctionDecl *FD) { return runningModuleMethod(FD); },
        Loop.Program);
    std::map<const FunctionDecl *, std::vector<RemoteParameterSync>> Syncs =
        parameterSyncs(SM);
    Analyses An{Effects, Devices, Modes,    Models, Graphs,
                Paths,   Shapes,  GradMode, Flags,  Syncs};
    for (const FunctionDecl *FD : Index->functions()) {
      summarise(FD, SM, An);
      summariseCalls(FD, SM, GradMode);
    }
    Index = nullptr;
  }
  std::vector<std::string> Functions;
  std::vector<std::pair<std::string, bool>> Callers;
  if (Program) {
    Functions = Program->functionReads();
    Callers = Program->callerReads();
  }
  size_t Reads = Functions.size() + Callers.size();
  Writer.setReads(std::move(Functions), std::move(Callers));
  std::string Error;
  if (Writer.write(Output, Error))
    WrittenReads = Reads;
  else if (compat::canReportConfigurationDiag(Context))
    configurationDiag("cannot write the whole-program summary '%0': %1")
        << Output << Error;
}

} // namespace torch_tidy
