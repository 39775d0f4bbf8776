#!/usr/bin/env python3
"""Measures what the torch-* checks cost on top of clang-tidy's own parse.

  bench.py --llvm N --plugin TorchTidy.so [--quick] [--reps R] [--callgrind] ...

Run through scripts/bench.sh, which installs what is missing and builds the
plugin first. For every translation unit (the example project's sources and
generated training programs of 1, 10, 100 and 400 units) it runs, interleaved,
R times each:

  a  clang-tidy, plugin loaded, every torch-* check on     (-checks=-*,torch-*)
  b  clang-tidy, plugin loaded, one cheap built-in check   (the parse floor)
  c  clang -fsyntax-only with the same flags               (the compiler's parse)
  d  clang-tidy with bugprone-* (the reference users know; fewer repetitions)

under /usr/bin/time, keeping wall, user and system time and peak RSS, then one
run with --enable-check-profile for the per-check share. It prints a table
with the medians and the ratios a/b, checks them against the budget, writes
bench/results/llvm-N[-quick].{csv,json,png} and exits 1 when the budget is
broken. The primary time metric is CPU time (user + system): the machine may
be shared, and CPU time is what another process on the other core disturbs
least. With --callgrind it also counts instructions (a and b) on the small
generated files under valgrind, which is exact whatever the load.
"""
import argparse
import csv
import datetime
import glob
import json
import os
import platform
import re
import shutil
import statistics
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TORCH_INCLUDE = "/usr/include/torch/csrc/api/include"
SIZES_FULL = [1, 10, 100, 400]
# The parse floor: a built-in check whose own cost is negligible (one ifStmt
# matcher; its --enable-check-profile time is ~1% of misc-definitions-in-headers').
FLOOR_CHECK = "readability-delete-null-pointer"
BUDGET_TIME = 1.05
BUDGET_RSS = 1.05
BUDGET_LINEAR = 1.2

ORDERS = [["a", "b", "c", "d"], ["d", "c", "b", "a"], ["c", "b", "a", "d"], ["d", "a", "b", "c"]]

CONFIGS = {
    "a": "torch-* (plugin)",
    "b": "floor: " + FLOOR_CHECK,
    "c": "clang -fsyntax-only",
    "d": "bugprone-*",
}


def log(msg):
    sys.stderr.write(msg + "\n")
    sys.stderr.flush()


class TU:
    def __init__(self, name, path, flags, units=None):
        self.name, self.path, self.flags, self.units = name, path, flags, units
        with open(path) as f:
            self.lines = sum(1 for _ in f)


def make_tus(args, workdir):
    tus = []
    ex_dir = os.path.join(ROOT, "examples", "src")
    examples = sorted(glob.glob(os.path.join(ex_dir, "*.cpp")))
    if args.quick:
        # The largest example source stands for the project in a quick run.
        examples = sorted(examples, key=os.path.getsize)[-1:]
    for p in examples:
        tus.append(TU("examples/" + os.path.basename(p), p,
                      ["-std=c++17", "-isystem", TORCH_INCLUDE, "-I" + ex_dir]))
    for n in args.sizes:
        out = os.path.join(workdir, "gen-%d.cpp" % n)
        subprocess.run([sys.executable, os.path.join(ROOT, "bench", "gen_tu.py"), str(n), out],
                       check=True)
        tus.append(TU("generated/%d" % n, out, ["-std=c++17", "-isystem", TORCH_INCLUDE], units=n))
    if args.only:
        tus = [t for t in tus if re.search(args.only, t.name)]
    return tus


def command(cfg, tu, args, extra=()):
    tidy = [args.clang_tidy, "--config={}", "--quiet"] + list(extra)
    if cfg == "a":
        return tidy + ["--load=" + args.plugin, "-checks=-*,torch-*", tu.path, "--"] + tu.flags
    if cfg == "b":
        return tidy + ["--load=" + args.plugin, "-checks=-*," + FLOOR_CHECK, tu.path, "--"] + tu.flags
    if cfg == "c":
        return [args.clangxx, "-fsyntax-only"] + tu.flags + [tu.path]
    if cfg == "d":
        return tidy + ["-checks=-*,bugprone-*", tu.path, "--"] + tu.flags
    raise ValueError(cfg)


