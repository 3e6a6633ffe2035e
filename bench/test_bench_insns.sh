#!/usr/bin/env bash
# bench.insns (bench/CMakeLists.txt): scripts/bench-insns.sh
# 1. against a stand-in build and a stand-in valgrind whose counts and times are chosen, so
#    that every figure of its table can be held to a value worked out by hand. The stand-in
#    valgrind reports 10^9 + N * (F + 10^6) instructions for a process timing N frames (F:
#    texvm's job 6,000,000 a frame, llvmpipe's 2,000,000; the draws' 50,000,000 and
#    40,000,000; 10^6 a frame in libc's memset, which the count leaves out), the
#    stand-in bench_job times 2.000 ms a frame, mesa-run 1.000 ms, bench_draw's texvm mesh
#    25.00 ms and llvmpipe's 0.050 s, bench_cpu_speed a 3.00 GHz chain. --quick: 256x144 =
#    36,864 pixels. Worked out:
#      trilinear: tv/lp 6/2 = 3.00; 6e6 / 36864 = 162.8 and 2e6 / 36864 = 54.3 a pixel;
#        instructions a cycle 6e6 / (2.000 ms * 3.00 GHz) = 6e6 / 6e6 = 1.00 and
#        2e6 / (1.000 * 3.00e6) = 0.67; their ratio 3.00 * (1.000 / 2.000) = 1.50
#      mesh (1024x1024 = 1,048,576 pixels): tv/lp 50/40 = 1.25; 47.7 and 38.1 a pixel;
#        50e6 / (25 * 3e6) = 0.67 and 40e6 / (50 * 3e6) = 0.27; ratio 1.25 * 50 / 25 = 2.50
#    A build that runs AVX-512 variants natively (no ceiling line, a CPU with avx512f) prints
#    no instructions a cycle; a count that does not grow with the frames fails (exit 1);
#    bad arguments exit 2; no valgrind exits 77.
# 2. where valgrind, Mesa and a build are there: the real null workload at --quick size
#    counts instructions above zero for both engines (exit 0).
#   bench/test_bench_insns.sh SOURCE_DIR [BUILD_DIR]
set -uo pipefail
src=${1:?usage: bench/test_bench_insns.sh SOURCE_DIR [BUILD_DIR]}
real_build=${2:-}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
b=$tmp/build
mkdir -p "$b/bench" "$b/tools" "$tmp/bin"
# the stand-in valgrind: --log-file=F, then the command; N = the value after --repeat or
# --draws; the command's own output to stdout
cat > "$tmp/bin/valgrind" <<'EOF'
#!/usr/bin/env bash
log="" cg=/dev/null n=0 per=0
while [ $# -gt 0 ] && [ "${1#--}" != "$1" ]; do
  case "$1" in
    --log-file=*) log=${1#--log-file=} ;;
    --cachegrind-out-file=*) cg=${1#--cachegrind-out-file=} ;;
  esac
  shift
done
args=("$@")
for ((i = 0; i < ${#args[@]}; i++)); do
  case "${args[i]}" in --repeat|--draws) n=${args[i+1]} ;; esac
done
case "$*" in
  *bench_job*) per=6000000 ;;
  *mesa-run*) per=2000000 ;;
  *--texvm*) per=50000000 ;;
  *--llvmpipe*) per=40000000 ;;
esac
[ -n "${FAKE_FLAT:-}" ] && per=0
"$@" > /dev/null 2>&1
# beside the frames, 1,000,000 instructions a frame in libc's memset (a clear, left out)
# and 500,000 in a function of the program's own whose name begins alike (kept)
printf '==1== \n==1== I   refs:      %s\n' \
  "$(printf "%'d" $((1000000000 + n * (per + 1000000))))" > "$log"
printf 'fn=main\n1 %d\n2 %d\nfn=memset_rows\n3 %d\nfn=__memset_avx2_unaligned_erms\n4 %d\n' \
  $((1000000000 - 500000 * n)) $((n * per)) $((500000 * n)) $((1000000 * n)) > "$cg"
EOF
cat > "$b/bench/bench_job" <<'EOF'
#!/usr/bin/env bash
echo "bench_job: FRAG: median 2.000 ms over 5 runs (fastest 1.900 ms), 1.00 Mpixels/s on 1 thread"
EOF
cat > "$b/tools/mesa-run" <<'EOF'
#!/usr/bin/env bash
# the TGSI capture writes the program where --tgsi says
while [ $# -gt 0 ]; do
  case "$1" in --tgsi) printf 'FRAG\nEND\n' > "$2"; shift ;; esac
  shift
done
echo "mesa-run: llvmpipe draw: median 1.000 ms over 5 runs (fastest 0.900 ms), 1.00 Mpixels/s"
EOF
cat > "$b/bench/bench_draw" <<'EOF'
#!/usr/bin/env bash
case "$*" in
  *--llvmpipe*) echo "0.050000 0.010000 0.049000 0.009000 1048576 1048576" ;;
  *) echo "texvm-1: mesh     25.00 ms, blend      0.00 ms; texvm-2: mesh      0.00 ms, blend      0.00 ms; lit pixels 1 and 0" ;;
