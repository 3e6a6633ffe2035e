#!/usr/bin/env bash
# The speed suite (issue 7; docs/performance.md): every workload of bench/workloads, written
# once in GLSL, run three ways in one invocation — Mesa llvmpipe (LP_NUM_THREADS=1 and 2),
# Mesa softpipe, and texvm on the TGSI softpipe printed for that GLSL now (1 and 2 threads) —
# alternating over rounds after a warm-up; medians; outputs compared (conf_compare: the
# conformance suite's rules); one table of Mpixels/s (M threads/s for compute), ratios and
# peak memory; the same ratios per round (paired), of the fastest rounds (best) and of the
# fastest frames (frame), for hosts whose speed moves while the suite runs; then the draw
# scenes (bench/bench_draw: a 102400-triangle textured, depth-tested mesh and 8 large
# blended triangles against llvmpipe).
#   scripts/bench.sh [--quick] [--build DIR] [--rounds N] [--keep] [--work DIR]
#                    [--save-outputs DIR] [--outputs-against DIR] [WORKLOAD...]
# --quick: 256x144 pixels / 8x8 blocks, 2 rounds (a smoke test, not a measurement).
# --work DIR: the folder the run's jobs, programs, outputs and comparisons go to, made anew
# (default BUILD/bench-suite, which bench-ab.sh reads); a DIR that
# holds anything but an earlier run's folder (its .texvm-bench-suite mark) is refused.
# --save-outputs DIR: texvm's output files of this run (each workload's one- and two-thread
# out.*) saved to DIR, replacing it; --outputs-against DIR: each compared byte for byte
# with the file of the same workload and thread count saved there (a change that must keep
# the bits must keep these bytes; the suite exits 1 where one differs). Relative paths, as
# --build's, are taken from the source tree's root.
# Timing, in-process for both: Mesa = mesa-run --repeat (draw/dispatch + glFinish, first
# run excluded, median; the targets cleared before each draw, untimed); texvm =
# build-perf/bench/bench_job (texvm run's job code; the engine call alone,
# tv_vm_run_fragment or tv_vm_run_compute — first run excluded, median; no parse, texture
# build, target clear or output writing). Each round = one process per engine. A build
# with the AVX2 ceiling (docs/performance.md §1.3) runs Mesa capped alike
# (GALLIUM_OVERRIDE_CPU_CAPS=avx, unless the caller set it). Peak memory: GNU time,
# /usr/bin/time or $BENCH_TIME (scripts/bench-kit-run.sh's, on a host without it).
# The CPUs' own speed (bench/bench_cpu_speed: clock, ports and shared-cache loops that are
# not texvm's) is probed before the run, before each round on its CPU and after the run,
# and reported at the end with a WARNING where it moved (scripts/bench-speed.sh).
set -uo pipefail
cd "$(dirname "$0")/.."
root=$PWD
. "$root/scripts/bench-cpus.sh"
. "$root/scripts/bench-speed.sh"
. "$root/scripts/bench-jobs.sh"
build=""
quick=0
rounds=5
keep=0
save_outputs=""
outputs_against=""
work=""
only=()
while [ $# -gt 0 ]; do
  case "$1" in
    --quick) quick=1; shift ;;
    --build) build=$2; shift 2 ;;
    --rounds) rounds=$2; shift 2 ;;
    --keep) keep=1; shift ;;
    --work) work=$2; shift 2 ;;
    --save-outputs) save_outputs=$2; shift 2 ;;
    --outputs-against) outputs_against=$2; shift 2 ;;
    -h|--help) awk 'NR > 1 && !/^#/ {exit} NR > 1' "$0"; exit 0 ;;
    *) only+=("$1"); shift ;;
  esac
done
# (a missing folder to compare with is found before the run, not after it)
if [ -n "$outputs_against" ] && [ ! -d "$outputs_against" ]; then
  echo "bench: --outputs-against $outputs_against: no such folder" >&2; exit 2
