# The CPUs' own speed while the speed suite runs (sourced by scripts/bench.sh).
#
# This project's VMs run one CPU or both up to 1.7x slower for minutes (docs/performance.md
# §1.1), and a round taken in such a spell measures the host, not the engines. So the suite
# probes each CPU with bench/bench_cpu_speed (two loops that are not texvm's: a chain of
# dependent adds, whose rate is the clock, and multiply-adds that keep the floating-point
# ports busy, which a busy hyperthread neighbour slows too) before the run, before each
# round on the round's CPU, and after the run, and prints them at the end with a warning
# where the probes differ by more than BENCH_SPEED_SPREAD (default 1.15: a quiet VM's
# probes stay within a few per cent; the spells are 1.5x and more).

# bench_speed_probe PROG FILE LABEL CPU...: appends a line "LABEL<TAB>CPU<TAB>CHAIN<TAB>
# VECTOR" to FILE for each CPU (G adds/s, G flops/s); nothing where PROG is not built or a
# CPU cannot be probed (the report then says how many probes it has)
bench_speed_probe() {
  local prog=$1 file=$2 label=$3
  shift 3
  [ -x "$prog" ] || return 0
  "$prog" "$@" 2> /dev/null | awk -v l="$label" \
    '$1 == "bench_cpu_speed:" && $2 == "cpu" && $4 == "chain" && $8 == "vector" {
       sub(":", "", $3); printf "%s\t%s\t%s\t%s\n", l, $3, $5, $9 }' >> "$file"
  return 0
}

# bench_speed_report FILE: the probes of FILE as "bench: cpu speed" lines: the "before" and
# "after" probes of every CPU, the range of the others (the rounds'), and a WARNING line
# naming the slowest and fastest probe where either loop's fastest over slowest exceeds the
# spread
bench_speed_report() {
  awk -F'\t' -v spread="${BENCH_SPEED_SPREAD:-1.15}" '
    function pair(i) { return sprintf("cpu %s %.2f / %.1f", cpu[i], ch[i], ve[i]) }
    function where(i) { return sprintf("%s, cpu %s", lab[i], cpu[i]) }
    NF == 4 && $3 + 0 > 0 && $4 + 0 > 0 {
      n++; lab[n] = $1; cpu[n] = $2; ch[n] = $3 + 0; ve[n] = $4 + 0 }
    END {
      if (!n) { print "bench: cpu speed: not probed (bench/bench_cpu_speed not built or not run)"; exit }
      printf "bench: cpu speed (bench/bench_cpu_speed, the fastest of 9 runs of each loop: chain = G dependent adds/s, the clock in GHz / vector = G flops/s)\n"
      for (k = 0; k < 2; k++) {
        want = k ? "after" : "before"; s = ""
        for (i = 1; i <= n; i++) if (lab[i] == want) s = s (s == "" ? "" : ", ") pair(i)
        if (s != "") printf "bench: cpu speed %s the run: %s\n", want, s
      }
      m = 0
      for (i = 1; i <= n; i++) {
        if (lab[i] != "before" && lab[i] != "after") {
          if (!m || ch[i] < rc0) rc0 = ch[i]; if (!m || ch[i] > rc1) rc1 = ch[i]
          if (!m || ve[i] < rv0) rv0 = ve[i]; if (!m || ve[i] > rv1) rv1 = ve[i]
          m++
        }
        if (!lc || ch[i] < ch[lc]) lc = i; if (!hc || ch[i] > ch[hc]) hc = i
        if (!lv || ve[i] < ve[lv]) lv = i; if (!hv || ve[i] > ve[hv]) hv = i
      }
      if (m) printf "bench: cpu speed before each round, on its CPU (%d probes): chain %.2f-%.2f, vector %.1f-%.1f\n", m, rc0, rc1, rv0, rv1
      if (ch[hc] > spread * ch[lc] || ve[hv] > spread * ve[lv]) {
        if (ve[hv] / ve[lv] >= ch[hc] / ch[lc]) { lo = lv; hi = hv; what = "vector"; r = ve[hv] / ve[lv] }
        else { lo = lc; hi = hc; what = "chain"; r = ch[hc] / ch[lc] }
        printf "bench: WARNING: the CPUs'"'"' speed moved while the suite ran: the %s loop %.2fx faster at its fastest probe (%s) than at its slowest (%s); rounds in a slow spell measure the host: read the paired, best and frame columns, or run again\n", what, r, where(hi), where(lo)
      }
    }' "$1"
}
