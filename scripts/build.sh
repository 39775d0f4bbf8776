#!/usr/bin/env bash
# Installs what is missing and builds torch-tidy for one LLVM major.
#   scripts/build.sh [--llvm N]      (default 19; build dir: build/llvm-N)
# Prints the path of the plugin to pass to `clang-tidy --load`.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
llvm=${TORCH_TIDY_LLVM_VERSION:-19}
while [ $# -gt 0 ]; do
  case "$1" in
    --llvm) llvm=$2; shift 2 ;;
    --llvm=*) llvm=${1#--llvm=}; shift ;;
    *) echo "usage: scripts/build.sh [--llvm N]" >&2; exit 2 ;;
  esac
done
"$root/scripts/install-deps.sh" "$llvm"
build="$root/build/llvm-$llvm"
mkdir -p "$root/build"
if [ ! -f "$build/build.ninja" ]; then
  cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release \
    -DTORCH_TIDY_LLVM_VERSION="$llvm" >"$root/build/cmake-$llvm.log" 2>&1 || {
      cat "$root/build/cmake-$llvm.log" >&2; exit 1; }
fi
cmake --build "$build" >&2
echo "$build/TorchTidy.so"