fi
# (the run deletes its work folder first: never one holding anything but an earlier run)
if [ -n "$work" ] && [ -e "$work" ] && [ ! -e "$work/.texvm-bench-suite" ] &&
   [ -n "$(ls -A "$work" 2> /dev/null || echo x)" ]; then
  echo "bench: --work $work: not empty and not an earlier run's folder" \
       "(no .texvm-bench-suite): refused" >&2
  exit 2
fi
if [ -z "$build" ]; then
  for d in build-perf build; do
    if [ -x "$root/$d/bench/bench_job" ]; then build="$root/$d"; break; fi
  done
fi
build=$(cd "$build" && pwd)  # absolute: the job files name paths relative to themselves
texvm=$build/bench/bench_job
mesa_run=$build/tools/mesa-run
compare=$build/tests/conf_compare
for t in "$texvm" "$mesa_run" "$compare"; do
  if [ ! -x "$t" ]; then
    echo "bench: SKIP: $t not built (cmake --build $build --target bench_job mesa-run conf_compare)"
    exit 77
  fi
done
gnu_time=${BENCH_TIME:-/usr/bin/time}
if [ ! -x "$gnu_time" ]; then
  echo "bench: SKIP: no GNU time at $gnu_time (apt-get install time, or set BENCH_TIME)"
  exit 77
fi
# (the build's processor and kernel lines, asked once: here and in the header)
tv_version=""
[ -x "$build/texvm" ] && tv_version=$("$build/texvm" --version --verbose)
# A build capped at AVX2 (-DTEXVM_ISA_CEILING=avx2, docs/performance.md §1.3) stands in for
# an AVX2-only core: cap Mesa the same way (its own switch, which turns every AVX-512 feature
# off in llvmpipe's JIT), or llvmpipe keeps AVX-512VL's 32 registers and masks beside it. A
# value the caller set is kept; either way the header says which.
mesa_caps=${GALLIUM_OVERRIDE_CPU_CAPS-}
if [ -z "${GALLIUM_OVERRIDE_CPU_CAPS+x}" ] && grep -q 'build ceiling avx2' <<< "$tv_version"; then
  mesa_caps=avx
fi
[ -n "$mesa_caps" ] && export GALLIUM_OVERRIDE_CPU_CAPS=$mesa_caps
W=1920 H=1080 GX=180 GY=180 sp_repeat=3 lp_repeat=5 tv_repeat=5  # (texvm and llvmpipe alike)
if [ $quick = 1 ]; then
  W=256 H=144 GX=8 GY=8 sp_repeat=2 lp_repeat=2 tv_repeat=2
  [ "$rounds" -gt 2 ] && rounds=2
fi
[ -n "$work" ] || work=$build/bench-suite
rm -rf "$work"
mkdir -p "$work" && work=$(cd "$work" && pwd) || { echo "bench: cannot make $work" >&2; exit 2; }
: > "$work/.texvm-bench-suite"
export ASAN_OPTIONS=detect_leaks=0
wl=$root/bench/workloads
# every CPU's speed now, before each round on its CPU and after the run (scripts/bench-speed.sh)
speed_prog=$build/bench/bench_cpu_speed
speed_file=$work/cpu-speed.tsv
: > "$speed_file"
all_cpus=$(seq 0 $(($(nproc) - 1)))
# shellcheck disable=SC2086  # (the CPUs are words)
bench_speed_probe "$speed_prog" "$speed_file" before $all_cpus

median() { sort -g | awk '{a[NR]=$1} END {if (NR) print a[int((NR+1)/2)]; else print "nan"}'; }

# record_run OUTDIR KEY: a run's median and fastest ms (the line mesa-run and bench_job
# print alike) and its peak memory, appended to $work/<key>.ms, .fast and .rss
record_run() {
  local out=$1 key=$2 ms
  ms=$(bench_median_ms < "$out/log")
  if [ -z "$ms" ]; then echo "bench: $key failed:" >&2; tail -3 "$out/log" >&2; return 1; fi
  echo "$ms" >> "$work/$key.ms"
  sed -n 's/.*(fastest \([0-9.]*\) ms).*/\1/p' "$out/log" | head -1 >> "$work/$key.fast"
  tail -1 "$out/rss" >> "$work/$key.rss"
}

