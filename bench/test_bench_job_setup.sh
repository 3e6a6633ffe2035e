# The set-up the tests that run bench_job on jobs of their own share (bench.counters,
# bench.profile), sourced after `set -uo pipefail`: bench_job, the program's path from the
# test's first argument made absolute (the tests run it from elsewhere); tmp, a temporary
# folder removed at exit; and in it prog.tgsi, one 2D TEX of IN[0] into OUT[0]
# (bench/test_sample2d.tgsi).
bench_job=${1:?usage: $0 BENCH_JOB}
bench_job=$(cd "$(dirname "$bench_job")" && pwd)/$(basename "$bench_job")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cp "$(dirname "${BASH_SOURCE[0]}")/test_sample2d.tgsi" "$tmp/prog.tgsi"
