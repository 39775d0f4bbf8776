#!/usr/bin/env python3
"""Validates a SARIF 2.1.0 log against the schema's required fields and the rules
GitHub code scanning applies, then prints it one finding a line for FileCheck.

  validate_sarif.py FILE          problems (exit 1), or 'sarif: valid' and the dump
  validate_sarif.py --self-test FILE
                                  also checks that broken copies of FILE are rejected

Written without third-party packages: the checks below follow the SARIF 2.1.0
schema (sarifLog, run, tool, toolComponent, reportingDescriptor, result, location,
physicalLocation, artifactLocation, region, fix, artifactChange, replacement).
"""
import copy
import json
import re
import sys

LEVELS = ("none", "note", "warning", "error")
URI = re.compile(r"^[^\s\\]+$")


class Checker:
    def __init__(self):
        self.problems = []

    def fail(self, where, what):
        self.problems.append("%s: %s" % (where, what))

    def obj(self, v, where):
        if not isinstance(v, dict):
            self.fail(where, "must be an object")
            return False
        return True

    def text(self, v, where, required=True):
        if v is None and not required:
            return
        if not isinstance(v, str) or not v:
            self.fail(where, "must be a non-empty string")

    def integer(self, v, where, minimum):
        if not isinstance(v, int) or isinstance(v, bool) or v < minimum:
            self.fail(where, "must be an integer >= %d" % minimum)
            return False
        return True

    def message(self, m, where, required=True):
        if m is None and not required:
            return
        if self.obj(m, where):
            self.text(m.get("text"), where + ".text")

    def uri(self, u, where):
        self.text(u, where)
        if isinstance(u, str) and u and not URI.match(u):
            self.fail(where, "is not a URI reference (spaces or backslashes): %r" % u)

    def artifact_location(self, a, where, base_ids):
        if not self.obj(a, where):
            return
        self.uri(a.get("uri"), where + ".uri")
        base = a.get("uriBaseId")
        if base is not None:
            if base not in base_ids:
                self.fail(where + ".uriBaseId", "%r is not in run.originalUriBaseIds" % base)
            if isinstance(a.get("uri"), str) and re.match(r"^[a-z][a-z0-9+.-]*:", a["uri"]):
                self.fail(where, "an absolute uri must not have a uriBaseId")

    def region(self, r, where, insertion_ok=False):
        if not self.obj(r, where):
            return
        if not self.integer(r.get("startLine"), where + ".startLine", 1):
            return
        sc = r.get("startColumn", 1)
        self.integer(sc, where + ".startColumn", 1)
        el = r.get("endLine", r["startLine"])
        if self.integer(el, where + ".endLine", r["startLine"]):
            ec = r.get("endColumn")
            if ec is not None and self.integer(ec, where + ".endColumn", 1) and el == r["startLine"]:
                if ec < sc or (ec == sc and not insertion_ok):
                    self.fail(where + ".endColumn", "ends before its start column")

    def physical(self, p, where, base_ids, insertion_ok=False):
        if not self.obj(p, where):
            return
        if "artifactLocation" not in p:
            self.fail(where, "needs an artifactLocation")
            return
        self.artifact_location(p["artifactLocation"], where + ".artifactLocation", base_ids)
        if "region" not in p:
            self.fail(where, "needs a region (startLine)")
        else:
            self.region(p["region"], where + ".region", insertion_ok)

    def location(self, loc, where, base_ids, ids=None):
        if not self.obj(loc, where):
            return
        if "id" in loc and self.integer(loc["id"], where + ".id", -1) and ids is not None:
            if loc["id"] in ids:
                self.fail(where + ".id", "duplicate location id %d" % loc["id"])
            ids.add(loc["id"])
        self.message(loc.get("message"), where + ".message", required=False)
        if "physicalLocation" not in loc:
            self.fail(where, "needs a physicalLocation")
        else:
            self.physical(loc["physicalLocation"], where + ".physicalLocation", base_ids)

    def fix(self, f, where, base_ids):
        if not self.obj(f, where):
            return
        self.message(f.get("description"), where + ".description", required=False)
        changes = f.get("artifactChanges")
        if not isinstance(changes, list) or not changes:
            self.fail(where + ".artifactChanges", "must be a non-empty array")
            return
        for i, c in enumerate(changes):
            w = "%s.artifactChanges[%d]" % (where, i)
            if not self.obj(c, w):
                continue
            if "artifactLocation" not in c:
                self.fail(w, "needs an artifactLocation")
            else:
                self.artifact_location(c["artifactLocation"], w + ".artifactLocation", base_ids)
            reps = c.get("replacements")
            if not isinstance(reps, list) or not reps:
                self.fail(w + ".replacements", "must be a non-empty array")
                continue
            for j, r in enumerate(reps):
                wr = "%s.replacements[%d]" % (w, j)
                if not self.obj(r, wr):
                    continue
                if "deletedRegion" not in r:
                    self.fail(wr, "needs a deletedRegion")
                else:
                    self.region(r["deletedRegion"], wr + ".deletedRegion", insertion_ok=True)
                if "insertedContent" in r and self.obj(r["insertedContent"], wr + ".insertedContent"):
                    if not isinstance(r["insertedContent"].get("text"), str):
                        self.fail(wr + ".insertedContent.text", "must be a string")

    def log(self, log):
        if not self.obj(log, "sarifLog"):
            return
        if log.get("version") != "2.1.0":
            self.fail("version", "must be \"2.1.0\", not %r" % log.get("version"))
        schema = log.get("$schema")
        self.uri(schema, "$schema")
        if isinstance(schema, str) and not ("sarif" in schema and "2.1.0" in schema):
            self.fail("$schema", "does not name the SARIF 2.1.0 schema: %r" % schema)
        runs = log.get("runs")
        if not isinstance(runs, list) or not runs:
            self.fail("runs", "must be a non-empty array")
            return
        for i, run in enumerate(runs):
            self.run(run, "runs[%d]" % i)

    def run(self, run, where):
        if not self.obj(run, where):
            return
        tool = run.get("tool")
        if not self.obj(tool, where + ".tool"):
            return
        driver = tool.get("driver")
        if not self.obj(driver, where + ".tool.driver"):
            return
        self.text(driver.get("name"), where + ".tool.driver.name")
        rules = driver.get("rules", [])
        if not isinstance(rules, list):
            self.fail(where + ".tool.driver.rules", "must be an array")
            rules = []
        seen = set()
        for i, r in enumerate(rules):
            w = "%s.tool.driver.rules[%d]" % (where, i)
            if not self.obj(r, w):
                continue
            self.text(r.get("id"), w + ".id")
            if r.get("id") in seen:
                self.fail(w + ".id", "duplicate rule id %r" % r.get("id"))
            seen.add(r.get("id"))
            for key in ("shortDescription", "fullDescription", "help"):
                self.message(r.get(key), "%s.%s" % (w, key), required=False)
            if "helpUri" in r:
                self.uri(r["helpUri"], w + ".helpUri")
                # SARIF 2.1.0 3.49.12: helpUri is an absolute URI.
                if not re.match(r"^[A-Za-z][A-Za-z0-9+.-]*:", str(r["helpUri"])):
                    self.fail(w + ".helpUri", "not an absolute URI: %r" % r["helpUri"])
            level = (r.get("defaultConfiguration") or {}).get("level", "warning")
            if level not in LEVELS:
                self.fail(w + ".defaultConfiguration.level", "not one of %s" % (LEVELS,))
        if run.get("columnKind", "unicodeCodePoints") not in ("utf16CodeUnits", "unicodeCodePoints"):
            self.fail(where + ".columnKind", "not utf16CodeUnits or unicodeCodePoints")
        base_ids = run.get("originalUriBaseIds", {})
        if self.obj(base_ids, where + ".originalUriBaseIds"):
            for k, v in base_ids.items():
                w = "%s.originalUriBaseIds[%s]" % (where, k)
                if self.obj(v, w):
                    self.uri(v.get("uri"), w + ".uri")
                    if isinstance(v.get("uri"), str) and not v["uri"].endswith("/"):
                        self.fail(w + ".uri", "must end with a slash")
        else:
            base_ids = {}
        for i, inv in enumerate(run.get("invocations", [])):
            if self.obj(inv, "%s.invocations[%d]" % (where, i)) and \
                    not isinstance(inv.get("executionSuccessful"), bool):
                self.fail("%s.invocations[%d].executionSuccessful" % (where, i), "must be a boolean")
        results = run.get("results")
        if not isinstance(results, list):
            self.fail(where + ".results", "must be an array")
            return
        for i, res in enumerate(results):
            self.result(res, "%s.results[%d]" % (where, i), rules, base_ids)

    def result(self, res, where, rules, base_ids):
        if not self.obj(res, where):
            return
        self.text(res.get("ruleId"), where + ".ruleId")
        if "ruleIndex" in res and self.integer(res["ruleIndex"], where + ".ruleIndex", 0):
            if res["ruleIndex"] >= len(rules):
                self.fail(where + ".ruleIndex", "%d is past the %d rules" % (res["ruleIndex"], len(rules)))
            elif rules[res["ruleIndex"]].get("id") != res.get("ruleId"):
                self.fail(where + ".ruleIndex", "points at rule %r, but ruleId is %r" % (
                    rules[res["ruleIndex"]].get("id"), res.get("ruleId")))
        if "level" in res and res["level"] not in LEVELS:
            self.fail(where + ".level", "not one of %s" % (LEVELS,))
        self.message(res.get("message"), where + ".message")
        locs = res.get("locations")
        if not isinstance(locs, list) or not locs:
            self.fail(where + ".locations", "must be a non-empty array")
        else:
            for i, loc in enumerate(locs):
                self.location(loc, "%s.locations[%d]" % (where, i), base_ids)
        ids = set()
        for i, loc in enumerate(res.get("relatedLocations", [])):
            self.location(loc, "%s.relatedLocations[%d]" % (where, i), base_ids, ids)
        for i, f in enumerate(res.get("fixes", [])):
            self.fix(f, "%s.fixes[%d]" % (where, i), base_ids)


