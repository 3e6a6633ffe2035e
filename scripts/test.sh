#!/usr/bin/env bash
# README command 2: set up, build and run the whole test suite — once normally and once
# under AddressSanitizer + UndefinedBehaviorSanitizer (both including piglit's 939-test
# anchor list through texvm's vtest server, CTest vtest.piglit) — then the engine's tests in
# a Release build with LTO (the benchmarks' code generation), then the fuzz smoke run.
#   scripts/test.sh           everything (CI: .ci/run)
#   scripts/test.sh --quick   the unit tests (CTest label `unit`) of both builds: the quick
#                             loop, about four minutes (translation validation compiles programs with the JIT)
set -euo pipefail
cd "$(dirname "$0")/.."
quick=0
case "${1:-}" in
  --quick) quick=1 ;;
  "") ;;
  -h|--help) sed -n '2,6p' "$0"; exit 0 ;;
  *) echo "scripts/test.sh: unknown option '$1' (allowed: --quick)" >&2; exit 2 ;;
esac
jobs=$(nproc)
if [ "$quick" = 1 ]; then scripts/setup.sh; else scripts/setup.sh --piglit; fi
scripts/build.sh build
scripts/build.sh build-asan -DTEXVM_SANITIZE=ON -DTEXVM_BENCH=OFF
export ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1
if [ "$quick" = 1 ]; then
  (cd build && ctest --output-on-failure -j "$jobs" -L unit)
  (cd build-asan && ctest --output-on-failure -j "$jobs" -L unit)
  exit 0
fi
echo "== plain build: every test but the fuzz smoke run"
(cd build && ctest --output-on-failure -j "$jobs" -LE fuzz)
echo "== ASan+UBSan build"
(cd build-asan && ctest --output-on-failure -j "$jobs")
echo "== Release build (LTO: the benchmarks' code generation, build-release/): the engine's tests"
# The engine's unit tests only (label vm, translation validation included): each test
# program is an LTO link of the library (~10 s on two cores). An LTO link once changed what
# the engine's optimiser did (docs/vm-execution.md §1 "Handler identity").
scripts/build-tests.sh build-release vm -DCMAKE_BUILD_TYPE=Release -DTEXVM_BENCH=OFF
(cd build-release && ctest --output-on-failure -j "$jobs" -L vm -LE mesa)
echo "== fuzz smoke: each libFuzzer target briefly (its own ASan+UBSan build, build-fuzz/)"
(cd build && ctest --output-on-failure -L fuzz)
