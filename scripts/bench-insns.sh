#!/usr/bin/env bash
# Instructions a frame, texvm against llvmpipe, for the speed suite's workloads and draw
# scenes (issue 19; docs/performance.md §1.4). The suite's ratios are times, and a time is
# a core's: the same two programs come out ahead on one x86-64 core and behind on another.
# What they execute is not the core's: counted here by valgrind (cachegrind), which gives
# both engines a processor without AVX-512 on every x86-64 host, so the counts are those of
# their AVX2 code (texvm's AVX2 variants, llvmpipe's 256-bit JIT code) wherever they are
# taken. With a native time of the same code beside each count, the instructions each
# engine retires a cycle follow, and the ratio of the two (texvm's over llvmpipe's: the
# instruction ratio times the time ratio, the clock cancels) says how much more work a
# cycle a core must sustain for texvm than for llvmpipe to keep a ratio of times.
#   scripts/bench-insns.sh [--quick] [--build DIR] [--work DIR] [--cpu K] [NAME...]
# NAME: workloads of the suite (scripts/bench-jobs.sh) and the scenes mesh and blend
# (bench/bench_draw); default all of them. --quick: the workloads at 256x144 (8x8 compute
# blocks) and no scenes unless named (a smoke test). --work DIR: the jobs and valgrind's
# logs (default BUILD/bench-insns, made anew; a folder holding anything else is refused).
# --cpu K: the CPU of the timed runs (default the last one). Relative paths, as --build's,
# are taken from the source tree's root (as scripts/bench.sh takes them).
# One frame's instructions = the count of a process timing 2 frames less that of one timing
# 1 (bench_job and mesa-run --repeat, bench_draw --draws: the warm-up, the set-up and the
# JIT compiles cancel; what is left is a frame and the target's clear before it, both
# engines alike; what libc's string functions execute is left out, see count below). Times:
# the median of 5 frames, one thread, each engine pinned to CPU K
# (llvmpipe LP_NUM_THREADS=1; under the AVX2 ceiling capped alike, as scripts/bench.sh
# does). Instructions a cycle are printed only where the timed code is the counted code:
# a build with the AVX2 ceiling (-DTEXVM_ISA_CEILING=avx2) or a CPU without AVX-512;
# the clock is bench_cpu_speed's chain probe of CPU K, taken before the timed runs.
# Exit: 0 printed; 1 a run failed; 2 bad arguments; 77 valgrind or a program not there.
# (BENCH_INSNS_VALGRIND and BENCH_INSNS_CPUINFO stand in for valgrind and /proc/cpuinfo in
# bench/test_bench_insns.sh.)
set -uo pipefail
cd "$(dirname "$0")/.." || exit 2
root=$PWD
# shellcheck source=scripts/bench-jobs.sh
. "$root/scripts/bench-jobs.sh"
build="" work="" cpu="" quick=0
names=()
while [ $# -gt 0 ]; do
  case "$1" in
    --quick) quick=1; shift ;;
    --build) [ $# -ge 2 ] || { echo "bench-insns: --build needs a folder" >&2; exit 2; }
             build=$2; shift 2 ;;
    --work) [ $# -ge 2 ] || { echo "bench-insns: --work needs a folder" >&2; exit 2; }
            work=$2; shift 2 ;;
    --cpu) [ $# -ge 2 ] || { echo "bench-insns: --cpu needs a CPU" >&2; exit 2; }
           cpu=$2; shift 2 ;;
    -h|--help) awk 'NR > 1 && !/^#/ {exit} NR > 1' "$0"; exit 0 ;;
    -*) echo "bench-insns: unknown option $1" >&2; exit 2 ;;
    *) names+=("$1"); shift ;;
  esac
done
known=$(awk '{print $1}' <<< "$bench_table"; echo mesh; echo blend)
for n in "${names[@]}"; do
  grep -qx "$n" <<< "$known" || { echo "bench-insns: no workload or scene $n" \
    "(known: $(tr '\n' ' ' <<< "$known"))" >&2; exit 2; }
