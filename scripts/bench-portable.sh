#!/usr/bin/env bash
# texvm's own rates on another x86-64 machine that has neither Mesa nor this project's
# build dependencies (a lent GPU host, say: issue 19 asks for every machine of the kind,
# Intel and AMD). Packs into OUT_DIR a build without the LLVM JIT (so no libLLVM to carry),
# the shared libraries it needs besides the C library, the suite's job files with their
# paths made relative, and run.sh, which prints the CPU, texvm's kernel choice, the store
# bandwidth and the one- and two-thread medians of every workload:
#   scripts/bench-portable.sh [--rounds N] [--suite DIR] [--build-dir DIR] OUT_DIR
#   (then OUT_DIR/run.sh on the other machine)
# The jobs are those the last `scripts/bench.sh` left in --suite (default
# build-perf/bench-suite: each workload's directory with its job.json and the TGSI softpipe
# printed for it; every such directory is packed); --build-dir is where the JIT-less build
# goes (default build-portable). Without the JIT, `loop` and `math` run interpreted: their
# rates are not the suite's, and llvmpipe is not there to compare — compare the rates
# with run.sh's on this machine (texvm against texvm), not with the suite's ratios.
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=2
suite=build-perf/bench-suite
build=build-portable
while [ $# -gt 1 ]; do
  case "$1" in
    --rounds) rounds=$2; shift 2 ;;
    --suite) suite=$2; shift 2 ;;
    --build-dir) build=$2; shift 2 ;;
    *) break ;;
  esac
done
usage="usage: scripts/bench-portable.sh [--rounds N] [--suite DIR] [--build-dir DIR] OUT_DIR"
out=${1:?$usage}
case "$rounds" in
  ''|*[!0-9]*|0) echo "bench-portable: --rounds needs a positive count" >&2; exit 2 ;;
esac
# the workloads the suite left (its table, scripts/bench.sh, is the one list of them)
workloads=()
for d in "$suite"/*/; do
  w=$(basename "$d")
  [ -f "$d/job.json" ] && [ -f "$d/prog.tgsi" ] && workloads+=("$w")
done
if [ ${#workloads[@]} = 0 ]; then
  echo "bench-portable: $suite holds no workload's job (run scripts/bench.sh first)" >&2
  exit 1
fi
cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DTEXVM_JIT=OFF \
  -DTEXVM_TESTS=OFF -DTEXVM_BENCH=ON > /dev/null
# (the build's compiler messages kept: its warnings, e.g. of code built only without the
# JIT, are printed, so that a test log counts them)
if ! cmake --build "$build" --target bench_job bench_store texvm > "$build/build.log" 2>&1; then
  cat "$build/build.log" >&2
  exit 1
fi
grep -E "warning:" "$build/build.log" >&2 || true

# everything goes to a temporary directory beside OUT_DIR, renamed at the end
parent=$(dirname "$out")
mkdir -p "$parent"
tmp=$(mktemp -d "$parent/.bench-portable.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/lib"
cp "$build/bench/bench_job" "$build/bench/bench_store" "$build/texvm" "$tmp/"
# the libraries besides the C runtime's (libc, libm, the loader, the vDSO)
for bin in bench_job bench_store texvm; do
  ldd "$tmp/$bin" | awk '$3 ~ /^\// {print $3}'
done | sort -u | while read -r lib; do
  case "$(basename "$lib")" in
    libc.so.*|libm.so.*|ld-linux*|libpthread.so.*|libdl.so.*|librt.so.*) ;;
    *) cp -L "$lib" "$tmp/lib/" ;;
  esac
done
for w in "${workloads[@]}"; do
  mkdir -p "$tmp/$w"
  cp "$suite/$w/prog.tgsi" "$tmp/$w/"
  # the program's path relative to the job file; the GLSL source is only a reference
  sed -e 's#"tgsi": "[^"]*"#"tgsi": "prog.tgsi"#' -e 's#, "glsl": "[^"]*"##' \
    "$suite/$w/job.json" > "$tmp/$w/job.json"
  if ! grep -q '"tgsi": "prog.tgsi"' "$tmp/$w/job.json"; then
    echo "bench-portable: $w: could not make the program's path relative" >&2
    exit 1
  fi
done
cat > "$tmp/run.sh" <<EOF
#!/usr/bin/env bash
# texvm's rates on this machine (made by scripts/bench-portable.sh): CPU, kernels, store
# bandwidth, then per round and workload the median frame time on one thread (pinned to
# CPU 0) and on two (CPUs 0 and 1), in ms. JIT off: loop and math run interpreted.
set -uo pipefail
cd "\$(dirname "\$0")"
export LD_LIBRARY_PATH=\$PWD/lib\${LD_LIBRARY_PATH:+:\$LD_LIBRARY_PATH}
pin1=(); pin2=()
if command -v taskset > /dev/null && [ "\$(nproc)" -gt 1 ]; then
  pin1=(taskset -c 0); pin2=(taskset -c 0,1)
fi
grep -m1 'model name' /proc/cpuinfo || true
echo "cpus: \$(nproc)"
./texvm --version --verbose | grep -E '^(cpu|kernels):'
./bench_store 33177600
for r in \$(seq 1 $rounds); do
  for w in ${workloads[*]}; do
    a=\$(cd "\$w" && "\${pin1[@]}" ../bench_job job.json --threads 1 --repeat 10 2>&1 |
        sed -n 's/.*median \([0-9.]*\) ms.*/\1/p')
    b=\$(cd "\$w" && "\${pin2[@]}" ../bench_job job.json --threads 2 --repeat 10 2>&1 |
        sed -n 's/.*median \([0-9.]*\) ms.*/\1/p')
    rm -f "\$w"/out.*
    echo "round \$r \$w 1t \${a:-failed} ms 2t \${b:-failed} ms"
  done
done
EOF
chmod +x "$tmp/run.sh"
rm -rf "$out"
mv "$tmp" "$out"
trap - EXIT
echo "bench-portable: $out ($(du -sh "$out" | cut -f1)): run $out/run.sh on the other machine"
