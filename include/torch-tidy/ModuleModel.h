//===--- ModuleModel.h - what a Module subclass holds -----------*- C++ -*-===//
//
// For one `torch::nn::Module` subclass defined in user code: its members
// (tensors, module holders, `std::shared_ptr`s to modules, plain config
// values), what each constructor (and `reset()` of a Cloneable) stores into
// them, which of them reach `register_module`, `register_parameter` or
// `register_buffer` (directly, through the class's own methods, lambdas and
// helpers defined in the TU that take the member by reference or return the
// registration result), where each member is used, and what `forward` returns.
//
// The model is built top-down from the class definition: constructors, reset()
// and the other methods are found through the class and read once; no parent
// map is ever built. Bodies of other translation units are unknown: `Setups`
// says which constructors are visible, so a check can stay silent when the
// constructor that might register a member lives elsewhere.
//
//===----------------------------------------------------------------------===//
#ifndef TORCH_TIDY_MODULEMODEL_H
#define TORCH_TIDY_MODULEMODEL_H

#include "torch-tidy/Summaries.h"
#include "torch-tidy/Types.h"

#include "clang/AST/DeclCXX.h"
#include "clang/AST/Expr.h"
#include "clang/AST/Stmt.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/SmallVector.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace torch_tidy {

class ProgramSummary;
struct RemoteSite;

enum class MemberKind {
  Tensor, ///< `torch::Tensor`: registered as a parameter or a buffer
  Holder, ///< a `ModuleHolder`: `torch::nn::Linear`, `Sequential`, `ModuleList`, `TORCH_MODULE` holders
  SharedModule, ///< `std::shared_ptr<M>` with M a module class
  /// `std::vector`, `std::array` or a C array of holders or of
  /// `std::shared_ptr`s to modules: each element must be registered.
  ModuleArray,
  Config, ///< anything else: numbers, strings, options, containers, raw pointers
};

enum class RegistrationKind {
  Parameter, ///< `register_parameter`
  Buffer,    ///< `register_buffer`
  Module,    ///< `register_module`, `replace_module`
  Custom,    ///< a configured in-house registration function
};

/// What a value stored into a member is, as far as registration goes.
enum class ValueKind {
  Null, ///< `nullptr`, `{nullptr}`, an undefined tensor, an empty shared_ptr
  Fresh, ///< a module or tensor built here that is not the result of a registration
  Registered, ///< the result of a registration (directly or through a helper)
  Borrowed, ///< an object that exists elsewhere: a parameter, a global, another member
  Unknown, ///< anything the model cannot tell (mixed branches, opaque code)
};

/// One call that registers a member.
struct Registration {
  RegistrationKind Kind = RegistrationKind::Module;
  /// The registration call (inside a helper when reached through one), or
  /// the construction of a container (`torch::nn::Sequential(fc1, fc2)`).
  const clang::Expr *Call = nullptr;
  /// The call written in the analysed function through which it was reached
  /// (the registration itself when written there).
  const clang::Expr *Site = nullptr;
  /// The function whose body was being analysed: a constructor, `reset()`, or
  /// another method of the class.
  const clang::FunctionDecl *Root = nullptr;
  /// The class whose method (or constructor) was analysed.
  const clang::CXXRecordDecl *Class = nullptr;
  /// Found while reading a constructor or reset() of Class.
  bool InSetup = false;
  /// That setup's index in ModuleModel::Setups of Class, or -1.
  int Setup = -1;
};

/// One store into a member while an object is constructed.
struct MemberStore {
  ValueKind Kind = ValueKind::Unknown;
  /// The stored expression as written (an initializer, an assignment's
  /// right-hand side); null for an implicit default initialization.
  const clang::Expr *Value = nullptr;
  /// Where it happens: the assignment, the initializer expression, or the
  /// helper call through which it was reached.
  const clang::Expr *Site = nullptr;
  /// The function whose body holds the store (a helper when reached through one).
  const clang::FunctionDecl *In = nullptr;
  bool Conditional =
      false; ///< under `if`, `switch`, `?:`, `&&`, `||`, `catch`, or in a loop
  bool InLoop = false; ///< inside a loop (runs any number of times)
  bool Initializer =
      false; ///< the member's initializer (init list, in-class or implicit)
  bool InitList =
      false; ///< written in the constructor's member-initializer list
  bool InClassInit = false; ///< the member's default member initializer
  bool Direct =
      false; ///< written in the setup function itself, not in a helper
  /// Reached through a function of another file (In, with no body here;
  /// Value is then the call of it written here): where its summary says the
  /// store is, kept alive by the configuration's program summary.
  const RemoteSite *Remote = nullptr;
  /// For a registered value written as a registration call, that call.
  const clang::CallExpr *RegistrationCall = nullptr;
  /// The constructor's member initializer, for init-list and in-class stores.
  const clang::CXXCtorInitializer *CtorInit = nullptr;
  /// When the stored value is a parameter of the constructor being read
  /// (`mean_(std::move(mean))`, `mean_ = mean;`; Kind is then Borrowed): that
  /// parameter. Its constructions (ModuleModels::newTensorsFor) tell
  /// whether the tensor is the module's own.
  const clang::ParmVarDecl *Param = nullptr;
  /// For a ModuleArray: an element added (`push_back`, `emplace_back`,
  /// `a[i] = ...`) rather than the whole container stored.
  bool Element = false;
};

