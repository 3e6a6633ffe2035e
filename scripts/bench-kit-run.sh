#!/usr/bin/env bash
# The speed suite on another machine, from the kit scripts/bench-kit.sh packed (this file is
# the kit's run.sh; kit.tar.xz beside it):
#   run.sh [--work DIR] [--out DIR] [--profile WORKLOADS [--profile-repeat R]] [BENCH_OPTION...]
# Unpacks the kit into --work (default /tmp/bench-kit: made anew; a folder that holds
# anything but an earlier unpacking is refused), prints the machine (CPU, its vector
# features and gather mitigation, glibc, the system), then runs scripts/bench.sh once per
# packed build (the options given, default --rounds 3; --keep always) and writes each
# one's table to --out/suite-BUILD.txt (default: $OUT where set, else the work folder). With the
# kit's outputs.md5, texvm's outputs of each full-size run are compared with it, bit for
# bit. With --profile (workloads of the suite or its scenes, comma-separated:
# "trilinear,rotated,mesh"), each build's suite is followed by a sampling profile of those
# workloads' engine calls at one thread (pinned) and two, R timed runs each (default 100;
# a scene's 60 draws): `bench_job --profile` and `bench_draw --profile`, where
# the time goes on a machine without `perf` (docs/performance.md §1.2), written to
# --out/profile-BUILD.txt. Exit status 0 when every suite and profile ran and every compared
# output matched.
# The programs run on this machine's loader and C library (which must be at least as new
# as the packing machine's: checked) with the kit's other libraries (LD_LIBRARY_PATH, set
# for them alone), Mesa's driver from the kit (LIBGL_DRIVERS_PATH), its EGL vendor file
# alone (__EGL_VENDOR_LIBRARY_FILENAMES: a GPU's own EGL is not asked) and the kit's
# libLLVM for texvm's JIT (TEXVM_LLVM_LIBRARY).
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
work=/tmp/bench-kit
out=${OUT:-}
opts=()
profile=
prof_repeat=100
while [ $# -gt 0 ]; do
  case "$1" in
    --work) work=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    --profile) profile=$2; shift 2 ;;
    --profile-repeat) prof_repeat=$2; shift 2 ;;
    *) opts+=("$1"); shift ;;
  esac
done
case "$prof_repeat" in
  ''|*[!0-9]*|0) echo "bench-kit: --profile-repeat needs a positive count" >&2; exit 2 ;;
esac
case "$profile" in
  *[!a-z0-9,]*) echo "bench-kit: --profile takes workload names separated by commas" >&2; exit 2 ;;
