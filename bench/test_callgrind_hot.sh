#!/usr/bin/env bash
# bench.callgrind_hot (bench/CMakeLists.txt): scripts/callgrind-hot.py on a callgrind file
# written by hand, its figures worked out below, then on callgrind's own output of a small
# program where valgrind is installed.
#   The file: positions "instr line", one event (Ir):
#     hot_loop  0x1000 100, 0x1004 100, 0x1008 50 (+0x4: a hex step), a call's line (its
#               inclusive cost 1000, which is not this function's: left out, but its
#               position 0x100a is the base of the next), 0x100d 7 (+3)
#     helper    (named in passing by cfn=) 0x2000 100, 0x1ff8 100 (-8), 0x1ff9 with no
#               count (never executed: not an instruction of the run)
#     other     0x1004 30 (the same instruction as hot_loop's, named by another caller)
#   By address: 0x1004 130, 0x1000 100, 0x2000 100, 0x1ff8 100, 0x1008 50, 0x100d 7:
#   487 executed, 6 distinct. --min 100: 4 hot, 430 of 487 = 88.3 %; the busiest 50 %
#   (243.5) take 3 (130 + 100 + 100 = 330), 90 % (438.3) 5 (480), 99 % (482.13) 6;
#   functions: hot_loop 2 (0x1000; 0x1004, where it ran 100 of 130), helper 2.
#   --pixels 640 --frames 10: 10 · 640 / 64 = 100, the same 4; --per 128: 50, 5 hot
#   (0x1008 too: 480 of 487 = 98.6 %). With "events: Dr Ir" and a Dr count of 9 before
#   each Ir count (cg2.out), the same figures as --min 100.
#   --base: the same file with one frame fewer (cg1.out: hot_loop 0x1000 50, 0x1004 40,
#   0x1008 50, 0x100d 2; helper 0x2000 40, 0x1ff8 100; other 0x1004 10): one frame is
#   hot_loop 0x1000 50, 0x1004 60, 0x100d 5; helper 0x2000 60 (0x1ff8 and 0x1008 did not
#   grow: 0); other 0x1004 20. By address 0x1004 80, 0x2000 60, 0x1000 50, 0x100d 5: 195
#   executed, 4 distinct; --pixels 3200 (3200 / 64 = 50): 3 hot, 190 of 195 = 97.4 %;
#   busiest 50 % (97.5) 2 (140), 90 % (175.5) 3 (190), 99 % (193.05) 4; functions
#   hot_loop 2 (0x1004: 60 of its 80), helper 1.
#   bench/test_callgrind_hot.sh SOURCE_DIR
set -uo pipefail
src=${1:?usage: bench/test_callgrind_hot.sh SOURCE_DIR}
hot=$src/scripts/callgrind-hot.py
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cat > "$tmp/cg.out" <<'EOF'
version: 1
creator: callgrind-3.19.0
positions: instr line
events: Ir
summary: 487
fl=(1) a.c
fn=(1) hot_loop
0x1000 10 100
+4 * 100
+0x4 11 50
cfn=(2) helper
calls=2 0x2000 20
+2 12 1000
+3 * 7
fn=(2)
0x2000 20 100
-8 21 100
+1 22
fn=(3) other
0x1004 10 30
EOF
sed -e 's/^0x1000 10 100$/0x1000 10 50/' -e 's/^+4 \* 100$/+4 * 40/' -e 's/^+0x4 11 50$/+0x4 11 50/' \
    -e 's/^+3 \* 7$/+3 * 2/' -e 's/^0x2000 20 100$/0x2000 20 40/' -e 's/^0x1004 10 30$/0x1004 10 10/' \
    "$tmp/cg.out" > "$tmp/cg1.out"
fail=0
check() { # check NAME EXPECTED-EXIT LINE-REGEX... -- ARGS...
  local name=$1 want=$2 out rc
  shift 2
  local pats=()
  while [ "$1" != -- ]; do pats+=("$1"); shift; done
  shift
  out=$("$hot" "$@" 2>&1)
  rc=$?
  [ $rc = "$want" ] || { echo "FAIL: $name: exit $rc, not $want"; echo "$out"; fail=1; return; }
  for p in "${pats[@]}"; do
    grep -qE -- "$p" <<< "$out" || { echo "FAIL: $name: no line /$p/ in:"; echo "$out"; fail=1; }
  done
}
check min100 0 ': 487 instructions executed, 6 distinct$' \
  '^callgrind-hot: hot \(at least 100 times\): 4 instructions, 88\.3 % of those executed$' \
  ': 50 %: 3, 90 %: 5, 99 %: 6$' '^ +2  hot_loop$' '^ +2  helper$' \
  -- "$tmp/cg.out" --min 100 --functions 5