def timed(cmd):
    """Runs cmd under /usr/bin/time; returns dict(wall, user, sys, cpu, rss_mb, rc)."""
    with tempfile.NamedTemporaryFile("r", suffix=".time") as tf:
        proc = subprocess.run(["/usr/bin/time", "-f", "%e %U %S %M", "-o", tf.name] + cmd,
                              stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                              universal_newlines=True)
        fields = tf.read().split()[-4:]
    wall, user, sys_, rss = float(fields[0]), float(fields[1]), float(fields[2]), int(fields[3])
    return dict(wall=wall, user=user, sys=sys_, cpu=user + sys_, rss_mb=rss / 1024.0,
                rc=proc.returncode, stderr=proc.stderr)


def profile(tu, args, workdir):
    """Per-check CPU seconds from one --enable-check-profile run of config a."""
    prof_dir = os.path.join(workdir, "profile", re.sub(r"\W", "_", tu.name))
    shutil.rmtree(prof_dir, ignore_errors=True)
    os.makedirs(prof_dir)
    cmd = command("a", tu, args, ["--enable-check-profile", "--store-check-profile=" + prof_dir])
    subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    checks = {}
    for path in glob.glob(os.path.join(prof_dir, "**", "*.json"), recursive=True):
        data = json.load(open(path))
        for key, value in data.get("profile", {}).items():
            m = re.match(r"time\.clang-tidy\.(.+)\.(wall|user|sys)$", key)
            if m and m.group(2) in ("user", "sys"):
                checks[m.group(1)] = checks.get(m.group(1), 0.0) + float(value)
    return checks


def callgrind(cfg, tu, args, workdir):
    out = os.path.join(workdir, "callgrind.%s.%s.out" % (cfg, re.sub(r"\W", "_", tu.name)))
    cmd = ["valgrind", "--tool=callgrind", "--callgrind-out-file=" + out] + command(cfg, tu, args)
    subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    total = None
    with open(out) as f:
        for line in f:
            if line.startswith(("summary:", "totals:")):
                total = int(line.split()[1])
    return total


PARENT_MAP_QUERIES = [
    # What the checks do: anchor on user-code definitions, walk down.
    ("down", "functionDecl(isDefinition(), unless(isExpansionInSystemHeader()))"),
    # The same question asked upwards: the first hasAncestor builds the parent
    # map of the whole TU, LibTorch's headers included.
    ("hasAncestor", "cxxMemberCallExpr(unless(isExpansionInSystemHeader()), "
                    "hasAncestor(cxxForRangeStmt()))"),
]


def parent_map_cost(tu, args, reps):
    """clang-query runs of a downward and an upward matcher on \p tu."""
    query = os.path.join(os.path.dirname(args.clang_tidy), "clang-query")
    res = {}
    for rep in range(reps):
        for name, matcher in (PARENT_MAP_QUERIES if rep % 2 == 0 else PARENT_MAP_QUERIES[::-1]):
            r = timed([query, "-c", "set output diag", "-c", "match " + matcher, tu.path, "--"] + tu.flags)
            res.setdefault(name, []).append(r)
    out = dict(tu=tu.name, queries=dict(PARENT_MAP_QUERIES))
    for name, rs in res.items():
        out[name] = dict(cpu=median([r["cpu"] for r in rs]), rss_mb=median([r["rss_mb"] for r in rs]))
    return out


