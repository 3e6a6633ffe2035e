#!/usr/bin/env bash
# Install what texvm needs to build, test and compare against Mesa, from Debian's packages.
# Idempotent: installs only what is missing. Runs apt-get through sudo when not root.
#   scripts/setup.sh            what the build, the tests and the demo need
#   scripts/setup.sh --piglit   also piglit (shader_runner and its tests, ~2 GB)
#                               and virgl-server (virglrenderer's vtest server), for
#                               scripts/piglit.sh and scripts/piglit-compare.sh
set -euo pipefail

PACKAGES=(
  build-essential cmake ninja-build pkg-config git python3
  libcmocka-dev      # test framework
  libpng-dev         # PNG images in and out
  libcjson-dev       # job files
  clang libclang-rt-14-dev  # libFuzzer targets
  llvm-15-dev        # the JIT (LLVM's ORC JIT, the LLVM Mesa's llvmpipe uses)
  valgrind
  time xz-utils      # the speed suite's peak memory (GNU time); scripts/bench-kit.sh's archive
  libdw-dev          # bench_job --profile: the sampled addresses' functions (elfutils' libdwfl)
  # Mesa's software drivers (softpipe, llvmpipe) as the conformance/speed references
  libgl1-mesa-dri libegl-mesa0 libegl-dev libgles-dev libgl-dev libgbm1
)
case "${1:-}" in
  --piglit) PACKAGES+=(piglit virgl-server) ;;  # GL programs through Mesa's virgl driver: scripts/piglit.sh, scripts/piglit-compare.sh
  "") ;;
  *) echo "setup: unknown option '$1' (allowed: --piglit)" >&2; exit 2 ;;
esac

missing=()
for p in "${PACKAGES[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed'; then
    missing+=("$p")
  fi
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "setup: all ${#PACKAGES[@]} packages present"
  exit 0
fi

SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
echo "setup: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
