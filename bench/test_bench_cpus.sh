#!/usr/bin/env bash
# bench.cpus (bench/CMakeLists.txt): scripts/bench-cpus.sh's choice of the second CPU of a
# two-thread run, on stand-in /sys topologies written here (BENCH_SYSFS_CPU), each answer
# worked out by hand from the topology:
# - 4 CPUs, hyperthreads numbered apart (cores: {0,2} {1,3}): CPU 0's pair is 1, CPU 1's 2,
#   CPU 2's 3, CPU 3's 0 (the first after it, mod 4, on another core);
# - 4 CPUs, hyperthreads numbered together ({0,1} {2,3}): CPU 0's pair is 2, CPU 1's 2,
#   CPU 2's 0, CPU 3's 0;
# - 4 CPUs of two packages whose core ids repeat (package 0 cores 0,1; package 1 cores 0,1):
#   four cores, CPU 0's pair 1;
# - 4 CPUs all on one core: no pair (nothing pinned);
# - 2 CPUs on two cores: no pair (both CPUs are the run's anyway);
# - 4 CPUs without topology files: each CPU its own core ("cpuN"), CPU 0's pair 1; 2 such
#   CPUs: no pair;
# and bench_topology's line for the first two.
#   bench/test_bench_cpus.sh SOURCE_DIR
set -uo pipefail
src=${1:?usage: bench/test_bench_cpus.sh SOURCE_DIR}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "bench.cpus: $*" >&2; exit 1; }
# shellcheck source=scripts/bench-cpus.sh
. "$src/scripts/bench-cpus.sh"

# topo NAME "PKG:CORE:SIBLINGS ..." (one word per CPU, in CPU order)
topo() {
  local d=$tmp/$1 i=0 w
  for w in $2; do
    mkdir -p "$d/cpu$i/topology"
    IFS=: read -r p c s <<< "$w"
    echo "$p" > "$d/cpu$i/topology/physical_package_id"
    echo "$c" > "$d/cpu$i/topology/core_id"
    echo "$s" > "$d/cpu$i/topology/thread_siblings_list"
    i=$((i + 1))
  done
}
# expect NAME N "PAIR_OF_0 PAIR_OF_1 ..." ("-": none)
expect() {
  local c got want
  export BENCH_SYSFS_CPU=$tmp/$1
  c=0
  for want in $3; do
    got=$(bench_pair_cpu "$c" "$2")
    [ "${got:--}" = "$want" ] || fail "$1: CPU $c of $2: pair '${got:--}', expected '$want'"
    c=$((c + 1))
  done
}

topo apart "0:0:0,2 0:1:1,3 0:0:0,2 0:1:1,3"
expect apart 4 "1 2 3 0"
topo together "0:0:0-1 0:0:0-1 0:1:2-3 0:1:2-3"
expect together 4 "2 2 0 0"
topo packages "0:0:0 0:1:1 1:0:2 1:1:3"
expect packages 4 "1 2 3 0"
topo one "0:5:0-3 0:5:0-3 0:5:0-3 0:5:0-3"
expect one 4 "- - - -"
topo two "0:0:0 0:1:1"
expect two 2 "- -"
mkdir -p "$tmp/bare"
expect bare 4 "1 2 3 0"
expect bare 2 "- -"

BENCH_SYSFS_CPU=$tmp/apart
line=$(bench_topology 4)
[ "$line" = "4 CPUs on 2 cores (the CPUs of CPU 0's core: 0,2)" ] || fail "apart: topology '$line'"
BENCH_SYSFS_CPU=$tmp/packages
line=$(bench_topology 4)
[ "$line" = "4 CPUs on 4 cores (the CPUs of CPU 0's core: 0)" ] || fail "packages: topology '$line'"
BENCH_SYSFS_CPU=$tmp/bare
line=$(bench_topology 4)
[ "$line" = "4 CPUs on 4 cores (the CPUs of CPU 0's core: ?)" ] || fail "bare: topology '$line'"
echo "bench.cpus: ok"
