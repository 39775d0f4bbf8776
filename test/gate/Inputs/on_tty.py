#!/usr/bin/env python3
"""on_tty.py CMD...: runs CMD with its stderr on a pseudo-terminal, prints what it
wrote there (\\r as a new line, the erase-line escape as <clear>), exits as CMD."""
import os
import subprocess
import sys

master, slave = os.openpty()
proc = subprocess.Popen(sys.argv[1:], stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                        stderr=slave)
os.close(slave)
out = b""
while True:
    try:
        chunk = os.read(master, 4096)
    except OSError:
        break
    if not chunk:
        break
    out += chunk
rc = proc.wait()
text = out.decode("utf-8", "replace").replace("\x1b[K", "<clear>").replace("\r\n", "\n")
sys.stdout.write(text.replace("\r", "\n"))
sys.exit(rc)
