#!/usr/bin/env bash
# Proof of harm: builds and runs every buggy/fixed pair of harm/ with LibTorch on
# CPU and writes docs/harm.md and docs/harm/<check>.png.
#   scripts/harm.sh [--smoke] [--only CHECK]...
# --smoke: two pairs, fewer steps, checks only that each buggy run ends worse.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/install-deps.sh"
exec python3 "$root/harm/run_harm.py" "$@"
