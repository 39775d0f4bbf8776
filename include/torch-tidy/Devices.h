//===--- Devices.h - where a tensor's device comes from ---------*- C++ -*-===//
//
// Device values are the expressions of type `c10::Device`, `c10::DeviceType`,
// `c10::TensorOptions` or an optional of them (`torch::Device`, `torch::kCUDA`,
// `at::TensorOptions` are the same types). For such a value this tells where its
// device comes from: a literal written in the code (`torch::kCUDA`,
// `torch::Device("cuda:0")`, `TensorOptions().device(torch::kCUDA)`), a tensor
// (`x.device()`, `x.options()`, a parameter's or buffer's device), a function
// parameter (a constructor argument), or something unknown. Locals, `const`
// globals, members of the class and functions defined in the translation unit
// that return a device are followed (in whole-program mode, functions of other
// files too, through their summaries); every write of a local or member is
// considered, so a member set from a constructor argument is not a literal.
//
// It also lists the placements of a function body: the calls where a device
// decides where a tensor lives (`torch::zeros(..., opts)`, `t.to(device)`,
// `t.cuda()`, `module->to(device)`, a helper taking a device), following helpers
// defined in the translation unit, and, in whole-program mode, helpers defined
// in other files through their summaries (WholeProgram.h).
//
// Everything walks down from a definition; no parent map is built.
//
//===----------------------------------------------------------------------===//
#ifndef TORCH_TIDY_DEVICES_H
#define TORCH_TIDY_DEVICES_H

#include "torch-tidy/Summaries.h"
#include "torch-tidy/Types.h"

#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "clang/AST/Stmt.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallVector.h"

#include <memory>
#include <string>
#include <vector>

namespace torch_tidy {

class ProgramSummary;
struct RemoteDevice;

/// `c10::Device`, `c10::DeviceType`, `c10::TensorOptions`, or a `c10::optional`
/// / `std::optional` of one of them (references and cv-qualifiers looked through).
bool isDeviceValueType(clang::QualType T);

/// A call that asks whether an accelerator exists: `torch::cuda::is_available()`,
/// `torch::cuda::device_count()`, `torch::cuda::cudnn_is_available()`,
/// `at::hasCUDA()` and the like.
bool isAvailabilityQuery(const clang::FunctionDecl *FD);

enum class DeviceOrigin {
  None, ///< carries no device: `TensorOptions()`, `torch::dtype(torch::kFloat)`
  Literal, ///< written in the code: `torch::kCUDA`, `torch::Device("cuda:0")`
  Tensor,  ///< follows a tensor: `x.device()`, `x.options()`, `weight.device()`
  Parameter, ///< a function parameter, e.g. a constructor argument
  Unknown, ///< anything else (mutable globals, calls not followed, mixed writes)
};

/// Where a device value comes from.
struct DeviceProvenance {
  DeviceOrigin Origin = DeviceOrigin::Unknown;
  /// Literal only: true when one of the literals names a non-CPU device.
  bool Accelerator = false;
  /// Literal only: the literal as written (the first accelerator one): a
  /// `DeviceType` constant or enumerator, a string literal, a
  /// `device_index(...)` call.
  const clang::Expr *Written = nullptr;
  /// Literal only: the device type it names, e.g. "CUDA", "CPU", "MPS".
  std::string TypeName;
  /// Literal only: chosen between literals by an availability query (the call).
  const clang::CallExpr *Availability = nullptr;
  /// The first variable (local, const global, member) or function (returning a
  /// device) the value was read through; null when written in place.
  const clang::NamedDecl *Through = nullptr;
  /// Parameter only: the parameter.
  const clang::ParmVarDecl *Param = nullptr;
  /// Literal only: returned by a function of another file (Through, with no
  /// body here); its summary's description of the literal, kept alive by the
  /// configuration's program summary. Written and Availability are null then.
  const RemoteDevice *Remote = nullptr;

