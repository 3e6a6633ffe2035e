#!/usr/bin/env bash
# CTest errors.fuzz_smoke: every libFuzzer target for SECONDS (default 20) from its seed
# corpus, through scripts/fuzz; fails on any crash, sanitizer report, leak or timeout.
# Skipped (exit 77) when clang cannot build libFuzzer programs.
set -euo pipefail
cd "$(dirname "$0")/../.."
secs=${1:-20}
probe=$(mktemp -d)
trap 'rm -rf "$probe"' EXIT
printf '#include <stddef.h>\n#include <stdint.h>\nint LLVMFuzzerTestOneInput(const uint8_t *d, size_t n);\nint LLVMFuzzerTestOneInput(const uint8_t *d, size_t n) { (void)d; (void)n; return 0; }\n' >"$probe/p.c"
if ! command -v clang >/dev/null 2>&1 ||
   ! clang -fsanitize=fuzzer,address "$probe/p.c" -o "$probe/p" >/dev/null 2>&1; then
  echo "fuzz_smoke: clang with libFuzzer not available, skipped"
  exit 77
fi
exec scripts/fuzz "$secs"
