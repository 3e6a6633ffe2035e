#!/usr/bin/env bash
# bench.rows (bench/CMakeLists.txt): scripts/bench-rows.sh on two stand-in suite logs whose
# fields were chosen by hand, so that each cell of the expected table can be read off them:
# the one-thread cells are tv/lp1, paired1, best1 and frame1; the 2t/1t cells texvm's 2t/1t
# (medians), 2t/1t.best, 2t/1t.pair and llvmpipe2 / llvmpipe1 (e.g. 150 / 100 = 1.50) with
# lp.pair — a log from before the pair columns (B2) gives its cell without them; the scenes'
# paired1, best1, frame1 and paired2. A log without the ratios' table, or without a
# workload's row, must fail (exit 1) and name the log.
#   bench/test_bench_rows.sh SOURCE_DIR
set -uo pipefail
src=${1:?usage: bench/test_bench_rows.sh SOURCE_DIR}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "bench.rows: $*" >&2; exit 1; }

# a stand-in log: every workload's rates row gets lp1 100 and lp2 LP2, tv/lp1 R1, 2t/1t T;
# its ratios row paired1 P, best1 B, frame1 F, 2t/1t.best TB, 2t/1t.pair TP and lp.pair LP
# (neither column where TP is "old": a log of the suite before 2026-12-04)
log() { # FILE LP2 R1 T P B F TB SCENES(0/1) TP LP
  local f=$1 lp2=$2 r1=$3 t=$4 p=$5 b=$6 fr=$7 tb=$8 sc=$9 tp=${10} lpp=${11}
  {
    echo "bench: kernels: engine avx512f (a stand-in)"
    echo "workload   llvmpipe1 llvmpipe2  softpipe    texvm1    texvm2   tv/lp1   tv/lp2    tv/sp   2t/1t  vs llvmpipe/softpipe   peakMiB"
    for w in null bilinear trilinear rotated aniso math loop compute; do
      echo "$w 100.00 $lp2 3.00 1.00 1.00 $r1 9.99 9.99 $t exact/exact 1/2/3"
    done
    echo
    echo "ratios per round (paired, median of the rounds), of the fastest rounds (best) and of the fastest frames (frame):"
    if [ "$tp" = old ]; then
      echo "workload     paired1   paired2     best1     best2    frame1    frame2 2t/1t.best    rounds"
    else
      echo "workload     paired1   paired2     best1     best2    frame1    frame2 2t/1t.best    rounds 2t/1t.pair   lp.pair"
    fi
    for w in null bilinear trilinear rotated aniso math loop compute; do
      if [ "$tp" = old ]; then echo "$w $p 9.99 $b 9.99 $fr 9.99 $tb 3"
      else echo "$w $p 9.99 $b 9.99 $fr 9.99 $tb 3 $tp $lpp"; fi
    done
    echo "bench_store: 33177600 bytes: stores 38.94 GB/s, streaming stores 32.66 GB/s"
    if [ "$sc" = 1 ]; then
      echo "scene      paired1   paired2    texvm-1    texvm-2 llvmpipe-1 llvmpipe-2    best1    best2   frame1   frame2"
      echo "mesh         2.10x     3.20x      1.00      1.00      1.00      1.00    2.20x    9.99x    2.30x    9.99x"
      echo "blend        1.10x     1.20x      1.00      1.00      1.00      1.00    1.30x    9.99x    1.40x    9.99x"
    fi
  } > "$f"
}
log "$tmp/A1.log" 150.00 1.11 1.91 1.12 1.13 1.14 1.92 1 1.93 1.52
log "$tmp/B2.txt" 190.00 0.97 1.81 0.98 0.99 0.96 1.82 1 old -
cat > "$tmp/want" <<'EOF2'
| workload | A1 | B2 | 2t/1t A1 | 2t/1t B2 |
|---|---|---|---|---|
| null | 1.11 / 1.12 / 1.13 / 1.14 | 0.97 / 0.98 / 0.99 / 0.96 | 1.91 / 1.92 / 1.93 (1.50 / 1.52) | 1.81 / 1.82 (1.90) |
| bilinear | 1.11 / 1.12 / 1.13 / 1.14 | 0.97 / 0.98 / 0.99 / 0.96 | 1.91 / 1.92 / 1.93 (1.50 / 1.52) | 1.81 / 1.82 (1.90) |
| trilinear | 1.11 / 1.12 / 1.13 / 1.14 | 0.97 / 0.98 / 0.99 / 0.96 | 1.91 / 1.92 / 1.93 (1.50 / 1.52) | 1.81 / 1.82 (1.90) |
| rotated | 1.11 / 1.12 / 1.13 / 1.14 | 0.97 / 0.98 / 0.99 / 0.96 | 1.91 / 1.92 / 1.93 (1.50 / 1.52) | 1.81 / 1.82 (1.90) |
| aniso | 1.11 / 1.12 / 1.13 / 1.14 | 0.97 / 0.98 / 0.99 / 0.96 | 1.91 / 1.92 / 1.93 (1.50 / 1.52) | 1.81 / 1.82 (1.90) |
| math | 1.11 / 1.12 / 1.13 / 1.14 | 0.97 / 0.98 / 0.99 / 0.96 | 1.91 / 1.92 / 1.93 (1.50 / 1.52) | 1.81 / 1.82 (1.90) |
| loop | 1.11 / 1.12 / 1.13 / 1.14 | 0.97 / 0.98 / 0.99 / 0.96 | 1.91 / 1.92 / 1.93 (1.50 / 1.52) | 1.81 / 1.82 (1.90) |
| compute | 1.11 / 1.12 / 1.13 / 1.14 | 0.97 / 0.98 / 0.99 / 0.96 | 1.91 / 1.92 / 1.93 (1.50 / 1.52) | 1.81 / 1.82 (1.90) |
| mesh | 2.10× / 2.20× / 2.30× | 2.10× / 2.20× / 2.30× | 3.20× (2t) | 3.20× (2t) |
| blend | 1.10× / 1.30× / 1.40× | 1.10× / 1.30× / 1.40× | 1.20× (2t) | 1.20× (2t) |
EOF2
"$src/scripts/bench-rows.sh" "$tmp/A1.log" "$tmp/B2.txt" > "$tmp/got" 2> "$tmp/err" ||
  { cat "$tmp/err"; fail "exit $? on two whole logs"; }
