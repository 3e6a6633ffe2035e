#!/usr/bin/env bash
# The demo under valgrind (memcheck): every example job (examples/*/job.json) and the
# example TGSI files through `texvm check`/`fmt`, each run as
#   valgrind --error-exitcode=1 --leak-check=full --errors-for-leak-kinds=definite
# Fails when valgrind reports any error (invalid read/write, uninitialised value used,
# definite leak) or when a job fails. Uses a plain (unsanitized) build in DIR (default
# build-valgrind/); outputs go to DIR/out/.
#   scripts/valgrind-demo.sh [DIR]
set -euo pipefail
cd "$(dirname "$0")/.."
dir=${1:-build-valgrind}
command -v valgrind >/dev/null || { echo "valgrind-demo: valgrind is not installed"; exit 2; }
scripts/build.sh "$dir" -DTEXVM_TESTS=OFF -DTEXVM_BENCH=OFF -DTEXVM_SANITIZE=OFF >/dev/null
bin=$dir/texvm
vg=(valgrind --error-exitcode=1 --leak-check=full --errors-for-leak-kinds=definite
    --show-leak-kinds=definite -q)
status=0
count=0
shopt -s nullglob
for f in examples/*.tgsi examples/tgsi/*.tgsi; do
  for cmd in check fmt; do
    count=$((count + 1))
    if ! "${vg[@]}" "$bin" "$cmd" "$f" >/dev/null; then
      echo "valgrind-demo: FAILED texvm $cmd $f"
      status=1
    fi
  done
done
mkdir -p "$dir/out"
for job in examples/*/job.json; do
  name=$(basename "$(dirname "$job")")
  count=$((count + 1))
  start=$(date +%s)
  # threads 2: the worker threads are checked too
  if "${vg[@]}" "$bin" run "$job" --threads 2 --quiet --out-dir "$dir/out/$name"; then
    echo "valgrind-demo: ok     texvm run $job ($(( $(date +%s) - start )) s)"
  else
    echo "valgrind-demo: FAILED texvm run $job"
    status=1
  fi
done
echo "valgrind-demo: $count commands, $([ $status -eq 0 ] && echo "no valgrind error" || echo "errors above")"
exit $status
