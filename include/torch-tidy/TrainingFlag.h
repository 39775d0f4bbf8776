//===--- TrainingFlag.h - calls that take a training flag -------*- C++ -*-===//
//
// LibTorch's functional forms of the layers that behave differently in
// training and in evaluation (dropout, batch norm, rrelu, the fused RNNs) take
// the mode as an argument instead of reading the module's: a `bool` parameter
// `train` or `training` (`at::dropout(input, p, train)`, `at::batch_norm(...,
// training, ...)`, `torch::nn::functional::detail::dropout(...)`), or the
// `training` field of an options struct (`torch::nn::functional::
// DropoutFuncOptions`, whose `training` defaults to true; `BatchNormFuncOptions`,
// whose `training` defaults to false).
//
// This room recognises such calls by the declarations in LibTorch's headers
// (the parameter of the function, the TORCH_ARG field of the options struct
// and its default member initializer), never by how the call is spelled, and
// tells when the flag is certainly on: a literal `true`, a constant that
// evaluates to true, an options struct built in the call that sets
// `.training(true)` or leaves a default of true. It also follows the helpers a
// function calls (a bounded, memoised walk), so a check can ask for every call
// with the flag on that one method of a module runs; a helper whose body is in
// another translation unit is read from the program summary (WholeProgram.h:
// "training_flags").
//
//===----------------------------------------------------------------------===//
#ifndef TORCH_TIDY_TRAININGFLAG_H
#define TORCH_TIDY_TRAININGFLAG_H

#include "torch-tidy/Summaries.h"
#include "torch-tidy/WholeProgram.h"

#include "clang/AST/Decl.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/Expr.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace torch_tidy {

/// How a training flag is set to true.
enum class FlagSource {
  Literal,  ///< the argument is the literal `true` (`/*train=*/true`)
  Constant, ///< the argument is a constant expression that is true
  Setter, ///< the options are built in the call with `.training(true)` (literal)
  ConstantSetter, ///< ... with `.training(c)`, c a constant that is true
  Default, ///< the options are built in the call and `training` defaults to true
};

/// \p S as a summary file spells it (`literal`, `default`), and back.
llvm::StringRef flagSourceSpelling(FlagSource S);
std::optional<FlagSource> flagSourceOf(llvm::StringRef Spelling);

/// Why the flag is on, for messages (`its 'train' argument is 'true'`):
/// \p Param is the flag or options parameter, \p OptionsClass the options
/// struct's name.
std::string describeFlagOn(FlagSource S, llvm::StringRef Param,
                           llvm::StringRef OptionsClass);

/// What a layer whose function is named \p FunctionName (`dropout`,
/// `batch_norm`) keeps doing in evaluation with its flag on.
std::string flagOnEffect(llvm::StringRef FunctionName);

/// A method of a module whose body runs when the module is used (not a
/// constructor, destructor, static function or lambda), or null. Such
/// methods are analysed on their own rather than as helpers.
const clang::CXXMethodDecl *runningModuleMethod(const clang::FunctionDecl *FD);

/// A call of a function that takes a training flag, with the flag on.
struct TrainingFlagOn {
  const clang::CallExpr *Call = nullptr;
  /// The LibTorch (or configured) function called.
  const clang::FunctionDecl *Function = nullptr;
  FlagSource Source = FlagSource::Literal;
  /// The flag parameter (`train`, `training`) or the options parameter.
  const clang::ParmVarDecl *Param = nullptr;
  /// The expression that sets the flag: the argument, or the argument of
  /// `.training(...)`; null for a default.
  const clang::Expr *Value = nullptr;
  /// For options: the options argument as written, or null when the
  /// parameter's default argument is used (`F::dropout(x)`).
  const clang::Expr *Options = nullptr;
  /// For options: the options struct.
  const clang::CXXRecordDecl *OptionsClass = nullptr;
};

/// The training flag of \p Call when it is certainly on, or std::nullopt (not
/// a function with a training flag, the flag off, or not known). The
/// functions are LibTorch's free functions in namespace at or torch declared
/// in library code (isLibraryCode), and those in \p ExtraFunctions (qualified
/// names), whose flag is their first `bool` parameter.
std::optional<TrainingFlagOn>
trainingFlagOn(const clang::CallExpr *Call, const clang::SourceManager &SM,
               llvm::ArrayRef<std::string> ExtraFunctions = {});

/// The called function of \p On as its call writes it (`torch::dropout`,
/// `F::dropout`), else qualified.
std::string flagCallSpelling(const TrainingFlagOn &On,
                             const clang::SourceManager &SM,
                             const clang::LangOptions &LO);

/// One call with the flag on that a function runs.
struct TrainingFlagUse {
  /// The call, when it is in this translation unit.
  TrainingFlagOn Flag;
  /// Else the call in another file, run by a helper with no body here (Via,
  /// called at ViaCall), as the program summary describes it.
  std::optional<RemoteTrainingFlag> Remote;
  /// Inside a lambda written in the function (or in a helper).
  bool InLambda = false;
  /// The outermost helper it was reached through, and its call written in the
  /// analysed function; null when written there.
  const clang::FunctionDecl *Via = nullptr;
  const clang::CallExpr *ViaCall = nullptr;
};

/// Finds the calls with the flag on that functions run, following calls to
/// helpers defined in user code (free functions, methods of classes that are
/// not modules, lambdas' call operators) up to MaxCallDepth (Summaries.h),
/// and, with a program summary, helpers defined in other files.
class TrainingFlagUses {
public:
  /// \p SkipHelper says which callees not to enter (say, methods of modules,
  /// which a check analyses on their own).
  TrainingFlagUses(const clang::SourceManager &SM,
                   std::vector<std::string> ExtraFunctions,
                   unsigned MaxCallDepth,
                   std::function<bool(const clang::FunctionDecl *)> SkipHelper,
                   std::shared_ptr<const ProgramSummary> Program = nullptr);
  ~TrainingFlagUses();

  /// Every call with the flag on in the body of \p FD (level 0), lambdas
  /// written there included, and in the helpers it calls, each call once.
  std::vector<TrainingFlagUse> in(const clang::FunctionDecl *FD);

private:
  struct Impl;
  std::unique_ptr<Impl> P;
};

} // namespace torch_tidy

#endif
