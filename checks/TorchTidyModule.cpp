//===--- TorchTidyModule.cpp - registers the torch-* checks ---------------===//
#include "AllChecks.h"

#include "torch-tidy/Compat.h"

using namespace clang::tidy;

namespace torch_tidy {

class TorchTidyModule : public ClangTidyModule {
public:
  void addCheckFactories(ClangTidyCheckFactories &Factories) override {
#define TORCH_CHECK_ENTRY(Class, Name, Summary)                                \
  Factories.registerCheck<Class>(Name);
#include "Checks.def"
  }
};

} // namespace torch_tidy

// Registered when this library is loaded (by TorchTidy.so after its version
// check, or linked into the torch-tidy and torch-clangd executables).
static ClangTidyModuleRegistry::Add<torch_tidy::TorchTidyModule>
    X("TorchTidyModule", "Checks for silent training bugs in LibTorch code.");

// Lets an executable that links the checks statically keep this object file.
// NOLINTNEXTLINE(misc-use-internal-linkage)
volatile int TorchTidyModuleAnchorSource = 0;
