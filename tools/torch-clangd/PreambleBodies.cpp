//===--- PreambleBodies.cpp - the preamble keeps user function bodies -----===//
//
// clangd parses the leading #includes of a file once, into a preamble (a
// precompiled header), and builds it with SkipFunctionBodies: every function
// body in a header is skipped, except a few forwarding templates. The torch-*
// checks follow calls into user code (a model's forward(), a training helper,
// a module's constructor), and a model in `net.h` included first by
// `train.cpp` then had no body to follow: clang-tidy reported
// torch-bce-on-logits there, torch-clangd did not.
//
// torch-clangd is linked with
//   -Wl,--wrap=<PrecompiledPreamble::Build, mangled>
// so that clangd's call of `clang::PrecompiledPreamble::Build` (from
// Preamble.cpp, defined in libclang-cpp) lands here. The callbacks clangd
// passes are wrapped: every callback is clangd's, except that a body written
// in user code (isLibraryCode: neither a system header nor LibTorch's include
// tree) is kept. LibTorch's and the standard library's bodies are still
// skipped, so the preamble costs what it did plus the user's own headers.
//
//===----------------------------------------------------------------------===//

#include "torch-tidy/Compat.h"
#include "torch-tidy/Types.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclBase.h"
#include "clang/Frontend/PrecompiledPreamble.h"

#include <memory>
#include <utility>

using namespace clang;

namespace {

/// clangd's callbacks, with user-code function bodies kept.
class KeepUserBodies : public PreambleCallbacks {
public:
  explicit KeepUserBodies(PreambleCallbacks &Clangd) : Clangd(Clangd) {}

  void BeforeExecute(CompilerInstance &CI) override {
    Clangd.BeforeExecute(CI);
  }
  void AfterExecute(CompilerInstance &CI) override { Clangd.AfterExecute(CI); }
  void AfterPCHEmitted(ASTWriter &Writer) override {
    Clangd.AfterPCHEmitted(Writer);
  }
  void HandleTopLevelDecl(DeclGroupRef DG) override {
    Clangd.HandleTopLevelDecl(DG);
  }
  std::unique_ptr<PPCallbacks> createPPCallbacks() override {
    return Clangd.createPPCallbacks();
  }
  CommentHandler *getCommentHandler() override {
    return Clangd.getCommentHandler();
  }
  bool shouldSkipFunctionBody(Decl *D) override {
    if (!Clangd.shouldSkipFunctionBody(D))
      return false;
    return !D ||
           torch_tidy::isLibraryCode(D, D->getASTContext().getSourceManager());
  }

private:
  PreambleCallbacks &Clangd;
};

using Diags = torch_tidy::compat::PreambleDiagnostics;

} // namespace

// The symbols --wrap names: ours, and libclang-cpp's original under __real_.
llvm::ErrorOr<PrecompiledPreamble> torchTidyBuildPreamble(
    const CompilerInvocation &Invocation,
    const llvm::MemoryBuffer *MainFileBuffer, PreambleBounds Bounds,
    Diags Diagnostics, IntrusiveRefCntPtr<llvm::vfs::FileSystem> VFS,
    std::shared_ptr<PCHContainerOperations> PCHContainerOps, bool StoreInMemory,
    llvm::StringRef StoragePath,
    PreambleCallbacks
        &Callbacks) __asm__("__wrap_" TORCH_TIDY_PRECOMPILED_PREAMBLE_BUILD);
llvm::ErrorOr<PrecompiledPreamble> clangBuildPreamble(
    const CompilerInvocation &Invocation,
    const llvm::MemoryBuffer *MainFileBuffer, PreambleBounds Bounds,
    Diags Diagnostics, IntrusiveRefCntPtr<llvm::vfs::FileSystem> VFS,
    std::shared_ptr<PCHContainerOperations> PCHContainerOps, bool StoreInMemory,
    llvm::StringRef StoragePath,
    PreambleCallbacks
        &Callbacks) __asm__("__real_" TORCH_TIDY_PRECOMPILED_PREAMBLE_BUILD);

llvm::ErrorOr<PrecompiledPreamble> torchTidyBuildPreamble(
    const CompilerInvocation &Invocation,
    const llvm::MemoryBuffer *MainFileBuffer, PreambleBounds Bounds,
    Diags Diagnostics, IntrusiveRefCntPtr<llvm::vfs::FileSystem> VFS,
    std::shared_ptr<PCHContainerOperations> PCHContainerOps, bool StoreInMemory,
    llvm::StringRef StoragePath, PreambleCallbacks &Callbacks) {
  KeepUserBodies Keep(Callbacks);
  return clangBuildPreamble(Invocation, MainFileBuffer, Bounds,
                            std::forward<Diags>(Diagnostics), std::move(VFS),
                            std::move(PCHContainerOps), StoreInMemory,
                            StoragePath, Keep);
}