esac
EOF
cat > "$b/bench/bench_cpu_speed" <<'EOF'
#!/usr/bin/env bash
echo "bench_cpu_speed: cpu $1: chain 3.00 G adds/s, vector 40.00 G flops/s, memory 30.00 M loads/s"
EOF
cat > "$b/texvm" <<'EOF'
#!/usr/bin/env bash
printf 'cpu: Stand-in\nkernels: engine avx2, build ceiling avx2\n'
EOF
chmod +x "$tmp/bin/valgrind" "$b/bench/bench_job" "$b/tools/mesa-run" "$b/bench/bench_draw" \
  "$b/bench/bench_cpu_speed" "$b/texvm"
echo "flags : sse2 avx2 avx512f" > "$tmp/cpuinfo-512"
export BENCH_INSNS_VALGRIND=$tmp/bin/valgrind BENCH_INSNS_CPUINFO=$tmp/cpuinfo-512
run() { "$src/scripts/bench-insns.sh" --build "$b" --work "$tmp/work" --cpu 0 "$@" 2>&1; }
row() { awk -v n="$1" '$1 == n' <<< "$2" | tr -s ' '; }

log=$(run --quick trilinear mesh)
rc=$?
echo "$log"
[ $rc = 0 ] || { echo "FAIL: exit $rc"; fail=1; }
want="trilinear 6.0 2.0 3.00 162.8 54.3 2.00 1.00 1.00 0.67 1.50"
[ "$(row trilinear "$log")" = "$want" ] || { echo "FAIL: trilinear row, want: $want"; fail=1; }
want="mesh 50.0 40.0 1.25 47.7 38.1 25.00 50.00 0.67 0.27 2.50"
[ "$(row mesh "$log")" = "$want" ] || { echo "FAIL: mesh row, want: $want"; fail=1; }
grep -q 'chain probe 3.00 GHz' <<< "$log" || { echo "FAIL: no clock in the header"; fail=1; }
grep -q '^bench-insns: kernels: engine avx2, build ceiling avx2$' <<< "$log" ||
  { echo "FAIL: no kernels line"; fail=1; }

# the AVX-512 variants timed natively: no instructions a cycle
printf '#!/usr/bin/env bash\nprintf "kernels: engine avx512f\\n"\n' > "$b/texvm"
log=$(run --quick trilinear)
echo "$log"
want="trilinear 6.0 2.0 3.00 162.8 54.3 2.00 1.00 - - -"
[ "$(row trilinear "$log")" = "$want" ] || { echo "FAIL: AVX-512 trilinear row, want: $want"; fail=1; }
grep -q 'not of the counted code' <<< "$log" || { echo "FAIL: no note on the AVX-512 times"; fail=1; }
# ...but on a CPU without AVX-512 the same build's times are of the counted code
echo "flags : sse2 avx2" > "$tmp/cpuinfo-avx2"
log=$(BENCH_INSNS_CPUINFO=$tmp/cpuinfo-avx2 run --quick trilinear)
[ "$(row trilinear "$log" | cut -d' ' -f9-)" = "1.00 0.67 1.50" ] ||
  { echo "FAIL: an AVX2-only CPU's instructions a cycle"; echo "$log"; fail=1; }

# a count that does not grow with the frames
log=$(FAKE_FLAT=1 run --quick null)
rc=$?
[ $rc = 1 ] || { echo "FAIL: exit $rc for counts that do not grow (want 1)"; echo "$log"; fail=1; }
grep -q 'run(s) failed' <<< "$log" || { echo "FAIL: no failure line"; fail=1; }

# arguments
for bad in "nosuch" "--cpu x null" "--cpu 99999 null" "--frobnicate"; do
  # shellcheck disable=SC2086  # (the words are the arguments)
  run $bad > /dev/null
  rc=$?
  [ $rc = 2 ] || { echo "FAIL: exit $rc for '$bad' (want 2)"; fail=1; }
done
# a work folder holding something else is refused, its file kept
mkdir -p "$tmp/foreign" && echo keep > "$tmp/foreign/file"
"$src/scripts/bench-insns.sh" --build "$b" --work "$tmp/foreign" --quick null > /dev/null 2>&1
rc=$?
[ $rc = 2 ] && [ -e "$tmp/foreign/file" ] ||
  { echo "FAIL: exit $rc for a foreign work folder (want 2, its file kept)"; fail=1; }
BENCH_INSNS_VALGRIND=$tmp/no-valgrind run --quick null > /dev/null
rc=$?
[ $rc = 77 ] || { echo "FAIL: exit $rc without valgrind (want 77)"; fail=1; }

# 2. the real thing, where it can run
unset BENCH_INSNS_VALGRIND BENCH_INSNS_CPUINFO
if [ -n "$real_build" ] && command -v valgrind > /dev/null &&
   [ -x "$real_build/tools/mesa-run" ] && [ -x "$real_build/bench/bench_job" ]; then
  log=$("$src/scripts/bench-insns.sh" --quick --build "$real_build" --work "$tmp/real" null 2>&1)
  rc=$?
  echo "$log"
  if grep -q 'SKIP' <<< "$log"; then
    echo "(real run skipped)"
  else
    [ $rc = 0 ] || { echo "FAIL: real run exit $rc"; fail=1; }
    awk '$1 == "null" && $2 > 0 && $3 > 0 { ok = 1 } END { exit !ok }' <<< "$log" ||
      { echo "FAIL: real null row without counts"; fail=1; }
  fi
fi
exit $fail
