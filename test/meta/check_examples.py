#!/usr/bin/env python3
"""The example project shows every check, and torch-tidy reports exactly its marked bugs.

Each deliberate bug in examples/ is marked on the line above it with
`// BUG(torch-<check>): <why>`. This runs torch-tidy over examples/src and fails
unless every marked line gets a warning of that check, no other line gets one,
and every check of checks/Checks.def is shown at least once.

  check_examples.py ROOT -- RUN-TORCH-TIDY-COMMAND...
"""
import os
import re
import subprocess
import sys

MARK = re.compile(r"//\s*BUG\((torch-[a-z0-9-]+)\):")
WARN = re.compile(r"^(?P<file>[^:\n]+):(?P<line>\d+):\d+: warning: .* \[(?P<check>torch-[a-z0-9-]+)\]$")


def expected_findings(src):
    want = set()
    for dirpath, _, files in os.walk(src):
        for f in files:
            path = os.path.join(dirpath, f)
            lines = open(path, errors="replace").read().splitlines()
            for i, line in enumerate(lines):
                m = MARK.search(line)
                if m:
                    want.add((os.path.realpath(path), i + 2, m.group(1)))
    return want


def main():
    cut = sys.argv.index("--")
    root, cmd = sys.argv[1], sys.argv[cut + 1:]
    src = os.path.join(root, "examples", "src")
    checks = re.findall(r'^TORCH_CHECK_ENTRY\(\s*\w+\s*,\s*"([^"]+)"',
                        open(os.path.join(root, "checks", "Checks.def")).read(), re.M)
    # Markers of checks not (yet) registered are documentation only.
    want = set(w for w in expected_findings(src) if w[2] in checks)
    proc = subprocess.run(cmd + ["--warn-only", src], stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, universal_newlines=True)
    sys.stdout.write(proc.stdout)
    sys.stderr.write(proc.stderr)
    if proc.returncode != 0:
        print("examples: torch-tidy failed with exit code %d" % proc.returncode)
        return 1
    got = set()
    for line in proc.stdout.splitlines():
        m = WARN.match(line)
        if m:
            got.add((os.path.realpath(m["file"]), int(m["line"]), m["check"]))
    problems = []
    for f, l, c in sorted(want - got):
        problems.append("missed: %s:%d %s" % (os.path.relpath(f, root), l, c))
    for f, l, c in sorted(got - want):
        problems.append("unexpected: %s:%d %s" % (os.path.relpath(f, root), l, c))
    shown = set(c for _, _, c in want)
    for c in checks:
        if c not in shown:
            problems.append("no BUG(%s) example in examples/" % c)
    for p in problems:
        print("examples: " + p)
    print("examples: %d marked bugs, %d reported, %d problems" % (len(want), len(got), len(problems)))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
