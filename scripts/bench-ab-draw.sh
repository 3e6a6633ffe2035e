#!/usr/bin/env bash
# A change to the drawing path, measured as bench-ab.sh measures one of a job's
# (docs/performance.md §1.2), for one of bench_draw's scenes: the old and the new build's
# `bench_draw --cpu K --texvm SCENE` run in turn ROUNDS times (each process draws the scene
# six times on one thread, pinned to CPU K, then six times on two threads, unpinned). Kept
# of each process: its fastest one-thread draw (what a noisy host disturbs least: the
# medians of five draws did not separate two builds on the Intel model 0xcf core, history
# §41.1) and its median two-thread draw. Printed for each build: the minimum, lower
# quartile and median of both, and in how many rounds the new build was the faster. The
# scene's picture must be the same bytes in every run (bench_draw's fnv1a of it): a
# rewrite may not change it, so it fails (exit 1) where it differs.
#   scripts/bench-ab-draw.sh [--rounds N] [--cpu K] OLD_BUILD NEW_BUILD mesh|blend
# OLD_BUILD and NEW_BUILD are build directories with bench/bench_draw; defaults: 12 rounds,
# CPU 1 (0 on a one-CPU machine).
set -euo pipefail
ab_name=bench-ab-draw
. "$(dirname "$0")/bench-ab-common.sh"
rounds=12
cpu=
usage="usage: scripts/bench-ab-draw.sh [--rounds N] [--cpu K] OLD_BUILD NEW_BUILD mesh|blend"
while [ $# -gt 3 ]; do
  case "$1" in
    --rounds) rounds=$2; shift 2 ;;
    --cpu) cpu=$2; shift 2 ;;
    *) echo "bench-ab-draw: unknown option $1" >&2; echo "$usage" >&2; exit 2 ;;
  esac
done
[ $# = 3 ] || { echo "$usage" >&2; exit 2; }
ab_count "--rounds needs a positive count" "$rounds"
old=$1 new=$2 scene=$3
case "$scene" in
  mesh) field=1 ;;
  blend) field=2 ;;
  *) echo "bench-ab-draw: the scene is mesh or blend, not $scene" >&2; exit 2 ;;
esac
for b in "$old" "$new"; do
  [ -x "$b/bench/bench_draw" ] || { echo "bench-ab-draw: no $b/bench/bench_draw" >&2; exit 2; }
done
cpu=$(ab_cpu "$cpu")

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# one process: "FASTEST1 MEDIAN2 PICTURE" of the scene on stdout
run() {
  local b=$1 log
  if ! log=$("$b/bench/bench_draw" --cpu "$cpu" --texvm "$scene" 2>&1); then
    echo "bench-ab-draw: $b/bench/bench_draw failed:" >&2
    echo "$log" >&2
    exit 1
  fi
  local line
  line=$(grep '^texvm-1: ' <<< "$log" | head -n 1)
  # texvm-1: mesh M ms, blend B ms; texvm-2: mesh M ms, blend B ms; lit pixels ..;
  # pictures fnv1a HM HB; fastest texvm-1 draws FM and FB ms
  local out
  out=$(sed -n "s/.*texvm-2: mesh *\([0-9.]*\) ms, blend *\([0-9.]*\) ms.*pictures fnv1a \([0-9a-f]*\) \([0-9a-f]*\); fastest texvm-1 draws \([0-9.]*\) and \([0-9.]*\) ms.*/\5 \1 \3 \6 \2 \4/p" <<< "$line")
  [ -n "$out" ] || { echo "bench-ab-draw: no draw times in bench_draw's output:" >&2; echo "$log" >&2; exit 1; }
  # the scene's three of the six: mesh fields 1-3, blend 4-6
  awk -v f="$field" '{ o = 3 * (f - 1); print $(o + 1), $(o + 2), $(o + 3) }' <<< "$out"
}
echo "bench-ab-draw: $scene, $rounds rounds of old then new, one-thread draws on CPU $cpu"
picture=
for r in $(seq 1 "$rounds"); do
  for t in old new; do
    b=$old
    [ "$t" = new ] && b=$new
    res=$(run "$b") || exit 1
    read -r fast med pic <<< "$res"
    echo "$r $t $fast $med" >> "$tmp/times"
    [ -n "$picture" ] || picture=$pic
    if [ "$pic" != "$picture" ]; then
      echo "bench-ab-draw: round $r: the $t build's picture ($pic) differs from the first run's ($picture)" >&2
      exit 1
    fi
  done
done
what=("" "" "" "fastest one-thread draw" "two-thread median")   # by column of $tmp/times
for t in old new; do
  for c in 3 4; do
    echo "$t ${what[$c]}: $(awk -v t="$t" -v c="$c" '$2 == t {print $c}' "$tmp/times" | ab_stats)"
  done
done
# rounds where the new build's figure is below the old one's
for c in 3 4; do
  awk -v c="$c" -v what="${what[$c]}" '
    $2 == "old" { o[$1] = $c } $2 == "new" { nw[$1] = $c }
    END { k = 0; n = 0; for (r in o) { n++; if (nw[r] + 0 < o[r] + 0) k++ }
          printf "new faster (%s): %d of %d rounds\n", what, k, n }' "$tmp/times"
done
echo "picture: the same bytes in every run (fnv1a $picture)"
exit 0
