//===--- PromptExit.cpp - torch-clangd exits soon after its client --------===//
//
// When the editor goes away (stdin closes, or `exit` arrives) clangd's server
// loop, `ClangdLSPServer::run()`, returns, and clangd then destroys the server,
// which waits for every analysis in flight: an AST build with its clang-tidy
// checks cannot be interrupted. On a large or pathological file that is minutes
// of work whose result nobody will read; clangd itself gives up only after 5
// minutes, with abort(). torch-clangd is linked with
//   -Wl,--wrap=_ZN5clang6clangd15ClangdLSPServer3runEv
// so that clangd's call to run() (from ClangdMain.cpp; it is defined in
// ClangdLSPServer.cpp) lands here: once the real loop has returned, a watchdog
// thread ends the process with clangd's own exit status (0 after a `shutdown`
// request, 1 without) if it is still shutting down ExitGrace later. A normal
// shutdown takes well under a second and exits before the watchdog wakes.
// Nothing clangd keeps on disk is lost: its background index writes each shard
// to a temporary file and renames it into place.
//
//===----------------------------------------------------------------------===//

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <thread>

// The symbols --wrap names: ours, and clangd's original under __real_. run()
// is a member function; `this` is passed as the first argument.
bool torchTidyServerRun(void *Server) __asm__(
    "__wrap__ZN5clang6clangd15ClangdLSPServer3runEv");
bool clangdServerRun(void *Server) __asm__(
    "__real__ZN5clang6clangd15ClangdLSPServer3runEv");

namespace {
/// How long clangd may take to shut down once its client has gone.
constexpr std::chrono::seconds ExitGrace(10);
} // namespace

bool torchTidyServerRun(void *Server) {
  bool Clean = clangdServerRun(Server);
  std::thread([Clean] {
    std::this_thread::sleep_for(ExitGrace);
    std::fprintf(stderr,
                 "torch-clangd: the client has gone and an analysis is still "
                 "running %llds later; exiting without waiting for it\n",
                 static_cast<long long>(ExitGrace.count()));
    std::fflush(stderr);
    std::_Exit(Clean ? 0 : 1);
  }).detach();
  return Clean;
}
