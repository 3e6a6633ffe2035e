#!/usr/bin/env bash
# bench.speed (bench/CMakeLists.txt): the suite's CPU speed probes.
# - scripts/bench-speed.sh's report on stand-in probe files, each line worked out by hand:
#   a quiet run (no warning; the rounds' range), runs with a slow spell in one round (the
#   warning names that round as the slowest and the loop that moved most), the memory
#   loop's range alone (reported, no warning), a slow first probe, a file without probes,
#   and lines that are not probes (skipped);
# - bench_speed_probe's lines from a stand-in program's output;
# - bench/bench_cpu_speed itself (when its path is given): one line per CPU asked, in the
#   format the probe reads, with positive rates; its argument errors (exit 2) and a CPU
#   this process cannot run on (exit 1), each with a message.
#   bench/test_bench_speed.sh SOURCE_DIR [BENCH_CPU_SPEED]
set -uo pipefail
src=${1:?usage: bench/test_bench_speed.sh SOURCE_DIR [BENCH_CPU_SPEED]}
prog=${2:-}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "bench.speed: $*" >&2; exit 1; }
# shellcheck source=scripts/bench-speed.sh
. "$src/scripts/bench-speed.sh"
unset BENCH_SPEED_SPREAD

T=$'\t'
# expect_line FILE TEXT: the report of FILE has the line TEXT
expect_line() {
  bench_speed_report "$1" > "$tmp/out"
  grep -qxF -- "$2" "$tmp/out" || { cat "$tmp/out" >&2; fail "$1: no line '$2'"; }
}
no_line() {
  bench_speed_report "$1" > "$tmp/out"
  ! grep -q -- "$2" "$tmp/out" || { cat "$tmp/out" >&2; fail "$1: a line with '$2'"; }
}

# quiet: chain 3.49..3.60 (1.032x), vector 51.0..52.5 (1.029x), memory 39.5..41.5 (1.051x)
cat > "$tmp/quiet" <<TSV
before${T}0${T}3.50${T}52.14${T}40.00
before${T}1${T}3.58${T}51.42${T}41.00
null round 1${T}0${T}3.49${T}52.00${T}40.50
null round 2${T}1${T}3.55${T}51.00${T}39.50
scenes run 1${T}0${T}3.60${T}52.50${T}41.50
after${T}0${T}3.51${T}52.20${T}40.20
after${T}1${T}3.57${T}51.40${T}40.80
TSV
expect_line "$tmp/quiet" "bench: cpu speed before the run: cpu 0 3.50 / 52.1 / 40.0, cpu 1 3.58 / 51.4 / 41.0"
expect_line "$tmp/quiet" "bench: cpu speed after the run: cpu 0 3.51 / 52.2 / 40.2, cpu 1 3.57 / 51.4 / 40.8"
expect_line "$tmp/quiet" "bench: cpu speed before each round, on its CPU (3 probes): chain 3.49-3.60, vector 51.0-52.5, memory 39.5-41.5"
no_line "$tmp/quiet" WARNING
# a spread of 1.02: all three loops past it; of the two warned on, the chain's 1.03x the
# larger (the memory loop's 1.05x is reported, not warned on)
BENCH_SPEED_SPREAD=1.02 expect_line "$tmp/quiet" "bench: WARNING: the CPUs' speed moved while the suite ran: the chain loop 1.03x faster at its fastest probe (scenes run 1, cpu 0) than at its slowest (null round 1, cpu 0); rounds in a slow spell measure the host: read the paired, best and frame columns, or run again"

