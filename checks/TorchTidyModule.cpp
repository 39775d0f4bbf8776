//===--- TorchTidyModule.cpp - registers the torch-* checks ---------------===//
#include "AllChecks.h"
#include "SummaryPassCheck.h"

#include "torch-tidy/Compat.h"

using namespace clang::tidy;

namespace torch_tidy {
namespace {

class TorchTidyModule : public ClangTidyModule {
public:
  void addCheckFactories(ClangTidyCheckFactories &Factories) override {
#define TORCH_CHECK_ENTRY(Class, Name, Summary)                                \
  Factories.registerCheck<Class>(Name);
#include "Checks.def"
    // Not a rule, and outside torch-*: whole-program mode's summary pass.
    Factories.registerCheck<SummaryPassCheck>("torchtidy-summary-pass");
  }
};

} // namespace
} // namespace torch_tidy

// Whether TorchTidyChecks.so was loaded by TorchTidy.so after its version check
// (tools/loader/ChecksEntry.cpp, linked into that library only). The torch-tidy
// and torch-clangd executables link the checks without it and always register.
extern "C" __attribute__((weak)) bool torch_tidy_loaded_by_loader();

namespace {
bool mayRegister() {
  return !torch_tidy_loaded_by_loader || torch_tidy_loaded_by_loader();
}
} // namespace

// Registered when this library is loaded (by TorchTidy.so after its version
// check, or linked into the torch-tidy and torch-clangd executables).
static ClangTidyModuleRegistry::Add<torch_tidy::TorchTidyModule> *Registered =
    mayRegister()
        ? new ClangTidyModuleRegistry::Add<torch_tidy::TorchTidyModule>(
              "TorchTidyModule",
              "Checks for silent training bugs in LibTorch code.")
        : nullptr;
