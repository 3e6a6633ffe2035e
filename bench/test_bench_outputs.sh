#!/usr/bin/env bash
# bench.outputs (bench/CMakeLists.txt): scripts/bench.sh's --save-outputs and
# --outputs-against on the null workload's smoke run (--quick): the steal line names null,
# the saved set holds the one- and two-thread output files, a second run compares equal to
# it, a saved file with one byte changed fails the run (exit 1) and names the file, and a
# folder that is not there is refused before anything runs (exit 2), as is a --work folder
# holding something else; the runs use a work folder of their own. Skipped (77) as
# bench.quick is: without Mesa's EGL or the build's bench programs.
#   bench/test_bench_outputs.sh SOURCE_DIR BUILD_DIR
set -uo pipefail
src=${1:?usage: bench/test_bench_outputs.sh SOURCE_DIR BUILD_DIR}
build=${2:?usage: bench/test_bench_outputs.sh SOURCE_DIR BUILD_DIR}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "bench.outputs: $*" >&2; exit 1; }
# (in a work folder of its own: the build's bench-suite, which
# bench-ab.sh reads, stays as bench.quick left it)
suite() {
  "$src/scripts/bench.sh" --quick --build "$build" --work "$tmp/suite" "$@" null \
    > "$tmp/log" 2>&1
}
before=$(ls -id "$build/bench-suite" 2> /dev/null; ls -A "$build/bench-suite" 2> /dev/null)

suite --save-outputs "$tmp/saved"; rc=$?
[ $rc = 77 ] && { echo "bench.outputs: skipped (the suite cannot run here)"; exit 77; }
[ $rc = 0 ] || { cat "$tmp/log"; fail "the saving run exited $rc"; }
grep -q "^outputs saved to $tmp/saved: 2 files$" "$tmp/log" || { cat "$tmp/log"; fail "no 'saved: 2 files' line"; }
for t in 1 2; do
  [ -s "$tmp/saved/null/texvm$t/out.rgba32f" ] || fail "null/texvm$t/out.rgba32f not saved"
done
# the host's steal time while the workload ran: a share in per cent ("-" without /proc/stat)
grep -Eq "^bench: steal %, .* while each workload ran: null ([0-9]+\.[0-9]|-)$" "$tmp/log" ||
  { cat "$tmp/log"; fail "no steal line for null"; }
ls "$tmp" | grep -q '\.tmp\.' && fail "the save's temporary folder was left behind"

suite --outputs-against "$tmp/saved"; rc=$?
[ $rc = 0 ] || { cat "$tmp/log"; fail "the same outputs: exit $rc, not 0"; }
grep -q "^outputs against $tmp/saved: 2 compared, 0 differ, 0 not saved there$" "$tmp/log" ||
  { cat "$tmp/log"; fail "the same outputs: not '2 compared, 0 differ'"; }

# one byte of the saved one-thread file changed: that file, and only it, differs
cp -r "$tmp/saved" "$tmp/changed"
f="$tmp/changed/null/texvm1/out.rgba32f"
b=$(od -An -tu1 -j 64 -N 1 "$f" | tr -d ' ')
printf "\\$(printf '%03o' $(( (b + 1) % 256 )))" | dd of="$f" bs=1 seek=64 conv=notrunc 2> /dev/null
cmp -s "$f" "$tmp/saved/null/texvm1/out.rgba32f" && fail "the test's change left the file as it was"
suite --outputs-against "$tmp/changed"; rc=$?
[ $rc = 1 ] || { cat "$tmp/log"; fail "a changed output: exit $rc, not 1"; }
grep -q "^bench: null/texvm1/out.rgba32f: differs$" "$tmp/log" || { cat "$tmp/log"; fail "the changed file not named"; }
grep -q "^outputs against $tmp/changed: 2 compared, 1 differ, 0 not saved there$" "$tmp/log" ||
  { cat "$tmp/log"; fail "a changed output: not '2 compared, 1 differ'"; }

suite --outputs-against "$tmp/absent"; rc=$?
[ $rc = 2 ] || { cat "$tmp/log"; fail "a missing folder: exit $rc, not 2"; }
grep -q "no such folder" "$tmp/log" || fail "a missing folder: no message"
grep -q "^bench: null" "$tmp/log" && fail "a missing folder: the suite ran anyway"

# a work folder that holds something else is refused before anything runs, and kept
mkdir -p "$tmp/other"
echo keep > "$tmp/other/file"
"$src/scripts/bench.sh" --quick --build "$build" --work "$tmp/other" null > "$tmp/log" 2>&1
rc=$?
[ $rc = 2 ] || { cat "$tmp/log"; fail "a foreign work folder: exit $rc, not 2"; }
grep -q "refused" "$tmp/log" || fail "a foreign work folder: no message"
[ "$(cat "$tmp/other/file")" = keep ] || fail "a foreign work folder: its file is gone"
after=$(ls -id "$build/bench-suite" 2> /dev/null; ls -A "$build/bench-suite" 2> /dev/null)
[ "$before" = "$after" ] || fail "the build's bench-suite folder was touched"
[ -e "$tmp/suite/.texvm-bench-suite" ] || fail "the work folder has no .texvm-bench-suite mark"
echo "bench.outputs: save, compare, a changed byte, a missing folder and a foreign work" \
     "folder as expected, the build's bench-suite untouched"
