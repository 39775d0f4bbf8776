"""Fails on a version-dependent LLVM spelling outside include/torch-tidy/Compat.h."""
import os
import re
import sys

root = sys.argv[1]
RULES = [
    (re.compile(r"\.\s*(starts_with|ends_with|startswith|endswith)\s*\("),
     "use compat::startsWith / compat::endsWith"),
    (re.compile(r"is_contained\s*\(\s*\{"),
     "use compat::isOneOf({...}, X)"),
    (re.compile(r"(->|\.)\s*(isPure|isPureVirtual)\s*\(\s*\)"),
     "use compat::isPureVirtual(MD)"),
    (re.compile(r"std::optional<\s*llvm::StringRef\s*>\s+\w+\s*=\s*Options\.get\("),
     "use compat::rawOption(Options, Name)"),
]
bad = 0
for sub in ("checks", "include", "lib", "tools"):
    for dirpath, _, files in os.walk(os.path.join(root, sub)):
        for f in sorted(files):
            if not f.endswith((".h", ".cpp")) or f == "Compat.h":
                continue
            path = os.path.join(dirpath, f)
            lines = open(path, encoding="utf-8").read().split("\n")
            # Comments out, lines kept, so that a match can span lines.
            code = "\n".join(l.split("//")[0] for l in lines)
            for rx, fix in RULES:
                for m in rx.finditer(code):
                    n = code.count("\n", 0, m.start()) + 1
                    print("%s:%d: %s: %s" % (os.path.relpath(path, root), n,
                                             lines[n - 1].strip(), fix))
                    bad += 1
print("%d version-dependent spelling(s)" % bad)
sys.exit(1 if bad else 0)
