#!/usr/bin/env bash
# vtest.piglit_lock (tests/vtest/tests.cmake): scripts/piglit-run.sh's hold on the vtest
# socket path, on a path of its own (VTEST_SOCK) and a stand-in piglit (a shader_runner
# that prints a pass), with this build's texvm as the server:
# - a server listening there that no run of the script started: refused (exit 2), and its
#   socket still there and still accepting;
# - another run holding the lock for longer than VTEST_LOCK_WAIT: refused after the wait,
#   the socket path untouched;
# - a lock released during the wait: the run waits, then starts texvm's server on the path,
#   runs the list (pass) and removes the socket it made.
#   tests/vtest/test_piglit_lock.sh SOURCE_DIR TEXVM
set -uo pipefail
src=${1:?usage: tests/vtest/test_piglit_lock.sh SOURCE_DIR TEXVM}
texvm=${2:?usage: tests/vtest/test_piglit_lock.sh SOURCE_DIR TEXVM}
command -v flock > /dev/null || { echo "no flock: skipped"; exit 77; }
tmp=$(mktemp -d)
pids=()
cleanup() { for p in "${pids[@]}"; do kill "$p" 2> /dev/null; done; wait 2> /dev/null; rm -rf "$tmp"; }
trap cleanup EXIT
fail() { echo "vtest.piglit_lock: $*" >&2; exit 1; }

mkdir -p "$tmp/piglit/bin" "$tmp/piglit/tests"
printf '#!/bin/sh\necho "{\\"result\\": \\"pass\\"}"\n' > "$tmp/piglit/bin/shader_runner"
chmod +x "$tmp/piglit/bin/shader_runner"
: > "$tmp/piglit/tests/a.shader_test"
echo tests/a.shader_test > "$tmp/list"
export PIGLIT_DIR=$tmp/piglit TEXVM_BIN=$texvm VTEST_SOCK=$tmp/sock JOBS=1
run() { "$src/scripts/piglit-run.sh" texvm "$tmp/list" "$tmp/out" > "$tmp/log" 2>&1; }
accepts() { python3 -c "import socket,sys; s=socket.socket(socket.AF_UNIX); s.connect(sys.argv[1])" "$1" 2> /dev/null; }

# a foreign listener
python3 -c '
import socket, sys, time
s = socket.socket(socket.AF_UNIX); s.bind(sys.argv[1]); s.listen(8)
open(sys.argv[1] + ".up", "w").close()
time.sleep(120)' "$tmp/sock" &
pids+=($!)
for _ in $(seq 100); do [ -e "$tmp/sock.up" ] && break; sleep 0.1; done
accepts "$tmp/sock" || fail "the stand-in listener did not start"
run; st=$?
[ $st = 2 ] || { cat "$tmp/log" >&2; fail "a foreign listener: exit $st, expected 2"; }
grep -q "already listens on $tmp/sock" "$tmp/log" || { cat "$tmp/log" >&2; fail "no 'already listens' message"; }
accepts "$tmp/sock" || fail "the foreign listener's socket was removed or closed"

# another run's lock held past the wait (the foreign listener still there: not looked at)
# hold LOCK SECONDS: the lock taken by a process that becomes the sleep, so that killing it
# releases the lock and leaves no process behind holding the test's output open)
hold() { (exec 8>> "$1" && flock 8 && exec sleep "$2") > /dev/null 2>&1 & }
hold "$tmp/sock.lock" 30
pids+=($!)
sleep 0.5
t0=$(date +%s)
VTEST_LOCK_WAIT=1 run; st=$?
[ $st = 2 ] || { cat "$tmp/log" >&2; fail "a held lock: exit $st, expected 2"; }
grep -q "still held after 1 s" "$tmp/log" || { cat "$tmp/log" >&2; fail "no 'still held' message"; }
[ $(($(date +%s) - t0)) -ge 1 ] || fail "a held lock: no wait"
accepts "$tmp/sock" || fail "a refused run removed the socket path"
kill "${pids[@]}" 2> /dev/null; wait 2> /dev/null; pids=()
rm -f "$tmp/sock" "$tmp/sock.up"

# a lock released during the wait: the run goes on, its own server, its own socket removed
hold "$tmp/sock.lock" 2
pids+=($!)
sleep 0.5
VTEST_LOCK_WAIT=30 run; st=$?
[ $st = 0 ] || { cat "$tmp/log" >&2; fail "after the wait: exit $st, expected 0"; }
grep -q "holds $tmp/sock.lock: waiting" "$tmp/log" || { cat "$tmp/log" >&2; fail "no waiting message"; }
grep -q "texvm: 1 tests: pass 1" "$tmp/log" || { cat "$tmp/log" >&2; fail "the list did not pass"; }
[ ! -e "$tmp/sock" ] || fail "the run's own socket was left behind"
echo "vtest.piglit_lock: ok"
