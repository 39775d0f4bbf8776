//===--- WholeProgram.cpp - facts from other translation units ------------===//
#include "torch-tidy/WholeProgram.h"
#include "torch-tidy/Compat.h"
#include "torch-tidy/Types.h"

#include "clang-tidy/ClangTidyDiagnosticConsumer.h"
#include "clang/AST/DeclCXX.h"
#include "clang/Basic/FileManager.h"
#include "clang/Index/USRGeneration.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdlib>
#include <map>
#include <mutex>
#include <set>
#include <tuple>

using namespace clang;
namespace json = llvm::json;

namespace torch_tidy {

//===----------------------------------------------------------------------===//
// The names of kinds in the file
//===----------------------------------------------------------------------===//

namespace {
template <typename E> struct Spelling {
  E Value;
  llvm::StringRef Name;
};

const Spelling<ActivationKind> KindNames[] = {
    {ActivationKind::Logits, "logits"},
    {ActivationKind::Probabilities, "probabilities"},
    {ActivationKind::LogProbabilities, "log-probabilities"},
    {ActivationKind::Parameter, "parameter"},
};

const Spelling<ActivationOp> OpNames[] = {
    {ActivationOp::None, "none"},
    {ActivationOp::Linear, "linear"},
    {ActivationOp::Conv, "conv"},
    {ActivationOp::Matmul, "matmul"},
    {ActivationOp::Sigmoid, "sigmoid"},
    {ActivationOp::Softmax, "softmax"},
    {ActivationOp::LogSoftmax, "log_softmax"},
    {ActivationOp::LogSigmoid, "logsigmoid"},
    {ActivationOp::Custom, "custom"},
};

const Spelling<EventKind> EventNames[] = {
    {EventKind::Backward, "backward"},
    {EventKind::OptimizerStep, "optimizer_step"},
    {EventKind::ZeroGrad, "zero_grad"},
    {EventKind::SchedulerStep, "scheduler_step"},
    {EventKind::Eval, "eval"},
    {EventKind::Train, "train"},
    {EventKind::Forward, "forward"},
    {EventKind::Opaque, "opaque"},
};

const Spelling<ValueKind> ValueNames[] = {
    {ValueKind::Null, "null"},
    {ValueKind::Fresh, "fresh"},
    {ValueKind::Registered, "registered"},
    {ValueKind::Borrowed, "borrowed"},
    {ValueKind::Unknown, "unknown"},
};

const Spelling<RegistrationKind> RegistrationNames[] = {
    {RegistrationKind::Parameter, "parameter"},
    {RegistrationKind::Buffer, "buffer"},
    {RegistrationKind::Module, "module"},
    {RegistrationKind::Custom, "custom"},
};

const Spelling<RemoteDeviceReturn::OriginKind> OriginNames[] = {
    {RemoteDeviceReturn::OriginKind::Literal, "literal"},
    {RemoteDeviceReturn::OriginKind::Parameter, "parameter"},
    {RemoteDeviceReturn::OriginKind::Tensor, "tensor"},
    {RemoteDeviceReturn::OriginKind::None, "none"},
};

template <typename E, size_t N>
llvm::StringRef nameOf(const Spelling<E> (&Table)[N], E V) {
  for (const Spelling<E> &S : Table)
    if (S.Value == V)
      return S.Name;
  return "";
}

/// \p Name: the optional string of a json::Object (llvm::Optional before
/// LLVM 16, std::optional after).
template <typename E, size_t N, typename OptionalName>
std::optional<E> valueOf(const Spelling<E> (&Table)[N],
                         const OptionalName &Name) {
  if (!Name)
    return std::nullopt;
  for (const Spelling<E> &S : Table)
    if (S.Name == *Name)
      return S.Value;
  return std::nullopt;
}

unsigned count(const json::Object &O, llvm::StringRef Key) {
  auto N = O.getInteger(Key);
  return N && *N >= 0 ? static_cast<unsigned>(*N) : 0;
}

bool flag(const json::Object &O, llvm::StringRef Key) {
  auto B = O.getBoolean(Key);
  return B && *B;
}

std::string text(const json::Object &O, llvm::StringRef Key) {
  auto S = O.getString(Key);
  return S ? S->str() : std::string();
}

RemoteSite readSite(const json::Object *O) {
  RemoteSite S;
  if (!O)
    return S;
  S.File = text(*O, "file");
  S.Line = count(*O, "line");
  S.Column = count(*O, "column");
  S.What = text(*O, "what");
  return S;
}

std::optional<RemoteCut> readCut(const json::Object *O) {
  if (!O)
    return std::nullopt;
  RemoteCut C;
  C.Kind = text(*O, "kind");
  C.Name = text(*O, "name");
  C.Rewrap = text(*O, "rewrap");
  C.Site = readSite(O->getObject("site"));
  if (C.Kind.empty() || C.Site.File.empty())
    return std::nullopt;
  return C;
}

std::optional<RemoteGraphPaths> readGraphPaths(const json::Object *O) {
  if (!O)
    return std::nullopt;
  RemoteGraphPaths G;
  G.Unknown = flag(*O, "unknown");
  if (const json::Array *Paths = O->getArray("paths"))
    for (const json::Value &V : *Paths) {
      const json::Object *P = V.getAsObject();
      if (!P)
        continue;
      RemoteGraphPath R;
      if (auto I = P->getInteger("parameter"); I && *I >= 0)
        R.ModuleParameter = static_cast<unsigned>(*I);
      R.Module = text(*P, "module");
      R.Forward = readSite(P->getObject("forward"));
      R.Cut = readCut(P->getObject("cut"));
      if (P->getObject("cut") && !R.Cut)
        continue; // a cut this version cannot read: not a path it knows
      G.Paths.push_back(std::move(R));
    }
  if (const json::Array *Params = O->getArray("parameters"))
    for (const json::Value &V : *Params) {
      const json::Object *P = V.getAsObject();
      if (!P)
        continue;
      auto I = P->getInteger("parameter");
      if (!I || *I < 0)
        continue;
      RemoteParameterFlow F;
      F.Parameter = static_cast<unsigned>(*I);
      F.Cut = readCut(P->getObject("cut"));
      if (P->getObject("cut") && !F.Cut) {
        G.Unknown = true;
        continue;
      }
      G.Parameters.push_back(std::move(F));
    }
  return G;
}

/// A size, -1 when unknown (or not an integer).
int64_t size(const json::Value *V) {
  if (!V)
    return -1;
  auto N = V->getAsInteger();
  return N && *N >= 0 ? *N : -1;
}

std::optional<RemoteSizeSource> readSizeSource(const json::Object *O) {
  if (!O)
    return std::nullopt;
  RemoteSizeSource S;
  S.Name = text(*O, "name");
  S.Site = readSite(O->getObject("site"));
  if (S.Site.File.empty())
    return std::nullopt;
  return S;
}

/// A layer with its sizes and a place: a step of a shape, a member's layer.
std::optional<RemoteLayerStep> readLayerStep(const json::Object *St) {
  std::optional<RemoteSizeSource> At =
      St ? readSizeSource(St->getObject("applied")) : std::nullopt;
  if (!At)
    return std::nullopt;
  RemoteLayerStep L;
  L.Kind = text(*St, "layer");
  L.SpatialDims = count(*St, "spatial");
  L.In = size(St->get("in"));
  L.Out = size(St->get("out"));
  L.Applied = std::move(*At);
  return L;
}

std::optional<RemoteShape> readShape(const json::Object *O) {
  if (!O)
    return std::nullopt;
  RemoteShape S;
  if (auto P = O->getInteger("parameter"); P && *P >= 0) {
    S.Parameter = static_cast<unsigned>(*P);
    if (const json::Array *Steps = O->getArray("steps"))
      for (const json::Value &V : *Steps) {
        std::optional<RemoteLayerStep> L = readLayerStep(V.getAsObject());
        if (!L)
          return std::nullopt; // a step this version cannot read
        S.Steps.push_back(std::move(*L));
      }
    return S;
  }
  auto Rank = O->getInteger("rank");
  S.Rank = Rank && *Rank >= 0 && *Rank <= 16 ? static_cast<int>(*Rank) : -1;
  if (const json::Array *Dims = O->getArray("dims"))
    for (const json::Value &V : *Dims)
      S.Dims.push_back(size(&V));
  if (S.Rank >= 0 && S.Dims.size() != static_cast<size_t>(S.Rank))
    return std::nullopt;
  S.LastDim = size(O->get("last"));
  S.ChannelDim = size(O->get("channels"));
  S.LastFrom = readSizeSource(O->getObject("last_from"));
  S.ChannelFrom = readSizeSource(O->getObject("channel_from"));
  return S;
}

std::optional<RemoteReturn> readReturn(const json::Object *O) {
  if (!O)
    return std::nullopt;
  std::optional<ActivationKind> K = valueOf(KindNames, O->getString("kind"));
  std::optional<ActivationOp> Op = valueOf(OpNames, O->getString("op"));
  if (!K || !Op)
    return std::nullopt; // a kind of a later version: not known here
  RemoteReturn R;
  R.Kind = *K;
  R.Op = *Op;
  R.ParamIndex = count(*O, "parameter");
  R.ThroughSequential = flag(*O, "sequential");
  R.Site = readSite(O->getObject("site"));
  return R;
}

std::optional<RemoteEvent> readEvent(const json::Value &V) {
  const json::Object *O = V.getAsObject();
  if (!O)
    return std::nullopt;
  std::optional<EventKind> K = valueOf(EventNames, O->getString("kind"));
  if (!K)
    return std::nullopt;
  RemoteEvent E;
  E.Kind = *K;
  if (const json::Object *Obj = O->getObject("object")) {
    if (auto P = Obj->getInteger("parameter"); P && *P >= 0) {
      E.Object = RemoteEvent::ObjectKind::Parameter;
      E.ParamIndex = static_cast<unsigned>(*P);
    } else if (auto F = Obj->getString("field")) {
      E.Object = RemoteEvent::ObjectKind::Field;
      E.FieldName = F->str();
    }
  }
  E.Conditional = flag(*O, "conditional");
  E.AfterExit = flag(*O, "after_exit");
  E.ExitMark = count(*O, "exit_mark");
  E.Custom = flag(*O, "custom");
  E.InClosure = flag(*O, "in_closure");
  E.Site = readSite(O->getObject("site"));
  return E;
}

std::optional<RemoteTrainingFlag> readTrainingFlag(const json::Value &V) {
  const json::Object *O = V.getAsObject();
  if (!O)
    return std::nullopt;
  RemoteTrainingFlag T;
  T.Function = text(*O, "function");
  T.Name = text(*O, "name");
  T.Source = text(*O, "source");
  T.Param = text(*O, "param");
  T.Options = text(*O, "options");
  T.InLambda = flag(*O, "in_lambda");
  T.Site = readSite(O->getObject("site"));
  if (T.Function.empty() || T.Source.empty() || T.Site.File.empty())
    return std::nullopt;
  return T;
}

std::optional<RemoteInplace> readInplace(const json::Value &V) {
  const json::Object *O = V.getAsObject();
  if (!O)
    return std::nullopt;
  auto P = O->getInteger("parameter");
  std::string Op = text(*O, "op");
  if (!P || *P < 0 || Op.empty())
    return std::nullopt;
  RemoteInplace I;
  I.ParamIndex = static_cast<unsigned>(*P);
  I.Spelling = std::move(Op);
  I.Site = readSite(O->getObject("site"));
  return I;
}

std::optional<RemoteDevice> readDevice(const json::Object &O) {
  RemoteDevice D;
  D.TypeName = text(O, "type");
  D.Placed = text(O, "placed");
  if (D.TypeName.empty() || D.Placed.empty())
    return std::nullopt;
  D.Accelerator = flag(O, "accelerator");
  D.Query = text(O, "query");
  D.HostRead = flag(O, "host_read");
  D.Site = readSite(O.getObject("site"));
  return D;
}

std::optional<RemoteDevice> readDevice(const json::Value &V) {
  const json::Object *O = V.getAsObject();
  return O ? readDevice(*O) : std::nullopt;
}

std::optional<RemoteDeviceReturn> readDeviceReturn(const json::Object *O) {
  if (!O)
    return std::nullopt;
  std::optional<RemoteDeviceReturn::OriginKind> Origin =
      valueOf(OriginNames, O->getString("origin"));
  if (!Origin)
    return std::nullopt; // a kind this version does not know
  RemoteDeviceReturn R;
  R.Origin = *Origin;
  if (*Origin == RemoteDeviceReturn::OriginKind::Literal) {
    std::optional<RemoteDevice> D = readDevice(*O);
    if (!D)
      return std::nullopt;
    R.Literal = std::move(*D);
  } else if (*Origin == RemoteDeviceReturn::OriginKind::Parameter) {
    auto P = O->getInteger("parameter");
    if (!P || *P < 0)
      return std::nullopt;
    R.ParamIndex = static_cast<unsigned>(*P);
  }
  return R;
}

std::optional<RemoteModuleEffects> readModuleEffects(const json::Value &V) {
  const json::Object *O = V.getAsObject();
  if (!O)
    return std::nullopt;
  RemoteModuleEffects R;
  if (auto P = O->getInteger("parameter")) {
    if (*P < 0)
      return std::nullopt;
    R.Object = static_cast<int>(*P);
  } else if (!O->getBoolean("this")) {
    return std::nullopt;
  }
  R.Opaque = flag(*O, "opaque");
  if (const json::Array *Members = O->getArray("members"))
    for (const json::Value &MV : *Members) {
      const json::Object *MO = MV.getAsObject();
      if (!MO)
        continue;
      RemoteModuleEffects::Member M;
      M.Field = text(*MO, "field");
      if (M.Field.empty())
        return std::nullopt;
      if (const json::Array *Regs = MO->getArray("registers"))
        for (const json::Value &RV : *Regs) {
          std::optional<RegistrationKind> K =
              valueOf(RegistrationNames, RV.getAsString());
          if (!K)
            return std::nullopt; // a kind this version does not know
          M.Registrations.push_back(*K);
        }
      if (const json::Array *Stores = MO->getArray("stores"))
        for (const json::Value &SV : *Stores) {
          const json::Object *SO = SV.getAsObject();
          std::optional<ValueKind> K =
              SO ? valueOf(ValueNames, SO->getString("kind")) : std::nullopt;
          if (!K)
            return std::nullopt;
          RemoteModuleEffects::Store St;
          St.Kind = *K;
          St.Conditional = flag(*SO, "conditional");
          St.InLoop = flag(*SO, "in_loop");
          St.Element = flag(*SO, "element");
          St.Site = readSite(SO->getObject("site"));
          M.Stores.push_back(std::move(St));
        }
      R.Members.push_back(std::move(M));
    }
  return R;
}

std::optional<RemoteMode> readMode(const json::Object *O) {
  if (!O || !O->getBoolean("depends"))
    return std::nullopt;
  RemoteMode M;
  M.Depends = flag(*O, "depends");
  M.Member = text(*O, "member");
  M.Class = text(*O, "class");
  M.Harm = text(*O, "harm");
  M.Site = readSite(O->getObject("site"));
  return M;
}
} // namespace

//===----------------------------------------------------------------------===//
// Reading
//===----------------------------------------------------------------------===//

std::string usrOf(const Decl *D) {
  llvm::SmallString<128> Buf;
  if (!D || index::generateUSRForDecl(D, Buf))
    return "";
  return Buf.str().str();
}

bool isProgramVisible(const FunctionDecl *FD) {
  if (!FD || !FD->isExternallyVisible())
    return false;
  const auto *MD = dyn_cast<CXXMethodDecl>(FD);
  return !MD || !MD->getParent()->isLambda();
}

bool mayBeElsewhere(const FunctionDecl *FD, const SourceManager &SM) {
  if (!FD || FD->hasBody() || FD->isDependentContext() ||
      FD->isTemplateInstantiation() || FD->isDeleted() || FD->isInvalidDecl() ||
      !isProgramVisible(FD))
    return false;
  return !isLibraryCode(FD, SM);
}

struct ProgramSummary::ReadLog {
  std::mutex Lock;
  std::set<std::string, std::less<>> Functions;
  std::map<std::string, bool, std::less<>> Callers;
};

void ProgramSummary::logReads() const { Reads = std::make_shared<ReadLog>(); }

void ProgramSummary::noteRead(llvm::StringRef USR) const {
  if (!Reads || USR.empty())
    return;
  std::lock_guard<std::mutex> Guard(Reads->Lock);
  if (Reads->Functions.find(USR) == Reads->Functions.end())
    Reads->Functions.emplace(USR.str());
}

std::vector<std::string> ProgramSummary::functionReads() const {
  if (!Reads)
    return {};
  std::lock_guard<std::mutex> Guard(Reads->Lock);
  return {Reads->Functions.begin(), Reads->Functions.end()};
}

std::vector<std::pair<std::string, bool>> ProgramSummary::callerReads() const {
  if (!Reads)
    return {};
  std::lock_guard<std::mutex> Guard(Reads->Lock);
  return {Reads->Callers.begin(), Reads->Callers.end()};
}

const RemoteFunction *ProgramSummary::find(llvm::StringRef USR) const {
  noteRead(USR);
  auto It = Functions.find(USR);
  return It == Functions.end() ? nullptr : &It->second;
}

const RemoteFunction *ProgramSummary::find(const FunctionDecl *FD) const {
  std::string USR = usrOf(FD);
  return USR.empty() ? nullptr : find(USR);
}

const RemoteCallers *
ProgramSummary::callers(const FunctionDecl *FD,
                        std::optional<bool> AbsentMeans) const {
  bool Log = Reads && AbsentMeans;
  if ((Calls.empty() && !Log) || !FD)
    return nullptr;
  std::string USR = usrOf(FD);
  if (USR.empty())
    return nullptr;
  if (Log) {
    std::lock_guard<std::mutex> Guard(Reads->Lock);
    Reads->Callers.try_emplace(USR, *AbsentMeans);
  }
  auto It = Calls.find(USR);
  return It == Calls.end() ? nullptr : &It->second;
}

std::shared_ptr<const ProgramSummary>
ProgramSummary::parse(llvm::StringRef Text, std::string &Error) {
  llvm::Expected<json::Value> V = json::parse(Text);
  if (!V) {
    Error = "not JSON: " + llvm::toString(V.takeError());
    return nullptr;
  }
  const json::Object *Top = V->getAsObject();
  if (!Top ||
      Top->getString("format") != llvm::StringRef("torch-tidy-summaries")) {
    Error = "not a torch-tidy summary file";
    return nullptr;
  }
  auto Version = Top->getInteger("version");
  if (!Version || *Version != FormatVersion) {
    Error = "summary format version " +
            (Version ? std::to_string(*Version) : std::string("(none)")) +
            ", but this torch-tidy reads version " +
            std::to_string(FormatVersion) +
            "; make the summaries again with this torch-tidy";
    return nullptr;
  }
  auto Out = std::make_shared<ProgramSummary>();
  if (const json::Object *Fns = Top->getObject("functions")) {
    for (const auto &KV : *Fns) {
      const json::Object *F = KV.second.getAsObject();
      if (!F)
        continue;
      RemoteFunction R;
      R.Name = text(*F, "name");
      R.Definition.File = text(*F, "file");
      R.Definition.Line = count(*F, "line");
      R.Definition.Column = count(*F, "column");
      R.Returns = readReturn(F->getObject("returns"));
      if (const json::Array *Events = F->getArray("events"))
        for (const json::Value &EV : *Events)
          if (std::optional<RemoteEvent> E = readEvent(EV))
            R.Events.push_back(std::move(*E));
      if (const json::Array *Inplace = F->getArray("inplace"))
        for (const json::Value &IV : *Inplace)
          if (std::optional<RemoteInplace> I = readInplace(IV))
            R.Inplace.push_back(std::move(*I));
      if (const json::Array *Devices = F->getArray("devices"))
        for (const json::Value &DV : *Devices)
          if (std::optional<RemoteDevice> D = readDevice(DV))
            R.Devices.push_back(std::move(*D));
      R.ReturnsDevice = readDeviceReturn(F->getObject("device_return"));
      R.ModuleReturn = valueOf(ValueNames, F->getString("module_return"));
      if (const json::Array *Effects = F->getArray("module_effects"))
        for (const json::Value &EV : *Effects)
          if (std::optional<RemoteModuleEffects> E = readModuleEffects(EV))
            R.ModuleEffects.push_back(std::move(*E));
      R.Builds = readMode(F->getObject("mode"));
      if (const json::Object *G = F->getObject("graph_return")) {
        RemoteGraphReturn GR;
        GR.Loss = flag(*G, "loss");
        GR.Site = readSite(G->getObject("site"));
        R.ReturnsGraph = std::move(GR);
      }
      R.ReturnPaths = readGraphPaths(F->getObject("graph_paths"));
      R.ReturnsShape = readShape(F->getObject("shape_return"));
      R.GradAtReturn = text(*F, "grad_at_return");
      if (const json::Array *Syncs = F->getArray("parameter_syncs"))
        for (const json::Value &SV : *Syncs) {
          const json::Object *O = SV.getAsObject();
          if (!O)
            continue;
          auto Into = O->getInteger("into");
          auto From = O->getInteger("from");
          RemoteParameterSync P;
          P.Site = readSite(O->getObject("site"));
          if (!Into || !From || *Into < 0 || *From < 0 || *Into == *From ||
              P.Site.File.empty())
            continue;
          P.Into = static_cast<unsigned>(*Into);
          P.From = static_cast<unsigned>(*From);
          R.ParameterSyncs.push_back(std::move(P));
        }
      if (const json::Array *Layers = F->getArray("member_layers"))
        for (const json::Value &LV : *Layers) {
          const json::Object *O = LV.getAsObject();
          std::optional<RemoteLayerStep> L = readLayerStep(O);
          if (!L || text(*O, "field").empty())
            continue;
          R.MemberLayers.push_back({text(*O, "field"), std::move(*L)});
        }
      if (const json::Array *Flags = F->getArray("training_flags"))
        for (const json::Value &TV : *Flags)
          if (std::optional<RemoteTrainingFlag> T = readTrainingFlag(TV))
            R.TrainingFlags.push_back(std::move(*T));
      Out->Functions[llvm::StringRef(KV.first)] = std::move(R);
    }
  }
  if (const json::Object *Calls = Top->getObject("calls")) {
    for (const auto &KV : *Calls) {
      const json::Object *C = KV.second.getAsObject();
      if (!C || !C->getBoolean("recording"))
        continue;
      RemoteCallers R;
      R.Name = text(*C, "name");
      R.Recording = flag(*C, "recording");
      R.Site = readSite(C->getObject("site"));
      Out->Calls[llvm::StringRef(KV.first)] = std::move(R);
    }
  }
  return Out;
}

std::shared_ptr<const ProgramSummary> ProgramSummary::read(llvm::StringRef Path,
                                                           std::string &Error) {
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> Buf =
      llvm::MemoryBuffer::getFile(Path);
  if (!Buf) {
    Error = Buf.getError().message();
    return nullptr;
  }
  return parse((*Buf)->getBuffer(), Error);
}

namespace {
/// One summary file as read, and whether its failure was reported.
struct LoadedSummary {
  uint64_t Size = 0;
  llvm::sys::TimePoint<> Modified;
  std::shared_ptr<const ProgramSummary> Summary;
  std::string Error;
  bool Reported = false;
};

std::mutex LoadedLock;
llvm::StringMap<LoadedSummary> &loaded() {
  static llvm::StringMap<LoadedSummary> Files;
  return Files;
}

std::string summaryPath(tidy::ClangTidyContext *Context) {
  if (const char *Env = std::getenv("TORCH_TIDY_SUMMARY_FILE"))
    return Env;
  if (!Context)
    return "";
  const auto &Options = Context->getOptions().CheckOptions;
  auto It = Options.find("torch-tidy.SummaryFile");
  return It == Options.end() ? std::string() : It->second.Value;
}
} // namespace

std::shared_ptr<const ProgramSummary>
programSummary(tidy::ClangTidyContext *Context) {
  std::string Path = summaryPath(Context);
  if (Path.empty())
    return nullptr;
  llvm::sys::fs::file_status Status;
  bool Exists = !llvm::sys::fs::status(Path, Status) &&
                llvm::sys::fs::is_regular_file(Status);
  std::lock_guard<std::mutex> Lock(LoadedLock);
  LoadedSummary &L = loaded()[Path];
  bool Fresh = !L.Summary && L.Error.empty();
  if (Exists && (Fresh || L.Size != Status.getSize() ||
                 L.Modified != Status.getLastModificationTime())) {
    L.Size = Status.getSize();
    L.Modified = Status.getLastModificationTime();
    L.Error.clear();
    L.Summary = ProgramSummary::read(Path, L.Error);
    L.Reported = false;
  } else if (!Exists && (Fresh || L.Summary)) {
    L.Summary = nullptr;
    L.Error = "no such file";
    L.Reported = false;
  }
  if (!L.Summary && !L.Reported && Context &&
      compat::canReportConfigurationDiag(Context)) {
    L.Reported = true;
    Context->configurationDiag(
        "cannot read the whole-program summary '%0' (option "
        "'torch-tidy.SummaryFile' or TORCH_TIDY_SUMMARY_FILE): %1; calls of "
        "functions defined in other files are not followed")
        << Path << L.Error;
  }
  return L.Summary;
}

std::shared_ptr<const ProgramSummary>
loggingProgramSummary(tidy::ClangTidyContext *Context) {
  std::shared_ptr<const ProgramSummary> Shared = programSummary(Context);
  if (!Shared)
    Shared = std::make_shared<ProgramSummary>();
  Shared->logReads();
  return Shared;
}

SourceLocation remoteLocation(const SourceManager &SM, const RemoteSite &Site) {
  if (Site.File.empty() || Site.Line == 0)
    return {};
  FileManager &FM = SM.getFileManager();
  auto FE = FM.getOptionalFileRef(Site.File);
  if (!FE)
    return {};
  FileID FID = SM.translateFile(*FE);
  if (FID.isInvalid()) {
    // The file was not included here: enter it, as the diagnostics engine
    // needs a location of this SourceManager. Entering a file only adds to
    // the SourceManager's tables; nothing of the AST changes.
    FID = const_cast<SourceManager &>(SM).createFileID(*FE, SourceLocation(),
                                                       SrcMgr::C_User);
  }
  if (FID.isInvalid())
    return {};
  return SM.translateLineCol(FID, Site.Line, std::max(1u, Site.Column));
}

std::string describeRemoteSite(const RemoteSite &Site) {
  std::string Out = llvm::sys::path::filename(Site.File).str();
  if (Site.Line)
    Out += ":" + std::to_string(Site.Line);
  return Out;
}

//===----------------------------------------------------------------------===//
// Writing
//===----------------------------------------------------------------------===//

RemoteSite siteOf(SourceLocation Loc, const SourceManager &SM,
                  std::string What) {
  RemoteSite S;
  S.What = std::move(What);
  if (Loc.isInvalid())
    return S;
  Loc = SM.getExpansionLoc(Loc);
  FileID FID = SM.getFileID(Loc);
  if (auto FE = SM.getFileEntryRefForID(FID)) {
    llvm::SmallString<256> Path(FE->getName());
    llvm::sys::fs::make_absolute(Path);
    llvm::sys::path::remove_dots(Path, /*remove_dot_dot=*/true);
    S.File = Path.str().str();
  }
  S.Line = SM.getExpansionLineNumber(Loc);
  S.Column = SM.getExpansionColumnNumber(Loc);
  return S;
}

RemoteFunction &SummaryWriter::function(const std::string &USR,
                                        const std::string &Name,
                                        const RemoteSite &Definition) {
  RemoteFunction &F = Functions[USR];
  F.Name = Name;
  F.Definition = Definition;
  return F;
}

void SummaryWriter::addReturn(const std::string &USR, const std::string &Name,
                              const RemoteSite &Definition,
                              const RemoteReturn &R) {
  function(USR, Name, Definition).Returns = R;
}

void SummaryWriter::addEvents(const std::string &USR, const std::string &Name,
                              const RemoteSite &Definition,
                              const std::vector<RemoteEvent> &Events) {
  function(USR, Name, Definition).Events = Events;
}

void SummaryWriter::addInplace(const std::string &USR, const std::string &Name,
                               const RemoteSite &Definition,
                               const std::vector<RemoteInplace> &Inplace) {
  function(USR, Name, Definition).Inplace = Inplace;
}

void SummaryWriter::addDevices(const std::string &USR, const std::string &Name,
                               const RemoteSite &Definition,
                               const std::vector<RemoteDevice> &Devices) {
  function(USR, Name, Definition).Devices = Devices;
}

void SummaryWriter::addDeviceReturn(const std::string &USR,
                                    const std::string &Name,
                                    const RemoteSite &Definition,
                                    const RemoteDeviceReturn &R) {
  function(USR, Name, Definition).ReturnsDevice = R;
}

void SummaryWriter::addModuleEffects(
    const std::string &USR, const std::string &Name,
    const RemoteSite &Definition,
    const std::vector<RemoteModuleEffects> &Effects) {
  function(USR, Name, Definition).ModuleEffects = Effects;
}

void SummaryWriter::addModuleReturn(const std::string &USR,
                                    const std::string &Name,
                                    const RemoteSite &Definition,
                                    ValueKind Kind) {
  function(USR, Name, Definition).ModuleReturn = Kind;
}

void SummaryWriter::addBuilds(const std::string &USR, const std::string &Name,
                              const RemoteSite &Definition,
                              const RemoteMode &Mode) {
  function(USR, Name, Definition).Builds = Mode;
}

void SummaryWriter::addGraphReturn(const std::string &USR,
                                   const std::string &Name,
                                   const RemoteSite &Definition,
                                   const RemoteGraphReturn &G) {
  function(USR, Name, Definition).ReturnsGraph = G;
}

void SummaryWriter::addGraphPaths(const std::string &USR,
                                  const std::string &Name,
                                  const RemoteSite &Definition,
                                  const RemoteGraphPaths &P) {
  function(USR, Name, Definition).ReturnPaths = P;
}

void SummaryWriter::addShapeReturn(const std::string &USR,
                                   const std::string &Name,
                                   const RemoteSite &Definition,
                                   const RemoteShape &S) {
  function(USR, Name, Definition).ReturnsShape = S;
}

void SummaryWriter::addGradAtReturn(const std::string &USR,
                                    const std::string &Name,
                                    const RemoteSite &Definition,
                                    llvm::StringRef Switch) {
  function(USR, Name, Definition).GradAtReturn = Switch.str();
}

void SummaryWriter::addTrainingFlags(
    const std::string &USR, const std::string &Name,
    const RemoteSite &Definition,
    const std::vector<RemoteTrainingFlag> &Flags) {
  function(USR, Name, Definition).TrainingFlags = Flags;
}

void SummaryWriter::addParameterSyncs(
    const std::string &USR, const std::string &Name,
    const RemoteSite &Definition,
    const std::vector<RemoteParameterSync> &Syncs) {
  function(USR, Name, Definition).ParameterSyncs = Syncs;
}

void SummaryWriter::addMemberLayers(
    const std::string &USR, const std::string &Name,
    const RemoteSite &Definition,
    const std::vector<RemoteMemberLayer> &Layers) {
  function(USR, Name, Definition).MemberLayers = Layers;
}

void SummaryWriter::addCall(const std::string &USR, const std::string &Name,
                            bool Recording, const RemoteSite &Site) {
  auto Key = [](const RemoteSite &S) {
    return std::make_tuple(llvm::StringRef(S.File), S.Line, S.Column);
  };
  auto [It, New] = Calls.try_emplace(USR);
  RemoteCallers &C = It->second;
  if (New || (Recording && !C.Recording) ||
      (Recording == C.Recording && Key(Site) < Key(C.Site))) {
    C.Name = Name;
    C.Recording = Recording;
    C.Site = Site;
  }
}

namespace {
void printSite(json::OStream &J, const RemoteSite &S) {
  J.attribute("file", S.File);
  J.attribute("line", S.Line);
  J.attribute("column", S.Column);
  if (!S.What.empty())
    J.attribute("what", S.What);
}

void printDevice(json::OStream &J, const RemoteDevice &D) {
  J.attribute("type", D.TypeName);
  if (D.Accelerator)
    J.attribute("accelerator", true);
  J.attribute("placed", D.Placed);
  if (!D.Query.empty())
    J.attribute("query", D.Query);
  if (D.HostRead)
    J.attribute("host_read", true);
  J.attributeObject("site", [&] { printSite(J, D.Site); });
}

/// The attributes of a layer with its sizes and place (readLayerStep).
void printLayerStep(json::OStream &J, const RemoteLayerStep &L) {
  J.attribute("layer", L.Kind);
  if (L.SpatialDims)
    J.attribute("spatial", L.SpatialDims);
  J.attribute("in", L.In);
  J.attribute("out", L.Out);
  J.attributeObject("applied", [&] {
    J.attribute("name", L.Applied.Name);
    J.attributeObject("site", [&] { printSite(J, L.Applied.Site); });
  });
}

void printFunction(json::OStream &J, const RemoteFunction &F) {
  J.attribute("name", F.Name);
  printSite(J, F.Definition);
  if (const std::optional<RemoteReturn> &R = F.Returns)
    J.attributeObject("returns", [&] {
      J.attribute("kind", nameOf(KindNames, R->Kind));
      J.attribute("op", nameOf(OpNames, R->Op));
      if (R->Kind == ActivationKind::Parameter)
        J.attribute("parameter", R->ParamIndex);
      else
        J.attributeObject("site", [&] { printSite(J, R->Site); });
      if (R->ThroughSequential)
        J.attribute("sequential", true);
    });
  if (!F.Inplace.empty())
    J.attributeArray("inplace", [&] {
      for (const RemoteInplace &I : F.Inplace)
        J.object([&] {
          J.attribute("parameter", I.ParamIndex);
          J.attribute("op", I.Spelling);
          J.attributeObject("site", [&] { printSite(J, I.Site); });
        });
    });
  if (!F.Devices.empty())
    J.attributeArray("devices", [&] {
      for (const RemoteDevice &D : F.Devices)
        J.object([&] { printDevice(J, D); });
    });
  if (const std::optional<RemoteDeviceReturn> &R = F.ReturnsDevice)
    J.attributeObject("device_return", [&] {
      J.attribute("origin", nameOf(OriginNames, R->Origin));
      if (R->Origin == RemoteDeviceReturn::OriginKind::Literal)
        printDevice(J, R->Literal);
      else if (R->Origin == RemoteDeviceReturn::OriginKind::Parameter)
        J.attribute("parameter", R->ParamIndex);
    });
  if (F.ModuleReturn)
    J.attribute("module_return", nameOf(ValueNames, *F.ModuleReturn));
  if (!F.ModuleEffects.empty())
    J.attributeArray("module_effects", [&] {
      for (const RemoteModuleEffects &E : F.ModuleEffects)
        J.object([&] {
          if (E.Object >= 0)
            J.attribute("parameter", E.Object);
          else
            J.attribute("this", true);
          if (E.Opaque)
            J.attribute("opaque", true);
          if (E.Members.empty())
            return;
          J.attributeArray("members", [&] {
            for (const RemoteModuleEffects::Member &M : E.Members)
              J.object([&] {
                J.attribute("field", M.Field);
                if (!M.Registrations.empty())
                  J.attributeArray("registers", [&] {
                    for (RegistrationKind K : M.Registrations)
                      J.value(nameOf(RegistrationNames, K));
                  });
                if (!M.Stores.empty())
                  J.attributeArray("stores", [&] {
                    for (const RemoteModuleEffects::Store &St : M.Stores)
                      J.object([&] {
                        J.attribute("kind", nameOf(ValueNames, St.Kind));
                        if (St.Conditional)
                          J.attribute("conditional", true);
                        if (St.InLoop)
                          J.attribute("in_loop", true);
                        if (St.Element)
                          J.attribute("element", true);
                        J.attributeObject("site",
                                          [&] { printSite(J, St.Site); });
                      });
                  });
              });
          });
        });
    });
  if (const std::optional<RemoteMode> &M = F.Builds)
    J.attributeObject("mode", [&] {
      J.attribute("depends", M->Depends);
      if (!M->Member.empty())
        J.attribute("member", M->Member);
      if (!M->Class.empty())
        J.attribute("class", M->Class);
      if (!M->Harm.empty())
        J.attribute("harm", M->Harm);
      J.attributeObject("site", [&] { printSite(J, M->Site); });
    });
  if (const std::optional<RemoteGraphReturn> &G = F.ReturnsGraph)
    J.attributeObject("graph_return", [&] {
      J.attribute("loss", G->Loss);
      J.attributeObject("site", [&] { printSite(J, G->Site); });
    });
  if (const std::optional<RemoteGraphPaths> &G = F.ReturnPaths)
    J.attributeObject("graph_paths", [&] {
      auto Cut = [&](const RemoteCut &C) {
        J.attributeObject("cut", [&] {
          J.attribute("kind", C.Kind);
          J.attribute("name", C.Name);
          if (!C.Rewrap.empty())
            J.attribute("rewrap", C.Rewrap);
          J.attributeObject("site", [&] { printSite(J, C.Site); });
        });
      };
      if (!G->Parameters.empty())
        J.attributeArray("parameters", [&] {
          for (const RemoteParameterFlow &P : G->Parameters)
            J.object([&] {
              J.attribute("parameter", P.Parameter);
              if (P.Cut)
                Cut(*P.Cut);
            });
        });
      if (!G->Paths.empty())
        J.attributeArray("paths", [&] {
          for (const RemoteGraphPath &P : G->Paths)
            J.object([&] {
              if (P.ModuleParameter)
                J.attribute("parameter", *P.ModuleParameter);
              J.attribute("module", P.Module);
              J.attributeObject("forward", [&] { printSite(J, P.Forward); });
              if (P.Cut)
                Cut(*P.Cut);
            });
        });
      if (G->Unknown)
        J.attribute("unknown", true);
    });
  if (!F.GradAtReturn.empty())
    J.attribute("grad_at_return", F.GradAtReturn);
  if (!F.MemberLayers.empty())
    J.attributeArray("member_layers", [&] {
      for (const RemoteMemberLayer &M : F.MemberLayers)
        J.object([&] {
          J.attribute("field", M.Field);
          printLayerStep(J, M.Layer);
        });
    });
  if (!F.ParameterSyncs.empty())
    J.attributeArray("parameter_syncs", [&] {
      for (const RemoteParameterSync &P : F.ParameterSyncs)
        J.object([&] {
          J.attribute("into", P.Into);
          J.attribute("from", P.From);
          J.attributeObject("site", [&] { printSite(J, P.Site); });
        });
    });
  if (!F.TrainingFlags.empty())
    J.attributeArray("training_flags", [&] {
      for (const RemoteTrainingFlag &T : F.TrainingFlags)
        J.object([&] {
          J.attribute("function", T.Function);
          J.attribute("name", T.Name);
          J.attribute("source", T.Source);
          if (!T.Param.empty())
            J.attribute("param", T.Param);
          if (!T.Options.empty())
            J.attribute("options", T.Options);
          if (T.InLambda)
            J.attribute("in_lambda", true);
          J.attributeObject("site", [&] { printSite(J, T.Site); });
        });
    });
  if (const std::optional<RemoteShape> &S = F.ReturnsShape)
    J.attributeObject("shape_return", [&] {
      auto Source = [&](llvm::StringRef Key, const RemoteSizeSource &From) {
        J.attributeObject(Key, [&] {
          J.attribute("name", From.Name);
          J.attributeObject("site", [&] { printSite(J, From.Site); });
        });
      };
      if (S->Parameter) {
        J.attribute("parameter", *S->Parameter);
        J.attributeArray("steps", [&] {
          for (const RemoteLayerStep &L : S->Steps)
            J.object([&] { printLayerStep(J, L); });
        });
        return;
      }
      if (S->Rank >= 0) {
        J.attribute("rank", S->Rank);
        J.attributeArray("dims", [&] {
          for (int64_t D : S->Dims)
            J.value(D);
        });
      }
      if (S->LastDim >= 0)
        J.attribute("last", S->LastDim);
      if (S->ChannelDim >= 0)
        J.attribute("channels", S->ChannelDim);
      if (S->LastFrom)
        Source("last_from", *S->LastFrom);
      if (S->ChannelFrom)
        Source("channel_from", *S->ChannelFrom);
    });
  if (F.Events.empty())
    return;
  J.attributeArray("events", [&] {
    for (const RemoteEvent &E : F.Events)
      J.object([&] {
        J.attribute("kind", nameOf(EventNames, E.Kind));
        if (E.Object == RemoteEvent::ObjectKind::Parameter)
          J.attributeObject("object",
                            [&] { J.attribute("parameter", E.ParamIndex); });
        else if (E.Object == RemoteEvent::ObjectKind::Field)
          J.attributeObject("object",
                            [&] { J.attribute("field", E.FieldName); });
        else
          J.attribute("object", nullptr);
        if (E.Conditional)
          J.attribute("conditional", true);
        if (E.AfterExit)
          J.attribute("after_exit", true);
        if (E.ExitMark)
          J.attribute("exit_mark", E.ExitMark);
        if (E.Custom)
          J.attribute("custom", true);
        if (E.InClosure)
          J.attribute("in_closure", true);
        J.attributeObject("site", [&] { printSite(J, E.Site); });
      });
  });
}
} // namespace

void SummaryWriter::addDefined(const std::string &USR) { Defined.insert(USR); }

void SummaryWriter::setReads(
    std::vector<std::string> Functions,
    std::vector<std::pair<std::string, bool>> Callers) {
  FunctionReads = std::move(Functions);
  CallerReads = std::move(Callers);
}

void SummaryWriter::print(llvm::raw_ostream &OS) const {
  // Streamed: a tree of json::Values for a large file costs more memory than
  // the analyses that computed it.
  json::OStream J(OS, /*IndentSize=*/1);
  J.object([&] {
    J.attribute("format", "torch-tidy-summaries");
    J.attribute("version", ProgramSummary::FormatVersion);
    J.attributeObject("functions", [&] {
      for (const auto &KV : Functions)
        J.attributeObject(KV.first, [&] { printFunction(J, KV.second); });
    });
    // What run-torch-tidy's rounds need of one translation unit's summary
    // (never of a merged file: the merge leaves them out).
    if (!Defined.empty())
      J.attributeArray("defines", [&] {
        for (const std::string &USR : Defined)
          J.value(USR);
      });
    if (!FunctionReads.empty() || !CallerReads.empty())
      J.attributeObject("reads", [&] {
        J.attributeArray("functions", [&] {
          for (const std::string &USR : FunctionReads)
            J.value(USR);
        });
        // With what the asker took for no record: entered recording or not.
        J.attributeObject("callers", [&] {
          for (const auto &[USR, AbsentMeans] : CallerReads)
            J.attribute(USR, AbsentMeans);
        });
      });
    if (!Calls.empty())
      J.attributeObject("calls", [&] {
        for (const auto &KV : Calls)
          J.attributeObject(KV.first, [&] {
            J.attribute("name", KV.second.Name);
            J.attribute("recording", KV.second.Recording);
            J.attributeObject("site", [&] { printSite(J, KV.second.Site); });
          });
      });
  });
  OS << "\n";
}

bool SummaryWriter::write(llvm::StringRef Path, std::string &Error) const {
  llvm::SmallString<256> Temp;
  int FD = -1;
  if (std::error_code EC =
          llvm::sys::fs::createUniqueFile(Path + ".tmp-%%%%%%%%", FD, Temp)) {
    Error = EC.message();
    return false;
  }
  {
    llvm::raw_fd_ostream OS(FD, /*shouldClose=*/true);
    print(OS);
    OS.flush();
    if (OS.has_error()) {
      Error = OS.error().message();
      OS.clear_error();
      llvm::sys::fs::remove(Temp);
      return false;
    }
  }
  if (std::error_code EC = llvm::sys::fs::rename(Temp, Path)) {
    Error = EC.message();
    llvm::sys::fs::remove(Temp);
    return false;
  }
  return true;
}

} // namespace torch_tidy
