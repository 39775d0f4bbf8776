"""Prints a whole-program summary file as one line per function, sorted by
name: `name | returns KIND OP [parameter I] [at FILE:LINE] | events KIND(OBJECT)...
| inplace OP(parameter I)@FILE:LINE... | devices TYPE@FILE:LINE...
| returns device ORIGIN [I | TYPE [picked by QUERY]@FILE:LINE] | mode depends MEMBER CLASS HARM|independent
| graph loss|forward@FILE:LINE | paths [[parameter I] MODULE@FILE:LINE [cut KIND NAME@FILE:LINE]]...
[from parameter I [cut ...]]... [unknown] | shape parameter I [LAYER(IN->OUT) NAME@FILE:LINE]...
| shape [D, ...] | shape last D | channels D [from NAME@FILE:LINE] | grad off|on|unknown at return
| syncs parameter I from parameter J@FILE:LINE... | layers FIELD LAYER(IN->OUT)@FILE:LINE...`,
for FileCheck; with --calls, then `calls: N` and a line per called function,
sorted by name: `call NAME recording|quiet at FILE:LINE`; with --reads, then
`defines: N` and the sorted USRs the summary pass asked of the summary it read,
one `reads function USR` or `reads callers USR (none: recording|quiet)` line
each. Exits 1 when the file
is not a summary of format version 1."""
import json
import os
import sys

calls = "--calls" in sys.argv[2:]
reads = "--reads" in sys.argv[2:]
d = json.load(open(sys.argv[1]))
if d.get("format") != "torch-tidy-summaries" or d.get("version") != 1:
    sys.exit("not a version 1 summary")
print("functions: %d" % len(d["functions"]))
rows = []
for usr, f in d["functions"].items():
    parts = [f["name"], "defined %s:%d" % (os.path.basename(f["file"]), f["line"])]
    r = f.get("returns")
    if r:
        s = "returns %s %s" % (r["kind"], r["op"])
        if "parameter" in r:
            s += " parameter %d" % r["parameter"]
        if "site" in r:
            s += " at %s:%d (%s)" % (os.path.basename(r["site"]["file"]), r["site"]["line"],
                                     r["site"].get("what", ""))
        parts.append(s)
    ev = []
    for e in f.get("events", []):
        o = e.get("object")
        obj = "-" if not o else ("parameter %d" % o["parameter"] if "parameter" in o
                                 else "field " + o["field"])
        ev.append("%s(%s)@%d" % (e["kind"], obj, e["site"]["line"]))
    if ev:
        parts.append("events " + " ".join(ev))
    inplace = ["%s(parameter %d)@%s:%d" % (i["op"], i["parameter"],
                                          os.path.basename(i["site"]["file"]), i["site"]["line"])
               for i in f.get("inplace", [])]
    if inplace:
        parts.append("inplace " + " ".join(inplace))
    devices = ["%s%s@%s:%d" % (d["type"], "" if d.get("accelerator") else "(cpu)",
                               os.path.basename(d["site"]["file"]), d["site"]["line"])
               for d in f.get("devices", [])]
    if devices:
        parts.append("devices " + " ".join(devices))
    r = f.get("device_return")
    if r:
        s = "returns device " + r["origin"]
        if r["origin"] == "parameter":
            s += " %d" % r["parameter"]
        if r["origin"] == "literal":
            s += " %s%s@%s:%d" % (r["type"], " picked by " + r["query"] if "query" in r else "",
                                  os.path.basename(r["site"]["file"]), r["site"]["line"])
        parts.append(s)
    m = f.get("mode")
    if m:
        parts.append("mode " + ("depends %s %s %s" % (m.get("member", "-"), m.get("class", "-"),
                                                     m.get("harm", "-"))
                                if m["depends"] else "independent"))
    g = f.get("graph_return")
    if g:
        parts.append("graph %s@%s:%d" % ("loss" if g["loss"] else "forward",
                                         os.path.basename(g["site"]["file"]), g["site"]["line"]))
    gp = f.get("graph_paths")
    if gp:
        def cut(c):
            return " cut %s %s@%s:%d" % (c["kind"], c["name"], os.path.basename(c["site"]["file"]),
                                         c["site"]["line"]) if c else ""
        s = "paths"
        for p in gp.get("paths", []):
            s += " [%s%s@%s:%d%s]" % ("parameter %d " % p["parameter"] if "parameter" in p else "",
                                     p["module"], os.path.basename(p["forward"]["file"]),
                                     p["forward"]["line"], cut(p.get("cut")))
        for p in gp.get("parameters", []):
            s += " [from parameter %d%s]" % (p["parameter"], cut(p.get("cut")))
        if gp.get("unknown"):
            s += " unknown"
        parts.append(s)
    sh = f.get("shape_return")
    if sh:
        def src(x):
            return "%s@%s:%d" % (x["name"], os.path.basename(x["site"]["file"]), x["site"]["line"])
        def dim(n):
            return "N" if n < 0 else str(n)
        if "parameter" in sh:
            s = "shape parameter %d" % sh["parameter"]
            for st in sh.get("steps", []):
                s += " %s(%s->%s) %s" % (st["layer"], dim(st["in"]), dim(st["out"]),
                                        src(st["applied"]))
        else:
            s = "shape"
            if "rank" in sh:
                s += " [" + ", ".join(dim(n) for n in sh["dims"]) + "]"
            if "last" in sh:
                s += " last %d" % sh["last"]
            if "channels" in sh:
                s += " channels %d" % sh["channels"]
            if "last_from" in sh:
                s += " from " + src(sh["last_from"])
        parts.append(s)
    if "grad_at_return" in f:
        parts.append("grad %s at return" % f["grad_at_return"])
    for t in f.get("training_flags", []):
        parts.append("training flag %s %s%s%s@%s:%d" % (
            t["function"], t["source"], " " + t["param"] if "param" in t else "",
            " in lambda" if t.get("in_lambda") else "",
            os.path.basename(t["site"]["file"]), t["site"]["line"]))
    syncs = ["parameter %d from parameter %d@%s:%d" % (
        p["into"], p["from"], os.path.basename(p["site"]["file"]), p["site"]["line"])
        for p in f.get("parameter_syncs", [])]
    if syncs:
        parts.append("syncs " + " ".join(syncs))
    layers = ["%s %s(%s->%s)@%s:%d" % (
        m["field"], m["layer"], "N" if m["in"] < 0 else m["in"], "N" if m["out"] < 0 else m["out"],
        os.path.basename(m["applied"]["site"]["file"]), m["applied"]["site"]["line"])
        for m in f.get("member_layers", [])]
    if layers:
        parts.append("layers " + " ".join(layers))
    parts.append("usr " + usr)
    rows.append(" | ".join(parts))
for row in sorted(rows):
    print(row)
if calls:
    print("calls: %d" % len(d.get("calls", {})))
    for c in sorted(d.get("calls", {}).values(), key=lambda c: c["name"]):
        print("call %s %s at %s:%d" % (c["name"], "recording" if c["recording"] else "quiet",
                                      os.path.basename(c["site"]["file"]), c["site"]["line"]))
if reads:
    print("defines: %d" % len(d.get("defines", [])))
    r = d.get("reads", {})
    for usr in r.get("functions", []):
        print("reads function " + usr)
    for usr, absent in sorted(r.get("callers", {}).items()):
        print("reads callers %s (none: %s)" % (usr, "recording" if absent else "quiet"))
