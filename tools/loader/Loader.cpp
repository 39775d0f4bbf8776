//===--- Loader.cpp - the library users pass to clang-tidy --load ---------===//
// TorchTidy.so: the library users pass to `clang-tidy --load`.
//
// A clang-tidy plugin takes every clang and clang-tidy symbol from the executable
// that loads it, so a plugin built for one LLVM major and loaded into another one
// either fails to load with an obscure undefined-symbol error or, worse, loads and
// then crashes on a changed class layout. This loader links nothing from LLVM.
// When clang-tidy loads it, it asks the host for its LLVM major, looked up with
// dlsym so that an absence is not an error, and loads the real checks
// (TorchTidyChecks.so, next to this file) only when the host's major matches the
// one the checks were built for. Otherwise it prints one line naming both
// versions and registers nothing.
//
// Where the major comes from, first found wins:
//  1. clang::getClangFullVersion() of a host built against libstdc++ (the
//     return type's [abi:cxx11] tag is part of the symbol name);
//  2. LLVMGetVersion(), LLVM's C API (LLVM 16 and newer), when the host exports
//     it (a libLLVM.so host does): plain C, no std::string to agree on;
//  3. clang::getClangFullVersion() of a host built against libc++: a function's
//     return type is not part of its name, so the name has no tag and no std::__1;
//     its std::string is read in libc++'s layout, and only when the process has
//     libc++ in it (the untagged name is also what a libstdc++ host built with
//     the old string ABI exports, whose string has another layout).
// If none is there, one line says so and nothing is registered.

#include <dlfcn.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

// The LLVM major this loader approved TorchTidyChecks.so for, set just before
// it is loaded: its registration asks for it (tools/loader/ChecksEntry.cpp) and
// registers nothing when it was loaded some other way.
extern "C" {
__attribute__((visibility("default"))) int torch_tidy_loader_approved_major = 0;
}

