#!/usr/bin/env python3
"""Builds and runs every buggy/fixed pair of harm/ and writes docs/harm.md.

  run_harm.py [--smoke] [--build DIR] [--docs DIR] [--only CHECK]...

Every folder harm/<check>/ holds buggy.cpp and fixed.cpp (see harm/common.h).
All of them are compiled into one executable (LibTorch's headers are parsed
once), each is run with a fixed seed on one thread, and for each pair:
  - its loss curves go to BUILD/results/<check>-{buggy,fixed}.csv;
  - a PNG with both curves goes to DOCS/harm/<check>.png (gnuplot; skipped with
    a line when gnuplot is missing);
  - a row of DOCS/harm.md gives the final metric of both runs and their ratio,
    or the error a run died with and at which step, and the check's page
    DOCS/checks/<check>.md shows the same between its harm markers.
--smoke runs two pairs with fewer steps, writes nothing into docs/, and checks
only the direction: the buggy run ends worse than the fixed one (or dies). It
prints `N passed, N failed` and exits 1 when one failed.
"""
import argparse
import csv
import os
import shutil
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
HARM = os.path.join(ROOT, "harm")
LIBTORCH_INCLUDE = "/usr/include/torch/csrc/api/include"
SMOKE = {"torch-missing-zero-grad": 60, "torch-bce-on-logits": 20}


def pairs(only):
    found = []
    for name in sorted(os.listdir(HARM)):
        d = os.path.join(HARM, name)
        if os.path.isfile(os.path.join(d, "buggy.cpp")) and os.path.isfile(os.path.join(d, "fixed.cpp")):
            if not only or name in only:
                found.append(name)
    return found


def unit_text(checks, harm=HARM):
    """One translation unit with every program, each in a namespace of its own;
    returns its text and the program files it includes."""
    lines = ['#include "common.h"', ""]
    sources = [os.path.join(harm, "common.h")]
    for i, check in enumerate(checks):
        for variant in ("buggy", "fixed"):
            path = os.path.join(harm, check, variant + ".cpp")
            sources.append(path)
            lines += ["namespace harm_program_%d_%s {" % (i, variant), '#include "%s"' % path, "}", ""]
    lines += ["int main(int argc, char **argv) { return harm::dispatch(argc, argv); }", ""]
    return "\n".join(lines), sources


def build(build_dir, checks):
    """Compiles the one translation unit of unit_text() into an executable."""
    os.makedirs(build_dir, exist_ok=True)
    text, sources = unit_text(checks)
    unit = os.path.join(build_dir, "all.cpp")
    if not os.path.exists(unit) or open(unit).read() != text:
        with open(unit, "w") as f:
            f.write(text)
    exe = os.path.join(build_dir, "harm-programs")
    newest = max(os.path.getmtime(p) for p in sources + [unit])
    if os.path.exists(exe) and os.path.getmtime(exe) >= newest:
        return exe
    cmd = ["g++", "-std=c++17", "-O1", "-w", "-I" + HARM, "-I" + LIBTORCH_INCLUDE, unit, "-o", exe,
           "-ltorch", "-ltorch_cpu", "-lc10"]
    print("harm: compiling %d programs" % (2 * len(checks)), file=sys.stderr)
    subprocess.run(cmd, check=True)
    return exe


def run(exe, name, curve, steps):
    cmd = [exe, name, curve] + ([str(steps)] if steps else [])
    out = subprocess.run(cmd, stdout=subprocess.PIPE, text=True, check=True).stdout.strip().splitlines()
    last = out[-1] if out else "error,0,no result"
    kind, rest = last.split(",", 1)
    if kind == "final":
        metric, value = rest.rsplit(",", 1)
        return {"ok": True, "metric": metric, "value": float(value)}
    step, message = rest.split(",", 1)
    return {"ok": False, "step": int(step), "message": message}


def lower_is_better(metric):
    return "accuracy" not in metric


def worse(buggy, fixed):
    """Whether the buggy run ended worse than the fixed one."""
    if not buggy["ok"]:
        return fixed["ok"]
    if not fixed["ok"]:
        return False
    if lower_is_better(buggy["metric"]):
        return buggy["value"] > fixed["value"]
    return buggy["value"] < fixed["value"]


def describe(r):
    if r["ok"]:
        return "%s %.4g" % (r["metric"], r["value"])
    return "died at step %d: `%s`" % (r["step"], r["message"].replace("|", "\\|"))


def curve_column(path):
    """What a curve records: `loss`, or what a memory pair writes."""
    with open(path) as fh:
        return fh.readline().strip().split(",", 1)[-1]


LABELS = {}


def curve_label(check):
    return LABELS.get(check, "training loss")


