//===--- TorchTidyMain.cpp - clang-tidy with the torch-* checks built in --===//
//
// clang-tidy's own driver (libclangTidyMain) linked with the torch-* checks, for
// places where a plugin cannot be loaded. It takes every clang-tidy flag; the
// checks register themselves from TorchTidyModule.cpp, linked in as an object.

#include "../common/ResourceDir.h"

#include "clang-tidy/tool/ClangTidyMain.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/raw_ostream.h"

#include <string>
#include <vector>

int main(int argc, const char **argv) {
  llvm::cl::AddExtraVersionPrinter([](llvm::raw_ostream &OS) {
    OS << "torch-tidy " TORCH_TIDY_VERSION
          " (clang-tidy with the torch-* checks built in)\n";
  });
  static int Anchor;
  std::string ResourceDir = torch_tidy::resourceDirToPass(argv[0], &Anchor);
  if (ResourceDir.empty())
    return clang::tidy::clangTidyMain(argc, argv);

  // Put it first, so that a -resource-dir in the compile command or a later
  // --extra-arg-before still overrides it.
  std::string Arg = "--extra-arg-before=-resource-dir=" + ResourceDir;
  std::vector<const char *> Args(argv, argv + argc);
  Args.insert(Args.begin() + 1, Arg.c_str());
  Args.push_back(nullptr);
  return clang::tidy::clangTidyMain(static_cast<int>(Args.size()) - 1,
                                    Args.data());
}
