//===--- Options.h - one parser for every check option ----------*- C++ -*-===//
//
// Every torch-* option is a boolean, a non-negative integer, a `;`-separated
// list of qualified names or one of a few words. OptionReader reads each kind
// the same way: a value that does not parse gets one configuration diagnostic
//
//   invalid configuration value 'abc' for option
//   'torch-missing-zero-grad.MaxCallDepth'; expected a non-negative integer;
//   using the default '4'
//
// and the default is used. The reader returns the value in effect, which the
// check stores back in storeOptions, so --dump-config shows what is used.
//
// The values are parsed here rather than with OptionsView::get<T>: the bool
// overloads of OptionsView are not exported by every clang-tidy executable a
// plugin is loaded into, and their messages differ from kind to kind.
//
//===----------------------------------------------------------------------===//
#ifndef TORCH_TIDY_OPTIONS_H
#define TORCH_TIDY_OPTIONS_H

#include "torch-tidy/Compat.h"

#include "clang-tidy/ClangTidyCheck.h"
#include "clang-tidy/ClangTidyDiagnosticConsumer.h"
#include "clang-tidy/utils/OptionsUtils.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringRef.h"

#include <optional>
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

/// A boolean as clang-tidy spells them: true/false, yes/no, on/off, y/n in any
/// case, or an integer (non-zero is true). std::nullopt for anything else.
inline std::optional<bool> parseBool(llvm::StringRef Value) {
  llvm::StringRef V = Value.trim();
  for (llvm::StringRef T : {"true", "yes", "on", "y"})
    if (V.equals_insensitive(T))
      return true;
  for (llvm::StringRef F : {"false", "no", "off", "n"})
    if (V.equals_insensitive(F))
      return false;
  long long Number = 0;
  if (!V.getAsInteger(10, Number))
    return Number != 0;
  return std::nullopt;
}

/// A non-negative decimal integer. std::nullopt for anything else ("-3",
/// "abc", "", a value that does not fit).
inline std::optional<unsigned> parseCount(llvm::StringRef Value) {
  unsigned Number = 0;
  if (Value.trim().getAsInteger(10, Number))
    return std::nullopt;
  return Number;
}

/// A qualified name as list options take them: `name`, `ns::Class::method`,
/// optionally with a leading `::`.
inline bool isQualifiedName(llvm::StringRef Name) {
  Name.consume_front("::");
  if (Name.empty())
    return false;
  while (true) {
    size_t Len = 0;
    while (Len < Name.size() && (llvm::isAlnum(Name[Len]) || Name[Len] == '_'))
      ++Len;
    if (Len == 0 || llvm::isDigit(Name[0]))
      return false;
    Name = Name.drop_front(Len);
    if (Name.empty())
      return true;
    if (!Name.consume_front("::"))
      return false;
  }
}

/// A `;`-separated list of qualified names (empty entries are ignored, as
/// clang-tidy's own list options do). std::nullopt when an entry is not a
/// qualified name, e.g. `a::B, c::D` written with a comma.
inline std::optional<std::vector<std::string>>
parseNameList(llvm::StringRef Value) {
  std::vector<std::string> Out = parseList(Value);
  for (const std::string &Entry : Out)
    if (!isQualifiedName(Entry))
      return std::nullopt;
  return Out;
}

/// Reads the options of one check; see the file comment.
class OptionReader {
public:
  OptionReader(const clang::tidy::ClangTidyCheck::OptionsView &Options,
               llvm::StringRef CheckName,
               clang::tidy::ClangTidyContext *Context)
      : Options(Options), CheckName(CheckName.str()), Context(Context) {}

  bool getBool(llvm::StringRef Name, bool Default) const {
    std::optional<std::string> Raw = compat::rawOption(Options, Name);
    if (!Raw)
      return Default;
    if (std::optional<bool> V = parseBool(*Raw))
      return *V;
    bad(Name, *Raw, "a bool ('true' or 'false')", Default ? "true" : "false");
    return Default;
  }

  unsigned getCount(llvm::StringRef Name, unsigned Default) const {
    std::optional<std::string> Raw = compat::rawOption(Options, Name);
    if (!Raw)
      return Default;
    if (std::optional<unsigned> V = parseCount(*Raw))
      return *V;
    bad(Name, *Raw, "a non-negative integer", std::to_string(Default));
    return Default;
  }

  /// The list as written (what storeOptions stores back) or, if an entry is
  /// not a qualified name, \p Default. The entries: parseList() of the result.
  std::string getNameList(llvm::StringRef Name,
                          llvm::StringRef Default = "") const {
    std::optional<std::string> Raw = compat::rawOption(Options, Name);
    if (!Raw)
      return Default.str();
    if (parseNameList(*Raw))
      return *Raw;
    bad(Name, *Raw, "a ';'-separated list of qualified names", Default.str());
    return Default.str();
  }

  clang::tidy::ClangTidyContext *context() const { return Context; }

  /// One of \p Allowed (spelled exactly), or \p Default.
  std::string getChoice(llvm::StringRef Name,
                        llvm::ArrayRef<llvm::StringRef> Allowed,
                        llvm::StringRef Default) const {
    std::optional<std::string> Raw = compat::rawOption(Options, Name);
    if (!Raw)
      return Default.str();
    for (llvm::StringRef A : Allowed)
      if (*Raw == A)
        return A.str();
    std::string Expected;
    for (size_t I = 0; I < Allowed.size(); ++I) {
      if (I != 0)
        Expected += I + 1 == Allowed.size() ? " or " : ", ";
      Expected += "'" + Allowed[I].str() + "'";
    }
    bad(Name, *Raw, Expected, Default.str());
    return Default.str();
  }

private:
  void bad(llvm::StringRef Name, llvm::StringRef Value,
           llvm::StringRef Expected, llvm::StringRef Default) const {
    if (!compat::canReportConfigurationDiag(Context))
      return;
    Context->configurationDiag(
        "invalid configuration value '%0' for option '%1'; "
        "expected %2; using the default '%3'")
        << Value << (CheckName + "." + Name).str() << Expected << Default;
  }

  const clang::tidy::ClangTidyCheck::OptionsView &Options;
  std::string CheckName;
  clang::tidy::ClangTidyContext *Context;
};

} // namespace torch_tidy

#endif
