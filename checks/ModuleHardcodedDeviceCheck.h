//===--- ModuleHardcodedDeviceCheck.h - hard-coded devices ------*- C++ -*-===//
#ifndef TORCH_TIDY_MODULEHARDCODEDDEVICECHECK_H
#define TORCH_TIDY_MODULEHARDCODEDDEVICECHECK_H

#include "torch-tidy/Devices.h"

#include "clang-tidy/ClangTidyCheck.h"
#include "llvm/ADT/DenseSet.h"

#include <optional>
#include <vector>

namespace torch_tidy {

/// Code of a `torch::nn::Module` subclass (methods, constructors, member
/// initialisers, helpers they call) that places tensors on a device written as
/// a literal instead of the device of its input, parameters or buffers.
/// Docs: docs/checks/torch-module-hardcoded-device.md
class ModuleHardcodedDeviceCheck : public clang::tidy::ClangTidyCheck {
public:
  ModuleHardcodedDeviceCheck(llvm::StringRef Name,
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

private:
  enum class CPUMode { WhenMoved, Always, Never };
  struct Finding {
    DevicePlacement P;
    const clang::CXXRecordDecl *Module;
    bool CPU;
  };

  bool isAllowedClass(const clang::CXXRecordDecl *RD) const;
  void add(const DevicePlacement &P, const clang::CXXRecordDecl *Module);
  void report(const Finding &F);

  const std::string RawAllowedClasses;
  const std::string RawAllowedDeviceFunctions;
  std::string RawFlagCPU;
  const bool IgnoreAvailabilitySelection;
  CPUMode CPU = CPUMode::WhenMoved;
  std::vector<std::string> AllowedClasses;
  DeviceConfig Config;

  std::optional<DeviceAnalysis> Analysis;
  const clang::SourceManager *SM = nullptr;
  const clang::LangOptions *LangOpts = nullptr;
  bool Moved = false; // the TU moves a module with to(device)
  std::vector<Finding> Findings;
  llvm::DenseSet<unsigned>
      Seen; // reported locations (templates, shared helpers)
};

} // namespace torch_tidy

#endif