# --min 5: all 6 hot (100.0 %); 0x100d, after the call, is still hot_loop's (cfn= names
# the callee without making it the current function): hot_loop 4, helper 2
check min5 0 'hot \(at least 5 times\): 6 instructions, 100\.0 %' '^ +4  hot_loop$' '^ +2  helper$' \
  -- "$tmp/cg.out" --min 5 --functions 5
check pixels 0 '\(at least once per 64 pixels of 10 frames of 640: 100 times\): 4 instructions, 88\.3 %' \
  -- "$tmp/cg.out" --pixels 640 --frames 10
check per128 0 ': 50 times\): 5 instructions, 98\.6 %' \
  -- "$tmp/cg.out" --pixels 640 --frames 10 --per 128
check base 0 'cg.out less .*cg1.out: 195 instructions executed, 4 distinct$' \
  '\(at least once per 64 pixels of 1 frames of 3200: 50 times\): 3 instructions, 97\.4 %' \
  ': 50 %: 2, 90 %: 3, 99 %: 4$' '^ +2  hot_loop$' '^ +1  helper$' \
  -- "$tmp/cg.out" --base "$tmp/cg1.out" --pixels 3200 --functions 5
check base-frames 2 '--frames: one frame with --base' \
  -- "$tmp/cg.out" --base "$tmp/cg1.out" --pixels 3200 --frames 2
# no other function listed: "other" ran no hot instruction most
out=$("$hot" "$tmp/cg.out" --min 100 --functions 5)
grep -q ' other$' <<< "$out" && { echo "FAIL: other listed"; fail=1; }
# errors: exit 2 with the reason
printf 'version: 1\npositions: line\nevents: Ir\nfn=(1) f\n10 5\n' > "$tmp/lines.out"
check lines-only 2 'lines.out:2: positions are "line", not instructions \(run callgrind with --dump-instr=yes\)' \
  -- "$tmp/lines.out" --min 1
printf 'version: 1\nevents: Ir\n' > "$tmp/none.out"
check no-positions 2 'none.out: no "positions:" line: not callgrind output' -- "$tmp/none.out" --min 1
printf 'positions: instr\nevents: Ir\nfn=(1) f\n0xZZ 5\n' > "$tmp/badpos.out"
check bad-position 2 'badpos.out:4: not a position: 0xZZ' -- "$tmp/badpos.out" --min 1
# the instruction count in another column: the same figures
sed -e 's/^events: Ir$/events: Dr Ir/' -e 's/^\(0x[0-9a-f]* [0-9]*\|[-+][0-9a-fx]* [0-9*]*\) \([0-9]*\)$/\1 9 \2/' \
    "$tmp/cg.out" > "$tmp/cg2.out"
check events 0 ': 487 instructions executed, 6 distinct$' 'hot \(at least 100 times\): 4 instructions, 88\.3 %' \
  -- "$tmp/cg2.out" --min 100
printf 'positions: instr\nevents: Dr\nfn=(1) f\n0x10 5\n' > "$tmp/noir.out"
check no-ir 2 'noir.out:2: no Ir among the events "Dr"' -- "$tmp/noir.out" --min 1
printf 'positions: instr\nevents: Ir\nfn=(1) f\n0x10 x5\n' > "$tmp/badcount.out"
check bad-count 2 'badcount.out:4: not a count: x5' -- "$tmp/badcount.out" --min 1
check missing 2 'callgrind-hot: .*/absent.out: No such file or directory' -- "$tmp/absent.out" --min 1
check both 2 '--min or --pixels with --frames, not both' -- "$tmp/cg.out" --min 3 --pixels 5
check neither 2 'the threshold: --min N, or --pixels P with --frames F \(or --base\)' -- "$tmp/cg.out"
check zero 2 '--min: at least 1' -- "$tmp/cg.out" --min 0
# callgrind's own output (a small program's): parsed, and its busiest code hot
if command -v valgrind > /dev/null; then
  if valgrind --tool=callgrind --dump-instr=yes --callgrind-out-file="$tmp/real.out" \
       /bin/true > "$tmp/vg.log" 2>&1; then
    check real 0 ': [1-9][0-9]* instructions executed, [1-9][0-9]* distinct$' \
      'hot \(at least 100 times\): [1-9][0-9]* instructions' -- "$tmp/real.out" --min 100
  else
    echo "FAIL: valgrind --tool=callgrind on /bin/true"; cat "$tmp/vg.log"; fail=1
  fi
else
  echo "bench.callgrind_hot: no valgrind: callgrind's own output not read"
fi
[ $fail = 0 ] && echo "bench.callgrind_hot: all checks passed"
exit $fail
