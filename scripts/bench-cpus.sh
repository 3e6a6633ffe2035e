# The CPUs a two-thread run is pinned to (sourced by scripts/bench.sh and the kit's run.sh).
#
# On a machine of more than two CPUs (a lent host: 16 vCPUs), an unpinned two-thread run
# may land on two hyperthreads of one physical core, which share its vector ports: a
# kernel that keeps the ports busy gains little from the second thread there, a
# latency-bound one more, so the one-to-two-thread ratio would measure the placement, not
# the engine. So the two threads go to CPU C (the round's one-thread CPU) and the first CPU
# after it on another core, as /sys says the cores are (package and core id). On two CPUs
# nothing is pinned (both CPUs are the run's anyway), nor where /sys names no second core.
# CPUs are numbered 0 .. nproc-1, as the suite's one-thread pinning assumes.
# BENCH_SYSFS_CPU stands for /sys/devices/system/cpu (bench/test_bench_cpus.sh's topologies).

# bench_core CPU: "package:core" of CPU, or "cpuN" where /sys does not say
bench_core() {
  local t=${BENCH_SYSFS_CPU:-/sys/devices/system/cpu}/cpu$1/topology
  if [ -r "$t/core_id" ]; then
    echo "$(cat "$t/physical_package_id" 2> /dev/null || echo 0):$(cat "$t/core_id")"
  else
    echo "cpu$1"
  fi
}

# bench_pair_cpu C N: the first CPU after C (mod N) on another core than C's; nothing where
# N <= 2 or no other core is named
bench_pair_cpu() {
  local c=$1 n=$2 i o mine
  [ "$n" -gt 2 ] || return 0
  mine=$(bench_core "$c")
  for ((i = 1; i < n; i++)); do
    o=$(((c + i) % n))
    if [ "$(bench_core "$o")" != "$mine" ]; then echo "$o"; return 0; fi
  done
}

# bench_topology N: "N CPUs on M cores (the CPUs of CPU 0's core: LIST)"
bench_topology() {
  local n=$1 i cores
  cores=$(for ((i = 0; i < n; i++)); do bench_core "$i"; done | sort -u | wc -l)
  printf '%s CPUs on %s cores (the CPUs of CPU 0'"'"'s core: %s)\n' "$n" "$cores" \
    "$(cat "${BENCH_SYSFS_CPU:-/sys/devices/system/cpu}/cpu0/topology/thread_siblings_list" 2> /dev/null || echo '?')"
}
