//===--- ModelMode.h - train/eval mode of a module at a forward -*- C++ -*-===//
//
// Whether a module runs in training or in evaluation mode where its forward
// is called, and what kind of pass calls it:
//
//  * the mode: one walk of a function body in the order the code runs, with
//    the mode of each module object (matched by declaration: the same VarDecl,
//    FieldDecl or parameter, through holders, pointers, references and local
//    holder copies) carried along every path. Branches are walked from the
//    same state and joined; a loop is walked twice, so what its iteration
//    leaves behind (an `eval()` at its end) reaches its next iteration;
//    `break`, `continue`, `return` and `throw` end their path. The calls of
//    each statement come from the TrainingLoop room (`eval()`, `train()`,
//    forward calls, followed into helpers to MaxCallDepth); a module that is
//    a parameter, a member or a global starts in the mode its callers leave
//    it in, which is read at each call of the function in the TU (again to
//    MaxCallDepth);
//  * the pass: a loop whose iteration runs a module forward and `backward()`
//    is a training pass; one that runs it without `backward()` or an
//    optimizer `step()`, with autograd off or computing a loss or a metric,
//    is an evaluation pass;
//  * the module: whether its behaviour depends on the mode (dropout, batch
//    norm, ... anywhere inside it, or contents that cannot be seen).
//
// No parent map is built: bodies are reached from declarations, callers from
// the FunctionIndex.
//
//===----------------------------------------------------------------------===//
#ifndef TORCH_TIDY_MODELMODE_H
#define TORCH_TIDY_MODELMODE_H

#include "torch-tidy/FunctionIndex.h"
#include "torch-tidy/GradMode.h"
#include "torch-tidy/ModuleModel.h"
#include "torch-tidy/TrainingLoop.h"

#include "clang/AST/ASTContext.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace torch_tidy {

struct RemoteMode;

/// The modes a module may be in at a point, one bit per way it got there.
enum ModeBits : unsigned {
  ModeFresh = 1,     ///< built here, so in training mode (never switched)
  ModeTrainCall = 2, ///< `train()` called
  ModeEval = 4,      ///< `eval()` called earlier on this pass through the code
  ModeEvalLoop = 8,  ///< `eval()` called in an earlier iteration of a loop
  ModeEntry = 16,    ///< as the function was entered (its callers decide)
  ModeUnknown = 32,  ///< something the walk cannot see may have switched it
};

/// The possible modes of one module at one point, and the calls that set them.
struct Mode {
  unsigned Bits = 0;
  /// The `train()` / `eval()` call that may be in force (the last one seen),
  /// as written in the function (the helper call when inside one).
  const clang::CallExpr *TrainCall = nullptr;
  const clang::CallExpr *EvalCall = nullptr;
  /// For modes read from a caller: the call of the function that brought it.
  const clang::Expr *FromCall = nullptr;

  bool mayTrain() const { return Bits & (ModeFresh | ModeTrainCall); }
};

/// The modes of either of two paths.
Mode join(Mode A, const Mode &B);

/// A forward call of a module reached from a function body, with the modes
/// the module may be in there.
struct ForwardPoint {
  AutogradEvent Event;
  /// The object, with local holder copies and references resolved.
  const clang::ValueDecl *Object = nullptr;
  Mode In;
  /// The innermost loop of the function that runs it, and the loops around
  /// that one (outermost first).
  const clang::Stmt *Loop = nullptr;
  llvm::SmallVector<const clang::Stmt *, 2> Enclosing;
};

enum class PassKind {
  None,       ///< not a pass over data, or not known
  Training,   ///< runs forward and `backward()`
  Evaluation, ///< runs forward without `backward()` or `step()`
};

struct PassInfo {
  PassKind Kind = PassKind::None;
  /// Evaluation: autograd is off at the forward call.
  bool NoGrad = false;
  /// Evaluation: a loss or a metric is computed in the iteration.
  bool Measures = false;
};

/// Why a module's behaviour depends on train()/eval().
struct ModeDependence {
  bool Depends = false;
  /// Its contents cannot be seen (a container, a class defined elsewhere).
  bool Unknown = false;
  /// The member (of the module or of a submodule) that makes it depend.
  const clang::FieldDecl *Member = nullptr;
  /// The class of that member, or the class that calls `is_training()`.
  const clang::CXXRecordDecl *Class = nullptr;
  /// Known from the summary of the module's constructor in another file
  /// (WholeProgram.h; kept alive by the configuration's program summary):
  /// Class is null then, and Member the member it names, if any.
  const RemoteMode *Remote = nullptr;
};

