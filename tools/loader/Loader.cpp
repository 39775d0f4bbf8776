// TorchTidy.so: the library users pass to `clang-tidy --load`.
//
// A clang-tidy plugin takes every clang and clang-tidy symbol from the executable
// that loads it, so a plugin built for one LLVM major and loaded into another one
// either fails to load with an obscure undefined-symbol error or, worse, loads and
// then crashes on a changed class layout. This loader links nothing from LLVM.
// When clang-tidy loads it, it asks the host for its clang version through one
// long-stable C++ entry point, looked up with dlsym so that its absence is not an
// error, and loads the real checks (TorchTidyChecks.so, next to this file) only
// when the host's major matches the one the checks were built for. Otherwise it
// prints one line naming both versions and registers nothing.

#include <dlfcn.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

namespace {

// clang::getClangFullVersion(), as mangled by the Itanium C++ ABI with
// libstdc++'s std::string: e.g. "Debian clang version 19.1.7 (3~deb12u1)".
constexpr const char *VersionSymbol = "_ZN5clang19getClangFullVersionB5cxx11Ev";

int parseMajor(const std::string &Full) {
  std::size_t At = Full.find("version ");
  if (At == std::string::npos)
    return -1;
  return std::atoi(Full.c_str() + At + std::strlen("version "));
}

std::string directoryOf(const char *Path) {
  std::string P(Path);
  std::size_t Slash = P.rfind('/');
  return Slash == std::string::npos ? std::string(".") : P.substr(0, Slash);
}

__attribute__((constructor)) void loadTorchTidyChecks() {
  using VersionFn = std::string (*)();
  auto *Version = reinterpret_cast<VersionFn>(dlsym(RTLD_DEFAULT, VersionSymbol));
  if (Version == nullptr) {
    std::fprintf(stderr,
                 "torch-tidy: this program does not look like clang-tidy (no clang "
                 "version found); torch-tidy was built for LLVM %d and registers no "
                 "checks\n",
                 TORCH_TIDY_LLVM_MAJOR);
    return;
  }
  int Host = parseMajor(Version());
  if (Host != TORCH_TIDY_LLVM_MAJOR) {
    std::fprintf(stderr,
                 "torch-tidy: built for LLVM %d but loaded into clang-tidy of LLVM %d; "
                 "no torch-* checks registered (use clang-tidy-%d, or rebuild with "
                 "-DTORCH_TIDY_LLVM_VERSION=%d)\n",
                 TORCH_TIDY_LLVM_MAJOR, Host, TORCH_TIDY_LLVM_MAJOR, Host);
    return;
  }
  Dl_info Self;
  if (dladdr(reinterpret_cast<void *>(&loadTorchTidyChecks), &Self) == 0 ||
      Self.dli_fname == nullptr) {
    std::fprintf(stderr, "torch-tidy: cannot locate its own library file\n");
    return;
  }
  std::string Impl = directoryOf(Self.dli_fname) + "/" + TORCH_TIDY_IMPL_NAME;
  if (dlopen(Impl.c_str(), RTLD_NOW | RTLD_GLOBAL) == nullptr)
    std::fprintf(stderr, "torch-tidy: cannot load %s: %s\n", Impl.c_str(), dlerror());
}

} // namespace
