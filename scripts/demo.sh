#!/usr/bin/env bash
# README command 1: set up, build, and run the main job over examples/.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
scripts/build.sh build
bin=build/texvm
shopt -s nullglob
tgsi=(examples/*.tgsi)
if [ ${#tgsi[@]} -gt 0 ]; then
  echo "== texvm check examples/*.tgsi"
  "$bin" check "${tgsi[@]}"
  for f in "${tgsi[@]}"; do
    echo "== texvm fmt $f"
    "$bin" fmt "$f"
  done
fi
