# What scripts/bench-ab.sh and scripts/bench-ab-draw.sh share (sourced, not run): the
# checks of their counts and CPU, the default CPU, and the statistics they print. Each
# function reports through the calling script's name, $ab_name.

# ab_count MESSAGE VALUE...: every VALUE a positive count, or MESSAGE and exit 2
ab_count() {
  local message=$1 v
  shift
  for v in "$@"; do
    case "$v" in
      ''|*[!0-9]*|0) echo "$ab_name: $message" >&2; exit 2 ;;
    esac
  done
}

# ab_cpu CPU: CPU as given, or CPU 1 (0 on a one-CPU machine) where it is empty; exit 2
# where it is not a CPU number
ab_cpu() {
  local cpu=$1
  [ -n "$cpu" ] || cpu=$(( $(nproc) > 1 ? 1 : 0 ))
  case "$cpu" in ''|*[!0-9]*) echo "$ab_name: --cpu needs a CPU number" >&2; exit 2 ;; esac
  echo "$cpu"
}

# ab_stats < VALUES: "min A q1 B median C ms (N runs)" of the numbers on stdin, one a line:
# the minimum, the lower quartile (the value at rank floor(n/4) + 1) and the median (rank
# floor((n + 1) / 2)) of them sorted
ab_stats() {
  sort -g | awk '{ v[NR] = $1 }
    END { printf "min %s q1 %s median %s ms (%d runs)\n", v[1], v[int(NR / 4) + 1],
                 v[int((NR + 1) / 2)], NR }'
}