/// A read of a member outside construction.
struct MemberUse {
  const clang::MemberExpr *Ref = nullptr;
  const clang::FunctionDecl *In = nullptr;
};

/// A way the object gets built: a constructor, or `reset()` of a Cloneable
/// (which `clone()` calls on the copy).
struct SetupFunction {
  /// The declaration in the class; null for the implicit default constructor.
  const clang::FunctionDecl *Decl = nullptr;
  /// The definition with a body in this TU; null when not visible. Defaulted
  /// and implicit constructors need none: they run the member initializers.
  const clang::FunctionDecl *Definition = nullptr;
  bool IsReset = false;
  bool Visible = false;
  /// Calls to code the model cannot read (defined elsewhere, too deep) that
  /// could register members, or registrations of values it cannot trace: a
  /// member's state after such a setup is unknown.
  bool Opaque = false;
};

struct ModuleMember {
  const clang::FieldDecl *Field = nullptr;
  MemberKind Kind = MemberKind::Config;
  /// Holder and SharedModule: the module class (the Impl of a holder);
  /// ModuleArray: the elements' module class.
  const clang::CXXRecordDecl *ModuleClass = nullptr;
  /// Every registration of this member found in the class (constructors,
  /// reset(), other methods) and in derived classes defined in the TU.
  llvm::SmallVector<Registration, 1> Registrations;
  /// Stores during each setup, indexed like ModuleModel::Setups, in order.
  std::vector<llvm::SmallVector<MemberStore, 2>> Stores;
  /// Setups (indexes into ModuleModel::Setups) that register it.
  llvm::SmallVector<unsigned, 2> RegisteredBy;
  /// Reads in methods other than setup functions.
  llvm::SmallVector<MemberUse, 4> Uses;
  /// Made to require grad while being built: `torch::requires_grad()`,
  /// `TensorOptions().requires_grad(true)`, `requires_grad_()`,
  /// `set_requires_grad(true)` (so it is meant to be a parameter).
  bool RequiresGrad = false;
  /// Assigned a new value by a method other than a setup function (a cache).
  bool StoredAfterSetup = false;
  /// Holder and SharedModule of a stateless module class (isStatelessModuleClass).
  bool Stateless = false;

  bool isModule() const {
    return Kind == MemberKind::Holder || Kind == MemberKind::SharedModule;
  }
  bool isRegistered() const { return !Registrations.empty(); }
  bool registeredBy(unsigned Setup) const;
};

struct ModuleModel {
  const clang::CXXRecordDecl *Class = nullptr;
  /// Derived from `torch::nn::Cloneable<...>`: its `reset()` builds the clones.
  bool Cloneable = false;
  llvm::SmallVector<SetupFunction, 2> Setups;
  /// Every constructor and `reset()` that builds members has its body in this
  /// TU (defaulted and implicit constructors always do). Only then can a check
  /// conclude that a member is never registered.
  bool SetupVisible = false;
  /// Some method declared in the class has no body in this TU (so uses may be
  /// missing from ModuleMember::Uses).
  bool HasInvisibleMethods = false;
  /// A registration in a method other than a setup function whose argument
  /// could not be traced to a member (say, a loop over a container of holders).
  bool UntracedRegistration = false;
  std::vector<ModuleMember> Members;
  /// Functions read as part of a construction (the setups and the helpers
  /// they call).
  llvm::SmallPtrSet<const clang::FunctionDecl *, 8> SetupReached;
  /// `forward` definitions in this TU, and their return statements.
  llvm::SmallVector<const clang::CXXMethodDecl *, 1> Forwards;
  llvm::SmallVector<const clang::ReturnStmt *, 2> ForwardReturns;
  /// Every registration call found, with its literal name when there is one
  /// (`""` when the name is computed) and the literal prefix of a computed name.
  struct NameUse {
    const clang::CallExpr *Call;
    std::string Name;
    bool Literal;
  };
  llvm::SmallVector<NameUse, 4> RegisteredNames;
  /// Every registration of a field found while building this model, of its
  /// own members or of another class's (`register_module("x", child->fc)`), in
  /// the order found.
  std::vector<std::pair<const clang::FieldDecl *, Registration>>
      FoundRegistrations;

