//===--- TorchClangdMain.cpp - clangd with the torch-* checks built in ----===//
//
// clangd (libclangdMain) linked with the torch-* checks: a drop-in replacement
// for `clangd` in any editor. Enable the checks in a .clangd file:
//
//   Diagnostics:
//     ClangTidy:
//       Add: [torch-*]
//
// (clangd's default FastCheckFilter skips checks it has no timing data for;
// FastChecks.cpp tells it that the torch-* checks are fast.)

#include "../common/ResourceDir.h"

#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace clang {
namespace clangd {
// Defined in libclangdMain.a (clangd/tool/ClangdMain.h, not installed).
int clangdMain(int argc, char *argv[]);
} // namespace clangd
} // namespace clang

static bool mentionsResourceDir(const char *Arg) {
  return Arg != nullptr && std::strstr(Arg, "resource-dir") != nullptr;
}

int main(int argc, char *argv[]) {
  static int Anchor;
  bool UserChose = mentionsResourceDir(std::getenv("CLANGD_FLAGS"));
  for (int I = 1; I < argc && !UserChose; ++I)
    UserChose = mentionsResourceDir(argv[I]);
  std::string ResourceDir =
      UserChose ? std::string()
                : torch_tidy::resourceDirToPass(argv[0], &Anchor);
  if (ResourceDir.empty())
    return clang::clangd::clangdMain(argc, argv);

  std::string Arg = "--resource-dir=" + ResourceDir;
  std::vector<char *> Args(argv, argv + argc);
  Args.insert(Args.begin() + 1, &Arg[0]);
  Args.push_back(nullptr);
  return clang::clangd::clangdMain(static_cast<int>(Args.size()) - 1,
                                   Args.data());
}
