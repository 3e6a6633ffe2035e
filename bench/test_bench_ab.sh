#!/usr/bin/env bash
# bench.ab (bench/CMakeLists.txt): scripts/bench-ab.sh against stand-in builds whose
# bench_job prints known medians and writes known outputs, so that its statistics and its
# output check can be held to values worked out by hand:
#   old medians 5.0 3.0 4.0 6.0 -> sorted 3.0 4.0 5.0 6.0: min 3.0, q1 (rank 2) 4.0,
#                                   median (rank 2) 4.0
#   new medians 2.5 2.0 9.0 1.5 -> sorted 1.5 2.0 2.5 9.0: min 1.5, q1 2.0, median 2.0
# and a build whose output bytes differ must fail the comparison (exit 1).
#   bench/test_bench_ab.sh SOURCE_DIR
set -uo pipefail
src=${1:?usage: bench/test_bench_ab.sh SOURCE_DIR}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# a stand-in build: bench/bench_job prints the next of MEDIANS on each call and writes
# out.test holding CONTENT beside the job (its working directory)
fake() {
  local dir=$1 medians=$2 content=$3
  mkdir -p "$dir/bench"
  cat > "$dir/bench/bench_job" <<EOF
#!/usr/bin/env bash
n=\$(cat "$dir/calls" 2>/dev/null || echo 0)
echo \$((n + 1)) > "$dir/calls"
set -- $medians
shift \$n
printf '%s\n' "$content" > out.test
echo "bench_job: FRAG: median \$1 ms over 5 runs, 1.00 Mpixels/s on 1 thread"
EOF
  chmod +x "$dir/bench/bench_job"
}
fake "$tmp/old" "5.0 3.0 4.0 6.0" "same"
fake "$tmp/new" "2.5 2.0 9.0 1.5" "same"
fake "$tmp/bad" "1.0 1.0 1.0 1.0" "other"
mkdir -p "$tmp/job"
echo '{}' > "$tmp/job/job.json"
fail=0
log=$("$src/scripts/bench-ab.sh" --rounds 4 --repeat 2 "$tmp/old" "$tmp/new" "$tmp/job/job.json" 2>&1)
rc=$?
echo "$log"
[ $rc = 0 ] || { echo "FAIL: exit $rc for equal outputs"; fail=1; }
grep -qx 'old min 3.0 q1 4.0 median 4.0 ms (4 runs)' <<< "$log" || { echo "FAIL: old's figures"; fail=1; }
grep -qx 'new min 1.5 q1 2.0 median 2.0 ms (4 runs)' <<< "$log" || { echo "FAIL: new's figures"; fail=1; }
grep -q '^outputs: the same bytes in every run (1 file(s))$' <<< "$log" ||
  { echo "FAIL: no outputs line"; fail=1; }
[ ! -e "$tmp/job/out.test" ] || { echo "FAIL: outputs left beside the job"; fail=1; }

rm -f "$tmp/old/calls"
log=$("$src/scripts/bench-ab.sh" --rounds 2 "$tmp/old" "$tmp/bad" "$tmp/job/job.json" 2>&1)
rc=$?
echo "$log"
[ $rc = 1 ] || { echo "FAIL: exit $rc where the outputs differ (want 1)"; fail=1; }
grep -q "the new build's outputs differ" <<< "$log" || { echo "FAIL: no message for the difference"; fail=1; }

"$src/scripts/bench-ab.sh" --rounds 0 "$tmp/old" "$tmp/new" "$tmp/job/job.json" > /dev/null 2>&1
rc=$?
[ $rc = 2 ] || { echo "FAIL: exit $rc for --rounds 0 (want 2)"; fail=1; }
"$src/scripts/bench-ab.sh" "$tmp/old" "$tmp/nothing" "$tmp/job/job.json" > /dev/null 2>&1
rc=$?
[ $rc = 2 ] || { echo "FAIL: exit $rc for a build without bench_job (want 2)"; fail=1; }
exit $fail
