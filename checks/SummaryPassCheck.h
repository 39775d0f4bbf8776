//===--- SummaryPassCheck.h - whole-program summary pass --------*- C++ -*-===//
#ifndef TORCH_TIDY_SUMMARYPASSCHECK_H
#define TORCH_TIDY_SUMMARYPASSCHECK_H

#include "torch-tidy/Devices.h"
#include "torch-tidy/FunctionIndex.h"
#include "torch-tidy/GradMode.h"
#include "torch-tidy/GraphPaths.h"
#include "torch-tidy/Graphs.h"
#include "torch-tidy/InplaceEffects.h"
#include "torch-tidy/Losses.h"
#include "torch-tidy/ModelMode.h"
#include "torch-tidy/ModuleAliases.h"
#include "torch-tidy/RequiresGrad.h"
#include "torch-tidy/Shapes.h"
#include "torch-tidy/TrainingFlag.h"
#include "torch-tidy/TrainingLoop.h"
#include "torch-tidy/WholeProgram.h"

#include "clang-tidy/ClangTidyCheck.h"

#include <map>
#include <optional>

namespace torch_tidy {

/// Not a rule: the summary pass of whole-program mode (WholeProgram.h). It
/// reports nothing; at the end of a translation unit it writes the facts of
/// the functions defined in its main file to the file named by
/// TORCH_TIDY_SUMMARY_OUTPUT (or its option `Output`). Its name is outside
/// `torch-*` so that `--checks=torch-*` never runs it.
/// Docs: docs/whole-program.md
class SummaryPassCheck : public clang::tidy::ClangTidyCheck {
public:
  SummaryPassCheck(llvm::StringRef Name,
                   clang::tidy::ClangTidyContext *Context);
  bool isLanguageVersionSupported(
      const clang::LangOptions &LangOpts) const override {
    return LangOpts.CPlusPlus;
  }
  void registerMatchers(clang::ast_matchers::MatchFinder *Finder) override;
  void
  check(const clang::ast_matchers::MatchFinder::MatchResult &Result) override;
  void storeOptions(clang::tidy::ClangTidyOptions::OptionMap &Opts) override;
  void onStartOfTranslationUnit() override;
  void onEndOfTranslationUnit() override;
  ~SummaryPassCheck() override;

private:
  /// The analyses of one translation unit that the summary is read from.
  struct Analyses {
    InplaceEffectAnalysis &Effects;
    DeviceAnalysis &Devices;
    ModelModeAnalysis &Modes;
    ModuleModels &Models;
    GraphAnalysis &Graphs;
    GraphPathAnalysis &Paths;
    ShapeAnalysis &Shapes;
    GradModeAnalysis &GradMode;
    TrainingFlagUses &Flags;
    /// The updates between two of its parameters' modules, by function.
    const std::map<const clang::FunctionDecl *,
                   std::vector<RemoteParameterSync>> &Syncs;
  };
  void summarise(const clang::FunctionDecl *FD, const clang::SourceManager &SM,
                 Analyses &An);
  /// The shape of what \p FD returns, as its summary records it; none when
  /// nothing is known of it.
  std::optional<RemoteShape> returnShape(const clang::FunctionDecl *FD,
                                         const clang::SourceManager &SM,
                                         ShapeAnalysis &Shapes);
  /// The graph paths of what \p FD returns, as its summary records them;
  /// none when it has none.
  std::optional<RemoteGraphPaths> graphPaths(const clang::FunctionDecl *FD,
                                             const clang::SourceManager &SM,
                                             GraphPathAnalysis &Paths);
  /// \p P, the device \p FD returns, as its summary records it; none when
  /// it is not known.
  std::optional<RemoteDeviceReturn>
  remoteDeviceReturn(const DeviceProvenance &P, const clang::FunctionDecl *FD,
                     const clang::SourceManager &SM) const;
  /// For a constructor or reset() of a module class whose setups are all
  /// here: the layers its members hold.
  std::vector<RemoteMemberLayer> memberLayers(const clang::FunctionDecl *FD,
                                              const clang::SourceManager &SM,
                                              ShapeAnalysis &Shapes) const;
  /// The updates of \p Index's functions between two modules each is handed.
  std::map<const clang::FunctionDecl *, std::vector<RemoteParameterSync>>
  parameterSyncs(const clang::SourceManager &SM) const;
  /// The calls with their training flag on that \p FD runs, when it is
  /// not a method of a module.
  std::vector<RemoteTrainingFlag> trainingFlags(const clang::FunctionDecl *FD,
                                                const clang::SourceManager &SM,
                                                TrainingFlagUses &Flags) const;
  /// What \p FD does to the members of the module objects it is handed.
  /// (summarise() calls it for the functions it summarises.)
  void summariseModuleEffects(const clang::FunctionDecl *FD,
                              const std::string &USR, const std::string &Name,
                              const RemoteSite &Def,
                              const clang::SourceManager &SM,
                              ModuleModels &Models);
  /// Whether the calls \p FD makes of user functions run with autograd
  /// recording, for the files that define them (GradMode.h).
  void summariseCalls(const clang::FunctionDecl *FD,
                      const clang::SourceManager &SM,
                      GradModeAnalysis &GradMode);

