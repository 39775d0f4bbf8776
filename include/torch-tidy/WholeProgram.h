//===--- WholeProgram.h - facts from other translation units ----*- C++ -*-===//
//
// Real LibTorch projects split a model's `forward()` (model.cpp), helpers
// (utils.cpp) and the training loop (train.cpp) over translation units, and
// clang-tidy analyses one at a time: a call of a function whose body is in
// another file says nothing. Whole-program mode works as compositional
// analysers do, without loading other ASTs:
//
//  * the summary pass (the `torchtidy-summary-pass` check, run with
//    `TORCH_TIDY_SUMMARY_OUTPUT=<file>`) writes, for every function with
//    external linkage defined in user code of a translation unit, the facts
//    other translation units need about a call of it, keyed by its USR:
//    what it returns (Activation: logits, probabilities, log-probabilities, or
//    one of its parameters unchanged) and the training-loop events a call of it
//    performs (TrainingLoop: backward, optimizer and scheduler steps,
//    zero_grad, eval/train, forward calls), and the in-place operations it
//    makes on tensors its caller passes (InplaceEffects.h), the tensors it
//    places on a device written as a literal and the device it returns
//    (Devices.h), and, for a module's constructor, whether the module it
//    builds behaves differently in training and eval mode (ModelMode.h), and
//    what it stores into and registers of the members of a module it is
//    handed (ModuleModel.h), the autograd graph and graph paths of a tensor
//    it returns (Graphs.h, GraphPaths.h) and that tensor's shape (Shapes.h),
//    each with the place in its file;
//    whether a call of it leaves autograd switched off or on (GradMode.h);
//    the functional dropouts and batch norms it runs with their training
//    flag fixed on (TrainingFlag.h); which of the modules it is handed it
//    updates from another's parameters (ModuleAliases.h);
//    and, for every user function it calls (defined there or not), whether a
//    call of it runs with autograd recording (GradMode.h);
//  * run-torch-tidy merges the files of all translation units into one;
//  * the analyses read that file (the CheckOptions key `torch-tidy.SummaryFile`,
//    or `TORCH_TIDY_SUMMARY_FILE`, which wins) whenever a function called in
//    user code has no body in the translation unit, as if its summary had been
//    computed here: the same depth bound, recursion guard and parameter
//    mapping (Summaries.h), with the other file's place in messages and notes.
//
// The format is JSON, versioned ("format": "torch-tidy-summaries",
// "version": 1); docs/whole-program.md describes it.
//
//===----------------------------------------------------------------------===//
#ifndef TORCH_TIDY_WHOLEPROGRAM_H
#define TORCH_TIDY_WHOLEPROGRAM_H

#include "torch-tidy/Activation.h"
#include "torch-tidy/ModuleModel.h"
#include "torch-tidy/TrainingLoop.h"

#include "clang/AST/Decl.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace clang::tidy {
class ClangTidyContext;
} // namespace clang::tidy

