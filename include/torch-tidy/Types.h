//===--- Types.h - what a LibTorch type is ----------------------*- C++ -*-===//
//
// The one place that knows LibTorch's classes by their declarations: tensors,
// optimizers, modules and their holders, schedulers, losses and grad-mode guards.
// Everything works on resolved types (typedefs, aliases, references, pointers and
// smart pointers are looked through); nothing here looks at a variable's name.
//
//===----------------------------------------------------------------------===//
#ifndef TORCH_TIDY_TYPES_H
#define TORCH_TIDY_TYPES_H

#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/Type.h"
#include "clang/Basic/SourceLocation.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <optional>
#include <string>
#include <vector>

namespace torch_tidy {

/// True when \p D is named \p Name (a plain identifier; operators,
/// constructors and conversions never are). No string is built.
bool hasName(const clang::NamedDecl *D, llvm::StringRef Name);

/// True when \p D is declared as `A::B::Name` (inline namespaces such as
/// libc++'s `std::__1` are skipped). No string is built.
bool hasQualifiedName(const clang::NamedDecl *D, llvm::StringRef QualifiedName);

/// True when \p D is declared inside LibTorch's own namespaces: its outermost
/// non-inline namespace is `at`, `c10` or `torch` (`torch::nn::functional`,
/// `at::native`, ...).
bool inLibTorchNamespace(const clang::Decl *D);

/// True when \p D or one of its (transitive) bases is \p QualifiedName.
bool isSameOrDerivedFrom(const clang::CXXRecordDecl *D,
                         llvm::StringRef QualifiedName);

/// True when \p D or one of its (transitive) bases is one of \p Names: the
/// same answer as isSameOrDerivedFrom for each name in turn, from one walk of
/// the class hierarchy (which costs more than comparing the names).
bool isSameOrDerivedFromAny(const clang::CXXRecordDecl *D,
                            llvm::ArrayRef<llvm::StringRef> Names);
bool isSameOrDerivedFromAny(const clang::CXXRecordDecl *D,
                            llvm::ArrayRef<std::string> Names);

/// User-supplied class and function names that extend the built-in knowledge
/// (`CheckOptions`); qualified names, a leading `::` is optional.
struct TypeConfig {
  std::vector<std::string> ExtraOptimizerClasses;
  std::vector<std::string> ExtraModuleClasses;

