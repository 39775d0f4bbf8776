//===--- Options.h - list-valued check options ------------------*- C++ -*-===//
#ifndef TORCH_TIDY_OPTIONS_H
#define TORCH_TIDY_OPTIONS_H

#include "clang-tidy/utils/OptionsUtils.h"
#include "llvm/ADT/StringRef.h"

#include <string>
#include <vector>

namespace torch_tidy {

/// A `;`-separated option value as a list of owned strings.
inline std::vector<std::string> parseList(llvm::StringRef Value) {
  std::vector<std::string> Out;
  for (llvm::StringRef S : clang::tidy::utils::options::parseStringList(Value))
    Out.push_back(S.str());
  return Out;
}

} // namespace torch_tidy

#endif
