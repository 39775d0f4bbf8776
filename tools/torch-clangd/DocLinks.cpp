//===--- DocLinks.cpp - torch-* diagnostics link to torch-tidy's pages ----===//
//
// clangd links every clang-tidy diagnostic to
// clang.llvm.org/extra/clang-tidy/checks/<module>/<check>.html, a page that does
// not exist for the torch-* checks. torch-clangd is linked with
//   -Wl,--wrap=_ZN5clang6clangd6toJSONERKNS0_24PublishDiagnosticsParamsE
// so that the JSON of each textDocument/publishDiagnostics (built in
// Protocol.cpp, sent from ClangdLSPServer.cpp) passes through here, where the
// link (`codeDescription.href`) of a torch-* diagnostic becomes:
//   - $TORCH_TIDY_DOCS_URL with `{check}` replaced by the check's name, or
//     followed by `<check>.md` when it has no `{check}` (a documented base URL,
//     e.g. the docs/checks/ folder of a hosted copy of the repository);
//   - else the check's page installed beside the binary
//     (../share/torch-tidy/docs/checks/<check>.md) or in the source tree the
//     binary was built from, as a file:// URL;
//   - else no link at all.
// The parameter is only handed on to clangd's own function, so its type is
// not needed here (a reference and a pointer are passed alike).
//
//===----------------------------------------------------------------------===//

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/Path.h"

#include <cstdlib>
#include <string>

llvm::json::Value torchTidyPublishDiagnostics(const void *Params) __asm__(
    "__wrap__ZN5clang6clangd6toJSONERKNS0_24PublishDiagnosticsParamsE");
llvm::json::Value clangdPublishDiagnostics(const void *Params) __asm__(
    "__real__ZN5clang6clangd6toJSONERKNS0_24PublishDiagnosticsParamsE");

namespace {

std::string fileURL(llvm::StringRef Path) {
  std::string URL = "file://";
  for (char C : Path) {
    if (llvm::isAlnum(C) || llvm::StringRef("/-._~").contains(C)) {
      URL += C;
    } else {
      static const char Hex[] = "0123456789ABCDEF";
      URL += '%';
      URL += Hex[(static_cast<unsigned char>(C) >> 4) & 15];
      URL += Hex[static_cast<unsigned char>(C) & 15];
    }
  }
  return URL;
}

/// The link for check \p Name, or "" for none.
std::string docURL(llvm::StringRef Name) {
  if (const char *Base = std::getenv("TORCH_TIDY_DOCS_URL")) {
    std::string URL = Base;
    if (URL.empty())
      return "";
    size_t At = URL.find("{check}");
    if (At == std::string::npos)
      return URL + Name.str() + ".md";
    return URL.replace(At, 7, Name.str());
  }
  namespace fs = llvm::sys::fs;
  namespace path = llvm::sys::path;
  static int Anchor;
  std::string Exe = fs::getMainExecutable(nullptr, &Anchor);
  llvm::SmallVector<llvm::SmallString<256>, 2> Dirs;
  if (!Exe.empty()) {
    Dirs.emplace_back(path::parent_path(path::parent_path(Exe)));
    path::append(Dirs.back(), "share", "torch-tidy", "docs", "checks");
  }
  Dirs.emplace_back(TORCH_TIDY_SOURCE_DOCS_DIR);
  for (llvm::SmallString<256> &Dir : Dirs) {
    path::append(Dir, Name + ".md");
    llvm::SmallString<256> Real;
    if (!fs::real_path(Dir, Real))
      return fileURL(Real);
  }
  return "";
}

} // namespace

llvm::json::Value torchTidyPublishDiagnostics(const void *Params) {
  llvm::json::Value V = clangdPublishDiagnostics(Params);
  llvm::json::Object *O = V.getAsObject();
  llvm::json::Array *Diags = O ? O->getArray("diagnostics") : nullptr;
  if (!Diags)
    return V;
  for (llvm::json::Value &D : *Diags) {
    llvm::json::Object *DO = D.getAsObject();
    std::optional<llvm::StringRef> Code =
        DO ? DO->getString("code") : std::nullopt;
    if (!Code || !Code->starts_with("torch-"))
      continue;
    std::string URL = docURL(*Code);
    if (URL.empty())
      DO->erase("codeDescription");
    else
      (*DO)["codeDescription"] = llvm::json::Object{{"href", URL}};
  }
  return V;
}
