#!/usr/bin/env python3
"""Fails unless torch-tidy reports every buggy program of harm/ and no fixed one.

  check_pairs.py HARM_DIR WORK_DIR CLANG_TIDY_AND_LOAD... -- COMPILE FLAGS...

For every harm/<check>/{buggy,fixed}.cpp: buggy.cpp must get at least one
warning of <check>; fixed.cpp must get no torch-* warning at all. The pair is
the proof of harm for that check (docs/harm.md), so a pair that the check does
not tell apart proves nothing.

torch-tidy runs once, on the translation unit that harm/run_harm.py compiles
and runs (every program in a namespace of its own, LibTorch's headers parsed
once), and each warning is given to the program file it points into: the
programs are checked exactly as they are built for docs/harm.md.
"""
import os
import re
import subprocess
import sys


def main():
    harm, work = sys.argv[1], sys.argv[2]
    sep = sys.argv.index("--")
    tidy, flags = sys.argv[3:sep], sys.argv[sep + 1:]
    sys.path.insert(0, harm)
    import run_harm

    checks = [c for c in sorted(os.listdir(harm))
              if os.path.isfile(os.path.join(harm, c, "buggy.cpp"))]
    text, _ = run_harm.unit_text(checks, harm)
    os.makedirs(work, exist_ok=True)
    unit = os.path.join(work, "all.cpp")
    with open(unit, "w") as f:
        f.write(text)

    programs = {}
    for check in checks:
        for variant in ("buggy", "fixed"):
            path = os.path.realpath(os.path.join(harm, check, variant + ".cpp"))
            programs[path] = (check, variant)
    found = {key: [] for key in programs.values()}
    filt = "^" + re.escape(os.path.realpath(harm)) + "/"
    cmd = tidy + ["-checks=-*,torch-*", "--quiet", "--header-filter=" + filt, unit, "--"] + \
        flags + ["-I" + harm]
    out = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True).stdout
    errors = re.findall(r"^(.*?):\d+:\d+: error: (.*)$", out, re.M)
    for path, check in re.findall(r"^(.*?):\d+:\d+: warning: .* \[(torch-[\w-]+)\]$", out, re.M):
        key = programs.get(os.path.realpath(path))
        if key is None:
            print("check-pairs: warning outside the programs: %s [%s]" % (path, check))
            errors.append((path, check))
        else:
            found[key].append(check)

    bad = 0
    if errors:
        print("check-pairs: the programs do not compile: %s: %s" % errors[0])
        bad += 1
    for (check, variant), checks_found in sorted(found.items()):
        if variant == "buggy" and check not in checks_found:
            print("check-pairs: %s/buggy: not reported by %s" % (check, check))
            bad += 1
        elif variant == "fixed" and checks_found:
            print("check-pairs: %s/fixed: reported by %s" % (check, ", ".join(sorted(set(checks_found)))))
            bad += 1
    print("check-pairs: %d programs, %d wrong" % (len(programs), bad))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
