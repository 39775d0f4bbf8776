// A stand-in for clang-tidy, for test/meta/loader-hosts.test: it exports its
// version the way a clang-tidy built one way or another does, then loads the
// plugin given as argv[1] as `clang-tidy --load` does. The version string is
// taken from $HOST_VERSION.
//
//   -DHOST_LIBSTDCXX  clang::getClangFullVersion() with libstdc++'s std::string
//   -DHOST_LIBCXX     clang::getClangFullVersion() with libc++'s std::string,
//                     built by libc++ itself (link with libc++.so.1)
//   -DHOST_C          LLVMGetVersion() only, from $HOST_VERSION's leading number
//   (none)            no version at all
#include <dlfcn.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

static const char *hostVersion() {
  const char *V = std::getenv("HOST_VERSION");
  return V != nullptr ? V : "";
}

#if defined(HOST_LIBSTDCXX)
namespace clang {
std::string getClangFullVersion() { return hostVersion(); }
} // namespace clang
#endif

#if defined(HOST_LIBCXX)
// The 24 bytes of a std::__1::string, returned like one (non-trivial type).
struct LibcxxString {
  alignas(8) unsigned char Raw[24];
  ~LibcxxString() {}
};
// std::__1::string::assign(const char *), from libc++.so.1.
void libcxxAssign(LibcxxString *This, const char *S) __asm__(
    "_ZNSt3__112basic_stringIcNS_11char_traitsIcEENS_9allocatorIcEEE6assignEPKc");
// clang::getClangFullVersion() as a libc++ clang-tidy exports it.
LibcxxString libcxxGetClangFullVersion() __asm__("_ZN5clang19getClangFullVersionEv");
LibcxxString libcxxGetClangFullVersion() {
  LibcxxString S;
  std::memset(S.Raw, 0, sizeof S.Raw); // an empty std::__1::string
  libcxxAssign(&S, hostVersion());
  return S;
}
#endif

#if defined(HOST_C)
extern "C" void LLVMGetVersion(unsigned *Major, unsigned *Minor, unsigned *Patch) {
  *Major = static_cast<unsigned>(std::atoi(hostVersion()));
  *Minor = 0;
  *Patch = 0;
}
#endif

int main(int argc, char **argv) {
  if (argc != 2)
    return 2;
  if (dlopen(argv[1], RTLD_NOW | RTLD_GLOBAL) == nullptr) {
    std::printf("host: cannot load %s: %s\n", argv[1], dlerror());
    return 1;
  }
  std::printf("host: loaded %s\n", argv[1]);
  return 0;
}
