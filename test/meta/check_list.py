#!/usr/bin/env python3
"""Fails when a check in checks/Checks.def is not complete.

Every TORCH_CHECK_ENTRY(Class, "torch-name", "summary") needs:
  checks/<Class>.h and .cpp, an #include in checks/AllChecks.h,
  docs/checks/<name>.md with the sections every page has,
  a row in README.md's table of checks,
  test/checks/<name>.cpp that runs against both the mocks and the real headers,
  a proof-of-harm pair harm/<name>/{buggy,fixed}.cpp with its row in
  docs/harm.md and its section on the check's page,
and the plugin must list exactly these checks (when --list-checks output is given).
"""
import os
import re
import sys

SECTIONS = ["## Why it breaks training", "## Example", "## Options", "## Fix-its", "## Suppressing",
            "## Limits"]


def main(root, listed_file=None):
    text = open(os.path.join(root, "checks", "Checks.def")).read()
    entries = re.findall(r'^TORCH_CHECK_ENTRY\(\s*(\w+)\s*,\s*"([^"]+)"', text, re.M)
    problems = []
    if not entries:
        problems.append("checks/Checks.def lists no check")
    all_checks = open(os.path.join(root, "checks", "AllChecks.h")).read()
    harm_path = os.path.join(root, "docs", "harm.md")
    harm_page = open(harm_path).read() if os.path.exists(harm_path) else ""
    readme = open(os.path.join(root, "README.md")).read()
    for cls, name in entries:
        if not name.startswith("torch-"):
            problems.append("%s: check names start with 'torch-'" % name)
        for ext in (".h", ".cpp"):
            if not os.path.exists(os.path.join(root, "checks", cls + ext)):
                problems.append("%s: no checks/%s%s" % (name, cls, ext))
        if '#include "%s.h"' % cls not in all_checks:
            problems.append("%s: checks/AllChecks.h does not include %s.h" % (name, cls))
        doc = os.path.join(root, "docs", "checks", name + ".md")
        if not os.path.exists(doc):
            problems.append("%s: no docs/checks/%s.md" % (name, name))
        else:
            body = open(doc).read()
            for s in SECTIONS:
                if s not in body:
                    problems.append("%s: docs page lacks a '%s' section" % (name, s))
            if "<!-- harm:begin -->" not in body:
                problems.append("%s: docs page lacks its proof of harm (scripts/harm.sh)" % name)
        for variant in ("buggy", "fixed"):
            if not os.path.exists(os.path.join(root, "harm", name, variant + ".cpp")):
                problems.append("%s: no harm/%s/%s.cpp" % (name, name, variant))
        if not re.search(r"^\|\s*\[%s\]" % re.escape(name), harm_page, re.M):
            problems.append("%s: no row in docs/harm.md (scripts/harm.sh)" % name)
        if not re.search(r"^\|\s*\[`%s`\]" % re.escape(name), readme, re.M):
            problems.append("%s: no row in README.md's table of checks" % name)
        test = os.path.join(root, "test", "checks", name + ".cpp")
        if not os.path.exists(test):
            problems.append("%s: no test/checks/%s.cpp" % (name, name))
        else:
            body = open(test).read()
            for flags in ("%mock_flags", "%real_flags"):
                if not re.search(r"^// RUN: .*%s" % flags, body, re.M):
                    problems.append("%s: test does not run with %s" % (name, flags))
            if "CHECK-MESSAGES:" not in body:
                problems.append("%s: test expects no warning at all" % name)
    if listed_file:
        listed = set(re.findall(r"^\s+(torch-[a-z0-9-]+)\s*$", open(listed_file).read(), re.M))
        expected = set(n for _, n in entries)
        if listed != expected:
            problems.append("the plugin lists %s, Checks.def %s" % (sorted(listed), sorted(expected)))
    for p in problems:
        print("check-list: " + p)
    print("check-list: %d checks, %d problems" % (len(entries), len(problems)))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:]))