  bool operator==(const TypeConfig &O) const {
    return ExtraOptimizerClasses == O.ExtraOptimizerClasses &&
           ExtraModuleClasses == O.ExtraModuleClasses;
  }
};

/// How an object is reached from an expression or declaration of type T.
enum class Access { Value, Pointer };

/// The class an object of type \p T designates, looking through references,
/// pointers and std::shared_ptr / std::unique_ptr; \p How tells whether `.` or
/// `->` reaches its members. Returns null for non-class types.
const clang::CXXRecordDecl *pointeeClass(clang::QualType T,
                                         Access *How = nullptr);

/// The `Impl` class of a `torch::nn::ModuleHolder<Impl>` (such as
/// `torch::nn::Linear` or a `TORCH_MODULE(Net)` holder), or null.
const clang::CXXRecordDecl *holderImpl(const clang::CXXRecordDecl *D);

bool isTensorClass(const clang::CXXRecordDecl *D);
bool isTensorType(clang::QualType T);
bool isOptimizerClass(const clang::CXXRecordDecl *D, const TypeConfig &Config);
bool isModuleClass(const clang::CXXRecordDecl *D, const TypeConfig &Config);
bool isModuleHolderClass(const clang::CXXRecordDecl *D);
/// An epoch-based learning-rate scheduler: `torch::optim::LRScheduler` and
/// every class derived from it (`StepLR`, ...).
bool isSchedulerClass(const clang::CXXRecordDecl *D);
/// LibTorch 2.x's `torch::optim::ReduceLROnPlateauScheduler` (or a class
/// derived from it), stepped with a metric and not derived from `LRScheduler`.
bool isPlateauSchedulerClass(const clang::CXXRecordDecl *D);

/// A loss function of LibTorch (`at::mse_loss`, `torch::nll_loss`,
/// `torch::nn::functional::cross_entropy`, ...), known by its declaration in
/// LibTorch's namespaces and headers.
bool isLibTorchLossFunction(const clang::FunctionDecl *FD,
                            const clang::SourceManager &SM);
/// A loss module of LibTorch (`torch::nn::MSELossImpl`, ...).
bool isLibTorchLossModule(const clang::CXXRecordDecl *D,
                          const clang::SourceManager &SM);

/// For a module's `forward()` or call operator (`model->forward(x)`,
/// `model(x)` on a holder, `(*ptr)(x)`): the module class (the Impl for
/// holders); null for any other call.
const clang::CXXRecordDecl *moduleForwardClass(const clang::CallExpr *Call,
                                               const TypeConfig &Config);

/// LibTorch's RAII guard classes, which switch a thread-local mode or the
/// current device for as long as an object of them lives (or one derived from
/// them): grad mode (`c10::AutoGradMode`, `c10::NoGradGuard`,
/// `c10::AutoFwGradMode`, `c10::InferenceMode`; GradMode.h reads what they
/// switch), dispatch (`at::AutoDispatchBelowAutograd`,
/// `at::AutoDispatchBelowADInplaceOrView`, `at::AutoNonVariableTypeMode`,
/// `c10::impl::ExcludeDispatchKeyGuard`, ...), devices and streams
/// (`c10::DeviceGuard`, `c10::cuda::CUDAGuard`, `c10::cuda::CUDAStreamGuard`,
/// ...), and the classes in \p Extra (qualified names).
bool isLibTorchGuardClass(const clang::CXXRecordDecl *D,
                          llvm::ArrayRef<std::string> Extra = {});

/// A module reached through any of the ways users hold one: the class itself,
/// a pointer or reference, a `std::shared_ptr<Net>`, or a holder (`Net`,
/// `torch::nn::Linear`). Returns the module class (the Impl for holders).
const clang::CXXRecordDecl *moduleClassOf(clang::QualType T,
                                          const TypeConfig &Config);
const clang::CXXRecordDecl *optimizerClassOf(clang::QualType T,
                                             const TypeConfig &Config);

/// The class whose method \p Call calls, seen through the object expression's
/// type (so `model->zero_grad()` on a holder yields the Impl class).
const clang::CXXRecordDecl *calleeObjectClass(const clang::CallExpr *Call);

/// The object expression of a member call (`x` in `x.f()`, `x->f()`,
/// `(*x).f()`), or null for a free function call.
const clang::Expr *memberCallObject(const clang::CallExpr *Call);

/// The class of \p T, looking through references and qualifiers; null when
/// \p T is not a class type.
const clang::CXXRecordDecl *recordOf(clang::QualType T);

/// Tensors, module holders and `std::shared_ptr`s are handles: a copy
/// designates the same object.
bool isHandleType(clang::QualType T);

/// Whether parameter \p I of the instantiated function \p FD is a forwarding
/// reference of its template (`T &&t`, `Args &&...args`, the pack counted
/// for as many arguments as it took).
bool isForwardingParam(const clang::FunctionDecl *FD, unsigned I);

/// What `stripExpr` looks through besides parentheses, implicit casts and
/// full-expressions, which it always looks through.
namespace Strip {
enum Flags : unsigned {
  /// Materialized and bound temporaries.
  Temporaries = 1u << 0,
  /// `T(x)` and `T{x}` that convert by constructor or change nothing.
  Conversions = 1u << 1,
  /// Every functional cast `T(x)` and `static_cast<T>(x)`.
  Casts = 1u << 2,
  /// Copy and move construction (`T(x)` where x is a T).
  Copies = 1u << 3,
  /// Construction of a handle from one handle (a holder from a shared_ptr),
  /// further arguments defaulted: the same object.
  HandleCopies = 1u << 4,
  /// `std::move(x)`, `std::forward<T>(x)`.
  Moves = 1u << 5,
  /// Default arguments and default member initialisers.
  Defaults = 1u << 6,
  /// `*p`, `&x`, and `->`/`*` of smart pointers and holders.
  Indirections = 1u << 7,
  /// `p.get()` and `holder.ptr()`: a zero-argument `get` or, on a handle,
  /// `ptr`.
  Accessors = 1u << 8,
  /// A construction from its first argument, further arguments defaulted
  /// (`c10::optional<bool>(true)`, `std::string("fc")`, a `std::function`
  /// from a lambda): the value it wraps.
  Wrapped = 1u << 9,

