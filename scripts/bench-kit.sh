#!/usr/bin/env bash
# The whole speed suite (scripts/bench.sh: llvmpipe, softpipe, texvm with its JIT, the draw
# scenes) packed to run on another x86-64 Linux machine that has neither Mesa nor this
# project's dependencies — a lent GPU host, whose processor is another model (issue 19 asks
# for every machine of the kind, Intel and AMD; docs/performance.md §1.2):
#   scripts/bench-kit.sh [--build DIR]... [--outputs DIR] [--xz-level N] OUT_DIR
#   (then OUT_DIR/run.sh there: scripts/bench-kit-run.sh)
# Each --build (default build-perf, and build-perf-avx2 where it is built) must hold the
# suite's programs (cmake --build DIR --target bench_job bench_draw bench_store
# bench_cpu_speed mesa-run conf_compare texvm). OUT_DIR gets kit.tar.xz — those programs,
# scripts/bench.sh with the scripts it sources and bench/workloads, GNU time, Mesa's
# swrast_dri.so with its EGL vendor file, and every shared library the programs and Mesa
# load here besides the C runtime's (libc, libm, the loader:
# the other machine's, which must be as new as this one's) — and run.sh. --outputs DIR: a
# `scripts/bench.sh --save-outputs` folder whose files' MD5 sums go in, for run.sh to
# compare texvm's outputs there with (bit for bit). --xz-level: 0-9 (default 9: about
# 49 MB, two and a half minutes on two cores; the device tool carries at most 64 MiB with
# the repository).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
builds=()
outputs=""
level=9
while [ $# -gt 1 ]; do
  case "$1" in
    --build) builds+=("$2"); shift 2 ;;
    --outputs) outputs=$2; shift 2 ;;
    --xz-level) level=$2; shift 2 ;;
    *) break ;;
  esac