def validate(log):
    c = Checker()
    c.log(log)
    return c.problems


def where(p):
    a = p["artifactLocation"]["uri"]
    r = p["region"]
    return "%s:%d:%d" % (a, r["startLine"], r.get("startColumn", 1))


def dump(log):
    for run in log["runs"]:
        d = run["tool"]["driver"]
        print("tool %s %s" % (d["name"], d.get("version", "")))
        for r in d.get("rules", []):
            print("rule %s name=%s helpUri=%s" % (r["id"], r.get("name", "-"), r.get("helpUri", "-")))
            print("  short: %s" % r.get("shortDescription", {}).get("text", "-"))
            print("  full: %s" % r.get("fullDescription", {}).get("text", "-"))
            help_ = r.get("help", {})
            print("  help: text=%d markdown=%d chars, first line: %s" % (
                len(help_.get("text", "")), len(help_.get("markdown", "")),
                (help_.get("markdown") or help_.get("text") or "-").splitlines()[0]))
        for res in run["results"]:
            print("result %s %s %s %s" % (res["ruleId"], res.get("level", "warning"),
                                          where(res["locations"][0]["physicalLocation"]),
                                          res["message"]["text"]))
            for loc in res.get("relatedLocations", []):
                print("  related %s %s" % (where(loc["physicalLocation"]), loc.get("message", {}).get("text", "")))
            for f in res.get("fixes", []):
                print("  fix %s" % f.get("description", {}).get("text", ""))
                for c in f["artifactChanges"]:
                    for r in c["replacements"]:
                        g = r["deletedRegion"]
                        print("    change %s %d:%d-%d:%d %s" % (
                            c["artifactLocation"]["uri"], g["startLine"], g.get("startColumn", 1),
                            g.get("endLine", g["startLine"]), g.get("endColumn", 0),
                            json.dumps(r.get("insertedContent", {}).get("text", ""))))
        bases = run.get("originalUriBaseIds", {})
        for k in sorted(bases):
            print("base %s %s" % (k, bases[k].get("uri")))


