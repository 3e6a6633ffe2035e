#!/usr/bin/env bash
# Run a list of piglit tests (shader_tests or test programs) with one GL implementation and
# record each verdict.
#   scripts/piglit-run.sh DRIVER LIST OUTDIR
#     DRIVER  texvm     Mesa's virgl driver (GALLIUM_DRIVER=virpipe) against texvm's vtest
#                       server (TEXVM_BIN, default build/texvm)
#             virgl     the same against virglrenderer's virgl_test_server rendering with
#                       host GL on llvmpipe (package virgl-server)
#             llvmpipe  Mesa's llvmpipe, natively
#             softpipe  Mesa's softpipe, natively
#     LIST    shader_test paths relative to PIGLIT_DIR, or "NAME<TAB>PROGRAM ARGS" lines
#             (one of piglit's test programs from PIGLIT_DIR/bin, run in PIGLIT_DIR with
#             ARGS as given: tests/vtest/piglit-bin-list.txt), one a line ('#' comments), or
#             `full`: every shader_test of the execution folders issue 18 names (about
#             9900; the list is written to OUTDIR/full-list.txt), or `all`: every
#             shader_test piglit has (35,090 in Debian 12's; OUTDIR/all-list.txt)
#     OUTDIR  gets results.tsv (test, result, seconds; result pass fail skip warn crash
#             timeout), logs/ (every test's output), runner.log, server.log and wall.txt
#             (seconds for the whole list)
# Environment: JOBS (2 tests at once), TIMEOUT (30 s a test), PIGLIT_DIR (Debian's
# /usr/lib/x86_64-linux-gnu/piglit), RECORD=DIR (texvm only: the server records each client
# into DIR for `texvm replay`), TEXVM_THREADS=N (texvm only: `texvm vtest --threads N`,
# engine workers per client; default 1), VTEST_LOCK_WAIT (seconds to wait for another run's
# server, default 1800). Mesa 22.3's virgl driver connects to the fixed path
# /tmp/.virgl_test, so the server runs need that path free and run one after the other: a
# run of either server holds a lock on /tmp/.virgl_test.lock (flock) from before it looks at
# the path until its server is gone, and waits for another run's; a server it did not start
# listening there (a run without the lock, or one started by hand) is refused, and the path
# is removed only by the run whose server made it (two test suites on one machine once
# broke each other's runs: the refused one removed the other's live socket on its way out).
# VTEST_SOCK stands for /tmp/.virgl_test (tests/vtest/test_piglit_lock.sh: a run refused
# before any client starts; Mesa's clients always connect to the fixed path).
# Prints one line: "piglit-run: DRIVER: N tests: pass P, ...; wall W s".
set -euo pipefail
cd "$(dirname "$0")/.."
drv=${1:?usage: scripts/piglit-run.sh texvm|virgl|llvmpipe|softpipe LIST OUTDIR}
list=${2:?usage: scripts/piglit-run.sh DRIVER LIST OUTDIR}
out=${3:?usage: scripts/piglit-run.sh DRIVER LIST OUTDIR}
jobs=${JOBS:-2}
export TIMEOUT=${TIMEOUT:-30}
export PIGLIT_DIR=${PIGLIT_DIR:-/usr/lib/x86_64-linux-gnu/piglit}
[ -x "$PIGLIT_DIR/bin/shader_runner" ] || { echo "piglit-run: no $PIGLIT_DIR/bin/shader_runner (scripts/setup.sh --piglit)" >&2; exit 2; }
rm -rf "$out/logs" "$out/results.tsv"
mkdir -p "$out/logs"
if [ "$list" = full ]; then
  list=$out/full-list.txt
  (cd "$PIGLIT_DIR" && for d in glsl-1.10 glsl-1.20 glsl-1.30 glsl-1.40 glsl-1.50 \
       arb_texture_gather arb_texture_query_levels arb_shader_texture_lod arb_gpu_shader5 \
       arb_compute_shader arb_shader_storage_buffer_object arb_shader_image_load_store \
       arb_gpu_shader_fp64 arb_tessellation_shader; do
     for top in tests generated_tests; do
       [ -d "$top/spec/$d/execution" ] && find "$top/spec/$d/execution" -name '*.shader_test'
     done
   done | sort) >"$list.tmp" || true
  mv "$list.tmp" "$list"
elif [ "$list" = all ]; then
  list=$out/all-list.txt
  (cd "$PIGLIT_DIR" && find tests generated_tests -name '*.shader_test' | sort) >"$list.tmp" || true
  mv "$list.tmp" "$list"
fi
[ -f "$list" ] || { echo "piglit-run: no list $list" >&2; exit 2; }

