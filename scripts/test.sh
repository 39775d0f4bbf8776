#!/usr/bin/env bash
# Runs torch-tidy's whole test suite through ctest, building first.
#   scripts/test.sh [--llvm N]...   (default: 19; give several to test each;
#                                    --llvm all: 14, 15, 16, 19 and 22)
# Installs the missing Debian packages (as root), builds build/llvm-N, runs
# ctest there, and ends with one line `N passed, N failed` over all majors.
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
majors=()
while [ $# -gt 0 ]; do
  case "$1" in
    --llvm) majors+=("$2"); shift 2 ;;
    --llvm=*) majors+=("${1#--llvm=}"); shift ;;
    *) echo "usage: scripts/test.sh [--llvm N]..." >&2; exit 2 ;;
  esac
done
[ ${#majors[@]} -gt 0 ] || majors=("${TORCH_TIDY_LLVM_VERSION:-19}")
expanded=()
for n in "${majors[@]}"; do
  if [ "$n" = all ]; then expanded+=(14 15 16 19 22); else expanded+=("$n"); fi
done
majors=("${expanded[@]}")

"$root/scripts/install-deps.sh" "${majors[@]}" || exit 1
passed=0; failed=0; status=0
for n in "${majors[@]}"; do
  echo "=== torch-tidy tests, LLVM $n ==="
  "$root/scripts/build.sh" --llvm "$n" >/dev/null || { status=1; failed=$((failed + 1)); continue; }
  log=$(mktemp)
  ctest --test-dir "$root/build/llvm-$n" -j"$(nproc)" --output-on-failure 2>&1 | tee "$log"
  [ "${PIPESTATUS[0]}" -eq 0 ] || status=1
  line=$(grep -E 'tests passed, [0-9]+ tests failed out of [0-9]+' "$log" | tail -1)
  total=$(echo "$line" | sed -E 's/.*out of ([0-9]+).*/\1/')
  bad=$(echo "$line" | sed -E 's/.* ([0-9]+) tests failed.*/\1/')
  if [ -n "$line" ]; then
    passed=$((passed + total - bad)); failed=$((failed + bad))
  else
    failed=$((failed + 1)); status=1
  fi
  rm -f "$log"
done
echo "${passed} passed, ${failed} failed"
exit $status