# run_mesa DRIVER THREADS JOB OUTDIR REPEAT KEY -> record_run (mesa-run, in-process)
run_mesa() {
  local drv=$1 thr=$2 job=$3 out=$4 rep=$5 key=$6
  mkdir -p "$out"
  LP_NUM_THREADS=$thr "${pin[@]}" "$gnu_time" -f %M -o "$out/rss" "$mesa_run" --driver "$drv" \
    --repeat "$rep" --out-dir "$out" "$job" > "$out/log" 2>&1
  record_run "$out" "$key"
}

# run_texvm THREADS JOB OUTDIR KEY -> record_run (bench_job, in-process)
run_texvm() {
  local thr=$1 job=$2 out=$3 key=$4
  mkdir -p "$out"
  "${pin[@]}" "$gnu_time" -f %M -o "$out/rss" "$texvm" "$job" --threads "$thr" \
    --repeat "$tv_repeat" --out-dir "$out" > "$out/log" 2>&1
  record_run "$out" "$key"
}

# The one-thread runs of round r, texvm's and llvmpipe's, both on CPU (r - 1) mod N
# (taskset): the two cores of this project's VMs may differ in speed by up to 1.7x for
# minutes (one shares its physical core with a busy neighbour: docs/performance.md §1.1),
# and a pair split across them measured the cores, not the engines. The rounds alternate
# the CPU; the two-thread runs use both (on more than two CPUs: that CPU and the first
# after it on another core, scripts/bench-cpus.sh).
can_pin=0
command -v taskset > /dev/null && [ "$(nproc)" -gt 1 ] && can_pin=1
# round_cpu R: the CPU of round R's one-thread runs (and of its CPU probe)
round_cpu() { echo $(( ($1 - 1) % $(nproc) )); }
pin=()
pin1() {
  pin=()
  [ $can_pin = 1 ] && pin=(taskset -c "$(round_cpu "$1")")
}
# (each CPU's pair once: the topology does not change while the suite runs)
pair_of=()
for ((c = 0; c < $(nproc); c++)); do pair_of[c]=$(bench_pair_cpu "$c" "$(nproc)"); done
pin2() {
  local c
  c=$(round_cpu "$1")
  pin=()
  [ $can_pin = 1 ] && [ -n "${pair_of[c]}" ] && pin=(taskset -c "$c,${pair_of[c]}")
  return 0
}

# The hypervisor's steal time (/proc/stat's aggregate cpu line: its 8th value, the jiffies
# the VM's CPUs were ready to run while the host ran another guest) as a share of all the
# CPUs' time since a sample S0 (steal_now: "steal total"): a run taken while the host
# stole time is slower for reasons outside both engines, whichever side the spells fell on
# (docs/performance.md §1.1); "-" where /proc/stat is not there.
steal_now() { awk '/^cpu / { t = 0; for (i = 2; i <= 9; i++) t += $i; print $9, t }' /proc/stat 2> /dev/null; }
steal_since() { # S0 -> "x.x" (per cent) or "-"
  local now; now=$(steal_now)
  awk -v a="$1" -v b="$now" 'BEGIN { split(a, x, " "); split(b, y, " "); d = y[2] - x[2];
    if (d > 0 && y[1] >= x[1]) printf "%.1f", 100 * (y[1] - x[1]) / d; else print "-" }'
}