# a spell: trilinear round 2 on CPU 1 at chain 2.40, vector 30.0, memory 38.0 (vector
# 52.5 / 30.0 = 1.75x, chain 3.60 / 2.40 = 1.50x, memory 41.5 / 38.0 = 1.09x: the vector
# loop is named)
{ cat "$tmp/quiet"; printf 'trilinear round 2\t1\t2.40\t30.00\t38.00\n'; } > "$tmp/spell"
expect_line "$tmp/spell" "bench: cpu speed before each round, on its CPU (4 probes): chain 2.40-3.60, vector 30.0-52.5, memory 38.0-41.5"
expect_line "$tmp/spell" "bench: WARNING: the CPUs' speed moved while the suite ran: the vector loop 1.75x faster at its fastest probe (scenes run 1, cpu 0) than at its slowest (trilinear round 2, cpu 1); rounds in a slow spell measure the host: read the paired, best and frame columns, or run again"
# the shared cache alone slow: rotated round 3 on CPU 0 with the clock and ports at full
# speed, memory 10.0 (41.5 / 10.0 = 4.15x): in the range, no warning
{ cat "$tmp/quiet"; printf 'rotated round 3\t0\t3.55\t52.00\t10.00\n'; } > "$tmp/cache"
expect_line "$tmp/cache" "bench: cpu speed before each round, on its CPU (4 probes): chain 3.49-3.60, vector 51.0-52.5, memory 10.0-41.5"
no_line "$tmp/cache" WARNING
# a slow "before" probe counts too (chain 3.60 / 2.90 = 1.24x; vector 52.5 / 51.0 = 1.03x;
# memory 1.05x)
{ cat "$tmp/quiet"; printf 'before\t2\t2.90\t51.50\t40.00\n'; } > "$tmp/slowstart"
expect_line "$tmp/slowstart" "bench: WARNING: the CPUs' speed moved while the suite ran: the chain loop 1.24x faster at its fastest probe (scenes run 1, cpu 0) than at its slowest (before, cpu 2); rounds in a slow spell measure the host: read the paired, best and frame columns, or run again"

# none, and lines that are not probes (wrong field count, zero or non-numeric rates)
: > "$tmp/none"
expect_line "$tmp/none" "bench: cpu speed: not probed (bench/bench_cpu_speed not built or not run)"
printf 'before\t0\t3.5\t50\nbefore\t0\t0\t50\t40\nbefore\t0\tx\t50\t40\nbefore\t0\t3.5\t50\t0\n' > "$tmp/junk"
expect_line "$tmp/junk" "bench: cpu speed: not probed (bench/bench_cpu_speed not built or not run)"
{ cat "$tmp/junk"; printf 'before\t0\t3.50\t50.00\t30.00\n'; } > "$tmp/one"
expect_line "$tmp/one" "bench: cpu speed before the run: cpu 0 3.50 / 50.0 / 30.0"
no_line "$tmp/one" "before each round"
no_line "$tmp/one" WARNING

# bench_speed_probe: a stand-in program's lines (one not a probe's) to the file's
cat > "$tmp/fake" <<'SH'
#!/bin/sh
for c in "$@"; do echo "bench_cpu_speed: cpu $c: chain 3.2$c G adds/s, vector 4$c.50 G flops/s, memory 3$c.25 M loads/s"; done
echo "something else"
SH
chmod +x "$tmp/fake"
: > "$tmp/probes"
bench_speed_probe "$tmp/fake" "$tmp/probes" "loop round 3" 0 1
bench_speed_probe "$tmp/absent" "$tmp/probes" "loop round 4" 0   # (not built: nothing)
printf 'loop round 3\t0\t3.20\t40.50\t30.25\nloop round 3\t1\t3.21\t41.50\t31.25\n' > "$tmp/want"
cmp -s "$tmp/probes" "$tmp/want" || { cat "$tmp/probes" >&2; fail "bench_speed_probe's lines"; }

if [ -n "$prog" ]; then
  out=$("$prog" --repeat 1 0) || fail "bench_cpu_speed --repeat 1 0 failed"
  [ "$(wc -l <<< "$out")" = 1 ] || fail "bench_cpu_speed 0: not one line: $out"
  : > "$tmp/real"
  bench_speed_probe "$prog" "$tmp/real" before 0
  awk -F'\t' 'NF == 5 && $1 == "before" && $2 == 0 && $3 > 0.1 && $4 > 0.1 && $5 > 0.1 { ok = 1 }
    END { exit !ok }' "$tmp/real" || fail "bench_cpu_speed's line not read as a probe: $out"
  err() { # WANT_STATUS MESSAGE_PART ARGS...
    local want=$1 part=$2 got
    shift 2
    "$prog" "$@" > "$tmp/o" 2> "$tmp/e"; got=$?
    [ "$got" = "$want" ] || fail "bench_cpu_speed $*: exit $got, expected $want"
    grep -q -- "$part" "$tmp/e" || fail "bench_cpu_speed $*: no '$part' in: $(cat "$tmp/e")"
  }
  err 2 usage
  err 2 "a CPU is a number" x
  err 2 "a CPU is a number" -1
  err 2 "a CPU is a number" 4096
  err 2 "--repeat must be" --repeat 0 0
  err 2 "--repeat must be" --repeat 101 0
  err 2 usage --repeat 3
  err 1 "cannot run on cpu 4000" 4000
fi
echo "bench.speed: ok"