  const ModuleMember *member(const clang::FieldDecl *FD) const;
};

/// The registrations of fields found while building a set of models (in the
/// class itself, in classes derived from it, or in other modules' methods),
/// by field, in the order of the models and then as found.
class RegistrationIndex {
public:
  explicit RegistrationIndex(llvm::ArrayRef<const ModuleModel *> Models);
  llvm::ArrayRef<Registration> of(const clang::FieldDecl *FD) const;

private:
  llvm::DenseMap<const clang::FieldDecl *, llvm::SmallVector<Registration, 1>>
      ByField;
};

/// What a function does to the members of a module object it is handed (its
/// parameter, or `this` for a method of the module's class), read from its
/// body alone, as one call below a constructor: what the summary pass writes
/// for other files (WholeProgram.h).
struct HandedModuleEffects {
  /// It hands the object to code that is not read (another file's, or past
  /// MaxCallDepth), or registers what cannot be traced: anything may happen.
  bool Opaque = false;
  struct Member {
    const clang::FieldDecl *Field = nullptr;
    llvm::SmallVector<RegistrationKind, 1> Registrations;
    llvm::SmallVector<MemberStore, 1> Stores;
  };
  /// The members it stores into or registers, in declaration order.
  std::vector<Member> Members;
};

struct ModuleModelConfig {
  TypeConfig Types;
  /// In-house functions or methods that register their argument(s) and
  /// return the registered value.
  std::vector<std::string> RegistrationFunctions;
  /// Module classes (besides LibTorch's activations, pooling, padding,
  /// reshaping and `Functional`) that have no parameters, no buffers and no
  /// train/eval behaviour, so that registering them changes nothing.
  std::vector<std::string> StatelessModuleClasses;
  /// How many calls below a constructor or method helpers are followed
  /// (Summaries.h: a helper N calls down is read when N <= MaxCallDepth).
  unsigned MaxCallDepth = DefaultMaxCallDepth;
  /// The program summary for helpers with no body here, or null: what they
  /// do to the module they are handed (WholeProgram.h).
  std::shared_ptr<const ProgramSummary> Program;

  bool operator==(const ModuleModelConfig &O) const {
    return Types == O.Types &&
           RegistrationFunctions == O.RegistrationFunctions &&
           StatelessModuleClasses == O.StatelessModuleClasses &&
           MaxCallDepth == O.MaxCallDepth && Program == O.Program;
  }
};

/// A module class whose objects have no parameters, no buffers and no
/// train/eval behaviour (`torch::nn::ReLU`, `MaxPool2d`, `Flatten`,
/// `Functional`, ...), or one listed in \p Config.
bool isStatelessModuleClass(const clang::CXXRecordDecl *RD,
                            const ModuleModelConfig &Config);

/// A LibTorch module class with no parameters whose behaviour depends on
/// train()/eval(): the dropouts (`Dropout`, `Dropout2d`, `Dropout3d`,
/// `AlphaDropout`, `FeatureAlphaDropout`).
bool isModeOnlyModuleClass(const clang::CXXRecordDecl *RD);

/// Builds and caches the models of the module classes of one TU.
class ModuleModels {
public:
  ModuleModels(const ModuleModelConfig &Config, clang::ASTContext &Ctx);
  ~ModuleModels();

  /// The models of \p Ctx's module classes under \p Config, shared by every
  /// analysis of the translation unit that asks with an equal configuration
  /// (UserCodeIndex::shared): each class is built once however many ask.
  static ModuleModels &of(clang::ASTContext &Ctx,
                          const ModuleModelConfig &Config);

  /// The model of \p RD (a class definition), or null when it is not a
  /// `torch::nn::Module` subclass, is a dependent template, or is invalid.
  const ModuleModel *get(const clang::CXXRecordDecl *RD);

