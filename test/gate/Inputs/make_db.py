#!/usr/bin/env python3
"""make_db.py OUT_DIR FILE... -- FLAGS...: writes OUT_DIR/compile_commands.json."""
import json
import os
import sys

argv = sys.argv[1:]
cut = argv.index("--")
out, files, flags = argv[0], argv[1:cut], argv[cut + 1:]
os.makedirs(out, exist_ok=True)
entries = [{"directory": os.path.dirname(os.path.abspath(f)),
            "file": os.path.abspath(f),
            "arguments": ["c++"] + flags + ["-c", os.path.abspath(f)]} for f in files]
with open(os.path.join(out, "compile_commands.json"), "w") as fp:
    json.dump(entries, fp, indent=1)
