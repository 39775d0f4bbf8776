#!/usr/bin/env bash
# Benchmarks the torch-* checks against clang-tidy's own parse (see docs/performance.md).
#   scripts/bench.sh [--llvm N]... [--quick] [bench/bench.py options]
# Default LLVM 19; give --llvm several times to measure each major in turn.
# --quick: fewer repetitions (3) and one example source;
# the full run takes about 45 minutes of CPU per major (quick: about 15).
# Other options go to bench/bench.py: --reps R, --sizes 1,10,100,400,
# --only REGEX, --no-bugprone, --callgrind (instruction counts under valgrind).
# Results: bench/results/llvm-N[-quick].{md,csv,json,png}. Exit status 1 when
# a measured ratio breaks the budget.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
majors=(); args=(); callgrind=0
while [ $# -gt 0 ]; do
  case "$1" in
    --llvm) majors+=("$2"); shift 2 ;;
    --llvm=*) majors+=("${1#--llvm=}"); shift ;;
    --callgrind) callgrind=1; args+=("$1"); shift ;;
    -h|--help) sed -n '2,12p' "$0"; exit 0 ;;
    *) args+=("$1"); shift ;;
  esac
done
[ ${#majors[@]} -gt 0 ] || majors=("${TORCH_TIDY_LLVM_VERSION:-19}")

# The benchmark's own tools: GNU time for peak RSS, matplotlib for the plot,
# valgrind for --callgrind. Installed here, not by scripts/install-deps.sh.
"$root/scripts/install-deps.sh" "${majors[@]}"
pkgs=(time python3-matplotlib)
[ $callgrind -eq 0 ] || pkgs+=(valgrind)
missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "bench: installing ${missing[*]}" >&2
  sudo=""; [ "$(id -u)" -eq 0 ] || sudo=sudo
  export DEBIAN_FRONTEND=noninteractive
  $sudo apt-get update -qq
  $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

status=0
for n in "${majors[@]}"; do
  plugin=$("$root/scripts/build.sh" --llvm "$n")
  # Debian's python3, which has python3-matplotlib.
  /usr/bin/python3 "$root/bench/bench.py" --llvm "$n" --plugin "$plugin" ${args[@]+"${args[@]}"} || status=$?
done
exit $status
