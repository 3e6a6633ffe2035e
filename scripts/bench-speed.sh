# The CPUs' own speed while the speed suite runs (sourced by scripts/bench.sh).
#
# This project's VMs run one CPU or both up to 1.7x slower for minutes (docs/performance.md
# §1.1), and a round taken in such a spell measures the host, not the engines. So the suite
# probes each CPU with bench/bench_cpu_speed (three loops that are not texvm's: a chain of
# dependent adds, whose rate is the clock; multiply-adds that keep the floating-point ports
# busy, which a busy hyperthread neighbour slows too; and dependent loads through an 8 MiB
# buffer, which a neighbour evicting the shared cache slows) before the run, before each
# round on the round's CPU, and after the run, and prints them at the end with a warning
# where the chain's or the vector loop's fastest probe is more than BENCH_SPEED_SPREAD
# (default 1.2) times its slowest. The memory loop is reported, not warned on: on the Zen 5
# VM it moved 2.2x in quiet minutes (the other two 1.08x and 1.17x), and in 14 alternations
# with a texture job its probe did not foretell the job's time (docs/performance.md §1.1).

# bench_speed_probe PROG FILE LABEL CPU...: appends a line "LABEL<TAB>CPU<TAB>CHAIN<TAB>
# VECTOR<TAB>MEMORY" to FILE for each CPU (G adds/s, G flops/s, M loads/s); nothing where
# PROG is not built or a CPU cannot be probed (the report then says how many probes it has)
bench_speed_probe() {
  local prog=$1 file=$2 label=$3
  shift 3
  [ -x "$prog" ] || return 0
  "$prog" "$@" 2> /dev/null | awk -v l="$label" \
    '$1 == "bench_cpu_speed:" && $2 == "cpu" && $4 == "chain" && $8 == "vector" &&
     $12 == "memory" {
       sub(":", "", $3); printf "%s\t%s\t%s\t%s\t%s\n", l, $3, $5, $9, $13 }' >> "$file"
  return 0
}

# bench_speed_report FILE: the probes of FILE as "bench: cpu speed" lines: the "before" and
# "after" probes of every CPU, the range of the others (the rounds'), and a WARNING line
# naming the loop that moved most of the chain and vector loops, its slowest and its
# fastest probe, where that loop's fastest over slowest exceeds the spread
bench_speed_report() {
  awk -F'\t' -v spread="${BENCH_SPEED_SPREAD:-1.2}" '
    function pair(i) { return sprintf("cpu %s %.2f / %.1f / %.1f", cpu[i], v[i, 1], v[i, 2], v[i, 3]) }
    function where(i) { return sprintf("%s, cpu %s", lab[i], cpu[i]) }
    BEGIN { name[1] = "chain"; name[2] = "vector"; name[3] = "memory"; fmt[1] = "%.2f"; fmt[2] = "%.1f"; fmt[3] = "%.1f" }
    NF == 5 && $3 + 0 > 0 && $4 + 0 > 0 && $5 + 0 > 0 {
      n++; lab[n] = $1; cpu[n] = $2; v[n, 1] = $3 + 0; v[n, 2] = $4 + 0; v[n, 3] = $5 + 0 }
    END {
      if (!n) { print "bench: cpu speed: not probed (bench/bench_cpu_speed not built or not run)"; exit }
      printf "bench: cpu speed (bench/bench_cpu_speed, the fastest of 9 runs of each loop: chain = G dependent adds/s, the clock in GHz / vector = G flops/s / memory = M dependent loads/s through 8 MiB)\n"
      for (k = 0; k < 2; k++) {
        want = k ? "after" : "before"; s = ""
        for (i = 1; i <= n; i++) if (lab[i] == want) s = s (s == "" ? "" : ", ") pair(i)
        if (s != "") printf "bench: cpu speed %s the run: %s\n", want, s
      }
      m = 0; s = ""
      for (j = 1; j <= 3; j++) {
        lo[j] = hi[j] = 1; rlo = rhi = 0
        for (i = 1; i <= n; i++) {
          if (v[i, j] < v[lo[j], j]) lo[j] = i
          if (v[i, j] > v[hi[j], j]) hi[j] = i
          if (lab[i] == "before" || lab[i] == "after") continue
          if (!rlo || v[i, j] < rlo) rlo = v[i, j]
          if (!rhi || v[i, j] > rhi) rhi = v[i, j]
          if (j == 1) m++
        }
        s = s sprintf("%s%s " fmt[j] "-" fmt[j], j > 1 ? ", " : "", name[j], rlo, rhi)
      }
      if (m) printf "bench: cpu speed before each round, on its CPU (%d probes): %s\n", m, s
      w = 0
      for (j = 1; j <= 2; j++)
        if (v[hi[j], j] > spread * v[lo[j], j] && (!w || v[hi[j], j] / v[lo[j], j] > v[hi[w], w] / v[lo[w], w])) w = j
      if (w)
        printf "bench: WARNING: the CPUs'"'"' speed moved while the suite ran: the %s loop %.2fx faster at its fastest probe (%s) than at its slowest (%s); rounds in a slow spell measure the host: read the paired, best and frame columns, or run again\n", name[w], v[hi[w], w] / v[lo[w], w], where(hi[w]), where(lo[w])
    }' "$1"
}
