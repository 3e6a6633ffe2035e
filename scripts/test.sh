#!/usr/bin/env bash
# README command 2: set up, build and run the whole test suite — once normally and once
# under AddressSanitizer + UndefinedBehaviorSanitizer (both including piglit's 939-test
# anchor list through texvm's vtest server, CTest vtest.piglit) — then the unit tests in a
# Release build with LTO (the benchmarks' code generation), then the unit tests in a build
# whose kernels stop at AVX2, then the fuzz smoke run.
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
echo "== Release build (LTO: the benchmarks' code generation, build-release/): the unit tests"
# Translation validation included. With GCC the test programs link the whole library
# after one LTO pass (CMakeLists.txt, TEXVM_TEST_LIB), not an LTO link each. An LTO link
# once changed what the engine's optimiser did (docs/vm-execution.md §1 "Handler identity").
scripts/build-tests.sh build-release unit -DCMAKE_BUILD_TYPE=Release -DTEXVM_BENCH=OFF
(cd build-release && ctest --output-on-failure -j "$jobs" -L unit -LE mesa)
echo "== AVX2 ceiling (build-avx2/): the unit tests"
# With TEXVM_ISA_CEILING=avx2 no AVX-512 kernel is chosen and the JIT compiles without
# AVX-512 (docs/performance.md §1.3): an AVX-512 machine tests, end to end, the variants an
# AVX2-only core runs. The kernel line must say so.
units=unit
scripts/build-tests.sh build-avx2 "$units" -DTEXVM_ISA_CEILING=avx2 -DTEXVM_BENCH=OFF
kernels=$(build-avx2/texvm --version --verbose | sed -n 's/^kernels: //p')
echo "build-avx2: $kernels"
case "$kernels" in
  *", build ceiling avx2") ;;
  *) echo "build-avx2: the kernel line does not name the AVX2 ceiling: $kernels" >&2; exit 1 ;;
esac
case "${kernels%%, jit*}" in
  *avx512*) echo "build-avx2: an AVX-512 kernel is chosen under the AVX2 ceiling: $kernels" >&2
            exit 1 ;;
esac
(cd build-avx2 && ctest --output-on-failure -j "$jobs" -L "$units" -LE mesa)
echo "== fuzz smoke: each libFuzzer target briefly (its own ASan+UBSan build, build-fuzz/)"
(cd build && ctest --output-on-failure -L fuzz)
