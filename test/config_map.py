"""Prints clang-tidy's --dump-config with CheckOptions as a map, whatever the major.

clang-tidy 14 dumps CheckOptions as a list of `- key:` / `value:` pairs, later
majors as a map; the tests check the map form (`  torch-x.Option: 'value'`).
"""
import re
import sys

lines = sys.stdin.read().split("\n")
out = []
i = 0
while i < len(lines):
    key = re.match(r"^(\s*)- key:\s+(\S+)\s*$", lines[i])
    value = re.match(r"^\s*value:\s+(.*)$", lines[i + 1]) if key and i + 1 < len(lines) else None
    if key and value:
        out.append("%s%s: %s" % (key.group(1), key.group(2), value.group(1)))
        i += 2
        continue
    out.append(lines[i])
    i += 1
sys.stdout.write("\n".join(out))
