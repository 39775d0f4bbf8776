#!/usr/bin/env python3
"""Fails when a C++ source of torch-tidy strays from the house rules.

The sources of the plugin and its tools (checks/, include/, lib/, tools/) are
formatted by the repository's .clang-format (LLVM style), checked with the
clang-format of the LLVM major under test, and each opens with an LLVM file
banner of exactly 80 columns that names the file:
  //===--- Name.cpp - what it does -------------------------------------===//
  //===--- Name.h - what it does -------------------------*- C++ -*-===//
Test inputs, examples and generated benchmark code are not covered: their
line numbers are part of the tests.
"""
import glob
import os
import re
import subprocess
import sys

ROOTS = ("checks", "include", "lib", "tools")


def sources(root):
    found = []
    for top in ROOTS:
        for ext in ("cpp", "h"):
            found += glob.glob(os.path.join(root, top, "**", "*." + ext), recursive=True)
    return sorted(found)


def banner_error(path):
    name = os.path.basename(path)
    with open(path, encoding="utf-8") as f:
        first = f.readline().rstrip("\n")
    tail = r"-\*- C\+\+ -\*-===//" if path.endswith(".h") else r"-===//"
    pattern = r"//===--- " + re.escape(name) + r" - \S.* -*" + tail + "$"
    if not re.match(pattern, first) or len(first) != 80:
        return "first line is not an 80-column LLVM banner naming %s" % name
    return None


def main():
    root = sys.argv[1]
    clang_format = sys.argv[2] if len(sys.argv) > 2 else "clang-format"
    files = sources(root)
    bad = 0
    for path in files:
        err = banner_error(path)
        if err:
            print("check-format: %s: %s" % (os.path.relpath(path, root), err))
            bad += 1
    proc = subprocess.run([clang_format, "--style=file:" + os.path.join(root, ".clang-format"),
                           "--dry-run", "-Werror"] + files,
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    unformatted = sorted({os.path.relpath(m, root) for m in
                          re.findall(r"^(\S+?):\d+:\d+: (?:error|warning): code should be clang-formatted",
                                     proc.stdout, re.M)})
    for path in unformatted:
        print("check-format: %s: not formatted; run: clang-format -i %s" % (path, path))
    if proc.returncode != 0 and not unformatted:
        print(proc.stdout)
        return 1
    if bad or unformatted:
        return 1
    print("check-format: %d files formatted" % len(files))
    return 0


if __name__ == "__main__":
    sys.exit(main())