sock=${VTEST_SOCK:-/tmp/.virgl_test}
lock_wait=${VTEST_LOCK_WAIT:-1800}
case "$lock_wait" in ''|*[!0-9]*) echo "piglit-run: VTEST_LOCK_WAIT must be a number of seconds" >&2; exit 2 ;; esac
server=
# (the path removed only where this run's server made it: never another's live socket)
stop_server() {
  if [ -n "$server" ]; then
    kill "$server" 2>/dev/null || true
    wait "$server" 2>/dev/null || true
    rm -f "$sock"
  fi
  server=
}
trap stop_server EXIT
case "$drv" in
  texvm|virgl)
    export GALLIUM_DRIVER=virpipe
    # (held until this process exits: the server is gone by then, stop_server)
    exec {lock_fd}>>"$sock.lock" ||
      { echo "piglit-run: cannot open the lock $sock.lock" >&2; exit 2; }
    if ! flock -n "$lock_fd"; then
      echo "piglit-run: another run's vtest server holds $sock.lock: waiting (at most ${lock_wait} s)" >&2
      flock -w "$lock_wait" "$lock_fd" ||
        { echo "piglit-run: $sock.lock still held after ${lock_wait} s: not run" >&2; exit 2; }
    fi
    if [ -S "$sock" ] && python3 -c "import socket,sys; s=socket.socket(socket.AF_UNIX); s.connect(sys.argv[1])" "$sock" 2>/dev/null; then
      echo "piglit-run: a vtest server already listens on $sock (Mesa 22.3's fixed path), not started by a run of this script: stop it first" >&2
      exit 2
    fi
    rm -f "$sock"
    if [ "$drv" = texvm ]; then
      texvm=${TEXVM_BIN:-build/texvm}
      [ -x "$texvm" ] || { echo "piglit-run: no $texvm (scripts/build.sh build)" >&2; exit 2; }
      rec=()
      if [ -n "${RECORD:-}" ]; then mkdir -p "$RECORD"; rec=(--record "$RECORD"); fi
      "$texvm" vtest --socket-path "$sock" --threads "${TEXVM_THREADS:-1}" "${rec[@]}" \
        >"$out/server.log" 2>&1 &
    else
      command -v virgl_test_server >/dev/null || { echo "piglit-run: no virgl_test_server (apt-get install virgl-server)" >&2; exit 2; }
      # (its default path is /tmp/.virgl_test; 0.10.4 fails with --socket-path)
      GALLIUM_DRIVER=llvmpipe virgl_test_server --use-egl-surfaceless >"$out/server.log" 2>&1 &
    fi
    server=$!
    for _ in $(seq 100); do [ -S "$sock" ] && break; sleep 0.1; done
    [ -S "$sock" ] || { echo "piglit-run: the $drv server did not start (see $out/server.log)" >&2; exit 2; }
    ;;
  llvmpipe|softpipe) export GALLIUM_DRIVER=$drv ;;
  *) echo "piglit-run: unknown driver '$drv' (texvm virgl llvmpipe softpipe)" >&2; exit 2 ;;
esac

one() {
  local t=$1 log res rc t0 t1 cmd
  # "NAME<TAB>PROGRAM ARGS...": one of piglit's test programs (scripts/piglit-bin.sh);
  # otherwise a shader_test path, run by shader_runner
  case "$t" in
    *$'\t'*) read -r -a cmd <<<"${t#*$'\t'}"; t=${t%%$'\t'*}
              cmd[0]=$PIGLIT_DIR/bin/${cmd[0]} ;;
    *) cmd=("$PIGLIT_DIR/bin/shader_runner" "$PIGLIT_DIR/$t" -auto -fbo) ;;
  esac
  log="$OUT/logs/$(echo "$t" | tr '/ ' '__').log"
  t0=$(date +%s.%N)
  (cd "$PIGLIT_DIR" && LD_LIBRARY_PATH="$PIGLIT_DIR/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" \
    PIGLIT_PLATFORM=surfaceless_egl PIGLIT_SOURCE_DIR="$PIGLIT_DIR" \
    exec timeout -k 5 "$TIMEOUT" "${cmd[@]}") >"$log" 2>&1 </dev/null && rc=0 || rc=$?
  t1=$(date +%s.%N)
  res=$(grep -o '"result": *"[a-z]*"' "$log" | tail -1 | sed 's/.*"\([a-z]*\)"$/\1/' || true)
  if [ "$rc" = 124 ] || [ "$rc" = 137 ]; then res=timeout
  elif [ "$rc" -ge 128 ]; then res=crash        # killed by a signal
  elif [ -z "$res" ]; then res=crash            # exited without a verdict
  fi
  printf '%s\t%s\t%.2f\n' "$t" "$res" "$(echo "$t1 - $t0" | bc)"
}
export -f one
export OUT=$out
t0=$(date +%s.%N)
# (the shells xargs starts report a crashed shader_runner on stderr: kept in runner.log)
grep -v '^#' "$list" | grep -v '^[[:space:]]*$' | xargs -d '\n' -P "$jobs" -I{} bash -c 'one "$@"' _ {} \
  2>"$out/runner.log" | sort >"$out/results.tsv"
t1=$(date +%s.%N)
wall=$(echo "$t1 - $t0" | bc)
printf '%.1f\n' "$wall" >"$out/wall.txt"
stop_server
printf 'piglit-run: %s: %d tests: %s; wall %.1f s\n' "$drv" "$(wc -l <"$out/results.tsv")" \
  "$(cut -f2 "$out/results.tsv" | sort | uniq -c | awk '{printf "%s%s %s", (NR > 1 ? ", " : ""), $2, $1}')" "$wall"