  /// What \p FD (a function with a body) does to the module object \p
  /// Object designates: its parameter of that index (a reference or pointer
  /// to a module class), or `this` when -1 (a method of a module class);
  /// std::nullopt when that object is not of a module class defined here.
  std::optional<HandedModuleEffects> effectsOn(const clang::FunctionDecl *FD,
                                               int Object);

  /// What \p FD (a function with a body returning a module holder, a
  /// `std::shared_ptr` or a tensor) returns, as a value stored into a member
  /// (`fc = make_fc(...)`): a registration's result, a new object, one that
  /// exists elsewhere, null; std::nullopt when not known.
  std::optional<ValueKind> returnKindOf(const clang::FunctionDecl *FD);

  /// Whether every construction of \p P's class written in user code of the
  /// TU passes, for \p P (a constructor parameter of a module class), a
  /// tensor made there: a LibTorch factory (`torch::tensor`, `torch::zeros`),
  /// tensor operations on such tensors (`.to(device)`, `.view()`), a default
  /// argument or a local holding one that nothing registers or reassigns to
  /// anything else. False when there is no such construction, or one passes a
  /// parameter, a member (`other->weight`: weight tying), a registration's
  /// result or anything else. Holder and `std::make_shared` constructions count
  /// when one constructor alone takes their number of arguments.
  /// \p RequiresGrad is set when one of the tensors is made to require grad.
  /// The constructions are found by one walk of the user-code definitions,
  /// made on the first question.
  bool newTensorsFor(const clang::ParmVarDecl *P, bool &RequiresGrad);

  /// Whether \p FD (a tensor member) is written in the arguments of an
  /// optimizer's construction in user code (`torch::optim::SGD({net->w}, 0.1)`):
  /// it is then meant to be learned.
  bool optimised(const clang::FieldDecl *FD);

  /// The kind of member a field of type \p T is.
  MemberKind memberKind(clang::QualType T,
                        const clang::CXXRecordDecl **ModuleClass) const;

  /// The registration kind of \p Call when it registers something.
  std::optional<RegistrationKind>
  registrationKind(const clang::CallExpr *Call) const;

  /// What a module container class registers (`Sequential`, `ModuleList`,
  /// `ModuleDict`: modules; `ParameterList`, `ParameterDict`: tensors),
  /// holders looked through; once per class.
  std::optional<RegistrationKind>
  containerKind(const clang::CXXRecordDecl *RD) const;

  /// isStatelessModuleClass with this configuration, once per class.
  bool isStateless(const clang::CXXRecordDecl *RD) const;

  const ModuleModelConfig &config() const { return Config; }

private:
  /// memberKind() of a type that is not an array.
  MemberKind scalarMemberKind(clang::QualType T,
                              const clang::CXXRecordDecl **ModuleClass) const;

  const ModuleModelConfig &Config;
  clang::ASTContext &Ctx;
  llvm::DenseMap<const clang::CXXRecordDecl *, std::unique_ptr<ModuleModel>>
      Models;
  /// The class questions the walks ask of every expression and member
  /// (a hierarchy walk against lists of names each), answered once.
  mutable llvm::DenseMap<const clang::CXXRecordDecl *,
                         std::optional<RegistrationKind>>
      ContainerKinds;
  mutable llvm::DenseMap<const clang::CXXRecordDecl *, bool> StatelessClasses;
  /// Whether a function's return value is a registration result.
  llvm::DenseMap<const clang::FunctionDecl *, ValueKind> ReturnKinds;

  /// One construction of a module class in user code.
  struct Construction {
    /// The constructor called, or null when a holder or `std::make_shared`
    /// forwards the arguments to one.
    const clang::CXXConstructorDecl *Ctor = nullptr;
    llvm::SmallVector<const clang::Expr *, 4> Args;
    /// The function whose body holds it.
    const clang::FunctionDecl *Caller = nullptr;
  };
  void indexConstructions();
  bool ConstructionsIndexed = false;
  llvm::DenseMap<const clang::CXXRecordDecl *,
                 llvm::SmallVector<Construction, 2>>
      Constructions;
  llvm::DenseSet<const clang::FieldDecl *> Optimised;
};

/// How a diagnostic names a setup function: `constructor 'Net(int64_t)'`,
/// `the implicit default constructor`, `'reset()'`.
std::string describeSetup(const SetupFunction &S);

} // namespace torch_tidy

#endif