esac
[ ${#opts[@]} = 0 ] && opts=(--rounds 3)
[ -f "$here/kit.tar.xz" ] || { echo "bench-kit: no kit.tar.xz beside $0" >&2; exit 2; }
if [ -e "$work" ] && [ ! -e "$work/.texvm-bench-kit" ] &&
   [ -n "$(ls -A "$work" 2> /dev/null || echo x)" ]; then
  echo "bench-kit: --work $work: not empty and not an earlier unpacking (no .texvm-bench-kit): refused" >&2
  exit 2
fi
rm -rf "$work" && mkdir -p "$work" || { echo "bench-kit: cannot make $work" >&2; exit 2; }
work=$(cd "$work" && pwd)
[ -n "$out" ] || out=$work
mkdir -p "$out" && out=$(cd "$out" && pwd) || { echo "bench-kit: cannot make $out" >&2; exit 2; }
k=$work/kit
mkdir -p "$k"
: > "$work/.texvm-bench-kit"   # (the mark of an unpacking, made first: a broken one is replaced too)
xz -dc "$here/kit.tar.xz" | tar -C "$k" -xf - || { echo "bench-kit: cannot unpack the kit" >&2; exit 2; }
# shellcheck source=/dev/null
. "$k/kit.env"
# shellcheck source=scripts/bench-cpus.sh
. "$k/scripts/bench-cpus.sh"
echo "kit: packed $packed; builds $builds; glibc $glibc or newer needed"
echo "machine: $(uname -srm); $(nproc) CPUs"
echo "topology: $(bench_topology "$(nproc)")"
grep -m1 -E '^model name' /proc/cpuinfo || true
grep -m3 -E '^(vendor_id|cpu family|model)\s' /proc/cpuinfo | tr -s '\t ' ' ' | paste -sd';' - || true
echo "vector features: $(grep -m1 '^flags' /proc/cpuinfo | tr ' ' '\n' | grep -E '^(avx2|fma|avx512[a-z_0-9]*)$' | paste -sd' ' -)"
# (the texture kernels gather: Intel's microcode mitigation of Gather Data Sampling makes
# every gather instruction far slower where it is on)
gds=/sys/devices/system/cpu/vulnerabilities/gather_data_sampling
echo "gather data sampling: $(cat "$gds" 2> /dev/null || echo 'not reported')"
grep -m1 PRETTY_NAME /etc/os-release 2> /dev/null || true
have=$(getconf GNU_LIBC_VERSION 2> /dev/null | awk '{print $2}')
echo "glibc: ${have:-unknown}"
if [ -z "$have" ] || [ "$(printf '%s\n%s\n' "$glibc" "$have" | sort -V | head -1)" != "$glibc" ]; then
  echo "bench-kit: this machine's C library (${have:-unknown}) is older than the kit's ($glibc):" \
       "pack on an older system" >&2
  exit 1
fi
# the host's libstdc++ and libgcc_s where it has them (newer than the kit's); the kit's else
for f in libstdc++.so.6 libgcc_s.so.1; do
  if ldconfig -p 2> /dev/null | grep -q "$f "; then rm -f "$k/lib/$f"; fi
done
wrap() { # PROGRAM -> an executable script that runs it with the kit's libraries
  printf '#!/bin/sh\nLD_LIBRARY_PATH=%s/lib exec %s "$@"\n' "$k" "$1"
}
export BENCH_TIME=/usr/bin/time
if [ ! -x /usr/bin/time ]; then
  BENCH_TIME=$work/time
  wrap "$k/bin/time" > "$BENCH_TIME" && chmod +x "$BENCH_TIME"
fi
export LIBGL_DRIVERS_PATH=$k/dri
export __EGL_VENDOR_LIBRARY_FILENAMES=$k/egl/50_mesa.json
if [ -n "$llvm" ]; then export TEXVM_LLVM_LIBRARY=$k/lib/$llvm; fi
# profile_build BUILD BUILD_FOLDER: the --profile workloads' engine calls sampled, from the
# jobs the suite left in its work folder, one thread (pinned to CPU 0) and two (on more
# than two CPUs pinned to CPU 0 and the first on another core, as the suite's)
profile_build() {
  local b=$1 bd=$2 w thr st prc=0 pf="$out/profile-$1.txt" pin=() pin2=() o
  if command -v taskset > /dev/null; then
    pin=(taskset -c 0)
    o=$(bench_pair_cpu 0 "$(nproc)")
    [ -n "$o" ] && pin2=(taskset -c "0,$o")
  fi
  : > "$pf"
  for w in ${profile//,/ }; do
    local job="$work/suite-$b/$w/job.json" scene=0
    if [ "$w" = mesh ] || [ "$w" = blend ]; then
      scene=1   # (bench_draw's scenes)
    elif [ ! -f "$job" ]; then
      echo "== $w: no job in the suite's work folder (not a workload of this run?)" >> "$pf"
      prc=1
      continue
    fi
    for thr in 1 2; do
      local pd="$work/profile-$b/$w-$thr" cmd=()
      if [ $scene = 1 ]; then
        cmd=("${pin2[@]}" "$bd/bench/bench_draw")
        [ "$thr" = 1 ] && [ ${#pin[@]} -gt 0 ] && cmd+=(--cpu 0)
        cmd+=(--profile "$pd/profile.txt" --texvm "$w" "$thr")
        echo "== $w, $thr thread(s)" >> "$pf"
      else
        if [ "$thr" = 1 ]; then cmd=("${pin[@]}"); else cmd=("${pin2[@]}"); fi
        cmd+=("$bd/bench/bench_job" "$job" --threads "$thr" --repeat "$prof_repeat"
              --out-dir "$pd" --profile "$pd/profile.txt")
        echo "== $w, $thr thread(s), $prof_repeat runs" >> "$pf"
      fi
      mkdir -p "$pd"
      (cd "$pd" && "${cmd[@]}") >> "$pf" 2>&1
      st=$?
      if [ $st = 0 ]; then cat "$pd/profile.txt" >> "$pf"; else echo "(exit $st)" >> "$pf"; prc=1; fi
    done
  done
  echo "profile $b: exit $prc: $pf"
  return $prc
}

rc=0
for b in $builds; do
  bd=$work/$b   # (a build folder of wrappers, each program at its packed place)
  while read -r p; do
    mkdir -p "$bd/$(dirname "$p")" && wrap "$k/bin/$b/$p" > "$bd/$p" && chmod +x "$bd/$p"
  done < <(cd "$k/bin/$b" && find . -type f | sed 's#^\./##')
  echo "== $b: $("$bd/texvm" --version --verbose | grep -E '^kernels:')"
  t0=$(date +%s)
  "$k/scripts/bench.sh" --build "$bd" --keep --work "$work/suite-$b" "${opts[@]}" \
    > "$out/suite-$b.txt" 2> "$work/suite-$b.log"
  st=$?
  echo "suite $b: exit $st in $(( $(date +%s) - t0 )) s: $out/suite-$b.txt"
  [ $st = 0 ] || { tail -n 5 "$work/suite-$b.log"; rc=1; }
  # (a --quick run's smaller pictures are not those of the kit's sums)
  if [ -f "$k/outputs.md5" ] && [[ " ${opts[*]} " != *" --quick "* ]]; then
    (cd "$work/suite-$b" && find . -type f -path '*/texvm[12]/out.*' | sort | xargs -r md5sum) > "$work/md5-$b"
    if ! awk -v b="$b" 'NR == FNR { want[$2] = $1; next }
              !($2 in want) { miss++; next }
              $1 == want[$2] { same++; next }
              { bad++; print "outputs " b ": " $2 " differs from the kit'"'"'s" }
              END { printf "outputs %s: %d bit-identical to the kit'"'"'s, %d differ, %d not in it\n", b, same, bad, miss
                    exit (bad > 0 || same == 0) }' "$k/outputs.md5" "$work/md5-$b"; then
      rc=1
    fi
  fi
  [ -n "$profile" ] && { profile_build "$b" "$bd" || rc=1; }
done
exit $rc