def self_test(log):
    """Broken copies of a valid log with at least one result must be rejected."""
    def first(l):
        return l["runs"][0]["results"][0]
    breakers = {
        "no version": lambda l: l.pop("version"),
        "wrong version": lambda l: l.__setitem__("version", "2.0.0"),
        "no $schema": lambda l: l.pop("$schema"),
        "no driver name": lambda l: l["runs"][0]["tool"]["driver"].pop("name"),
        "rule without id": lambda l: l["runs"][0]["tool"]["driver"]["rules"][0].pop("id"),
        "relative helpUri": lambda l: l["runs"][0]["tool"]["driver"]["rules"][0].__setitem__(
            "helpUri", "docs/checks/x.md"),
        "no ruleId": lambda l: first(l).pop("ruleId"),
        "ruleIndex of another rule": lambda l: first(l).__setitem__("ruleIndex", 99),
        "no message text": lambda l: first(l)["message"].pop("text"),
        "no locations": lambda l: first(l).pop("locations"),
        "no uri": lambda l: first(l)["locations"][0]["physicalLocation"]["artifactLocation"].pop("uri"),
        "startLine 0": lambda l: first(l)["locations"][0]["physicalLocation"]["region"].__setitem__("startLine", 0),
        "no region": lambda l: first(l)["locations"][0]["physicalLocation"].pop("region"),
        "undeclared uriBaseId": lambda l: l["runs"][0].pop("originalUriBaseIds"),
    }
    bad = 0
    for name, breaker in breakers.items():
        broken = copy.deepcopy(log)
        breaker(broken)
        if not validate(broken):
            print("self-test: a log with %s was accepted" % name)
            bad += 1
    print("self-test: %d of %d broken logs rejected" % (len(breakers) - bad, len(breakers)))
    return bad == 0


def main():
    args = sys.argv[1:]
    st = "--self-test" in args
    args = [a for a in args if a != "--self-test"]
    try:
        log = json.load(open(args[0]))
    except (OSError, ValueError) as e:
        print("sarif: cannot read %s: %s" % (args[0], e))
        return 1
    problems = validate(log)
    for p in problems:
        print("sarif: " + p)
    if problems:
        return 1
    print("sarif: valid")
    if st and not self_test(log):
        return 1
    dump(log)
    return 0


if __name__ == "__main__":
    sys.exit(main())