def plot(check, curves, png):
    gp = shutil.which("gnuplot")
    if not gp:
        return False
    series = [(label, path) for label, path in curves if sum(1 for _ in open(path)) > 2]
    if not series:
        return False
    # The curve's column: the training loss, or what a memory pair records.
    column = curve_column(series[0][1])
    ylabel = "training loss" if column == "loss" else column
    LABELS[check] = ylabel
    script = ['set terminal pngcairo size 720,420 font "sans,10"', 'set output "%s"' % png,
              'set datafile separator ","', 'set key top right', 'set xlabel "step"',
              'set ylabel "%s"' % ylabel, 'set title "%s"' % check]
    if column == "loss":
        script.append('set logscale y')
    parts = ['"%s" using 1:2 skip 1 with lines lw 2 title "%s"' % (path, label) for label, path in series]
    script.append("plot " + ", ".join(parts))
    subprocess.run([gp], input="\n".join(script), text=True, check=True)
    return True


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--smoke", action="store_true")
    ap.add_argument("--build", default=os.path.join(ROOT, "build", "harm"))
    ap.add_argument("--docs", default=os.path.join(ROOT, "docs"))
    ap.add_argument("--only", action="append", default=[])
    args = ap.parse_args()
    checks = pairs(list(SMOKE) if args.smoke else args.only)
    if not checks:
        sys.exit("harm: no pair found")
    exe = build(args.build, checks)
    results_dir = os.path.join(args.build, "results")
    os.makedirs(results_dir, exist_ok=True)
    rows, passed, failed = [], 0, 0
    for check in checks:
        steps = SMOKE[check] if args.smoke else 0
        r, curves = {}, []
        for variant in ("buggy", "fixed"):
            curve = os.path.join(results_dir, "%s-%s.csv" % (check, variant))
            r[variant] = run(exe, "%s/%s" % (check, variant), curve, steps)
            curves.append((variant, curve))
            print("harm: %s %s: %s" % (check, variant, describe(r[variant])))
        ok = worse(r["buggy"], r["fixed"])
        if args.smoke:
            print("harm: %s: %s" % (check, "buggy worse than fixed" if ok else "BUGGY NOT WORSE"))
            passed, failed = passed + ok, failed + (not ok)
            continue
        png = None
        os.makedirs(os.path.join(args.docs, "harm"), exist_ok=True)
        target = os.path.join(args.docs, "harm", check + ".png")
        if plot(check, curves, target):
            png = "harm/%s.png" % check
        rows.append((check, r["buggy"], r["fixed"], png))
    if args.smoke:
        print("%d passed, %d failed" % (passed, failed))
        return 1 if failed else 0
    write_page(args.docs, rows)
    return 0


def ratio(buggy, fixed):
    if not buggy["ok"] or not fixed["ok"]:
        return "-"
    if fixed["value"] == 0:
        return "-"
    return "%.2f" % (buggy["value"] / fixed["value"])


def what(check):
    """The bug, as the buggy program's opening comment says it."""
    lines = []
    for line in open(os.path.join(HARM, check, "buggy.cpp")):
        if not line.startswith("//"):
            break
        lines.append(line[2:].strip())
    text = " ".join(lines)
    prefix = check + ", buggy: "
    text = text[len(prefix):] if text.startswith(prefix) else text
    return text[:1].upper() + text[1:]


def write_page(docs, rows):
    out = ["# Proof of harm", "",
           "For each check, two small training programs in `harm/<check>/` that differ only in the",
           "lines the check reports: `buggy.cpp` has the bug, `fixed.cpp` its fix. Both train on CPU with",
           "LibTorch (Debian's `libtorch-dev` 1.13.1), seed 0, one thread, on a synthetic task chosen so",
           "that the damage shows; the metric is measured on held-out data. Every figure below is what",
           "`scripts/harm.sh` printed; run it again to reproduce the page and the plots.",
           "`test/harm/pairs.test` checks that torch-tidy reports each buggy program and stays silent",
           "on each fixed one. The plots show each program's own training loss; where the bug changes",
           "the loss itself (a loss given the wrong activation), compare the held-out metric, not the",
           "curves. A run that died has no curve. Where the harm is memory, not learning, the metric",
           "and the plot are the process's resident memory instead.", "",
           "| check | buggy | fixed | buggy / fixed |", "|---|---|---|---|"]
    for check, b, f, png in rows:
        out.append("| [%s](checks/%s.md) | %s | %s | %s |" % (check, check, describe(b), describe(f), ratio(b, f)))
    out.append("")
    for check, b, f, png in rows:
        out += ["## %s" % check, ""]
        out += [what(check), ""]
        out.append("Buggy: %s. Fixed: %s." % (describe(b), describe(f)))
        if png:
            out += ["", "![%s of the buggy and the fixed program](%s)" % (curve_label(check), png)]
        out.append("")
    with open(os.path.join(docs, "harm.md"), "w") as fh:
        fh.write("\n".join(out))
    for check, b, f, png in rows:
        update_check_page(docs, check, b, f, png)


BEGIN, END = "<!-- harm:begin -->", "<!-- harm:end -->"


def update_check_page(docs, check, b, f, png):
    """The check's page shows its row and plot between the harm markers, as a
    `## Proof of harm` section before `## Options` when it has none yet."""
    page = os.path.join(docs, "checks", check + ".md")
    if not os.path.exists(page):
        return
    text = open(page).read()
    block = [BEGIN, "## Proof of harm", "",
             "`harm/%s/`: the same training program with the bug and with its fix (seed 0, CPU;" % check,
             "[all pairs](../harm.md)). Buggy: %s. Fixed: %s." % (describe(b), describe(f))]
    if png:
        block += ["", "![%s of the buggy and the fixed program](../%s)" % (curve_label(check), png)]
    block += [END]
    block = "\n".join(block)
    if BEGIN in text and END in text:
        i, j = text.index(BEGIN), text.index(END) + len(END)
        text = text[:i] + block + text[j:]
    elif "\n## Options" in text:
        i = text.index("\n## Options") + 1
        text = text[:i] + block + "\n\n" + text[i:]
    else:
        text = text.rstrip("\n") + "\n\n" + block + "\n"
    with open(page, "w") as fh:
        fh.write(text)


if __name__ == "__main__":
    sys.exit(main())
