#!/usr/bin/env bash
# Real GL programs on texvm: piglit's shader_tests run by shader_runner through Mesa's virgl
# driver (GALLIUM_DRIVER=virpipe) against texvm's vtest server, each test's verdict checked
# against tests/vtest/piglit-expected.txt (every test that does not pass is listed there
# with its reason; anything else not passing fails this script).
#   scripts/piglit.sh [--if-installed] [LIST | full]
#       LIST: shader_test paths relative to piglit's directory (default
#       tests/vtest/piglit-list.txt, the 939-test anchor list); `full`: every shader_test of
#       the execution folders issue 18 names (about 9900; skips are then accepted, as the
#       expectations file lists the anchor list's only); --if-installed: exit 77
#       (CTest's "skipped") when piglit is not installed instead of installing it, and use
#       the build that exists (CTest test vtest.piglit)
# Writes build/piglit/results.tsv (test, result, seconds), build/piglit/logs/ and the
# server's log build/piglit/server.log (PIGLIT_OUT: another folder; TEXVM_BIN: the texvm
# binary to serve with, default build/texvm). Mesa 22.3's virgl driver connects to the fixed path
# /tmp/.virgl_test, so no other vtest server may listen there. Environment: JOBS (2),
# TIMEOUT (30 s per test), PIGLIT_DIR (Debian's /usr/lib/x86_64-linux-gnu/piglit).
set -euo pipefail
cd "$(dirname "$0")/.."
if_installed=0
if [ "${1:-}" = --if-installed ]; then if_installed=1; shift; fi
list=${1:-tests/vtest/piglit-list.txt}
accept_skips=0
jobs=${JOBS:-2}
export TIMEOUT=${TIMEOUT:-30}
export PIGLIT_DIR=${PIGLIT_DIR:-/usr/lib/x86_64-linux-gnu/piglit}
if [ "$if_installed" = 1 ]; then
  [ -x "$PIGLIT_DIR/bin/shader_runner" ] || { echo "piglit: not installed (scripts/setup.sh --piglit)"; exit 77; }
  [ -x "${TEXVM_BIN:-build/texvm}" ] || { echo "piglit: no ${TEXVM_BIN:-build/texvm}"; exit 2; }
else
  scripts/setup.sh --piglit
  scripts/build.sh build
fi
out=${PIGLIT_OUT:-build/piglit}
if [ "$list" = full ]; then
  mkdir -p "$out"
  list=$out/full-list.txt
  accept_skips=1
  (cd "$PIGLIT_DIR" && for d in glsl-1.10 glsl-1.20 glsl-1.30 glsl-1.40 glsl-1.50 \
       arb_texture_gather arb_texture_query_levels arb_shader_texture_lod arb_gpu_shader5 \
       arb_compute_shader arb_shader_storage_buffer_object arb_shader_image_load_store \
       arb_gpu_shader_fp64 arb_tessellation_shader; do
     for top in tests generated_tests; do
       [ -d "$top/spec/$d/execution" ] && find "$top/spec/$d/execution" -name '*.shader_test'
     done
   done | sort) >"$list.tmp" || true
  mv "$list.tmp" "$list"
fi
texvm=${TEXVM_BIN:-build/texvm}
rm -rf "$out/logs" "$out/results.tsv"
mkdir -p "$out/logs"
sock=/tmp/.virgl_test
if [ -S "$sock" ] && python3 -c "import socket,sys; s=socket.socket(socket.AF_UNIX); s.connect(sys.argv[1])" "$sock" 2>/dev/null; then
  echo "piglit: a vtest server already listens on $sock (Mesa 22.3's fixed path): stop it first" >&2
  exit 2
fi
rm -f "$sock"
"$texvm" vtest --socket-path "$sock" >"$out/server.log" 2>&1 &
server=$!
trap 'kill "$server" 2>/dev/null; wait "$server" 2>/dev/null; rm -f "$sock"' EXIT
for _ in $(seq 50); do [ -S "$sock" ] && break; sleep 0.1; done

one() {
  local t=$1 log res rc t0 t1
  log="$OUT/logs/$(echo "$t" | tr '/' '_').log"
  t0=$(date +%s.%N)
  PIGLIT_PLATFORM=surfaceless_egl GALLIUM_DRIVER=virpipe \
    timeout -k 5 "$TIMEOUT" "$PIGLIT_DIR/bin/shader_runner" "$PIGLIT_DIR/$t" -auto -fbo \
    >"$log" 2>&1 </dev/null && rc=0 || rc=$?
  t1=$(date +%s.%N)
  res=$(grep -o '"result": *"[a-z]*"' "$log" | tail -1 | sed 's/.*"\([a-z]*\)"$/\1/' || true)
  if [ "$rc" = 124 ] || [ "$rc" = 137 ]; then res=timeout
  elif [ "$rc" -ge 128 ]; then res=crash
  elif [ -z "$res" ]; then res=crash
  fi
  printf '%s\t%s\t%.2f\n' "$t" "$res" "$(echo "$t1 - $t0" | bc)"
}
export -f one
export OUT=$out
# (the shells xargs starts report a crashed shader_runner on stderr: kept in runner.log)
grep -v '^#' "$list" | grep -v '^$' | xargs -P "$jobs" -I{} bash -c 'one "$@"' _ {} \
  2>"$out/runner.log" | sort >"$out/results.tsv"
python3 - "$out/results.tsv" tests/vtest/piglit-expected.txt "$accept_skips" <<'PY'
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