  bool isLiteral() const { return Origin == DeviceOrigin::Literal; }
};

/// One call where a device decides where a tensor lives, and that device is a
/// literal.
struct DevicePlacement {
  /// The call that places the tensor (a factory, `to`, `.cuda()`, a helper
  /// taking a device); inside a helper when reached through one (ViaCall is
  /// then the call written in the analysed body).
  const clang::Expr *Call = nullptr;
  /// Its device argument; null for `.cuda()` / `.cpu()`, which are the literal.
  const clang::Expr *DeviceArg = nullptr;
  DeviceProvenance Device;
  /// The placement runs only when this availability query is true (an
  /// enclosing `if` or `?:`), or null.
  const clang::CallExpr *UnderAvailability = nullptr;
  /// The placed tensor is read on the host right away (`.cpu().item()`,
  /// `.to(torch::kCPU).accessor<...>()`, `std::cout << t.cpu()`).
  bool HostRead = false;
  /// The outermost helper it was reached through, and the call of that helper
  /// in the analysed body; both null when written there.
  const clang::FunctionDecl *Via = nullptr;
  const clang::CallExpr *ViaCall = nullptr;
  /// Reached through a function of another file (Via, with no body here):
  /// its summary's description of the placement, kept alive by the
  /// configuration's program summary; Device.Written is null then.
  const RemoteDevice *Remote = nullptr;
};

using PlacementList = llvm::SmallVector<DevicePlacement, 4>;

struct DeviceConfig {
  TypeConfig Types;
  /// Functions whose device result is trusted (never a literal), e.g. an
  /// in-house `mylib::current_device()`.
  std::vector<std::string> AllowedDeviceFunctions;
  /// How many calls below the analysed function (or value) helpers placing
  /// tensors and functions returning a device are followed (Summaries.h: a
  /// function N calls down is read when N <= MaxCallDepth).
  unsigned MaxCallDepth = DefaultMaxCallDepth;
  /// The program summary for helpers with no body here, or null.
  std::shared_ptr<const ProgramSummary> Program;
};

/// How a message says where a literal device places a tensor: "places a
/// tensor on the hard-coded device 'torch::kCUDA'", "... \"cuda:0\"", "moves
/// a tensor to the hard-coded device 'CUDA' with '.cuda()'".
std::string describePlacement(const DeviceProvenance &D,
                              const clang::SourceManager &SM,
                              const clang::LangOptions &LO);

/// The availability query that picked the device of \p P (in \p P's code or
/// in a function of another file), as `torch::cuda::is_available()`; empty
/// when none did.
std::string availabilityQuery(const DevicePlacement &P);

class DeviceAnalysis {
public:
  explicit DeviceAnalysis(const DeviceConfig &Config);
  ~DeviceAnalysis();

  /// Where the device of the device value \p E comes from.
  DeviceProvenance provenance(const clang::Expr *E);

  /// Where the device that \p FD (a function returning a device value, with
  /// a body) returns comes from; a parameter's provenance names \p FD's own
  /// parameter.
  DeviceProvenance returned(const clang::FunctionDecl *FD);

  /// The literal-device placements of \p FD: its body and, for a constructor,
  /// its written member initialisers. Helpers defined in the translation unit
  /// are followed (methods of module classes are not: they are analysed on
  /// their own). Placements under a condition that tests a non-literal device
  /// (`if (x.is_cuda())`) are left out: they follow that device.
  PlacementList placements(const clang::FunctionDecl *FD);

  /// The literal-device placements of one expression (an in-class member
  /// initialiser).
  PlacementList placements(const clang::Expr *E);

  /// True when \p FD moves a module with `to(device)` to a device that is not
  /// a CPU literal (`model->to(device)`, `this->to(torch::kCUDA)`).
  bool movesModule(const clang::FunctionDecl *FD);

private:
  struct State;
  std::unique_ptr<State> I;
};

} // namespace torch_tidy

#endif
