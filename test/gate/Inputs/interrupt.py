#!/usr/bin/env python3
"""interrupt.py FILE CMD...: starts CMD, waits until FILE exists (CMD has started
its work), sends it SIGINT, and prints its exit status and how long it took to end
after the signal (rounded up to whole seconds)."""
import math
import os
import signal
import subprocess
import sys
import time

# A test runner may start us with SIGINT ignored, which children inherit; a terminal
# delivers it to a program that has the default disposition.
proc = subprocess.Popen(sys.argv[2:], stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
deadline = time.monotonic() + 60
while not os.path.exists(sys.argv[1]) and time.monotonic() < deadline and proc.poll() is None:
    time.sleep(0.05)
time.sleep(0.2)
proc.send_signal(signal.SIGINT)
sent = time.monotonic()
try:
    rc = proc.wait(timeout=60)
except subprocess.TimeoutExpired:
    proc.kill()
    rc = "timeout"
print("exit %s after %d s" % (rc, math.ceil(time.monotonic() - sent)))