namespace torch_tidy {

/// A place in another file of the program, and how a message names what is
/// there (`a 'torch::nn::Linear' layer`).
struct RemoteSite {
  std::string File; ///< absolute path, as the summary pass saw it
  unsigned Line = 0;
  unsigned Column = 0;
  std::string What;
};

/// Whether \p A and \p B are the same place (what they name aside).
inline bool samePlace(const RemoteSite &A, const RemoteSite &B) {
  return A.File == B.File && A.Line == B.Line && A.Column == B.Column;
}

/// What a call of a function returns (Activation.h), read in another file.
struct RemoteReturn {
  ActivationKind Kind = ActivationKind::Unknown;
  ActivationOp Op = ActivationOp::None;
  unsigned ParamIndex = 0; ///< Kind == Parameter
  bool ThroughSequential = false;
  RemoteSite Site;
};

/// One training-loop event of a call of a function (TrainingLoop.h).
struct RemoteEvent {
  enum class ObjectKind {
    None,      ///< not known, or not one the caller can name
    Parameter, ///< the function's parameter ParamIndex
    Field,     ///< the member FieldName of the method's class (`this`)
  };
  EventKind Kind = EventKind::Forward;
  ObjectKind Object = ObjectKind::None;
  unsigned ParamIndex = 0;
  std::string FieldName;
  bool Conditional = false;
  bool AfterExit = false;
  unsigned ExitMark = 0;
  bool Custom = false;
  bool InClosure = false;
  RemoteSite Site;
};

/// An in-place operation a call of a function makes on the tensor (or the
/// tensors) its caller passes as one of its parameters, while autograd records
/// unless the caller turned it off (InplaceEffects.h).
struct RemoteInplace {
  unsigned ParamIndex = 0;
  std::string Spelling; ///< `sub_`, `operator+=`
  RemoteSite Site;      ///< the operation
};

/// A tensor a call of a function places on a device written as a literal in
/// it (Devices.h), as the summary pass describes it.
struct RemoteDevice {
  bool Accelerator = false; ///< a non-CPU device
  std::string TypeName;     ///< `CUDA`, `CPU`, `MPS`
  std::string Placed; ///< `places a tensor on the hard-coded device '...'`
  /// The availability query that picked the device (`torch::cuda::is_available()`),
  /// or empty.
  std::string Query;
  bool HostRead = false; ///< read on the host right away (`.cpu().item()`)
  RemoteSite Site;       ///< where the device is written
};

/// The device value (`c10::Device`, `DeviceType`, `TensorOptions`) a call of
/// a function returns (Devices.h), as the summary pass read it: a literal
/// written in the function, one of its parameters, or a tensor's device.
struct RemoteDeviceReturn {
  enum class OriginKind { Literal, Parameter, Tensor, None };
  OriginKind Origin = OriginKind::None;
  unsigned ParamIndex = 0; ///< Origin == Parameter
  /// Origin == Literal: the device type, how a placement on it reads, the
  /// availability query that picked it, and where the literal is.
  RemoteDevice Literal;
};

/// Whether the module a constructor builds behaves differently in training
/// and eval mode (ModelMode.h), as the summary pass saw it with the
/// constructor's body.
struct RemoteMode {
  bool Depends = false;
  std::string Member; ///< the member that makes it depend, or empty
  std::string Class;  ///< the class that does (qualified), or empty
  /// What it does wrong in training mode: "dropout", "batchnorm", or empty.
  std::string Harm;
  RemoteSite Site; ///< the constructor
};

/// What a call of a function does to the members of a module object it is
/// handed (ModuleModel.h: HandedModuleEffects), by the members' names.
struct RemoteModuleEffects {
  int Object = -1; ///< the parameter's index, or -1 for `this`
  bool Opaque = false;
  struct Store {
    ValueKind Kind = ValueKind::Unknown;
    bool Conditional = false;
    bool InLoop = false;
    bool Element = false;
    RemoteSite Site; ///< the store (in a helper of its own file, the call)
  };
  struct Member {
    std::string Field;
    std::vector<RegistrationKind> Registrations;
    std::vector<Store> Stores;
  };
  std::vector<Member> Members;
};

/// How the calls of a function written in the program's translation units
/// enter it (GradMode.h): whether one of them runs with autograd recording.
/// Unlike the facts above, these come from the callers' files, and the merge
/// joins them: a function is entered recording when any call of it is.
struct RemoteCallers {
  std::string Name; ///< the callee, qualified, for -v output
  bool Recording = false;
  RemoteSite Site; ///< a recording call, else a call with autograd off
};

/// The autograd graph a call of a function returns (Graphs.h): a tensor
/// computed from a loss or a module's forward pass while autograd records,
/// when the call is entered recording.
struct RemoteGraphReturn {
  bool Loss = false; ///< a loss rather than a forward pass
  RemoteSite Site;   ///< the loss or forward call that records it
};

/// Where and how a way to a function's result is cut (GraphPaths.h).
struct RemoteCut {
  std::string Kind;   ///< GraphPaths' CutKind, spelled as in the file
  std::string Name;   ///< the operation (`detach`, `item`, `argmax`, ...)
  std::string Rewrap; ///< for item/data_ptr: the call that made a new tensor
  RemoteSite Site;
};

/// One way from a model output to what a function returns.
struct RemoteGraphPath {
  /// The module is the function's parameter i; none when it is another
  /// object (a local, a member, a global).
  std::optional<unsigned> ModuleParameter;
  std::string Module; ///< the module class, qualified
  RemoteSite Forward; ///< the forward call
  std::optional<RemoteCut> Cut;
};

/// A tensor parameter that what a function returns is computed from.
struct RemoteParameterFlow {
  unsigned Parameter = 0;
  std::optional<RemoteCut> Cut;
};

/// The graph paths of what a function returns (GraphPaths.h), read as if
/// its call records: from its own forward calls, and from its parameters.
struct RemoteGraphPaths {
  std::vector<RemoteGraphPath> Paths;
  std::vector<RemoteParameterFlow> Parameters;
  /// Also computed, with no cut, from a tensor whose origin is not known.
  bool Unknown = false;
};

/// Where a known size of a tensor comes from (Shapes.h: SizeSource).
struct RemoteSizeSource {
  std::string Name; ///< `'fc2'`, `'view'`
  RemoteSite Site;
};

/// A layer applied to a tensor (Shapes.h: applyLayer), with its sizes.
struct RemoteLayerStep {
  std::string Kind; ///< Shapes' LayerKind, spelled as in the file
  unsigned SpatialDims = 0;
  int64_t In = -1; ///< -1: not known
  int64_t Out = -1;
  RemoteSizeSource Applied; ///< the layer's name and application
};

/// The shape of the tensor a call of a function returns (Shapes.h): either
/// its parameter Parameter's shape with Steps applied in order, or a shape
/// of its own (rank and dimensions where known, -1 for unknown).
struct RemoteShape {
  std::optional<unsigned> Parameter;
  std::vector<RemoteLayerStep> Steps;
  int Rank = -1;
  std::vector<int64_t> Dims;
  int64_t LastDim = -1;
  int64_t ChannelDim = -1;
  std::optional<RemoteSizeSource> LastFrom, ChannelFrom;
};

/// A call with its training flag on (TrainingFlag.h) that a call of a
/// function runs: a functional dropout or batch norm fixed in training mode.
struct RemoteTrainingFlag {
  std::string Function; ///< as the call writes it (`torch::dropout`)
  std::string Name;     ///< its own name (`dropout`): what the layer does
  std::string Source;   ///< TrainingFlag's FlagSource, spelled as in the file
  std::string Param;    ///< the flag or options parameter (`train`)
  std::string Options;  ///< for options: the options struct, unqualified
  bool InLambda = false;
  RemoteSite Site; ///< the call
};

/// An update of the parameters of one module a function is handed from
/// those of another (ModuleAliases.h): a target network's update.
struct RemoteParameterSync {
  unsigned Into = 0; ///< the parameter updated
  unsigned From = 0; ///< the parameter read
  RemoteSite Site;   ///< the write
};

/// A layer a module's member holds once the module is built (Shapes.h:
/// memberLayer), for a constructor or `reset()` of a module class: the
/// member's name, the layer's kind and sizes, and where it is constructed.
struct RemoteMemberLayer {
  std::string Field;
  RemoteLayerStep Layer; ///< Applied: the member's name and the construction
};

/// The facts of one function defined in another translation unit.
struct RemoteFunction {
  std::string Name; ///< qualified, for messages and -v output
  RemoteSite Definition;
  std::optional<RemoteReturn> Returns;
  std::vector<RemoteEvent> Events;
  std::vector<RemoteInplace> Inplace;
  std::vector<RemoteDevice> Devices;
  /// For a function returning a device value: where that device comes from.
  std::optional<RemoteDeviceReturn> ReturnsDevice;
  /// For each module object it is handed (a parameter of a module class, or
  /// `this` of a module's method): what it does to its members.
  std::vector<RemoteModuleEffects> ModuleEffects;
  /// For a function returning a module holder, a `std::shared_ptr` or a
  /// tensor: what that value is when a member is set to it (ModuleModel.h).
  std::optional<ValueKind> ModuleReturn;
  /// For a constructor of a module class: what the module it builds is.
  std::optional<RemoteMode> Builds;
  /// For a function returning a tensor: the graph it carries, if any.
  std::optional<RemoteGraphReturn> ReturnsGraph;
  /// For a function returning a tensor: its graph paths, when it has any.
  std::optional<RemoteGraphPaths> ReturnPaths;
  /// For a function returning a tensor: its shape, when anything is known.
  std::optional<RemoteShape> ReturnsShape;
  /// How a call of it leaves autograd when it returns, when it switches it
  /// (GradMode.h: leavesRecording): `off`, `on` or `unknown`; else empty.
  std::string GradAtReturn;
  /// For a function that is not a method of a module: the calls with their
  /// training flag on that a call of it runs (TrainingFlag.h).
  std::vector<RemoteTrainingFlag> TrainingFlags;
  /// The parameters whose modules it updates one from the other.
  std::vector<RemoteParameterSync> ParameterSyncs;
  /// For a constructor or `reset()` of a module class whose setups are all
  /// in its file: the layers its members hold, with constant sizes.
  std::vector<RemoteMemberLayer> MemberLayers;
};

/// A merged summary file: the functions of the program by USR.
class ProgramSummary {
public:
  static constexpr unsigned FormatVersion = 1;

