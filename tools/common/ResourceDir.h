//===--- ResourceDir.h - find clang's builtin headers -----------*- C++ -*-===//
//
// Clang finds its builtin headers (stddef.h, stdarg.h, the intrinsics...) in its
// resource directory, <dir of the executable>/../lib/clang/<major>. Debian's
// clang-tidy and clangd live in /usr/lib/llvm-N/bin, where that works; torch-tidy
// and torch-clangd live in a build tree or any install prefix, where it does not.
// When the directory next to the executable is missing, the executables pass the
// resource directory of the LLVM they were built against (TORCH_TIDY_RESOURCE_DIR)
// explicitly; a resource dir given by the user still wins.

#ifndef TORCH_TIDY_TOOLS_RESOURCEDIR_H
#define TORCH_TIDY_TOOLS_RESOURCEDIR_H

#include "llvm/ADT/SmallString.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <string>

namespace torch_tidy {

/// The resource directory to pass explicitly, or "" when clang's default
/// (next to the executable) works or no usable fallback exists.
inline std::string resourceDirToPass(const char *Argv0, void *MainAddr) {
  namespace fs = llvm::sys::fs;
  namespace path = llvm::sys::path;
  std::string Exe = fs::getMainExecutable(Argv0, MainAddr);
  if (!Exe.empty()) {
    llvm::SmallString<256> Default(path::parent_path(path::parent_path(Exe)));
    path::append(Default, "lib", "clang", std::to_string(LLVM_VERSION_MAJOR),
                 "include");
    if (fs::is_directory(Default))
      return "";
  }
  llvm::SmallString<256> Fallback(TORCH_TIDY_RESOURCE_DIR);
  path::append(Fallback, "include");
  if (!fs::is_directory(Fallback))
    return "";
  return TORCH_TIDY_RESOURCE_DIR;
}

} // namespace torch_tidy

#endif