done
if [ ${#names[@]} = 0 ] && [ $quick = 1 ]; then
  mapfile -t names < <(awk '{print $1}' <<< "$bench_table")
elif [ ${#names[@]} = 0 ]; then
  mapfile -t names <<< "$known"
fi
ncpu=$(nproc)
[ -n "$cpu" ] || cpu=$((ncpu - 1))
if ! [[ "$cpu" =~ ^[0-9]+$ ]] || ! taskset -c "$cpu" true 2> /dev/null; then
  echo "bench-insns: --cpu $cpu: not a CPU this process may run on" >&2; exit 2
fi
if [ -z "$build" ]; then
  for d in build-perf build; do
    [ -x "$root/$d/bench/bench_job" ] && { build=$root/$d; break; }
  done
fi
[ -n "$build" ] && [ -d "$build" ] || { echo "bench-insns: SKIP: no build folder" >&2; exit 77; }
build=$(cd "$build" && pwd)
valgrind=${BENCH_INSNS_VALGRIND:-valgrind}
cpuinfo=${BENCH_INSNS_CPUINFO:-/proc/cpuinfo}
command -v "$valgrind" > /dev/null || { echo "bench-insns: SKIP: valgrind not installed" \
  "(scripts/setup.sh installs it)" >&2; exit 77; }
for t in bench/bench_job tools/mesa-run bench/bench_draw bench/bench_cpu_speed; do
  [ -x "$build/$t" ] || { echo "bench-insns: SKIP: $build/$t not built" >&2; exit 77; }
done
[ -n "$work" ] || work=$build/bench-insns
# (made anew; a folder that holds anything but an earlier run's, marked, is refused)
if [ -e "$work" ] && [ ! -e "$work/.texvm-bench-insns" ] &&
   [ -n "$(ls -A "$work" 2> /dev/null || echo x)" ]; then
  echo "bench-insns: --work $work: not empty and not an earlier run's folder" \
       "(no .texvm-bench-insns): refused" >&2
  exit 2
fi
rm -rf "$work"
if ! mkdir -p "$work" || ! work=$(cd "$work" && pwd); then
  echo "bench-insns: cannot make $work" >&2; exit 2
fi
: > "$work/.texvm-bench-insns"

W=1920 H=1080 GX=180 GY=180
[ $quick = 1 ] && { W=256 H=144 GX=8 GY=8; }
version=$("$build/texvm" --version --verbose 2> /dev/null)
ceiling=0
grep -q 'build ceiling avx2' <<< "$version" && ceiling=1
# the times are of the counted code where no AVX-512 variant can run natively
same_code=$ceiling
grep -qw avx512f "$cpuinfo" || same_code=1
mesa_env=(LP_NUM_THREADS=1)
[ $ceiling = 1 ] && mesa_env+=(GALLIUM_OVERRIDE_CPU_CAPS=avx)
export ASAN_OPTIONS=detect_leaks=0

# count LOG CMD...: the instructions CMD executes under valgrind (0 where it failed), in the
# environment count_env (valgrind follows no exec: a variable goes in before it, not by env;
# Mesa's shader cache off, or the second process loads what the first compiled, and the
# difference of their counts is negative)
# What libc's string functions executed is left out: valgrind counts every iteration of a
# `rep stos` or `rep movs` as an instruction, one a byte, so a clear's memset of the 33 MB
# target counted 33 M where the core runs it in about a million cycles (measured: four
# memsets of 33 MB, 132.7 M). Both engines clear their targets that way between frames;
# the frames' own small copies go too, both engines alike.
libc_string='^fn=_*(memset|memcpy|memmove|mempcpy)(_chk)?(_(sse2|ssse3|avx|avx2|avx512|evex)[_a-z0-9]*)?$'
count_env=()
count() {
  local log=$1 all str
  shift
  if ! env "${count_env[@]}" "$valgrind" --tool=cachegrind --cache-sim=no \
       --cachegrind-out-file="$log.cg" --log-file="$log" "$@" > "$log.out" 2>&1; then
    echo "bench-insns: failed under valgrind: $* (log $log)" >&2; echo 0; return
  fi
  all=$(sed -n 's/.*I *refs: *\([0-9,]*\).*/\1/p' "$log" | tr -d , | tail -1)
  # cachegrind's file: "fn=NAME" heads the lines "LINE COUNT" of that function
  str=$(awk -v re="$libc_string" '/^fn=/ { s = ($0 ~ re); next }
             s && NF == 2 && $1 ~ /^[0-9]+$/ { n += $2 } END { printf "%d", n }' \
        "$log.cg" 2> /dev/null)
  echo $(( ${all:-0} - ${str:-0} ))
  rm -f "$log.cg"
}
# one LABEL CMD-WITH-@N@: one frame's instructions, the count at N = 2 less that at N = 1
one() {
  local label=$1 a b
  shift
  a=$(count "$work/$label.1.log" "${@//@N@/1}")
  b=$(count "$work/$label.2.log" "${@//@N@/2}")
  if [ "${a:-0}" -gt 0 ] && [ "${b:-0}" -gt "$a" ]; then echo $((b - a)); else echo 0; fi
}

ghz=$("$build/bench/bench_cpu_speed" "$cpu" 2> /dev/null |
      awk '$4 == "chain" { print $5 }')
rows=()
fails=0
for name in "${names[@]}"; do
  echo "bench-insns: $name" >&2
  d=$work/$name
  mkdir -p "$d"
  if [ "$name" = mesh ] || [ "$name" = blend ]; then
    px=$((1024 * 1024))
    count_env=()
    tv=$(one "$name.texvm" "$build/bench/bench_draw" --draws @N@ --texvm "$name" 1)
    count_env=("${mesa_env[@]}" MESA_SHADER_CACHE_DISABLE=true)
    lp=$(one "$name.llvmpipe" "$build/bench/bench_draw" --draws @N@ --llvmpipe 1 "$name")
    tms=$("$build/bench/bench_draw" --cpu "$cpu" --texvm "$name" 1 2> "$d/texvm.err" |
          sed -n 's/.*texvm-1: mesh *\([0-9.]*\) ms, blend *\([0-9.]*\) ms.*/\1 \2/p' |
          awk -v s="$name" '{ print s == "mesh" ? $1 : $2 }')
    lms=$(env "${mesa_env[@]}" taskset -c "$cpu" "$build/bench/bench_draw" --llvmpipe 1 \
          "$name" 2> "$d/llvmpipe.err" |
          awk -v s="$name" '{ printf "%.3f", (s == "mesh" ? $1 : $2) * 1000 }')
  else
    line=$(awk -v n="$name" '$1 == n' <<< "$bench_table")
    read -r _ glsl tmpl sampler _ <<< "$line"
    if ! bench_workload_job "$build/tools/mesa-run" "$root/bench/workloads" "$d" "$name" \
         "$glsl" "$tmpl" "$sampler" $W $H $GX $GY; then
      fails=$((fails + 1)); continue
    fi
    px=$((W * H))
    [ "$tmpl" = comp ] && px=$((GX * GY * 64))
    mkdir -p "$d/count-texvm" "$d/count-llvmpipe" "$d/texvm" "$d/llvmpipe"
    count_env=()
    tv=$(one "$name.texvm" "$build/bench/bench_job" "$d/job.json" --threads 1 --repeat @N@ \
         --out-dir "$d/count-texvm")
    count_env=("${mesa_env[@]}" MESA_SHADER_CACHE_DISABLE=true)
    lp=$(one "$name.llvmpipe" "$build/tools/mesa-run" --driver llvmpipe \
         --repeat @N@ --out-dir "$d/count-llvmpipe" "$d/job.json")
    taskset -c "$cpu" "$build/bench/bench_job" "$d/job.json" --threads 1 --repeat 5 \
      --out-dir "$d/texvm" > "$d/texvm.log" 2>&1
    env "${mesa_env[@]}" taskset -c "$cpu" "$build/tools/mesa-run" --driver llvmpipe \
      --repeat 5 --out-dir "$d/llvmpipe" "$d/job.json" > "$d/llvmpipe.log" 2>&1
    tms=$(bench_median_ms < "$d/texvm.log") lms=$(bench_median_ms < "$d/llvmpipe.log")
  fi
  if [ "$tv" = 0 ] || [ "$lp" = 0 ]; then fails=$((fails + 1)); fi
  rows+=("$name $tv $lp $px ${tms:-0} ${lms:-0}")
done

printf '\nbench-insns: %dx%d (compute %dx%d blocks of 64; scenes 1024x1024), one frame or draw, one thread\n' \
  $W $H $GX $GY
sed -n 's/^\(cpu\|kernels\): /bench-insns: \1: /p' <<< "$version"
printf 'bench-insns: instructions counted under valgrind (the AVX2 code of both engines);'
printf ' times: median of 5 on cpu %s (chain probe %s GHz)\n' "$cpu" "${ghz:-?}"
[ $same_code = 1 ] || printf 'bench-insns: this build runs AVX-512 variants natively:'\
' times are not of the counted code, no instructions a cycle (build with -DTEXVM_ISA_CEILING=avx2)\n'
printf '%-10s %10s %10s %7s %9s %9s %9s %9s %8s %8s %9s\n' workload texvm-M llvmpipe-M tv/lp \
  texvm/px lp/px texvm-ms lp-ms tv-ipc lp-ipc ipc-tv/lp
for r in "${rows[@]}"; do
  awk -v same=$same_code -v ghz="${ghz:-0}" '{
    tv = $2; lp = $3; px = $4; tms = $5; lms = $6
    ratio = lp > 0 ? sprintf("%.2f", tv / lp) : "-"
    tipc = "-"; lipc = "-"; rel = "-"
    if (same && ghz > 0 && tms > 0 && lms > 0) {
      tipc = sprintf("%.2f", tv / (tms * 1e6 * ghz)); lipc = sprintf("%.2f", lp / (lms * 1e6 * ghz))
      rel = lp > 0 ? sprintf("%.2f", (tv / lp) * (lms / tms)) : "-" }
    printf "%-10s %10.1f %10.1f %7s %9.1f %9.1f %9.2f %9.2f %8s %8s %9s\n", $1, tv / 1e6,
      lp / 1e6, ratio, tv / px, lp / px, tms, lms, tipc, lipc, rel }' <<< "$r"
done
[ $fails = 0 ] || { echo "bench-insns: $fails run(s) failed (logs in $work)" >&2; exit 1; }
exit 0