  /// The facts of \p FD (a declaration written in user code, without a body
  /// here), or null when the program summary does not have it.
  const RemoteFunction *find(const clang::FunctionDecl *FD) const;
  const RemoteFunction *find(llvm::StringRef USR) const;

  /// How the program's calls of \p FD (a user function, with a body here or
  /// not) enter it, or null when no summarised file calls it. \p AbsentMeans,
  /// when given, is what the asker takes for no record (whether \p FD is then
  /// entered recording): the read is logged with it, since a record that says
  /// the same changes nothing for the asker. Questions asked only for notes
  /// pass none and are not logged.
  const RemoteCallers *callers(const clang::FunctionDecl *FD,
                               std::optional<bool> AbsentMeans = {}) const;

  /// From now on (and forgetting what was noted before), notes the USR of
  /// every function whose facts (find) or callers (callers) are asked for,
  /// found or not, by whoever holds this instance. The summary pass writes
  /// them as its "reads": what its output, and the warnings of the checks
  /// that ran with it, may depend on, so that run-torch-tidy summarises and
  /// analyses a translation unit again, in its next round, only when one of
  /// those records changed. Const: the log is not part of the facts, and the
  /// instance the checks of a process share logs for all of them.
  void logReads() const;
  /// The USRs noted since logReads(), sorted; empty when it was not called.
  /// The callers' come with what the asker took for no record.
  std::vector<std::string> functionReads() const;
  std::vector<std::pair<std::string, bool>> callerReads() const;

