#!/usr/bin/env python3
"""Runs one torch-tidy check on a test file and verifies its output.

Usage (from a lit RUN line, through the %check_torch_tidy substitution):

  check_torch_tidy.py [tool options] FILE CHECK-NAME TMP [clang-tidy args] -- [compiler args]

Modelled on clang-tidy's own check_clang_tidy.py:
  * the test file is copied to TMP.cpp with every `// CHECK-...:` comment blanked,
    so line numbers stay and expectations cannot match themselves;
  * clang-tidy runs with only CHECK-NAME enabled, with -fix, and with
    `--config={}` unless the arguments give a -config or -config-file, so a
    .clang-tidy file in a directory above the test cannot change its outcome;
  * `CHECK-MESSAGES:` lines are matched against clang-tidy's output with
    FileCheck, and any warning or error that no line expects fails the test;
  * `CHECK-NOTES:` lines are matched the same way, and then any warning, error
    or note that no line expects fails the test (a file uses CHECK-MESSAGES or
    CHECK-NOTES, not both);
  * `CHECK-FIXES:` lines are matched against the fixed file; a fix-it that no
    CHECK-FIXES line expects fails the test;
  * when fix-its were applied, the fixed file must still compile;
  * `-check-suffix=FOO` (or `-check-suffixes=A,B`; an empty suffix stands for
    the plain prefixes) uses the `CHECK-MESSAGES-FOO:`, `CHECK-NOTES-FOO:` and
    `CHECK-FIXES-FOO:` lines instead, so one file can hold the expectations of
    several RUN lines. A suffix with no line at all is an error.
  * `--skip-include DIR` makes a run whose compiler arguments include DIR print
    one line and pass without running: the torch-tidy binary's second run of
    the check tests leaves the real-header runs (DIR = the LibTorch headers) to
    the plugin run, which makes them with the same check code.
"""
import argparse
import os
import re
import subprocess
import sys


def run(cmd, stdin=None):
    proc = subprocess.run(cmd, input=stdin, stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, universal_newlines=True)
    return proc.returncode, proc.stdout


def fail(msg, output=""):
    sys.stderr.write("check_torch_tidy.py: %s\n" % msg)
    if output:
        sys.stderr.write("------------------------------ output\n%s\n" % output)
    sys.exit(1)


def main():
    argv = sys.argv[1:]
    if "--" in argv:
        cut = argv.index("--")
        argv, compiler_args = argv[:cut], argv[cut + 1:]
    else:
        compiler_args = []
    ap = argparse.ArgumentParser(allow_abbrev=False)
    ap.add_argument("--clang-tidy", required=True)
    ap.add_argument("--load", default="")
    ap.add_argument("--filecheck", required=True)
    ap.add_argument("--clangxx", required=True)
    ap.add_argument("--no-compile-fixed", action="store_true",
                    help="do not compile the fixed file (for tests of broken code)")
    ap.add_argument("--skip-include", default="",
                    help="pass without running when the compiler arguments include this directory")
    ap.add_argument("-check-suffix", "-check-suffixes", dest="suffixes", default=None,
                    help="comma-separated suffixes of the CHECK-* prefixes to use")
    ap.add_argument("input")
    ap.add_argument("check")
    ap.add_argument("tmp")
    args, tidy_args = ap.parse_known_args(argv)
    if args.skip_include and os.path.realpath(args.skip_include) in \
            [os.path.realpath(a) for a in compiler_args]:
        print("check_torch_tidy.py: skipped: the run with %s is made by the plugin run" %
              args.skip_include)
        return

    with open(args.input) as f:
        text = f.read()

    suffixes = [""] if args.suffixes is None else args.suffixes.split(",")
    messages, notes, fixes = [], [], []
    for suffix in suffixes:
        if suffix and not re.match(r"^[A-Z0-9\-]+$", suffix):
            fail("invalid check suffix '%s': use A-Z, 0-9 and '-'" % suffix)
        tail = "-" + suffix if suffix else ""
        found = False
        for kind, prefixes in (("MESSAGES", messages), ("NOTES", notes), ("FIXES", fixes)):
            prefix = "CHECK-%s%s" % (kind, tail)
            if prefix + ":" in text:
                prefixes.append(prefix)
                found = True
        if suffix and not found:
            fail("check suffix '%s' selects no CHECK-MESSAGES-%s, CHECK-NOTES-%s or "
                 "CHECK-FIXES-%s line" % (suffix, suffix, suffix, suffix))
    if messages and notes:
        fail("use either CHECK-NOTES or CHECK-MESSAGES, not both")

    cleaned = re.sub(r"// *CHECK-[A-Z0-9\-]*:[^\r\n]*", "//", text)
    tmp_cpp = args.tmp + ".cpp"
    os.makedirs(os.path.dirname(os.path.abspath(tmp_cpp)), exist_ok=True)
    with open(tmp_cpp, "w") as f:
        f.write(cleaned)

    # No configuration but the test's own: without an explicit one clang-tidy
    # would read the nearest .clang-tidy above TMP.cpp.
    if not any(re.match(r"^--?config(-file)?=", a) for a in tidy_args):
        tidy_args = tidy_args + ["--config={}"]

    cmd = [args.clang_tidy]
    if args.load:
        cmd.append("--load=" + args.load)
    cmd += ["-checks=-*," + args.check, "-fix", "--header-filter=^$",
            "--quiet", tmp_cpp] + tidy_args + ["--"] + compiler_args
    rc, out = run(cmd)
    print("$ " + " ".join(cmd))
    print(out)
    if "error:" in out and "-fix-errors" not in tidy_args:
        fail("clang-tidy reported errors", out)

    if notes:
        # Every warning and every note expected, nothing else; the notes that
        # -fix adds are not the check's.
        shown = "\n".join(l for l in out.splitlines() if "note: FIX-IT applied" not in l)
        rc, fc_out = run([args.filecheck, args.input, "-check-prefixes=" + ",".join(notes),
                          "-implicit-check-not={{note|warning|error}}:"], stdin=shown)
        if rc != 0:
            fail("CHECK-NOTES failed", fc_out)
    elif messages:
        # Every warning expected, nothing else.
        rc, fc_out = run([args.filecheck, args.input,
                          "-check-prefixes=" + ",".join(messages),
                          "-implicit-check-not={{warning|error}}:"], stdin=out)
        if rc != 0:
            fail("CHECK-MESSAGES failed", fc_out)
    elif re.search(r"(warning|error):", out):
        fail("warnings found, but the test expects none", out)

    with open(tmp_cpp) as f:
        fixed = f.read()
    changed = fixed != cleaned
    if fixes:
        rc, fc_out = run([args.filecheck, args.input, "-check-prefixes=" + ",".join(fixes),
                          "-strict-whitespace"], stdin=fixed)
        if rc != 0:
            fail("CHECK-FIXES failed", fc_out)
    elif changed:
        fail("fix-its were applied but the test has no CHECK-FIXES line:\n" + fixed)

    # The fixed file must compile.
    if changed and not args.no_compile_fixed:
        rc, cc_out = run([args.clangxx, "-fsyntax-only", tmp_cpp] + compiler_args)
        if rc != 0:
            fail("the fixed file does not compile", cc_out)
        print("fixed file compiles: " + tmp_cpp)


if __name__ == "__main__":
    main()
