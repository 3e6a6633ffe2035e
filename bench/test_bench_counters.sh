#!/usr/bin/env bash
# bench.counters (bench/CMakeLists.txt): `bench_job --counters` against counts worked out
# by hand. A 64x32 target is 8 x 8 = 64 tiles of 8x4 pixels, one warp each with all 32
# lanes live, and the program samples once, so each run makes 64 texture requests of the
# warp kernel; --repeat 2 is 3 runs (the warm-up too): 192 requests.
#   free: a 64x64 texture with mip filter NONE and one filter for both directions: every
#         request takes the kernel's way without a level of detail (192), one level pass
#         each (paired + single = 192), no log2 lookup, no probe; the request is the one
#         a wide variant's no-LOD copy serves (values only, mip NONE, linear both ways,
#         RGBA, a pitch view): it answers all 192 (the generic variant: 0);
#   mag:  a 16x16 texture, trilinear, v_uv over 64x32 pixels: 4 and 2 pixels a texel, so
#         every lane is proven magnified without a log2 (192), one level pass each; the
#         request is the common one (a values-only SAMPLE, mip LINEAR, linear filters, RGBA,
#         a pitch view), so a wide kernel variant's copy for it answers all 192 (the
#         generic variant has none: 0). `free` is not the common request (mip NONE): 0,
#         nor `mag` the no-LOD one: 0.
# And --counters with two threads is a usage error (exit 2: the counts are per thread).
#   bench/test_bench_counters.sh BENCH_JOB
set -uo pipefail
# (bench_job, tmp, and tmp/prog.tgsi: one 2D TEX of IN[0] into OUT[0])
. "$(dirname "$0")/test_bench_job_setup.sh"
# job NAME SIZE SAMPLER: a job sampling a SIZE x SIZE noise texture with SAMPLER
job() {
  cat > "$tmp/$1.json" <<EOF
{
  "texvm_job": 1,
  "programs": [ { "stage": "FRAG", "tgsi": "prog.tgsi" } ],
  "frag": { "width": 64, "height": 32,
            "inputs": [ { "index": 0, "values": [[0,0], [1,0], [0,1], [1,1]] } ] },
  "textures": [
    { "name": "tex", "type": "2D", "format": "R8G8B8A8_UNORM", "width": $2, "height": $2,
      "levels": "all", "mipmaps": "generate", "source": { "pattern": "noise", "seed": 7 } }
  ],
  "samplers": [ $3 ],
  "bindings": { "units": [ { "slot": 0, "texture": "tex", "sampler": "s" } ] },
  "outputs": [ { "target": 0, "raw": "out.rgba32f" } ]
}
EOF
}
job free 64 '{ "name": "s", "min_filter": "linear", "mag_filter": "linear", "mip_filter": "none", "wrap": "repeat" }'
job mag 16 '{ "name": "s", "filter": "trilinear", "wrap": "repeat" }'
fail=0
# counts NAME: the numbers of the --counters line, each after a space (not log2's 2)
counts() {
  local out
  out=$(cd "$tmp" && "$bench_job" "$1.json" --repeat 2 --counters --out-dir "$tmp") ||
    { echo "FAIL: $1: bench_job exited $?" >&2; return 1; }
  echo "$out" >&2
  grep '^bench_job: texture kernel (' <<< "$out" | grep -o ' [0-9]\+' | tr -d '\n'
}
# the kernel's variant, from the same line: avx512, avx2 or generic
variant=$(cd "$tmp" && "$bench_job" free.json --repeat 1 --counters --out-dir "$tmp" |
          sed -n 's/^bench_job: texture kernel (\([a-z0-9]*\)).*/\1/p')
common_mag=192 copy_free=192
[ "$variant" = generic ] && common_mag=0 copy_free=0
[ -n "$variant" ] || { echo "FAIL: no kernel variant on the counters line"; fail=1; }
# the line's numbers: runs requests uniform magnified free common no-LOD-copy log2
# log2-cache paired windows single probes
check() {
  local name=$1 want=$2 got
  got=$(counts "$name") || { fail=1; return; }
  set -- $got
  if [ $# != 13 ]; then
    echo "FAIL: $name: no counters line"; fail=1; return
  fi
  local passes=$((${10} + ${12}))
  local have="runs $1 requests $2 uniform $3 magnified $4 free $5 common $6 copy $7 log2 $8 cache $9 passes $passes probes ${13}"
  [ "$have" = "$want" ] || { echo "FAIL: $name: $have, expected $want"; fail=1; }
  [ "${11}" -le "${10}" ] || { echo "FAIL: $name: more windows (${11}) than paired passes (${10})"; fail=1; }
}
check free "runs 3 requests 192 uniform 0 magnified 0 free 192 common 0 copy $copy_free log2 0 cache 0 passes 192 probes 0"
check mag "runs 3 requests 192 uniform 0 magnified 192 free 0 common $common_mag copy 0 log2 0 cache 0 passes 192 probes 0"
log=$(cd "$tmp" && "$bench_job" free.json --threads 2 --counters 2>&1)
rc=$?
[ $rc = 2 ] || { echo "FAIL: --counters with two threads exited $rc, not 2"; fail=1; }
grep -q 'needs --threads 1' <<< "$log" || { echo "FAIL: no message for two threads: $log"; fail=1; }
[ $fail = 0 ] && echo "bench.counters: ok"
exit $fail
