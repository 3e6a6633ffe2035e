#!/usr/bin/env bash
# Configure and build texvm into DIR (default build/). Extra arguments go to cmake.
#   [BUILD_TARGETS="texvm ..."] scripts/build.sh [DIR] [-DTEXVM_SANITIZE=ON ...]
# BUILD_TARGETS: build only those targets (a script that needs build/texvm alone need not
# wait for every test); default: all.
set -euo pipefail
cd "$(dirname "$0")/.."
dir=${1:-build}
shift || true
gen=()
if command -v ninja >/dev/null 2>&1; then gen=(-G Ninja); fi
if [ ! -f "$dir/CMakeCache.txt" ]; then
  cmake -S . -B "$dir" "${gen[@]}" "$@"
else
  cmake -S . -B "$dir" "$@" >/dev/null
fi
targets=()
for t in ${BUILD_TARGETS:-}; do targets+=(--target "$t"); done
cmake --build "$dir" -j "$(nproc)" "${targets[@]}"