namespace {

// clang::getClangFullVersion() of a libstdc++ host (Itanium mangling, the C++11
// std::string with its abi tag): e.g. "Debian clang version 19.1.7 (3~deb12u1)".
constexpr const char *VersionSymbol = "_ZN5clang19getClangFullVersionB5cxx11Ev";
// The same function of a libc++ host (and of a libstdc++ one built with
// _GLIBCXX_USE_CXX11_ABI=0).
constexpr const char *UntaggedVersionSymbol =
    "_ZN5clang19getClangFullVersionEv";
// void LLVMGetVersion(unsigned *Major, unsigned *Minor, unsigned *Patch).
constexpr const char *CVersionSymbol = "LLVMGetVersion";
// Symbols only libc++ defines: std::__1::cout and the std::__1::string destructor.
constexpr const char *LibcxxSymbols[] = {
    "_ZNSt3__14coutE",
    "_ZNSt3__112basic_stringIcNS_11char_traitsIcEENS_9allocatorIcEEED1Ev",
};

int parseMajor(const std::string &Full) {
  std::size_t At = Full.find("version ");
  if (At == std::string::npos)
    return -1;
  return std::atoi(Full.c_str() + At + std::strlen("version "));
}

bool hostHasLibcxx() {
  for (const char *Symbol : LibcxxSymbols)
    if (dlsym(RTLD_DEFAULT, Symbol) != nullptr)
      return true;
  return false;
}

// A std::__1::string as returned by value: 24 bytes, and a non-trivial
// destructor so that it is returned through a hidden pointer like the real one.
// The destructor does nothing: the host's heap block of a long string is
// leaked rather than freed by another library's operator delete.
struct LibcxxString {
  alignas(8) unsigned char Raw[24];
  ~LibcxxString() {}
};

// The text of a std::__1::string in libc++'s standard layout on a 64-bit
// little-endian target: bit 0 of the first byte tells a long string (size at 8,
// data pointer at 16) from a short one (size in the first byte's upper seven
// bits, characters from byte 1).
bool readLibcxxString(const LibcxxString &S, std::string &Out) {
#if defined(__LP64__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
  if ((S.Raw[0] & 1) == 0) {
    std::size_t Size = S.Raw[0] >> 1;
    if (Size > 22)
      return false;
    Out.assign(reinterpret_cast<const char *>(S.Raw + 1), Size);
    return true;
  }
  std::size_t Size;
  const char *Data;
  std::memcpy(&Size, S.Raw + 8, sizeof Size);
  std::memcpy(&Data, S.Raw + 16, sizeof Data);
  if (Data == nullptr || Size > 4096)
    return false;
  Out.assign(Data, Size);
  return true;
#else
  (void)S;
  (void)Out;
  return false;
#endif
}

// The host's LLVM major, or -1 when it cannot be told.
int hostMajor() {
  if (void *Fn = dlsym(RTLD_DEFAULT, VersionSymbol)) {
    using VersionFn = std::string (*)();
    return parseMajor(reinterpret_cast<VersionFn>(Fn)());
  }
  if (void *Fn = dlsym(RTLD_DEFAULT, CVersionSymbol)) {
    using CVersionFn = void (*)(unsigned *, unsigned *, unsigned *);
    unsigned Major = 0, Minor = 0, Patch = 0;
    reinterpret_cast<CVersionFn>(Fn)(&Major, &Minor, &Patch);
    return static_cast<int>(Major);
  }
  if (void *Fn = dlsym(RTLD_DEFAULT, UntaggedVersionSymbol)) {
    if (hostHasLibcxx()) {
      using LibcxxVersionFn = LibcxxString (*)();
      std::string Full;
      if (readLibcxxString(reinterpret_cast<LibcxxVersionFn>(Fn)(), Full))
        return parseMajor(Full);
    }
  }
  return -1;
}

std::string directoryOf(const char *Path) {
  std::string P(Path);
  std::size_t Slash = P.rfind('/');
  return Slash == std::string::npos ? std::string(".") : P.substr(0, Slash);
}

__attribute__((constructor)) void loadTorchTidyChecks() {
  int Host = hostMajor();
  if (Host <= 0) {
    std::fprintf(
        stderr,
        "torch-tidy: cannot tell the LLVM version of this program (no "
        "clang::getClangFullVersion of a libstdc++ or libc++ clang-tidy, no "
        "LLVMGetVersion); torch-tidy was built for LLVM %d and registers no "
        "checks\n",
        TORCH_TIDY_LLVM_MAJOR);
    return;
  }
  if (Host != TORCH_TIDY_LLVM_MAJOR) {
    // Suggest a rebuild only for a major torch-tidy supports.
    static const int Supported[] = {TORCH_TIDY_SUPPORTED_LLVM};
    bool CanRebuild = false;
    std::string List;
    for (int S : Supported) {
      CanRebuild |= S == Host;
      List += (List.empty() ? "" : ", ") + std::to_string(S);
    }
    if (CanRebuild)
      std::fprintf(
          stderr,
          "torch-tidy: built for LLVM %d but loaded into clang-tidy of LLVM "
          "%d; "
          "no torch-* checks registered (use clang-tidy-%d, or rebuild with "
          "-DTORCH_TIDY_LLVM_VERSION=%d)\n",
          TORCH_TIDY_LLVM_MAJOR, Host, TORCH_TIDY_LLVM_MAJOR, Host);
    else
      std::fprintf(
          stderr,
          "torch-tidy: built for LLVM %d but loaded into clang-tidy of LLVM "
          "%d; "
          "no torch-* checks registered (use clang-tidy-%d; LLVM %d is not "
          "supported, torch-tidy builds for LLVM %s)\n",
          TORCH_TIDY_LLVM_MAJOR, Host, TORCH_TIDY_LLVM_MAJOR, Host,
          List.c_str());
    return;
  }
  Dl_info Self;
  if (dladdr(reinterpret_cast<void *>(&loadTorchTidyChecks), &Self) == 0 ||
      Self.dli_fname == nullptr) {
    std::fprintf(stderr, "torch-tidy: cannot locate its own library file\n");
    return;
  }
  std::string Impl = directoryOf(Self.dli_fname) + "/" + TORCH_TIDY_IMPL_NAME;
  torch_tidy_loader_approved_major = TORCH_TIDY_LLVM_MAJOR;
  if (dlopen(Impl.c_str(), RTLD_NOW | RTLD_GLOBAL) == nullptr)
    std::fprintf(stderr, "torch-tidy: cannot load %s: %s\n", Impl.c_str(),
                 dlerror());
}

} // namespace
