#!/usr/bin/env bash
# Installs the Debian packages torch-tidy needs to build, test and run, for the
# LLVM majors given as arguments (default 19). Idempotent: installs only what is
# missing, and needs root (or sudo) only then.
set -euo pipefail
majors=("$@")
[ ${#majors[@]} -gt 0 ] || majors=(19)

pkgs=(cmake ninja-build python3 g++ libtorch-dev)
# torch-clangd links clangd's remote-index client: gRPC, protobuf, abseil.
pkgs+=(libgrpc++-dev libprotobuf-dev libabsl-dev)
for n in "${majors[@]}"; do
  pkgs+=("clang-tidy-$n" "libclang-$n-dev" "clang-$n" "llvm-$n-dev" "llvm-$n-tools")
  pkgs+=("clang-format-$n")   # the house style test (test/meta/format.test)
done
pkgs+=(git)   # run-torch-tidy --changed-since; the gate's tests
pkgs+=(lintian)   # the package test checks the .deb with it
pkgs+=(gnuplot-nox)   # scripts/harm.sh draws the loss curves

missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

echo "torch-tidy: installing ${missing[*]}" >&2
sudo=""
if [ "$(id -u)" -ne 0 ]; then
  command -v sudo >/dev/null || { echo "torch-tidy: need root to install: ${missing[*]}" >&2; exit 1; }
  sudo=sudo
fi
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