diff "$tmp/want" "$tmp/got" || fail "the table differs from the hand-worked one (above)"

# the line --outputs-against prints after the scenes' table is not a scene
cp "$tmp/A1.log" "$tmp/A1o.log"
echo "outputs against /tmp/base: 16 compared, 0 differ, 0 not saved there at all today" >> "$tmp/A1o.log"
"$src/scripts/bench-rows.sh" "$tmp/A1o.log" "$tmp/B2.txt" | sed 's/A1o/A1/g' > "$tmp/got" ||
  fail "exit $? with the outputs' line"
diff "$tmp/want" "$tmp/got" || fail "the outputs' line changed the table (above)"

# without the scenes in one log: no scene rows
log "$tmp/C3.log" 150.00 1.11 1.91 1.12 1.13 1.14 1.92 0 1.93 1.52
"$src/scripts/bench-rows.sh" "$tmp/A1.log" "$tmp/C3.log" > "$tmp/got" || fail "exit $? without scenes"
[ "$(wc -l < "$tmp/got")" = 10 ] || fail "without scenes: $(wc -l < "$tmp/got") lines, not 10"
grep -q '^| mesh' "$tmp/got" && fail "without scenes: a scene row"

# a log without the ratios' table, and one without loop's row: exit 1, the log named
grep -v -e '^workload     paired1' "$tmp/A1.log" > "$tmp/noratio.log"
"$src/scripts/bench-rows.sh" "$tmp/noratio.log" > /dev/null 2> "$tmp/err"; rc=$?
[ $rc = 1 ] || fail "no ratios table: exit $rc, not 1"
grep -q "noratio.log: no ratios table" "$tmp/err" || { cat "$tmp/err"; fail "no ratios table: not named"; }
grep -v -e '^loop ' "$tmp/A1.log" > "$tmp/noloop.log"
"$src/scripts/bench-rows.sh" "$tmp/A1.log" "$tmp/noloop.log" > /dev/null 2> "$tmp/err"; rc=$?
[ $rc = 1 ] || fail "no loop row: exit $rc, not 1"
grep -q "noloop.log: no row for loop" "$tmp/err" || { cat "$tmp/err"; fail "no loop row: not named"; }
"$src/scripts/bench-rows.sh" "$tmp/absent.log" > /dev/null 2> "$tmp/err"; rc=$?
[ $rc = 1 ] && grep -q "cannot read it" "$tmp/err" || fail "an absent log: exit $rc"
echo "bench.rows: the hand-worked table, no scenes, and three bad logs as expected"
