//===--- ChecksEntry.cpp - checks register only through the loader --------===//
//
// TorchTidyChecks.so takes every clang symbol from the program that loads it,
// so it must only be loaded by TorchTidy.so, after the loader has checked that
// the host is the LLVM major the checks were built for. Loaded directly with
// `clang-tidy --load TorchTidyChecks.so`, a host of another major either fails
// with a symbol lookup error or loads it and then misbehaves (LLVM 22 listed the
// checks and reported nothing). This file, linked into TorchTidyChecks.so only,
// tells the module registration (checks/TorchTidyModule.cpp) whether the loader
// approved this load; when it did not, it says which file to load instead and
// nothing is registered.
//
// The loader is still being opened when this library's initialisers run, so it
// is not in the global symbol scope yet: it is found by its path (next to this
// file) with RTLD_NOLOAD, which succeeds only when it is already loaded.
//
//===----------------------------------------------------------------------===//

#include <dlfcn.h>

#include <cstdio>
#include <string>

extern "C" __attribute__((visibility("default"))) bool
torch_tidy_loaded_by_loader() {
  Dl_info Self;
  std::string Dir = ".";
  if (dladdr(reinterpret_cast<void *>(&torch_tidy_loaded_by_loader), &Self) &&
      Self.dli_fname) {
    std::string Path(Self.dli_fname);
    std::size_t Slash = Path.rfind('/');
    if (Slash != std::string::npos)
      Dir = Path.substr(0, Slash);
  }
  std::string Loader = Dir + "/" + TORCH_TIDY_LOADER_NAME;
  bool Approved = false;
  if (void *Handle = dlopen(Loader.c_str(), RTLD_LAZY | RTLD_NOLOAD)) {
    if (auto *Major = static_cast<const int *>(
            dlsym(Handle, "torch_tidy_loader_approved_major")))
      Approved = *Major == TORCH_TIDY_LLVM_MAJOR;
    dlclose(Handle);
  }
  if (!Approved)
    std::fprintf(stderr,
                 "torch-tidy: %s holds the checks for LLVM %d and is loaded "
                 "by the plugin; pass %s to --load, which checks clang-tidy's "
                 "LLVM major first; no torch-* checks registered\n",
                 TORCH_TIDY_IMPL_NAME, TORCH_TIDY_LLVM_MAJOR, Loader.c_str());
  return Approved;
}