  // The sets the rooms share, by what the stripped expression still is.
  /// The same value: temporaries, conversions, copies (Activation, Losses).
  SameValue = Temporaries | Conversions | Copies,
  /// The same tensor, also through `std::move` (Graphs, SavedTensors).
  SameTensor = SameValue | Moves,
  /// The tensor a graph path goes through: also every cast and default
  /// argument (GraphPaths).
  GraphOperand = SameTensor | Casts | Defaults,
  /// The same object a handle designates: handle conversions, `std::move`,
  /// casts, defaults, `.ptr()` and `.get()` (ModuleModel).
  SameHandle =
      Temporaries | Casts | Defaults | HandleCopies | Moves | Accessors,
  /// The object an object expression designates, through `*p`, `->`,
  /// `.get()` and copies (objectDecl).
  SameObject = Temporaries | Copies | Indirections | Accessors,
  /// A device value: temporaries and casts (Devices).
  DeviceValue = Temporaries | Casts,
  /// The literal or lambda a value is made from: temporaries, casts, default
  /// arguments and wrapping constructions (literalBool, lambdaOf, the names
  /// of registrations, scalar types).
  WrappedValue = Temporaries | Casts | Defaults | Wrapped,
};
} // namespace Strip

/// The one way to peel wrapper nodes off an expression: \p E without
/// parentheses, implicit casts and full-expressions, and without what
/// \p Flags (a set of `Strip::Flags`) names, repeatedly.
const clang::Expr *stripExpr(const clang::Expr *E, unsigned Flags);

/// The value of a literal `true`/`false` or integer, looked at through
/// `Strip::WrappedValue` (so through default arguments and
/// `c10::optional<bool>`); nullopt when \p E is no such literal.
std::optional<bool> literalBool(const clang::Expr *E);

/// The declaration an object expression designates when it is a plain name
/// (local, parameter, global, or member of `this`), looking through `*p`,
/// `p.get()`, smart-pointer and holder `->`, casts and parentheses.
const clang::ValueDecl *objectDecl(const clang::Expr *E);

/// The lambda an argument designates: written in place, or a local variable
/// (not a parameter) initialised with one, looked through std::function
/// conversions and copies. At most 16 steps, so `std::function<F> f = f;` ends.
const clang::LambdaExpr *lambdaOf(const clang::Expr *E);

/// Whether \p Loc is library code, not the user's: a system header, or a header
/// of LibTorch's own include tree (`ATen/`, `c10/`, `caffe2/`, `torch/csrc/`,
/// the `torch/*.h` umbrella headers) also when it was included with `-I`
/// rather than `-isystem` (CMake's `include_directories(${TORCH_INCLUDE_DIRS})`,
/// hand-written Makefiles). The analyses ask this, never isInSystemHeader:
/// LibTorch's inline code is what they know by its declarations, not code they
/// follow or index.
bool isLibraryCode(clang::SourceLocation Loc, const clang::SourceManager &SM);
/// The same for where \p D is written (its expansion location).
bool isLibraryCode(const clang::Decl *D, const clang::SourceManager &SM);

/// Whether \p Loc is written inside \p S (expansion locations compared).
bool isWrittenWithin(clang::SourceLocation Loc, const clang::Stmt *S,
                     const clang::SourceManager &SM);

/// Whether clang found code in this translation unit it could not compile (an
/// unresolved name, a header not found). Such a statement is often dropped from
/// the AST without a trace, so the call a check looks for may be missing from
/// what the check sees: a check that reports that something is *missing* (no
/// zero_grad(), no registration) stays silent then; checks that report what is
/// present still report.
inline bool mayHaveLostCode(const clang::ASTContext &Ctx) {
  return Ctx.getDiagnostics().hasUncompilableErrorOccurred();
}

/// The name of a container method that adds its arguments to the container
/// (`push_back`, `emplace_back`, `insert`, `emplace`, `assign`, ...), as the
/// standard containers and torch::OrderedDict spell them.
bool isContainerInsertName(llvm::StringRef MethodName);

/// True when \p FD is one of \p QualifiedNames (functions or methods;
/// `Class::method` names a method of the class or of a class derived from it).
bool matchesFunctionList(const clang::FunctionDecl *FD,
                         llvm::ArrayRef<std::string> QualifiedNames);

} // namespace torch_tidy

#endif
