#!/usr/bin/env python3
"""Prints the files of the source tree that hold a merge conflict marker."""
import os
import re
import sys

root = sys.argv[1]
marker = re.compile(rb"^(<{7}|>{7})( |$)", re.M)
skip = {".git", "build"}
bad, clean = [], 0
for dirpath, dirnames, filenames in os.walk(root):
    dirnames[:] = [d for d in dirnames if d not in skip]
    for name in filenames:
        path = os.path.join(dirpath, name)
        try:
            with open(path, "rb") as f:
                data = f.read()
        except OSError:
            continue
        if b"\0" in data:
            continue
        if marker.search(data):
            bad.append(os.path.relpath(path, root))
        else:
            clean += 1
for path in sorted(bad):
    print("conflict-markers: %s: holds a merge conflict marker" % path)
if not bad:
    print("conflict-markers: %d files clean" % clean)
sys.exit(1 if bad else 0)