  std::string RawOutput;
  std::string Output; ///< in effect: the environment's, else the option's
  /// The options of the rules whose analyses are summarised, read under
  /// their names (torch-bce-on-logits, torch-missing-zero-grad,
  /// torch-inplace-on-requires-grad, torch-module-hardcoded-device,
  /// torch-missing-eval, torch-retained-loss-graph, torch-graph-break,
  /// torch-loss-broadcast, torch-dropout-training-flag,
  /// torch-aliased-module-copy).
  std::optional<ActivationOptions> ActivationOpts;
  ActivationConfig ActivationCfg; ///< ActivationOpts', with Program
  /// The program summary this pass reads (a round of run-torch-tidy after
  /// the first), logging what it and the checks beside it ask of it; with
  /// no output, programSummary()'s.
  std::shared_ptr<const ProgramSummary> Program;
  /// How many reads the output was written with, once it was written.
  std::optional<size_t> WrittenReads;
  std::string RawOptimizerClasses;
  std::string RawZeroGradFunctions;
  LoopConfig Loop;
  std::string RawNoGradGuardClasses;
  std::string RawParameterFunctions;
  GradModeConfig GradConfig;
  RequiresGradConfig ParamConfig;
  InplaceEffectConfig EffectConfig;
  std::string RawAllowedDeviceFunctions;
  DeviceConfig DeviceOpts;
  std::string RawModeDependent;
  std::string RawModeIndependent;
  ModelModeConfig ModeOpts;
  std::string RawLossFunctions;
  GraphConfig GraphCfg;    ///< torch-retained-loss-graph's, with Program
  GraphPathConfig PathCfg; ///< torch-graph-break's, with Program
  std::string RawShapePreserving;
  ShapeAnalysis::Config ShapeCfg; ///< torch-loss-broadcast's, with Program
  /// torch-dropout-training-flag's.
  std::string RawTrainingFlagFunctions;
  std::vector<std::string> TrainingFlagFunctions;
  unsigned FlagCallDepth = DefaultMaxCallDepth;
  ModuleAliasConfig AliasCfg; ///< torch-aliased-module-copy's, with Program
  /// torch-unregistered-module-member's: what a function does to the module
  /// it is handed.
  std::string RawRegistrationFunctions, RawStatelessModuleClasses;
  ModuleModelConfig RegistrationOpts;
  std::optional<ActivationAnalysis> Activations;
  std::optional<AutogradEventAnalysis> Events;
  const FunctionIndex *Index = nullptr;
  clang::ASTContext *Ctx = nullptr;
  SummaryWriter Writer;
  clang::tidy::ClangTidyContext *Context;
};

} // namespace torch_tidy

#endif