names=()
while read -r name glsl tmpl sampler tol; do
  if [ ${#only[@]} -gt 0 ]; then
    hit=0; for o in "${only[@]}"; do [ "$o" = "$name" ] && hit=1; done
    [ $hit = 1 ] || continue
  fi
  names+=("$name")
  d=$work/$name
  bench_workload_job "$mesa_run" "$wl" "$d" "$name" "$glsl" "$tmpl" "$sampler" $W $H $GX $GY ||
    continue
  s0=$(steal_now)
  echo "bench: $name: softpipe (1 warm-up + $sp_repeat)" >&2
  run_mesa softpipe 1 "$d/job.json" "$d/softpipe" "$sp_repeat" "$name.sp" || true
  for r in $(seq 1 "$rounds"); do
    echo "bench: $name: round $r/$rounds" >&2
    bench_speed_probe "$speed_prog" "$speed_file" "$name round $r" "$(round_cpu "$r")"
    pin1 "$r"
    run_mesa llvmpipe 1 "$d/job.json" "$d/llvmpipe1" "$lp_repeat" "$name.lp1" || true
    run_texvm 1 "$d/job.json" "$d/texvm1" "$name.tv1" || true
    pin2 "$r"
    run_mesa llvmpipe 2 "$d/job.json" "$d/llvmpipe2" "$lp_repeat" "$name.lp2" || true
    run_texvm 2 "$d/job.json" "$d/texvm2" "$name.tv2" || true
  done
  steal_since "$s0" > "$work/$name.steal"
  out=out.rgba32f; [ "$tmpl" = comp ] && out=out.bin
  for t in 1 2; do
    "$compare" "$d/texvm$t/$out" "$d/llvmpipe1/$out" "$d/softpipe/$out" "$tol" \
      > "$work/$name.cmp$t" 2>&1 || echo "missing" > "$work/$name.cmp$t"
  done
  if [ "$tmpl" = comp ]; then echo $((GX * GY * 64)) > "$work/$name.items"
  else echo $((W * H)) > "$work/$name.items"; fi
done <<< "$bench_table"

load=$(cut -d' ' -f1-3 /proc/loadavg)
printf '\nbench: %dx%d (compute %dx%d blocks of 64), %d rounds, load average %s, %s\n' \
  $W $H $GX $GY "$rounds" "$load" "$(nproc) cores"
# the processor and the kernel variants texvm picked on it (issue 19: ratios move with both)
if [ -n "$tv_version" ]; then
  sed -n 's/^\(cpu\|kernels\): /bench: \1: /p' <<< "$tv_version"
else
  printf 'bench: cpu: %s\n' "$(sed -n 's/^model name[^:]*: //p' /proc/cpuinfo | head -1)"
fi
if [ -n "$mesa_caps" ]; then
  printf 'bench: mesa: GALLIUM_OVERRIDE_CPU_CAPS=%s (its x86 features capped: avx = no AVX-512)\n' \
    "$mesa_caps"
fi
printf 'bench: topology: %s\n' "$(bench_topology "$(nproc)")"
if [ $can_pin = 1 ]; then
  printf 'bench: one-thread runs of round r (texvm, llvmpipe) pinned to CPU (r-1) mod %d\n' \
    "$(nproc)"
  if [ -n "${pair_of[0]}" ]; then
    printf 'bench: two-thread runs of round r pinned to that CPU and the first after it on another core (round 1: CPUs 0,%s)\n' \
      "${pair_of[0]}"
  fi
fi
steals=""
for name in "${names[@]}"; do
  steals="$steals${steals:+,} $name $(cat "$work/$name.steal" 2> /dev/null || echo -)"
done
[ -z "$steals" ] || printf 'bench: steal %%, the CPUs'"'"' time the host gave its other guests while each workload ran:%s\n' "$steals"
printf 'Mpixels/s (compute: M threads/s), medians; ratio = texvm / reference, same thread count\n'
printf '%-10s %9s %9s %9s %9s %9s %8s %8s %8s %7s %21s %9s\n' workload llvmpipe1 llvmpipe2 \
  softpipe texvm1 texvm2 tv/lp1 tv/lp2 tv/sp 2t/1t "vs llvmpipe/softpipe" "peakMiB"
fails=0
for name in "${names[@]}"; do
  items=$(cat "$work/$name.items" 2>/dev/null || echo 0)
  rate() { # key -> Mitems/s
    local f=$work/$name.$1.ms
    [ -s "$f" ] || { echo nan; return; }
    median < "$f" | awk -v n="$items" '{ if ($1 > 0) printf "%.2f", n / ($1 * 1000); else print "nan" }'
  }
  peak() { cat "$work/$name".$1.rss 2>/dev/null | sort -n | tail -1 | awk '{printf "%.0f", $1/1024}'; }
  lp1=$(rate lp1) lp2=$(rate lp2) sp=$(rate sp) tv1=$(rate tv1) tv2=$(rate tv2)
  ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (a+0 > 0 && b+0 > 0) printf "%.2f", a / b; else print "-" }'; }
  v=$(awk '{print $1 "/" $2}' "$work/$name.cmp1" 2>/dev/null)
  v2=$(awk '{print $1 "/" $2}' "$work/$name.cmp2" 2>/dev/null)
  [ "$v" = "$v2" ] || v="$v|$v2"
  case "$v" in *diff*|*missing*|"") fails=$((fails + 1)) ;; esac
  mem="$(peak tv1)/$(peak lp1)/$(peak sp)"
  printf '%-10s %9s %9s %9s %9s %9s %8s %8s %8s %7s %21s %9s\n' "$name" "$lp1" "$lp2" "$sp" "$tv1" \
    "$tv2" "$(ratio "$tv1" "$lp1")" "$(ratio "$tv2" "$lp2")" "$(ratio "$tv1" "$sp")" \
    "$(ratio "$tv2" "$tv1")" "$v" "$mem"