  /// Reads a summary file; null and \p Error when it cannot be read or is
  /// not a summary of this format version.
  static std::shared_ptr<const ProgramSummary> read(llvm::StringRef Path,
                                                    std::string &Error);
  /// Parses the JSON text of a summary file.
  static std::shared_ptr<const ProgramSummary> parse(llvm::StringRef Text,
                                                     std::string &Error);

private:
  struct ReadLog;
  void noteRead(llvm::StringRef USR) const;

  llvm::StringMap<RemoteFunction> Functions;
  llvm::StringMap<RemoteCallers> Calls;
  /// Null unless logReads() was called.
  mutable std::shared_ptr<ReadLog> Reads;
};

/// The program summary in effect for the checks of \p Context: the file named
/// by TORCH_TIDY_SUMMARY_FILE or the option `torch-tidy.SummaryFile`, read
/// once per process and path (again when the file changes); null when none
/// is named. A file that cannot be read gets one configuration diagnostic per
/// process and path, and the translation unit is analysed alone.
std::shared_ptr<const ProgramSummary>
programSummary(clang::tidy::ClangTidyContext *Context);

/// For the summary pass: the program summary named as for programSummary()
/// (a file that cannot be read is reported the same way), logging its reads
/// (ProgramSummary::logReads). It is the very instance that programSummary()
/// gives every check of the process, so that when checks run beside the
/// summary pass (run-torch-tidy's rounds after the first) their questions
/// are logged too. An empty instance of its own when no file is named or it
/// cannot be read: it answers every question as no summary does, and the
/// checks, which then have none, ask nothing.
std::shared_ptr<const ProgramSummary>
loggingProgramSummary(clang::tidy::ClangTidyContext *Context);

/// The USR of \p D (clang's cross-translation-unit name); empty when there is
/// none.
std::string usrOf(const clang::Decl *D);

/// Whether another translation unit can name \p FD: external linkage, and
/// not a lambda's call operator. Only such functions have summaries and
/// calls in a summary file.
bool isProgramVisible(const clang::FunctionDecl *FD);

/// Whether a call of \p FD, which has no body in this translation unit, may
/// be looked up in a program summary: declared in user code, not a template,
/// with external linkage.
bool mayBeElsewhere(const clang::FunctionDecl *FD,
                    const clang::SourceManager &SM);

/// \p Site as a location of this translation unit (its file is entered into
/// \p SM when no #include brought it in), or an invalid location when the
/// file cannot be read here (a summary made on another machine).
clang::SourceLocation remoteLocation(const clang::SourceManager &SM,
                                     const RemoteSite &Site);

/// `model.cpp:12` for messages.
std::string describeRemoteSite(const RemoteSite &Site);

/// The facts of the functions one translation unit defines, as the summary
/// pass writes them.
class SummaryWriter {
public:
  void addReturn(const std::string &USR, const std::string &Name,
                 const RemoteSite &Definition, const RemoteReturn &R);
  void addEvents(const std::string &USR, const std::string &Name,
                 const RemoteSite &Definition,
                 const std::vector<RemoteEvent> &Events);
  void addInplace(const std::string &USR, const std::string &Name,
                  const RemoteSite &Definition,
                  const std::vector<RemoteInplace> &Inplace);
  void addDevices(const std::string &USR, const std::string &Name,
                  const RemoteSite &Definition,
                  const std::vector<RemoteDevice> &Devices);
  void addDeviceReturn(const std::string &USR, const std::string &Name,
                       const RemoteSite &Definition,
                       const RemoteDeviceReturn &R);
  void addModuleEffects(const std::string &USR, const std::string &Name,
                        const RemoteSite &Definition,
                        const std::vector<RemoteModuleEffects> &Effects);
  void addModuleReturn(const std::string &USR, const std::string &Name,
                       const RemoteSite &Definition, ValueKind Kind);
  void addBuilds(const std::string &USR, const std::string &Name,
                 const RemoteSite &Definition, const RemoteMode &Mode);
  void addGraphReturn(const std::string &USR, const std::string &Name,
                      const RemoteSite &Definition, const RemoteGraphReturn &G);
  void addGraphPaths(const std::string &USR, const std::string &Name,
                     const RemoteSite &Definition, const RemoteGraphPaths &P);
  void addShapeReturn(const std::string &USR, const std::string &Name,
                      const RemoteSite &Definition, const RemoteShape &S);
  void addGradAtReturn(const std::string &USR, const std::string &Name,
                       const RemoteSite &Definition, llvm::StringRef Switch);
  void addTrainingFlags(const std::string &USR, const std::string &Name,
                        const RemoteSite &Definition,
                        const std::vector<RemoteTrainingFlag> &Flags);
  void addParameterSyncs(const std::string &USR, const std::string &Name,
                         const RemoteSite &Definition,
                         const std::vector<RemoteParameterSync> &Syncs);
  void addMemberLayers(const std::string &USR, const std::string &Name,
                       const RemoteSite &Definition,
                       const std::vector<RemoteMemberLayer> &Layers);
  /// A call, written in this translation unit, of the user function \p USR,
  /// and whether it runs with autograd recording. Calls of one function join
  /// as the merge joins them: recording when one is, the first such call in
  /// file, line and column order as the site.
  void addCall(const std::string &USR, const std::string &Name, bool Recording,
               const RemoteSite &Site);
  /// A function with external linkage defined in this translation unit,
  /// whether it has facts or not: "defines". run-torch-tidy's rounds do not
  /// use it yet (a finer choice of the units to summarise again would).
  void addDefined(const std::string &USR);
  /// What this translation unit asked of the program summary it read
  /// (ProgramSummary::logReads): "reads".
  void setReads(std::vector<std::string> Functions,
                std::vector<std::pair<std::string, bool>> Callers);

  /// Prints the summary file's JSON.
  void print(llvm::raw_ostream &OS) const;
  /// Writes the file through a temporary beside it and a rename; false and
  /// \p Error on failure.
  bool write(llvm::StringRef Path, std::string &Error) const;

private:
  RemoteFunction &function(const std::string &USR, const std::string &Name,
                           const RemoteSite &Definition);
  std::map<std::string, RemoteFunction> Functions;
  std::map<std::string, RemoteCallers> Calls;
  std::set<std::string> Defined;
  std::vector<std::string> FunctionReads;
  std::vector<std::pair<std::string, bool>> CallerReads;
};

/// \p Loc (its expansion in a macro) as a RemoteSite with \p What.
RemoteSite siteOf(clang::SourceLocation Loc, const clang::SourceManager &SM,
                  std::string What = "");

} // namespace torch_tidy

#endif