struct ModelModeConfig {
  LoopConfig Loop;
  GradModeConfig Grad;
  ModuleModelConfig Modules;
  /// Module classes whose behaviour depends on the mode (in-house dropout
  /// or normalisation layers defined elsewhere); qualified names.
  std::vector<std::string> ModeDependentClasses;
  /// Module classes whose behaviour does not (wins over the above).
  std::vector<std::string> ModeIndependentClasses;
};

class ModelModeAnalysis {
public:
  /// \p Index must hold the whole TU.
  ModelModeAnalysis(const ModelModeConfig &Config, const FunctionIndex &Index,
                    clang::ASTContext &Ctx);
  ~ModelModeAnalysis();

  /// The forward calls in \p FD's body (lambdas are functions of their own)
  /// that run inside a loop of \p FD, with their modes. Empty when the body
  /// could not be read whole.
  std::vector<ForwardPoint> forwards(const clang::FunctionDecl *FD);

  /// The modes \p Obj (as \p FD sees it) may be in when \p FD is entered, read
  /// at its calls in the TU; ModeUnknown when nothing in the TU calls it.
  Mode entryMode(const clang::FunctionDecl *FD, const clang::ValueDecl *Obj,
                 unsigned Level = 1);

  /// What kind of pass the iteration of \p P.Loop is for \p P's forward.
  PassInfo pass(const ForwardPoint &P, const clang::FunctionDecl *Owner);

  /// Whether module class \p RD behaves differently in train and eval mode.
  ModeDependence dependence(const clang::CXXRecordDecl *RD);

  /// The same for the module \p Object (of class \p RD) as \p Owner sees
  /// it: a local `Sequential` built there from its modules is judged by them.
  ModeDependence dependenceOf(const clang::ValueDecl *Object,
                              const clang::CXXRecordDecl *RD,
                              const clang::FunctionDecl *Owner);

  AutogradEventAnalysis &events() { return Events; }
  GradModeAnalysis &gradMode() { return GradMode; }

  /// What the walk of one function found (defined in ModelMode.cpp).
  struct Walked;

private:
  const Walked &walk(const clang::FunctionDecl *FD);
  /// The kinds of events (bits by EventKind) of one iteration of a loop, or
  /// of a function body run once.
  unsigned loopKinds(const clang::Stmt *S);
  bool measures(const clang::Stmt *S, unsigned Depth);
  bool measuresIn(const clang::FunctionDecl *FD, unsigned Depth);
  ModeDependence dependence(const clang::CXXRecordDecl *RD, unsigned Depth);
  /// What the summaries of \p RD's constructors, all defined in other files,
  /// say it is; std::nullopt when a constructor is defined here or has no
  /// such summary.
  std::optional<ModeDependence>
  remoteDependence(const clang::CXXRecordDecl *RD);
  /// A container built by \p Built (constructions, possibly null) and
  /// grown by `push_back` on \p D in \p Bodies: what its modules make it.
  ModeDependence contents(llvm::ArrayRef<const clang::Expr *> Built,
                          llvm::ArrayRef<const clang::Stmt *> Bodies,
                          const clang::ValueDecl *D, unsigned Depth);

  const ModelModeConfig &Config;
  const FunctionIndex &Index;
  clang::ASTContext &Ctx;
  AutogradEventAnalysis Events;
  GradModeAnalysis GradMode;
  /// The translation unit's shared models (ModuleModels::of).
  ModuleModels &Models;
  SummaryEngine Callers;
  llvm::DenseMap<const clang::FunctionDecl *, std::unique_ptr<Walked>> Walks;
  llvm::DenseMap<const clang::FunctionDecl *, bool> Measuring;
  /// entryMode() by function, object and level: each is read once, however
  /// many paths of calls lead to it (a chain of helpers each calling the next
  /// four times was 4^MaxCallDepth reads).
  llvm::DenseMap<std::pair<std::pair<const clang::FunctionDecl *,
                                     const clang::ValueDecl *>,
                           unsigned>,
                 Mode>
      EntryModes;
  llvm::DenseMap<const clang::Stmt *, unsigned> Kinds;
  llvm::DenseMap<const clang::CXXRecordDecl *, ModeDependence> Dependence;
};

/// How a message names the object of \p P: `'model'`, or `the model`.
std::string describeObject(const clang::ValueDecl *D);

} // namespace torch_tidy

#endif
