# The speed suite's workloads as jobs (sourced by scripts/bench.sh and scripts/bench-insns.sh):
# the one table of workloads, the job each becomes and the reading of a run's time, so that
# the suite and the instruction count run the same jobs and read them alike.

# name  glsl  template  sampler  tolerance (conformance classes: exact 0, implicit 0.06;
# aniso 0.15: anisotropy is implementation-defined, the conformance suite documents
# differences up to 0.14 — tests/conformance/known.txt aniso_plane)
bench_table="null null.frag frag_null - 0
bilinear bilinear.frag tex bilinear 0.06
trilinear trilinear.frag tex trilinear 0.06
rotated rotated.frag tex trilinear 0.06
aniso aniso.frag tex aniso 0.15
math math.frag frag - 1e-5
loop loop.frag frag - 1e-5
compute compute.comp comp - 0"

# bench_make_job WORKLOADS NAME GLSL TEMPLATE SAMPLER W H GX GY TGSI OUT: the job file OUT
# from WORKLOADS/TEMPLATE.json.in (W x H pixels, GX x GY compute blocks, the program TGSI)
bench_make_job() {
  local wl=$1
  shift
  local bufsize=$(( ($7 * $8 + 1) * 4 ))
  sed -e "s|@NAME@|$1|g" -e "s|@GLSL@|$wl/$2|g" -e "s|@SAMPLER@|$4|g" -e "s|@W@|$5|g" \
      -e "s|@H@|$6|g" -e "s|@GX@|$7|g" -e "s|@GY@|$8|g" -e "s|@BUFSIZE@|$bufsize|g" \
      -e "s|@TGSI@|$9|g" "$wl/$3.json.in" > "${10}"
}

# bench_workload_job MESA_RUN WORKLOADS DIR NAME GLSL TEMPLATE SAMPLER W H GX GY: DIR/job.json
# for the workload, its TGSI (DIR/prog.tgsi) what softpipe prints for its GLSL now (a 16x16,
# one-block capture: DIR/capture.json, DIR/capture/, DIR/capture.log); 1 with the capture's
# last lines on stderr where the capture fails
bench_workload_job() {
  local mesa_run=$1 wl=$2 d=$3
  shift 3
  mkdir -p "$d/capture"
  bench_make_job "$wl" "$1" "$2" "$3" "$4" 16 16 1 1 "$d/prog.tgsi" "$d/capture.json"
  if ! "$mesa_run" --driver softpipe --tgsi "$d/prog.tgsi" --out-dir "$d/capture" \
       --quiet "$d/capture.json" > "$d/capture.log" 2>&1; then
    echo "bench: $1: TGSI capture failed:" >&2; tail -3 "$d/capture.log" >&2; return 1
  fi
  bench_make_job "$wl" "$1" "$2" "$3" "$4" "$5" "$6" "$7" "$8" "$d/prog.tgsi" "$d/job.json"
}

# bench_median_ms < LOG: the median frame time in ms of a run's output (the line mesa-run
# and bench_job print: "... median M ms (fastest F ms) ..."); empty where there is none
bench_median_ms() {
  sed -n 's/.*median \([0-9.]*\) ms.*/\1/p' | head -n 1
}