def median(xs):
    return statistics.median(xs) if xs else float("nan")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--llvm", default="19")
    ap.add_argument("--plugin", required=True)
    ap.add_argument("--clang-tidy")
    ap.add_argument("--clangxx")
    ap.add_argument("--quick", action="store_true",
                    help="fewer repetitions, the largest example source only")
    ap.add_argument("--reps", type=int, help="repetitions of a, b, c (default 5, quick 3)")
    ap.add_argument("--reps-bugprone", type=int, help="repetitions of d (default 2, quick 1)")
    ap.add_argument("--sizes", default=None, help="comma-separated generated sizes (default 1,10,100,400)")
    ap.add_argument("--only", default="", help="regex: only the translation units it matches")
    ap.add_argument("--no-bugprone", action="store_true", help="skip d")
    ap.add_argument("--callgrind", action="store_true",
                    help="also count instructions of a and b under valgrind on the generated 1 and 10")
    ap.add_argument("--no-parent-map", action="store_true",
                    help="skip the clang-query measurement of hasAncestor's cost")
    ap.add_argument("--replay", action="store_true",
                    help="report again from the last run's raw measurements (workdir/raw.json)")
    ap.add_argument("--results", default=os.path.join(ROOT, "bench", "results"))
    ap.add_argument("--workdir", default=None)
    args = ap.parse_args()
    bindir = "/usr/lib/llvm-%s/bin" % args.llvm
    args.clang_tidy = args.clang_tidy or os.path.join(bindir, "clang-tidy")
    args.clangxx = args.clangxx or os.path.join(bindir, "clang++")
    args.sizes = [int(s) for s in args.sizes.split(",")] if args.sizes else SIZES_FULL
    reps = args.reps or (3 if args.quick else 5)
    reps_d = 0 if args.no_bugprone else (args.reps_bugprone if args.reps_bugprone is not None
                                         else (1 if args.quick else 2))
    tag = "llvm-%s%s" % (args.llvm, "-quick" if args.quick else "")
    workdir = args.workdir or os.path.join(ROOT, "build", "bench", tag)
    os.makedirs(workdir, exist_ok=True)
    os.makedirs(args.results, exist_ok=True)

    tus = make_tus(args, workdir)
    if not tus:
        log("bench: no translation unit selected")
        return 2
    log("bench: LLVM %s, %d translation units, %d repetitions (bugprone-*: %d)%s" % (
        args.llvm, len(tus), reps, reps_d, ", quick" if args.quick else ""))
    load_before = os.getloadavg()

    listed = subprocess.run([args.clang_tidy, "--load=" + args.plugin, "--list-checks",
                             "-checks=-*,torch-*"], stdout=subprocess.PIPE,
                            universal_newlines=True).stdout
    torch_checks = sorted(set(re.findall(r"^\s+(torch-[\w-]+)\s*$", listed, re.M)))
    log("bench: checks on in a: %s" % ", ".join(torch_checks))

    order = ["a", "b", "c", "d"]
    raw_path = os.path.join(workdir, "raw.json")
    if args.replay:
        raw = json.load(open(raw_path))
        runs, profiles, cg, pmap = raw["runs"], raw["profiles"], raw["callgrind"], raw["parent_map"]
        load_before = raw["load_before"]
        load_after = raw["load_after"] or load_before
        # An interrupted run: report the repetitions it completed.
        reps = len({r["rep"] for r in runs if r["cfg"] == "b"})
        reps_d = len({r["rep"] for r in runs if r["cfg"] == "d"})
        tus = [t for t in tus if any(r["tu"] == t.name for r in runs if r["cfg"] == "a")
               and any(r["tu"] == t.name for r in runs if r["cfg"] == "b")]
    else:
        runs, profiles, cg, pmap, load_after = measure(tus, args, reps, reps_d, workdir, order,
                                                       load_before)
        save_raw(workdir, runs, profiles, cg, pmap, reps, reps_d, load_before, load_after)
    return report(tus, args, reps, reps_d, runs, profiles, cg, pmap, load_before, load_after,
                  torch_checks, tag, order)


def save_raw(workdir, runs, profiles, cg, pmap, reps, reps_d, load_before, load_after):
    with open(os.path.join(workdir, "raw.json"), "w") as f:
        json.dump(dict(runs=runs, profiles=profiles, callgrind=cg, parent_map=pmap, reps=reps,
                       reps_d=reps_d, load_before=load_before, load_after=load_after), f)


def measure(tus, args, reps, reps_d, workdir, order, load_before):
    # Warm-up, not recorded: the first run of all pays for reading clang, the
    # plugin and LibTorch's headers from disk.
    for cfg in ("c", "a"):
        timed(command(cfg, tus[0], args))
    runs = []
    for rep in range(max(reps, reps_d)):
        for tu in tus:
            # a and b run back to back (their ratio is taken per pair), each
            # first half of the time; c and d move around them.
            for cfg in ORDERS[rep % len(ORDERS)]:
                if (cfg == "d" and rep >= reps_d) or (cfg != "d" and rep >= reps):
                    continue
                r = timed(command(cfg, tu, args))
                if r["rc"] != 0 and cfg != "d":
                    # A benchmark of compile errors is worthless (bugprone-* may
                    # exit non-zero on its own warnings-as-errors, not ours).
                    log(r["stderr"][-3000:])
                    raise SystemExit("bench: %s: %s exited %d; stopping" % (tu.name, cfg, r["rc"]))
                r.update(tu=tu.name, cfg=cfg, rep=rep)
                del r["stderr"]
                runs.append(r)
                log("  rep %d %-22s %s  cpu %6.2fs  wall %6.2fs  rss %6.0f MB" % (
                    rep + 1, tu.name, cfg, r["cpu"], r["wall"], r["rss_mb"]))
                # Kept as it goes: an interrupted run can still be reported (--replay).
                save_raw(workdir, runs, {}, {}, None, reps, reps_d, load_before, None)

    profiles = {}
    for tu in tus:
        profiles[tu.name] = profile(tu, args, workdir)

    cg = {}
    if args.callgrind:
        for tu in tus:
            if tu.units in (1, 10):
                cg[tu.name] = {cfg: callgrind(cfg, tu, args, workdir) for cfg in ("a", "b")}
                log("  callgrind %-16s a %d  b %d" % (tu.name, cg[tu.name]["a"], cg[tu.name]["b"]))

    pmap = None
    if not args.no_parent_map:
        cands = [t for t in tus if t.units and t.units <= 100] or tus
        pmap = parent_map_cost(max(cands, key=lambda t: t.lines), args, 1 if args.quick else min(reps, 3))
        log("  parent map on %s: down %.0f MB %.2fs, hasAncestor %.0f MB %.2fs" % (
            pmap["tu"], pmap["down"]["rss_mb"], pmap["down"]["cpu"],
            pmap["hasAncestor"]["rss_mb"], pmap["hasAncestor"]["cpu"]))

    return runs, profiles, cg, pmap, os.getloadavg()


