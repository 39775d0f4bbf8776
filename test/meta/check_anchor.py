#!/usr/bin/env python3
"""Fails when a check does not get its declarations through the one anchor.

Every torch-* check registers exactly one matcher, through registerAnchor()
(include/torch-tidy/Anchor.h), and receives the user-code definitions it needs
at the top of check() from handOverUserCode(). A matcher registered directly
(Finder->addMatcher(...) on functionDecl(), cxxRecordDecl(), callExpr(), ...)
is tried by clang's MatchFinder on every node of LibTorch's headers, once per
check, and puts the per-check cost back.

For every checks/*Check.cpp: no `addMatcher(` and no AST-matcher registration
outside the anchor; registerMatchers() calls registerAnchor() and nothing else;
check() starts with handOverUserCode(), or with userFunction() or
indexUserFunctions(), which call it. The anchor itself (lib/Anchor.cpp) is
the only source with `addMatcher(`.
"""
import os
import re
import sys


def strip_comments(text):
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    return re.sub(r"//[^\n]*", "", text)


def body_of(text, signature_regex):
    """The text between the braces of the first function matching the regex."""
    m = re.search(signature_regex, text)
    if not m:
        return None
    start = text.index("{", m.end() - 1)
    depth = 0
    for i in range(start, len(text)):
        if text[i] == "{":
            depth += 1
        elif text[i] == "}":
            depth -= 1
            if depth == 0:
                return text[start + 1:i]
    return None


def main(root):
    problems = []
    checks_dir = os.path.join(root, "checks")
    sources = sorted(f for f in os.listdir(checks_dir) if f.endswith("Check.cpp"))
    if not sources:
        problems.append("no checks/*Check.cpp found under %s" % root)
    for name in sources:
        text = strip_comments(open(os.path.join(checks_dir, name)).read())
        cls = name[:-len(".cpp")]
        if "addMatcher(" in text:
            problems.append("%s: calls addMatcher(); register through registerAnchor() "
                            "(torch-tidy/Anchor.h)" % name)
        reg = body_of(text, r"void\s+%s::registerMatchers\s*\([^)]*\)\s*\{" % cls)
        if reg is None:
            continue  # no matcher at all (a preprocessor-only check)
        if re.sub(r"\s+", "", reg) != "registerAnchor(*Finder,*this);":
            problems.append("%s: registerMatchers() must be exactly "
                            "`registerAnchor(*Finder, *this);`" % name)
        chk = body_of(text, r"void\s+%s::check\s*\(\s*const\s+MatchFinder::MatchResult\s*&"
                            r"\s*Result\s*\)\s*\{" % cls)
        if chk is None:
            problems.append("%s: no %s::check(const MatchFinder::MatchResult &Result)"
                            % (name, cls))
        elif not (re.match(r"\s*if\s*\(\s*handOverUserCode\s*\(\s*\*this\s*,\s*Result\s*,", chk)
                  or re.match(r"\s*const\s+FunctionDecl\s*\*\s*FD\s*=\s*userFunction\s*\(\s*\*this\s*,\s*Result\s*\)\s*;", chk)
                  or re.match(r"\s*indexUserFunctions\s*\(\s*Result\s*,", chk)):
            problems.append("%s: check() must start with "
                            "`if (handOverUserCode(*this, Result, {...})) return;`, "
                            "`const FunctionDecl *FD = userFunction(*this, Result);` "
                            "or `indexUserFunctions(Result, ...);`" % name)
    # Nothing else registers matchers either (the shared analyses walk down).
    for sub in ("lib", "include"):
        for dirpath, _, files in os.walk(os.path.join(root, sub)):
            for f in files:
                path = os.path.join(dirpath, f)
                rel = os.path.relpath(path, root)
                if rel == os.path.join("lib", "Anchor.cpp"):
                    continue
                if f.endswith((".cpp", ".h")) and "addMatcher(" in strip_comments(open(path).read()):
                    problems.append("%s: calls addMatcher(); only lib/Anchor.cpp registers "
                                    "the anchor" % rel)
    for p in problems:
        print("check-anchor: " + p)
    if not problems:
        print("check-anchor: %d checks, all on the anchor" % len(sources))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
