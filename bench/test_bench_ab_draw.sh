#!/usr/bin/env bash
# bench.ab_draw (bench/CMakeLists.txt): scripts/bench-ab-draw.sh against stand-in builds
# whose bench_draw prints known draw times and picture hashes, so that its statistics and
# its picture check can be held to values worked out by hand (mesh):
#   old fastest one-thread 5.0 3.0 4.0 6.0 -> sorted 3.0 4.0 5.0 6.0: min 3.0, q1 (rank 2)
#       4.0, median (rank 2) 4.0; two-thread 10 12 11 13 -> min 10, q1 11, median 11
#   new fastest one-thread 2.5 2.0 9.0 1.5 -> min 1.5, q1 2.0, median 2.0, below old's in
#       rounds 1, 2 and 4 (3 of 4); two-thread 9 13 11 14 -> min 9, q1 11, median 11,
#       below old's in round 1 only (1 of 4: round 3's tie is not faster)
# the blend scene's fields hold other values (77.0, 88.0), which the mesh must not take; a
# build whose picture differs must fail (exit 1); bad arguments exit 2.
#   bench/test_bench_ab_draw.sh SOURCE_DIR
set -uo pipefail
src=${1:?usage: bench/test_bench_ab_draw.sh SOURCE_DIR}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# a stand-in build: bench/bench_draw prints the next of FAST (one-thread fastest) and MED
# (two-thread median) for the mesh, and PICTURE as the mesh's hash; its arguments go to args
fake() {
  local dir=$1 fast=$2 med=$3 picture=$4
  mkdir -p "$dir/bench"
  cat > "$dir/bench/bench_draw" <<EOF
#!/usr/bin/env bash
echo "\$*" > "$dir/args"
n=\$(cat "$dir/calls" 2>/dev/null || echo 0)
echo \$((n + 1)) > "$dir/calls"
set -- $fast
shift \$n
f=\$1
set -- $med
shift \$n
m=\$1
echo "bench_draw: kernels: stand-in"
echo "texvm-1: mesh     99.00 ms, blend     77.00 ms; texvm-2: mesh \$m ms, blend     88.00 ms; lit pixels 1 and 1; pictures fnv1a $picture 00000000000000bb; fastest texvm-1 draws \$f and 77.00 ms"
EOF
  chmod +x "$dir/bench/bench_draw"
}
fake "$tmp/old" "5.0 3.0 4.0 6.0" "10 12 11 13" "00000000000000aa"
fake "$tmp/new" "2.5 2.0 9.0 1.5" "9 13 11 14" "00000000000000aa"
fake "$tmp/bad" "1.0 1.0 1.0 1.0" "1 1 1 1" "00000000000000cc"
fail=0
log=$("$src/scripts/bench-ab-draw.sh" --rounds 4 --cpu 0 "$tmp/old" "$tmp/new" mesh 2>&1)
rc=$?
echo "$log"
[ $rc = 0 ] || { echo "FAIL: exit $rc for equal pictures"; fail=1; }
want=(
  'old fastest one-thread draw: min 3.0 q1 4.0 median 4.0 ms (4 runs)'
  'old two-thread median: min 10 q1 11 median 11 ms (4 runs)'
  'new fastest one-thread draw: min 1.5 q1 2.0 median 2.0 ms (4 runs)'
  'new two-thread median: min 9 q1 11 median 11 ms (4 runs)'
  'new faster (fastest one-thread draw): 3 of 4 rounds'
  'new faster (two-thread median): 1 of 4 rounds'
  'picture: the same bytes in every run (fnv1a 00000000000000aa)'
)
for w in "${want[@]}"; do
  grep -qxF "$w" <<< "$log" || { echo "FAIL: no line '$w'"; fail=1; }
done
[ "$(cat "$tmp/old/args")" = "--cpu 0 --texvm mesh" ] ||
  { echo "FAIL: bench_draw's arguments: $(cat "$tmp/old/args")"; fail=1; }

# the blend scene takes its own fields
rm -f "$tmp/old/calls" "$tmp/new/calls"
log=$("$src/scripts/bench-ab-draw.sh" --rounds 1 "$tmp/old" "$tmp/new" blend 2>&1)
rc=$?
echo "$log"
[ $rc = 0 ] || { echo "FAIL: exit $rc for the blend scene"; fail=1; }
for w in 'old fastest one-thread draw: min 77.00 q1 77.00 median 77.00 ms (1 runs)' \
         'new two-thread median: min 88.00 q1 88.00 median 88.00 ms (1 runs)' \
         'picture: the same bytes in every run (fnv1a 00000000000000bb)'; do
  grep -qxF "$w" <<< "$log" || { echo "FAIL: no line '$w'"; fail=1; }
done

rm -f "$tmp/old/calls"
log=$("$src/scripts/bench-ab-draw.sh" --rounds 2 "$tmp/old" "$tmp/bad" mesh 2>&1)
rc=$?
echo "$log"
[ $rc = 1 ] || { echo "FAIL: exit $rc where the pictures differ (want 1)"; fail=1; }
grep -q "the new build's picture (00000000000000cc) differs" <<< "$log" ||
  { echo "FAIL: no message for the difference"; fail=1; }

for args in "--rounds 0 $tmp/old $tmp/new mesh" "$tmp/old $tmp/new quad" \
            "$tmp/old $tmp/nothing mesh" "--cpu x $tmp/old $tmp/new mesh" "$tmp/old $tmp/new"; do
  # shellcheck disable=SC2086
  "$src/scripts/bench-ab-draw.sh" $args > /dev/null 2>&1
  rc=$?
  [ $rc = 2 ] || { echo "FAIL: exit $rc for '$args' (want 2)"; fail=1; }
done
exit $fail