def report(tus, args, reps, reps_d, runs, profiles, cg, pmap, load_before, load_after,
           torch_checks, tag, order):
    # ---------------------------------------------------------------- summary
    summary = []
    for tu in tus:
        row = dict(tu=tu.name, lines=tu.lines, units=tu.units)
        for cfg in order:
            rs = [r for r in runs if r["tu"] == tu.name and r["cfg"] == cfg]
            if not rs:
                continue
            for metric in ("cpu", "wall", "rss_mb"):
                row["%s_%s" % (cfg, metric)] = median([r[metric] for r in rs])
            row["%s_cpu_min" % cfg] = min(r["cpu"] for r in rs)
            row["%s_cpu_max" % cfg] = max(r["cpu"] for r in rs)
        # The ratio of each back-to-back pair a, b; their median. Slow drifts
        # of the machine's load cancel within a pair.
        pairs = {}
        for r in runs:
            if r["tu"] == tu.name and r["cfg"] in ("a", "b"):
                pairs.setdefault(r["rep"], {})[r["cfg"]] = r
        paired = [p["a"]["cpu"] / p["b"]["cpu"] for p in pairs.values() if len(p) == 2]
        row["time_ratio"] = median(paired)
        row["time_ratio_pairs"] = paired
        row["time_ratio_of_medians"] = row["a_cpu"] / row["b_cpu"]
        row["wall_ratio"] = row["a_wall"] / row["b_wall"]
        row["rss_ratio"] = row["a_rss_mb"] / row["b_rss_mb"]
        row["added_cpu"] = row["a_cpu"] - row["b_cpu"]
        prof = profiles.get(tu.name, {})
        row["torch_profile_s"] = sum(v for k, v in prof.items() if k.startswith("torch-")) if prof else float("nan")
        row["profile"] = prof
        if "d_cpu" in row:
            row["bugprone_ratio"] = row["d_cpu"] / row["b_cpu"]
        if tu.name in cg:
            row["callgrind_a"] = cg[tu.name]["a"]
            row["callgrind_b"] = cg[tu.name]["b"]
            row["callgrind_ratio"] = cg[tu.name]["a"] / cg[tu.name]["b"]
        summary.append(row)

    # ---------------------------------------------------------------- verdicts
    verdicts = []
    worst_t = max(summary, key=lambda r: r["time_ratio"])
    worst_m = max(summary, key=lambda r: r["rss_ratio"])
    verdicts.append(("time a/b <= %.2f on every TU" % BUDGET_TIME, worst_t["time_ratio"] <= BUDGET_TIME,
                     "worst %.3f (%s)" % (worst_t["time_ratio"], worst_t["tu"])))
    verdicts.append(("peak RSS a/b <= %.2f on every TU" % BUDGET_RSS, worst_m["rss_ratio"] <= BUDGET_RSS,
                     "worst %.3f (%s)" % (worst_m["rss_ratio"], worst_m["tu"])))
    by_units = {r["units"]: r for r in summary if r["units"]}
    if 100 in by_units and 400 in by_units:
        # The checks' own time, from --enable-check-profile: a direct measure
        # of what they add, free of the parse's run-to-run noise.
        p100, p400 = by_units[100]["torch_profile_s"], by_units[400]["torch_profile_s"]
        lim = BUDGET_LINEAR * 4 * p100
        if p100 == p100 and p400 == p400:  # both profiled (not NaN)
            verdicts.append(("linear: checks' time on 400 <= %.1f x 4 x on 100 (profile)" % BUDGET_LINEAR,
                             p400 <= lim, "%.3fs vs limit %.3fs (100: %.3fs)" % (p400, lim, p100)))
        # The same on the measured difference a - b, when it rises above the noise.
        a100, a400 = by_units[100]["added_cpu"], by_units[400]["added_cpu"]
        noise = max(by_units[400]["b_cpu_max"] - by_units[400]["b_cpu_min"],
                    by_units[100]["b_cpu_max"] - by_units[100]["b_cpu_min"])
        if a400 <= noise:
            verdicts.append(("linear: added CPU (a-b) on 400 <= %.1f x 4 x on 100" % BUDGET_LINEAR, True,
                             "a-b on 400 = %+.2fs, within the runs' spread (%.2fs)" % (a400, noise)))
        else:
            lim = BUDGET_LINEAR * 4 * max(a100, 0.0)
            verdicts.append(("linear: added CPU (a-b) on 400 <= %.1f x 4 x on 100" % BUDGET_LINEAR,
                             a400 <= max(lim, noise),
                             "%+.2fs vs limit %.2fs (100: %+.2fs, spread %.2fs)" % (a400, lim, a100, noise)))
    for name, r in cg.items():
        ratio = r["a"] / r["b"]
        verdicts.append(("instructions a/b <= %.2f on %s (callgrind)" % (BUDGET_TIME, name),
                         ratio <= BUDGET_TIME, "%.4f" % ratio))

    # ---------------------------------------------------------------- table
    clang_ver = subprocess.run([args.clang_tidy, "--version"], stdout=subprocess.PIPE,
                               universal_newlines=True).stdout
    m = re.search(r"version (\S+)", clang_ver)
    llvm_full = m.group(1) if m else args.llvm
    lines = []
    lines.append("torch-tidy benchmark: LLVM %s, up to %d repetitions (bugprone-*: %d), medians of CPU "
                 "time (user+sys); a/b time is the median of the back-to-back pairs' ratios; "
                 "load average %.1f before, %.1f after" % (
                     llvm_full, reps, reps_d, load_before[0], load_after[0]))
    hdr = ("| TU | lines | a/b pairs | a torch-* s | b floor s | c clang s | d bugprone s | a/b time | "
           "a MB | b MB | a/b RSS | torch-* profile s | d/b time |")
    lines.append(hdr)
    lines.append("|" + "---|" * (hdr.count("|") - 1))
    for r in summary:
        lines.append("| %s | %d | %d | %.2f | %.2f | %.2f | %s | **%.3f** | %.0f | %.0f | **%.3f** | %.3f | %s |" % (
            r["tu"], r["lines"], len(r["time_ratio_pairs"]), r["a_cpu"], r["b_cpu"], r.get("c_cpu", float("nan")),
            "%.2f" % r["d_cpu"] if "d_cpu" in r else "-", r["time_ratio"],
            r["a_rss_mb"], r["b_rss_mb"], r["rss_ratio"], r["torch_profile_s"],
            "%.2f" % r["bugprone_ratio"] if "bugprone_ratio" in r else "-"))
    if cg:
        lines.append("")
        lines.append("| TU (callgrind) | a instructions | b instructions | a/b |")
        lines.append("|---|---|---|---|")
        for name, r in cg.items():
            lines.append("| %s | %d | %d | **%.4f** |" % (name, r["a"], r["b"], r["a"] / r["b"]))
    # Per-check share of the torch-* time, over all TUs.
    totals = {}
    for r in summary:
        for k, v in r["profile"].items():
            if k.startswith("torch-"):
                totals[k] = totals.get(k, 0.0) + v
    all_b = sum(r["b_cpu"] for r in summary)
    all_t = sum(totals.values()) or 1.0
    lines.append("")
    lines.append("| check (--enable-check-profile, all TUs) | CPU s | share of torch-* | % of floor b |")
    lines.append("|---|---|---|---|")
    for k, v in sorted(totals.items(), key=lambda kv: -kv[1]):
        lines.append("| %s | %.3f | %.1f%% | %.2f%% |" % (k, v, 100 * v / all_t, 100 * v / all_b))
    if pmap:
        lines.append("")
        lines.append("Parent map (clang-query on %s): walking down from user definitions %.0f MB, "
                     "%.2fs CPU; one hasAncestor matcher %.0f MB (%+.0f%%), %.2fs CPU" % (
                         pmap["tu"], pmap["down"]["rss_mb"], pmap["down"]["cpu"],
                         pmap["hasAncestor"]["rss_mb"],
                         100 * (pmap["hasAncestor"]["rss_mb"] / pmap["down"]["rss_mb"] - 1),
                         pmap["hasAncestor"]["cpu"]))
    lines.append("")
    for what, ok, detail in verdicts:
        lines.append("%s  %s: %s" % ("PASS" if ok else "FAIL", what, detail))
    report = "\n".join(lines)
    print(report)

    # ---------------------------------------------------------------- files
    base = os.path.join(args.results, tag)
    with open(base + ".csv", "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["tu", "lines", "config", "rep", "wall_s", "user_s", "sys_s", "cpu_s", "peak_rss_mb", "rc"])
        lines_of = {t.name: t.lines for t in tus}
        for r in runs:
            w.writerow([r["tu"], lines_of[r["tu"]], r["cfg"], r["rep"], r["wall"], r.get("user", ""), r.get("sys", ""),
                        round(r["cpu"], 3), round(r["rss_mb"], 1), r["rc"]])
    meta = dict(
        date=datetime.datetime.now().isoformat(timespec="seconds"), llvm=llvm_full,
        host=dict(cpus=os.cpu_count(), machine=platform.machine(),
                  load_before=load_before, load_after=load_after),
        reps=reps, reps_bugprone=reps_d, quick=args.quick, floor_check=FLOOR_CHECK,
        configs=CONFIGS, torch_checks=torch_checks,
        budget=dict(time_ratio=BUDGET_TIME, rss_ratio=BUDGET_RSS, linear=BUDGET_LINEAR),
        summary=summary, check_profile_total=totals, parent_map=pmap,
        verdicts=[dict(what=w_, ok=o, detail=d) for w_, o, d in verdicts])
    with open(base + ".json", "w") as f:
        json.dump(meta, f, indent=1, sort_keys=True)
    with open(base + ".md", "w") as f:
        f.write(report + "\n")
    plot(summary, base + ".png", llvm_full)
    log("bench: wrote %s.{csv,json,md,png}" % os.path.relpath(base, ROOT))
    return 0 if all(ok for _, ok, _ in verdicts) else 1


def plot(summary, path, llvm_full):
    gen = sorted([r for r in summary if r["units"]], key=lambda r: r["lines"])
    if len(gen) < 2:
        return
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        log("bench: matplotlib missing (Debian: python3-matplotlib); no plot")
        return
    xs = [r["lines"] / 1000.0 for r in gen]
    fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(12, 4.8))
    styles = [("a", "a: clang-tidy, torch-*", "o-", "tab:red"),
              ("b", "b: clang-tidy, floor check", "s--", "tab:blue"),
              ("c", "c: clang -fsyntax-only", "^:", "tab:gray"),
              ("d", "d: clang-tidy, bugprone-*", "d-.", "tab:green")]
    for cfg, label, style, color in styles:
        if all(("%s_cpu" % cfg) in r for r in gen):
            ax1.plot(xs, [r["%s_cpu" % cfg] for r in gen], style, color=color, label=label)
    for r, x in zip(gen, xs):
        ax1.annotate("%d" % r["units"], (x, r["a_cpu"]), textcoords="offset points", xytext=(4, 6),
                     fontsize=8)
    ax1.set_xlabel("generated file size (thousand lines; labels: training units)")
    ax1.set_ylabel("CPU time, median (s)")
    ax1.set_title("Time against file size (LLVM %s)" % llvm_full)
    ax1.set_ylim(bottom=0)
    ax1.grid(alpha=0.3)
    ax1.legend(fontsize=8)
    ax2.plot(xs, [r["torch_profile_s"] for r in gen], "o-", color="tab:red",
             label="torch-* checks (--enable-check-profile)")
    ax2.plot(xs, [r["added_cpu"] for r in gen], "x:", color="tab:purple",
             label="a - b (median CPU difference)")
    ax2.axhline(0, color="black", lw=0.5)
    ax2.set_xlabel("generated file size (thousand lines)")
    ax2.set_ylabel("seconds added by the checks")
    ax2.set_title("What the torch-* checks add")
    ax2.grid(alpha=0.3)
    ax2.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=110)


if __name__ == "__main__":
    sys.exit(main())