done
usage="usage: scripts/bench-kit.sh [--build DIR]... [--outputs DIR] [--xz-level N] OUT_DIR"
out=${1:?$usage}
case "$out" in -*) echo "$usage" >&2; exit 2 ;; esac
case "$level" in [0-9]) ;; *) echo "bench-kit: --xz-level takes 0 to 9" >&2; exit 2 ;; esac
if [ ${#builds[@]} = 0 ]; then
  builds=(build-perf)
  [ -x build-perf-avx2/bench/bench_job ] && builds+=(build-perf-avx2)
fi
progs=(bench/bench_job bench/bench_draw bench/bench_store bench/bench_cpu_speed tools/mesa-run
       tests/conf_compare texvm)
for b in "${builds[@]}"; do
  for p in "${progs[@]}"; do
    [ -x "$b/$p" ] || { echo "bench-kit: $b/$p not built (cmake --build $b --target" \
      "bench_job bench_draw bench_store bench_cpu_speed mesa-run conf_compare texvm)" >&2; exit 1; }
  done
done
[ -z "$outputs" ] || [ -d "$outputs" ] || { echo "bench-kit: --outputs $outputs: no such folder" >&2; exit 2; }
gnu_time=${BENCH_TIME:-/usr/bin/time}
[ -x "$gnu_time" ] || { echo "bench-kit: no GNU time at $gnu_time (scripts/setup.sh)" >&2; exit 1; }
dri=""
for d in ${LIBGL_DRIVERS_PATH:-} /usr/lib/x86_64-linux-gnu/dri; do
  [ -f "$d/swrast_dri.so" ] && { dri=$d; break; }
done
vendor=/usr/share/glvnd/egl_vendor.d/50_mesa.json
[ -n "$dri" ] && [ -f "$vendor" ] ||
  { echo "bench-kit: Mesa's swrast_dri.so or $vendor missing (scripts/setup.sh)" >&2; exit 1; }

parent=$(dirname "$out")
mkdir -p "$parent"
tmp=$(mktemp -d "$parent/.bench-kit.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
k=$tmp/kit
mkdir -p "$k/lib" "$k/dri" "$k/egl" "$k/bin" "$k/scripts" "$k/bench"
cp "$root/scripts/bench.sh" "$root/scripts/bench-cpus.sh" "$root/scripts/bench-speed.sh" \
   "$root/scripts/bench-jobs.sh" "$k/scripts/"
cp -r "$root/bench/workloads" "$k/bench/"
cp -L "$dri/swrast_dri.so" "$k/dri/"
cp "$vendor" "$k/egl/"
cp "$gnu_time" "$k/bin/time"
names=()
for b in "${builds[@]}"; do
  name=$(basename "$b")
  names+=("$name")
  # (at their places in the build: run.sh makes its build folders from what it finds here)
  for p in "${progs[@]}"; do mkdir -p "$k/bin/$name/$(dirname "$p")" && cp "$b/$p" "$k/bin/$name/$p"; done
done
# The libraries: what each program links, and what Mesa and LLVM load at run time — asked
# of the loader (LD_DEBUG=libs) while bench_draw draws through llvmpipe (EGL, the driver)
# and through texvm's JIT (LLVM).
llvm=$(sed -n 's/^TEXVM_LLVM_DYLIB:FILEPATH=//p' "${builds[0]}/CMakeCache.txt")
{
  for b in "${builds[@]}"; do
    for p in "${progs[@]}"; do ldd "$b/$p" | awk '$3 ~ /^\// {print $3}'; done
  done
  ldd "$gnu_time" | awk '$3 ~ /^\// {print $3}'
  LD_DEBUG=libs "${builds[0]}/bench/bench_draw" 2>&1 > /dev/null |
    sed -n 's/.*calling init: \(\/.*\)$/\1/p'
  if [ -n "$llvm" ]; then readlink -f "$llvm"; fi
} | sort -u > "$tmp/libs"
grep -q 'libLLVM' "$tmp/libs" || { echo "bench-kit: found no libLLVM that texvm's JIT or Mesa loads" >&2; exit 1; }
grep -q 'libEGL_mesa' "$tmp/libs" || { echo "bench-kit: bench_draw loaded no libEGL_mesa (llvmpipe did not run)" >&2; exit 1; }
while read -r lib; do
  base=$(basename "$lib")
  case "$base" in
    libc.so.*|libm.so.*|ld-linux*|libpthread.so.*|libdl.so.*|librt.so.*|libresolv.so.*|swrast_dri.so) ;;
    *) [ -e "$k/lib/$base" ] || cp -L "$lib" "$k/lib/$base" ;;
  esac
done < "$tmp/libs"
# the libLLVM texvm's JIT opens (TEXVM_LLVM_LIBRARY there): the build's, else the one Mesa
# loaded (the same LLVM 15 in Debian)
if [ -n "$llvm" ]; then
  llvm_name=$(basename "$(readlink -f "$llvm")")
else
  llvm_name=$(basename "$(grep -m1 'libLLVM' "$tmp/libs")")
fi
{
  echo "builds=\"${names[*]}\""
  echo "glibc=$(getconf GNU_LIBC_VERSION | awk '{print $2}')"
  echo "llvm=$llvm_name"
  echo "packed=\"$(date -u '+%Y-%m-%d %H:%M') $(git -C "$root" rev-parse --short HEAD 2> /dev/null || echo '?')\""
} > "$k/kit.env"
if [ -n "$outputs" ]; then
  (cd "$outputs" && find . -type f -path '*/texvm[12]/out.*' | sort | xargs md5sum) > "$k/outputs.md5"
  [ -s "$k/outputs.md5" ] || { echo "bench-kit: --outputs $outputs holds no texvm1/texvm2 outputs" >&2; exit 1; }
fi
mkdir -p "$tmp/out"
tar -C "$k" -cf - . | xz -"$level" -T0 > "$tmp/out/kit.tar.xz"
cp "$root/scripts/bench-kit-run.sh" "$tmp/out/run.sh"
chmod +x "$tmp/out/run.sh"
rm -rf "$out"
mv "$tmp/out" "$out"
echo "bench-kit: $out: kit.tar.xz $(du -h "$out/kit.tar.xz" | cut -f1) ($(wc -l < "$tmp/libs") libraries" \
  "seen, builds ${names[*]}); there: $out/run.sh [--work DIR] [--out DIR] [--profile WORKLOADS] [bench.sh options]"
