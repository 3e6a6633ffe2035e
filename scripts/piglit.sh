#!/usr/bin/env bash
# Real GL programs on texvm: piglit's shader_tests run by shader_runner through Mesa's virgl
# driver (GALLIUM_DRIVER=virpipe) against texvm's vtest server, each test's verdict checked
# against tests/vtest/piglit-expected.txt (every test that does not pass is listed there
# with its reason; anything else not passing fails this script).
#   scripts/piglit.sh [--if-installed] [LIST | full | all]
#       LIST: shader_test paths relative to piglit's directory, or piglit-run.sh's
#       "NAME<TAB>PROGRAM ARGS" lines (default tests/vtest/piglit-list.txt, the 939-test
#       anchor list); `full`: every shader_test of
#       the execution folders issue 18 names (about 9900), `all`: every shader_test
#       piglit has (35,090; skips are accepted for both, as the expectations file lists the
#       anchor list's only); --if-installed: exit 77
#       (CTest's "skipped") when piglit is not installed instead of installing it, and use
#       the build that exists (CTest test vtest.piglit)
# The run is scripts/piglit-run.sh's (texvm driver): build/piglit/results.tsv (test,
# result, seconds), build/piglit/logs/, the server's log build/piglit/server.log
# (PIGLIT_OUT: another folder; TEXVM_BIN: the texvm binary to serve with, default
# build/texvm). Every client is recorded (RECORD=DIR, default build/piglit/records) and
# replayed with `texvm replay` afterwards, in batches (build/piglit/replay.log): every
# readback must be bit-identical to the live run's. Mesa 22.3's virgl driver
# connects to the fixed path /tmp/.virgl_test, so no other vtest server may listen there.
# Environment: JOBS (2), TIMEOUT (30 s per test), PIGLIT_DIR (Debian's
# /usr/lib/x86_64-linux-gnu/piglit), TEXVM_THREADS (the server's --threads, default 1; the
# replay runs on one worker, so with 2 it checks that draws on several workers give the
# same bytes).
set -euo pipefail
cd "$(dirname "$0")/.."
if_installed=0
if [ "${1:-}" = --if-installed ]; then if_installed=1; shift; fi
list=${1:-tests/vtest/piglit-list.txt}
accept_skips=0
export TIMEOUT=${TIMEOUT:-30}
export PIGLIT_DIR=${PIGLIT_DIR:-/usr/lib/x86_64-linux-gnu/piglit}
if [ "$if_installed" = 1 ]; then
  [ -x "$PIGLIT_DIR/bin/shader_runner" ] || { echo "piglit: not installed (scripts/setup.sh --piglit)"; exit 77; }
  [ -x "${TEXVM_BIN:-build/texvm}" ] || { echo "piglit: no ${TEXVM_BIN:-build/texvm}"; exit 2; }
else
  scripts/setup.sh --piglit
  BUILD_TARGETS=texvm scripts/build.sh build   # the server is all it runs
fi
out=${PIGLIT_OUT:-build/piglit}
case "$list" in full|all) accept_skips=1 ;; esac
rm -rf "$out/records"
RECORD=${RECORD:-$out/records} scripts/piglit-run.sh texvm "$list" "$out"
status=0
python3 - "$out/results.tsv" tests/vtest/piglit-expected.txt "$accept_skips" <<'PY' || status=1
import sys, collections
results = [l.rstrip('\n').split('\t') for l in open(sys.argv[1]) if l.strip()]
expected = {}
for l in open(sys.argv[2]):
    l = l.strip()
    if l and not l.startswith('#'):
        test, verdicts, reason = l.split(None, 2)
        expected[test] = (set(verdicts.split(',')), reason)
count = collections.Counter(r[1] for r in results)
print('piglit: %d tests: %s' % (len(results), ', '.join('%s %d' % kv for kv in sorted(count.items()))))
accept_skips = sys.argv[3] == '1'
bad = [(t, r) for t, r, _ in results if r != 'pass' and not (accept_skips and r == 'skip')
       and (t not in expected or r not in expected[t][0])]
for t, r in bad:
    print('piglit: unexpected %s: %s' % (r, t))
sys.exit(1 if bad else 0)
PY
# Every client was recorded: each recording must replay without the program, every
# readback's hash equal to the one the live run recorded (bit-identical rendering). The
# recordings go to `texvm replay` in batches, JOBS processes at once (one process start a
# batch, not a file); each file's last line says "FILE: passed", and a file without one
# (its batch crashed before it) counts as failed.
texvm=${TEXVM_BIN:-build/texvm}
recdir=${RECORD:-$out/records}
mapfile -t recfiles < <(find "$recdir" -maxdepth 1 -name 'client-*.vtrec' | sort -V)
recs=${#recfiles[@]} readbacks=0 bad=0
if [ "$recs" -gt 0 ]; then
  jobs=${JOBS:-2}
  per=$(( (recs + 8 * jobs - 1) / (8 * jobs) ))   # some 8 batches a process
  printf '%s\0' "${recfiles[@]}" |
    xargs -0 -n "$per" -P "$jobs" "$texvm" replay >"$out/replay.log" 2>&1 || true
  readbacks=$(sed -n 's/.*: replay: \([0-9]*\) readbacks, .*/\1/p' "$out/replay.log" |
              awk '{s += $1} END {print s + 0}')
  # the recordings without their "passed" line, in one pass over the log
  mapfile -t failed < <(printf '%s\n' "${recfiles[@]}" |
    awk 'NR == FNR { if (sub(/^texvm replay: /, "") && sub(/: passed$/, "")) ok[$0] = 1; next }
         !($0 in ok)' "$out/replay.log" -)
  bad=${#failed[@]}
  for f in "${failed[@]}"; do
    echo "piglit: replay of $f failed:"; grep -F "texvm replay: $f: " "$out/replay.log" | tail -n 3
  done
fi
echo "piglit: replayed $recs recordings: $readbacks readbacks bit-identical, $bad failed"
[ "$bad" = 0 ] || status=1
exit $status
