#!/usr/bin/env python3
"""Fails unless torch-tidy reports every buggy program of harm/ and no fixed one.

  check_pairs.py HARM_DIR CLANG_TIDY_AND_LOAD... -- COMPILE FLAGS...

For every harm/<check>/{buggy,fixed}.cpp: buggy.cpp must get at least one
warning of <check>; fixed.cpp must get no torch-* warning at all. The pair is
the proof of harm for that check (docs/harm.md), so a pair that the check does
not tell apart proves nothing.
"""
import concurrent.futures
import os
import re
import subprocess
import sys


def main():
    harm = sys.argv[1]
    sep = sys.argv.index("--")
    tidy, flags = sys.argv[2:sep], sys.argv[sep + 1:]
    jobs = []
    for check in sorted(os.listdir(harm)):
        d = os.path.join(harm, check)
        if os.path.isfile(os.path.join(d, "buggy.cpp")):
            for variant in ("buggy", "fixed"):
                jobs.append((check, variant, os.path.join(d, variant + ".cpp")))

    def run(job):
        check, variant, path = job
        cmd = tidy + ["-checks=-*,torch-*", "--quiet", path, "--"] + flags + ["-I" + harm]
        out = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True).stdout
        return job, re.findall(r"warning: .* \[(torch-[\w-]+)\]$", out, re.M), \
            re.findall(r"error: .*$", out, re.M)

    bad = 0
    with concurrent.futures.ThreadPoolExecutor(max_workers=os.cpu_count() or 1) as pool:
        for (check, variant, path), found, errors in pool.map(run, jobs):
            if errors:
                print("check-pairs: %s/%s: does not compile: %s" % (check, variant, errors[0]))
                bad += 1
            elif variant == "buggy" and check not in found:
                print("check-pairs: %s/buggy: not reported by %s" % (check, check))
                bad += 1
            elif variant == "fixed" and found:
                print("check-pairs: %s/fixed: reported by %s" % (check, ", ".join(sorted(set(found)))))
                bad += 1
    print("check-pairs: %d programs, %d wrong" % (len(jobs), bad))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
