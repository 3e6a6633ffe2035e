#!/usr/bin/env bash
# bench.portable (bench/CMakeLists.txt): scripts/bench-portable.sh packs the jobs bench.quick
# left in BUILD/bench-suite with a JIT-less build, and the pack's run.sh runs here from
# another directory: it must name this CPU and texvm's kernels (JIT none) and give a one-
# and a two-thread time for every workload. 77 (skipped) when bench.quick left no jobs.
#   bench/test_portable.sh SOURCE_DIR BUILD_DIR
set -uo pipefail
src=${1:?usage: bench/test_portable.sh SOURCE_DIR BUILD_DIR}
bin=${2:?usage: bench/test_portable.sh SOURCE_DIR BUILD_DIR}
workloads=(null bilinear trilinear rotated aniso math loop compute)
for w in "${workloads[@]}"; do
  [ -f "$bin/bench-suite/$w/job.json" ] ||
    { echo "no $bin/bench-suite/$w/job.json: skipped"; exit 77; }
done
out=$bin/portable-out
pack_log=$("$src/scripts/bench-portable.sh" --rounds 1 --suite "$bin/bench-suite" \
  --build-dir "$bin/portable-build" "$out" 2>&1) || {
  echo "$pack_log"; echo "FAIL: bench-portable.sh"; exit 1; }
echo "$pack_log"
# the JIT-less build compiles without a warning (what it compiled this time: the build
# folder is kept between runs, so a clean checkout's run compiles every file)
if grep -q "warning:" <<< "$pack_log"; then echo "FAIL: the JIT-less build warned"; exit 1; fi
# run from elsewhere, as on the other machine: everything it reads lies in the pack
log=$(cd / && "$out/run.sh" 2>&1)
echo "$log"
fail=0
grep -q '^cpu: ' <<< "$log" || { echo "FAIL: no cpu line"; fail=1; }
grep -q '^kernels: .*jit none' <<< "$log" || { echo "FAIL: no kernels line with jit none"; fail=1; }
grep -q '^bench_store: .* GB/s' <<< "$log" || { echo "FAIL: no store bandwidth"; fail=1; }
for w in "${workloads[@]}"; do
  grep -Eq "^round 1 $w 1t [0-9]+\.[0-9]+ ms 2t [0-9]+\.[0-9]+ ms$" <<< "$log" ||
    { echo "FAIL: no times for $w"; fail=1; }
done
# the pack leaves no outputs behind
if ls "$out"/*/out.* > /dev/null 2>&1; then echo "FAIL: outputs left in the pack"; fail=1; fi
exit $fail
