#!/usr/bin/env bash
# A change to a hot path, measured as this project measures one on a noisy machine
# (docs/performance.md §1.2): the old and the new build's bench_job run one job in turn,
# pinned to one CPU, ROUNDS times; each run's median frame time is kept, and each build's
# minimum, lower quartile and median of them are printed. Every run's outputs (the out.*
# files bench_job leaves beside the job) must be the same bytes as the first run's: a
# rewrite may not change them, so it fails (exit 1) where they differ.
#   scripts/bench-ab.sh [--rounds N] [--repeat R] [--cpu K] [--threads T] OLD_BUILD NEW_BUILD JOB_FILE
# OLD_BUILD and NEW_BUILD are build directories with bench/bench_job (a `git worktree` of the
# base built beside the tree, say); defaults: 12 rounds, --repeat 5, 1 thread pinned to
# CPU 1 (0 on a one-CPU machine); with --threads above 1 and no --cpu, unpinned. Environment
# variables reach both builds alike.
set -euo pipefail
ab_name=bench-ab
. "$(dirname "$0")/bench-ab-common.sh"
. "$(dirname "$0")/bench-jobs.sh"   # (bench_median_ms)
rounds=12
repeat=5
cpu=
threads=1
usage="usage: scripts/bench-ab.sh [--rounds N] [--repeat R] [--cpu K] [--threads T] OLD_BUILD NEW_BUILD JOB_FILE"
while [ $# -gt 3 ]; do
  case "$1" in
    --rounds) rounds=$2; shift 2 ;;
    --repeat) repeat=$2; shift 2 ;;
    --cpu) cpu=$2; shift 2 ;;
    --threads) threads=$2; shift 2 ;;
    *) echo "bench-ab: unknown option $1" >&2; echo "$usage" >&2; exit 2 ;;
  esac
done
[ $# = 3 ] || { echo "$usage" >&2; exit 2; }
ab_count "--rounds, --repeat and --threads need positive counts" "$rounds" "$repeat" "$threads"
old=$1 new=$2 job=$3
for b in "$old" "$new"; do
  [ -x "$b/bench/bench_job" ] || { echo "bench-ab: no $b/bench/bench_job" >&2; exit 2; }
done
[ -f "$job" ] || { echo "bench-ab: no job file $job" >&2; exit 2; }
# one thread runs pinned; more run on every CPU unless --cpu is given (pinning two threads
# to one CPU would time them taking turns)
pin=()
if [ "$threads" = 1 ] || [ -n "$cpu" ]; then
  cpu=$(ab_cpu "$cpu")
  command -v taskset > /dev/null && pin=(taskset -c "$cpu")
else
  cpu="any"
fi
jobdir=$(cd "$(dirname "$job")" && pwd)
jobname=$(basename "$job")
old=$(cd "$old" && pwd)
new=$(cd "$new" && pwd)

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# one run: its median (ms) on stdout, its outputs' checksums in $tmp/sums.<build>
run() {
  local b=$1 tag=$2 log
  rm -f "$jobdir"/out.*
  if ! log=$(cd "$jobdir" && "${pin[@]}" "$b/bench/bench_job" "$jobname" --threads "$threads" \
               --repeat "$repeat" 2>&1); then
    echo "bench-ab: $b/bench/bench_job failed:" >&2
    echo "$log" >&2
    exit 1
  fi
  local ms
  ms=$(bench_median_ms <<< "$log")
  [ -n "$ms" ] || { echo "bench-ab: no median in bench_job's output:" >&2; echo "$log" >&2; exit 1; }
  (cd "$jobdir" && for f in out.*; do [ -e "$f" ] && sha256sum "$f"; done) > "$tmp/sums.$tag"
  echo "$ms"
}
echo "bench-ab: $jobname, $rounds rounds of old then new, --repeat $repeat, $threads thread(s), CPU $cpu"
for r in $(seq 1 "$rounds"); do
  ms=$(run "$old" old) || exit 1
  echo "old $ms" >> "$tmp/times"
  ms=$(run "$new" new) || exit 1
  echo "new $ms" >> "$tmp/times"
  [ -f "$tmp/sums.first" ] || cp "$tmp/sums.old" "$tmp/sums.first"
  for t in old new; do
    if ! cmp -s "$tmp/sums.first" "$tmp/sums.$t"; then
      echo "bench-ab: round $r: the $t build's outputs differ from the first run's" >&2
      diff "$tmp/sums.first" "$tmp/sums.$t" >&2 || true
      exit 1
    fi
  done
done
rm -f "$jobdir"/out.*
for t in old new; do
  echo "$t $(awk -v t="$t" '$1 == t {print $2}' "$tmp/times" | ab_stats)"
done
[ -s "$tmp/sums.first" ] && echo "outputs: the same bytes in every run ($(wc -l < "$tmp/sums.first") file(s))"
exit 0
