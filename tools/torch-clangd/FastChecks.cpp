//===--- FastChecks.cpp - torch-* checks pass clangd's FastCheckFilter ----===//
//
// clangd runs only the clang-tidy checks its generated table knows to be fast
// (`FastCheckFilter: Strict`, the default); every check it has no timing for is
// dropped without a word, so a `.clangd` that says `Add: [torch-*]` showed
// nothing. torch-clangd is linked with
//   -Wl,--wrap=_ZN5clang6clangd15isFastTidyCheckEN4llvm9StringRefE
// so that clangd's calls to `clang::clangd::isFastTidyCheck(StringRef)` (from
// ParsedAST.cpp and ConfigCompile.cpp; it is defined in TidyProvider.cpp) land
// here. The torch-* checks meet the criterion clangd's table is built with
// (clangd/TidyFastChecks.py: at most 5% over the parse): all of them together
// cost under 5% of clang-tidy's own time on a <torch/torch.h> translation unit
// (docs/performance.md). Every other check gets clangd's own answer.
//
//===----------------------------------------------------------------------===//

#include "torch-tidy/Compat.h"
#include "llvm/ADT/StringRef.h"

#include <optional>

// The symbols --wrap names: ours, and clangd's original under __real_.
std::optional<bool> torchTidyIsFastTidyCheck(llvm::StringRef Check) __asm__(
    "__wrap__ZN5clang6clangd15isFastTidyCheckEN4llvm9StringRefE");
std::optional<bool> clangdIsFastTidyCheck(llvm::StringRef Check) __asm__(
    "__real__ZN5clang6clangd15isFastTidyCheckEN4llvm9StringRefE");

std::optional<bool> torchTidyIsFastTidyCheck(llvm::StringRef Check) {
  if (torch_tidy::compat::startsWith(Check, "torch-"))
    return true;
  return clangdIsFastTidyCheck(Check);
}