done
# The same ratios two more ways, for a host whose speed moves while it runs: this project's
# shared machines slow a process down by up to 1.7x for a second or more, every function
# alike (docs/performance-amd.md §2), so a median over rounds still depends on which side the
# slow spells fell. "paired": the median over rounds of each round's own ratio (its texvm
# and llvmpipe runs follow each other); "best": the fastest round of each side (its median);
# "frame": the fastest single frame of each side over all its rounds (a spell may begin or
# end inside a process: texvm's rounds and llvmpipe's time 5 frames each). From one thread
# to two the same way: "2t/1t.best" of the fastest rounds, "2t/1t.pair" the median over
# rounds of each round's own (its one- and two-thread runs a minute or less apart), texvm's
# and llvmpipe's ("lp.pair"), for a spell that slows one thread count's rounds alone.
printf '\nratios per round (paired, median of the rounds), of the fastest rounds (best) and of the fastest frames (frame):\n'
printf '%-10s %9s %9s %9s %9s %9s %9s %9s %9s %9s %9s\n' workload paired1 paired2 best1 best2 \
  frame1 frame2 2t/1t.best rounds 2t/1t.pair lp.pair
for name in "${names[@]}"; do
  f() { cat "$work/$name.$1.ms" 2>/dev/null; }
  # per_round A B: the median over rounds of each round's ms of A over its ms of B (paired:
  # llvmpipe's over texvm's at one thread count; the scaling: one thread's over two's)
  per_round() { paste <(f "$1") <(f "$2") | awk 'NF == 2 && $2 > 0 { print $1 / $2 }' | median |
    awk '{printf "%.2f", $1}'; }
  best() { f "$1" | sort -g | head -1; }
  frame() { sort -g "$work/$name.$1.fast" 2>/dev/null | awk 'NF' | head -1; }
  inv() { awk -v a="$1" -v b="$2" 'BEGIN { if (a+0 > 0 && b+0 > 0) printf "%.2f", a / b; else print "-" }'; }
  p1=$(per_round lp1 tv1) p2=$(per_round lp2 tv2) s1=$(per_round tv1 tv2) s2=$(per_round lp1 lp2)
  printf '%-10s %9s %9s %9s %9s %9s %9s %9s %9s %9s %9s\n' "$name" "$p1" "$p2" \
    "$(inv "$(best lp1)" "$(best tv1)")" "$(inv "$(best lp2)" "$(best tv2)")" \
    "$(inv "$(frame lp1)" "$(frame tv1)")" "$(inv "$(frame lp2)" "$(frame tv2)")" \
    "$(inv "$(best tv1)" "$(best tv2)")" "$(f tv1 | wc -l)" "$s1" "$s2"
