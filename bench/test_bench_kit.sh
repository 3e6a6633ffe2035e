#!/usr/bin/env bash
# bench.kit (bench/CMakeLists.txt): scripts/bench-kit.sh packs this build's suite programs
# with Mesa and the libraries they load, and the kit's run.sh runs the suite's smoke test
# (--quick) from another directory, as on another machine: it must name the machine, its
# CPUs' cores, the build's kernels and a row for every workload, and refuse a work folder that is not its own.
# Where the build has libdw, it also profiles (--profile) the bilinear workload and the mesh
# scene, one thread and two: four reports, each with its samples and a function of the
# program named.
# 77 (skipped) where this build has no mesa-run (no Mesa here).
#   bench/test_bench_kit.sh SOURCE_DIR BUILD_DIR
set -uo pipefail
src=${1:?usage: bench/test_bench_kit.sh SOURCE_DIR BUILD_DIR}
bin=${2:?usage: bench/test_bench_kit.sh SOURCE_DIR BUILD_DIR}
bin=$(cd "$bin" && pwd)
for p in bench/bench_job bench/bench_draw bench/bench_store bench/bench_cpu_speed tools/mesa-run \
         tests/conf_compare texvm; do
  [ -x "$bin/$p" ] || { echo "no $bin/$p: skipped"; exit 77; }
done
out=$bin/kit-out
work=$bin/kit-work
# (level 0: the test checks the packing, not the archive's size)
pack_log=$("$src/scripts/bench-kit.sh" --build "$bin" --xz-level 0 "$out" 2>&1) || {
  echo "$pack_log"; echo "FAIL: bench-kit.sh"; exit 1; }
echo "$pack_log"
fail=0
[ -f "$out/kit.tar.xz" ] && [ -x "$out/run.sh" ] || { echo "FAIL: no kit.tar.xz and run.sh"; exit 1; }
# a work folder holding something else is refused before anything is unpacked into it
mkdir -p "$bin/kit-foreign" && : > "$bin/kit-foreign/keep"
if (cd / && "$out/run.sh" --work "$bin/kit-foreign" --quick > /dev/null 2>&1); then
  echo "FAIL: a foreign work folder was accepted"; fail=1
fi
[ -f "$bin/kit-foreign/keep" ] || { echo "FAIL: the foreign folder was emptied"; fail=1; }
rm -rf "$bin/kit-foreign"
prof=()
grep -q '^BENCH_LIBDW_FOUND:INTERNAL=1' "$bin/CMakeCache.txt" 2> /dev/null &&
  prof=(--profile bilinear,mesh --profile-repeat 300)
log=$(cd / && "$out/run.sh" --work "$work" "${prof[@]}" --quick 2>&1)
st=$?
echo "$log"
[ $st = 0 ] || { echo "FAIL: run.sh exited $st"; fail=1; }
name=$(basename "$bin")
grep -q '^kit: packed ' <<< "$log" || { echo "FAIL: no kit line"; fail=1; }
grep -q '^glibc: [0-9]' <<< "$log" || { echo "FAIL: no glibc line"; fail=1; }
grep -Eq '^topology: [0-9]+ CPUs on [0-9]+ cores' <<< "$log" || { echo "FAIL: no topology line"; fail=1; }
grep -q "^== $name: kernels: engine " <<< "$log" || { echo "FAIL: no kernels line"; fail=1; }
grep -q "^suite $name: exit 0 " <<< "$log" || { echo "FAIL: the suite did not pass"; fail=1; }
table=$work/suite-$name.txt
grep -Eq '^bench: topology: [0-9]+ CPUs on [0-9]+ cores' "$table" ||
  { echo "FAIL: no topology line in $table"; fail=1; }
grep -Eq '^bench: cpu speed before the run: cpu 0 [0-9]+\.[0-9]+ / [0-9]+\.[0-9] / [0-9]+\.[0-9]' "$table" ||
  { echo "FAIL: no cpu speed line in $table"; fail=1; }
for w in null bilinear trilinear rotated aniso math loop compute; do
  grep -Eq "^$w +[0-9]+\.[0-9]+ +[0-9]+\.[0-9]+ +[0-9]+\.[0-9]+ +[0-9]+\.[0-9]+ " "$table" ||
    { echo "FAIL: no row for $w in $table"; fail=1; }
done
if [ ${#prof[@]} -gt 0 ]; then
  pf=$work/profile-$name.txt
  grep -q "^profile $name: exit 0: " <<< "$log" || { echo "FAIL: the profiles did not pass"; fail=1; }
  [ -f "$pf" ] && cat "$pf"
  # each of the four reports: a header, a positive sample count, a named function
  for h in "bilinear, 1 thread(s)" "bilinear, 2 thread(s)" "mesh, 1 thread(s)" "mesh, 2 thread(s)"; do
    awk -v h="== $h" 'index($0, "== ") == 1 { on = index($0, h) == 1; next }
                      on && /^profile: [1-9][0-9]* samples / { s = 1 }
                      on && /^ +[0-9.]+% +[0-9]+  [a-z_][^ ]*  \(bench_(job|draw)\)$/ { f = 1 }
                      END { exit !(s && f) }' "$pf" 2> /dev/null ||
      { echo "FAIL: no report with samples and a named function for $h"; fail=1; }
  done
fi
rm -rf "$work" "$out"
exit $fail