done
# null against the physical limit (issue 19): its 16-byte RGBA32F pixels per second over
# this machine's store bandwidth for a buffer of the target's size (bench/bench_store.c)
for name in "${names[@]}"; do
  [ "$name" = null ] && [ -x "$build/bench/bench_store" ] || continue
  items=$(cat "$work/null.items" 2>/dev/null || echo 0)
  tv1=$(median < "$work/null.tv1.ms" 2>/dev/null | awk -v n="$items" '$1 > 0 { printf "%.2f", n * 16 / ($1 * 1e6) }')
  bw=$("$build/bench/bench_store" $((items * 16))) || continue
  best=$(echo "$bw" | awk '{ a = $(NF-5) + 0; b = $(NF-1) + 0; print (a > b ? a : b) }')
  echo "$bw"
  awk -v t="$tv1" -v b="$best" 'BEGIN { if (t > 0 && b > 0)
    printf "null: texvm 1 thread stores %.2f GB/s = %.0f %% of the store bandwidth (%.2f GB/s, the better of the two)\n", t, 100 * t / b, b }'
done
printf 'peakMiB = max RSS of the whole process: texvm 1 thread / llvmpipe 1 / softpipe.\n'
printf 'outputs: exact = bit-identical, tol = within the workload tolerance, diff = outside it\n'
printf '(texvm 1-thread and 2-thread outputs, against llvmpipe / softpipe; max diffs in %s/*.cmp*)\n' "$work"
# the pipeline's scenes (issues 16 and 19): bench/bench_draw, texvm against llvmpipe in the
# same run at 1 and 2 threads (it fails when the drivers light different pixels or texvm's
# pictures differ between thread counts); not in --quick runs or when workloads are named
# (as many runs as rounds: the first one's table, then each scene's paired and best ratios)
if [ $quick = 0 ] && [ ${#only[@]} = 0 ] && [ -x "$build/bench/bench_draw" ]; then
  echo
  : > "$work/draw.rows"
  s0=$(steal_now)
  for r in $(seq 1 "$rounds"); do
    echo "bench: scenes: run $r/$rounds" >&2
    # (the one-thread draws of run r on one CPU, as the workloads' rounds above)
    # (its two-thread draws on that CPU and one on another core, as the workloads' are:
    # bench_draw's --cpu gives the process back the CPUs it started with)
    cpu=(); [ "$(nproc)" -gt 1 ] && cpu=(--cpu "$(round_cpu "$r")")
    bench_speed_probe "$speed_prog" "$speed_file" "scenes run $r" "$(round_cpu "$r")"
    pin2 "$r"
    if ! "${pin[@]}" "$build/bench/bench_draw" "${cpu[@]}" > "$work/draw.$r" 2>&1; then
      cat "$work/draw.$r"; echo "bench: bench_draw failed" >&2; fails=$((fails + 1)); break
    fi
    [ "$r" = 1 ] && cat "$work/draw.1"
    awk '$1 ~ /^(mesh|blend)(-f)?$/' "$work/draw.$r" >> "$work/draw.rows"
  done
  printf 'bench: steal %%, the CPUs'"'"' time the host gave its other guests while the scenes ran: %s\n' \
    "$(steal_since "$s0")"
  printf '\nscenes over %s runs: paired = median of each run'"'"'s own ratio, best = fastest runs (ms), frame = fastest draws\n' "$rounds"
  printf '%-8s %9s %9s %10s %10s %10s %10s %8s %8s %8s %8s\n' scene paired1 paired2 texvm-1 \
    texvm-2 llvmpipe-1 llvmpipe-2 best1 best2 frame1 frame2
  for sc in mesh blend; do
    # column K of the scene's rows (without the ratios' x); of its fastest-draw rows
    col() { awk -v sc="$1" -v k="$2" '$1 == sc { sub("x", "", $k); print $k }' "$work/draw.rows"; }
    low() { col "$1" "$2" | sort -g | head -1; }
    [ -n "$(col "$sc" 2)" ] || continue
    b1=$(low "$sc" 2) b2=$(low "$sc" 3) l1=$(low "$sc" 4) l2=$(low "$sc" 5)
    f1=$(low "$sc-f" 2) f2=$(low "$sc-f" 3) g1=$(low "$sc-f" 4) g2=$(low "$sc-f" 5)
    awk -v sc="$sc" -v p1="$(col "$sc" 6 | median)" -v p2="$(col "$sc" 7 | median)" \
        -v b1="$b1" -v b2="$b2" -v l1="$l1" -v l2="$l2" -v f1="$f1" -v f2="$f2" -v g1="$g1" \
        -v g2="$g2" 'function r(a, b) { return (a > 0 && b > 0) ? sprintf("%7.2fx", a / b) : "      -" }
        BEGIN { printf "%-8s %8.2fx %8.2fx %10.2f %10.2f %10.2f %10.2f %s %s %s %s\n",
        sc, p1, p2, b1, b2, l1, l2, r(l1, b1), r(l2, b2), r(g1, f1), r(g2, f2) }'
  done
fi
# shellcheck disable=SC2086
bench_speed_probe "$speed_prog" "$speed_file" after $all_cpus
echo
bench_speed_report "$speed_file"
# texvm's output files of this run (WORKLOAD/texvmT/out.*), as paths under $work
run_outputs() { (cd "$work" && for n in "${names[@]}"; do
  find "./$n/texvm1" "./$n/texvm2" -maxdepth 1 -type f -name 'out.*' 2>/dev/null; done | sort); }
# (the folder was checked before the run; one gone since compares nothing, which fails)
if [ -n "$outputs_against" ]; then
  n_cmp=0 n_diff=0 n_absent=0
  while read -r f; do
    if [ ! -f "$outputs_against/$f" ]; then
      n_absent=$((n_absent + 1)); echo "bench: ${f#./}: not in $outputs_against" >&2
    elif cmp -s "$work/$f" "$outputs_against/$f"; then n_cmp=$((n_cmp + 1))
    else n_cmp=$((n_cmp + 1)) n_diff=$((n_diff + 1)); echo "bench: ${f#./}: differs" >&2; fi
  done < <(run_outputs)
  echo "outputs against $outputs_against: $n_cmp compared, $n_diff differ, $n_absent not saved there"
  [ $n_diff = 0 ] && [ $n_cmp -gt 0 ] || fails=$((fails + 1))
fi
if [ -n "$save_outputs" ]; then
  # (into a folder beside it, then renamed: an interrupted save leaves the old set whole)
  tmp_save="$save_outputs.tmp.$$"
  rm -rf "$tmp_save" && mkdir -p "$tmp_save" &&
    (cd "$work" && run_outputs | xargs -r cp --parents -t "$tmp_save") &&
    rm -rf "$save_outputs" && mv "$tmp_save" "$save_outputs" &&
    echo "outputs saved to $save_outputs: $(find "$save_outputs" -type f | wc -l) files" ||
    { echo "bench: could not save the outputs to $save_outputs" >&2; rm -rf "$tmp_save"; fails=$((fails + 1)); }
fi
[ $keep = 1 ] || find "$work" -name '*.rgba32f' -o -name '*.bin' | grep -v capture | xargs -r rm -f
[ $fails = 0 ] || { echo "bench: $fails failure(s): outputs that differ (above), a scene or a save" >&2; exit 1; }
exit 0
