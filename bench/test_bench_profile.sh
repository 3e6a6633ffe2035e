#!/usr/bin/env bash
# bench.profile (bench/CMakeLists.txt): `bench_job --profile` on a job whose engine time is
# texture lookups: a 512x512 target, each pixel one trilinear lookup of a 256x256 noise
# texture, the interpreter alone (--jit off), 250 timed runs (about 0.4-1 s of CPU time:
# a hundred samples or more at the kernel's usual 250 Hz tick). The report must:
#   - count its samples (above 0) and sum them exactly in its "by function" and "by object"
#     lists;
#   - name the functions of the program's own binary (bench_job), and among the first five
#     the texture unit's (tex_* or vec_run_*: a lookup per pixel and nothing else is where
#     the engine's time goes);
#   - list the hottest addresses as function+offset;
#   - be written whole (no .tmp left beside it).
# And a job of straight-line arithmetic compiled by the JIT (--jit always, 400 runs): its
# code lies in no object, so the report's first function must be "(JIT code)" (skipped
# where the build has no JIT: bench_job then fails naming it).
# And the errors: a sampling period outside 1..999999 us is a usage error (exit 2, with a
# message), as is a period without --profile, a report that cannot be written an error (exit 1) that leaves no file. Skipped
# (77) where this bench_job was built without libdw (its --profile then says so: checked).
#   bench/test_bench_profile.sh BENCH_JOB
set -uo pipefail
# (bench_job, tmp, and tmp/prog.tgsi: one 2D TEX of IN[0] into OUT[0])
. "$(dirname "$0")/test_bench_job_setup.sh"
cat > "$tmp/job.json" <<'EOF'
{
  "texvm_job": 1,
  "programs": [ { "stage": "FRAG", "tgsi": "prog.tgsi" } ],
  "frag": { "width": 512, "height": 512,
            "inputs": [ { "index": 0, "values": [[0,0], [0.6,0], [0,0.6], [0.6,0.6]] } ] },
  "textures": [
    { "name": "tex", "type": "2D", "format": "R8G8B8A8_UNORM", "width": 256, "height": 256,
      "levels": "all", "mipmaps": "generate", "source": { "pattern": "noise", "seed": 7 } }
  ],
  "samplers": [ { "name": "s", "filter": "trilinear", "wrap": "repeat" } ],
  "bindings": { "units": [ { "slot": 0, "texture": "tex", "sampler": "s" } ] },
  "outputs": [ { "target": 0, "raw": "out.rgba32f" } ]
}
EOF
fail=0
run() { (cd "$tmp" && "$bench_job" job.json --jit off --out-dir "$tmp" "$@" 2>&1); }
log=$(run --repeat 250 --profile "$tmp/report.txt")
st=$?
if [ $st != 0 ] && grep -q 'libdw' <<< "$log"; then
  echo "$log"; echo "bench.profile: this bench_job has no libdw: skipped"; exit 77
fi
echo "$log"
[ $st = 0 ] || { echo "FAIL: bench_job --profile exited $st"; exit 1; }
r=$tmp/report.txt
[ -f "$r" ] || { echo "FAIL: no report"; exit 1; }
cat "$r"
[ -e "$r.tmp" ] && { echo "FAIL: the temporary file was left"; fail=1; }
n=$(sed -n 's/^profile: \([0-9]*\) samples of the engine calls.*/\1/p' "$r")
[ -n "$n" ] && [ "$n" -gt 0 ] || { echo "FAIL: no sample count"; n=0; fail=1; }
# section SECTION: the samples column of its share lines
section() {
  awk -v s="$1" '/^[a-z]/ { on = ($0 == s) ; next }
                 on && $1 ~ /%$/ { sum += $2 } END { print sum + 0 }' "$r"
}
for s in "by function:" "by object:"; do
  got=$(section "$s")
  [ "$got" = "$n" ] || { echo "FAIL: $s sums to $got samples, not $n"; fail=1; }
done
grep -Eq '^ +[0-9.]+% +[0-9]+  [^ ]+  \(bench_job\)$' "$r" ||
  { echo "FAIL: no function of bench_job named"; fail=1; }
awk '/^by function:/ { on = 1; next } /^[a-z]/ { on = 0 } on && ++k <= 5' "$r" |
  grep -Eq '  (tex_|vec_run_)[^ ]*  \(bench_job\)$' ||
  { echo "FAIL: no texture-unit function among the first five"; fail=1; }
grep -Eq '^  [^ ]+: \+0x[0-9a-f]+:[0-9]+' "$r" || { echo "FAIL: no hottest addresses"; fail=1; }
grep -Eq '^ +[0-9.]+% +[0-9]+  bench_job$' "$r" || { echo "FAIL: bench_job not among the objects"; fail=1; }
# the JIT's code: 40 MADs and a SIN a pixel, compiled
{
  echo FRAG
  echo 'DCL IN[0].xy, GENERIC[0], PERSPECTIVE'
  echo 'DCL OUT[0], COLOR'
  echo 'DCL TEMP[0..1]'
  echo 'IMM[0] FLT32 { 1.0001, 0.4999, 0.25, 0.0 }'
  echo '  0: MOV TEMP[0], IN[0].xyxy'
  for i in $(seq 1 40); do echo "  $i: MAD TEMP[0], TEMP[0], IMM[0].xxxx, IMM[0].yyyy"; done
  echo ' 41: SIN TEMP[1].x, TEMP[0].xxxx'
  echo ' 42: ADD OUT[0], TEMP[0], TEMP[1].xxxx'
  echo ' 43: END'
} > "$tmp/math.tgsi"
sed -e 's/"prog.tgsi"/"math.tgsi"/' -e '/"textures"/,/"bindings"/d' "$tmp/job.json" > "$tmp/math.json"
log=$(cd "$tmp" && "$bench_job" math.json --jit always --repeat 400 --out-dir "$tmp" \
        --profile "$tmp/jit.txt" 2>&1)
st=$?
if [ $st != 0 ] && grep -qi 'jit' <<< "$log"; then
  echo "bench.profile: no JIT in this build: its part skipped ($log)"
elif [ $st != 0 ]; then
  echo "FAIL: the JIT job exited $st: $log"; fail=1
else
  cat "$tmp/jit.txt"
  first=$(awk '/^by function:/ { getline; print; exit }' "$tmp/jit.txt")
  grep -q '  (JIT code)  (no object: the JIT'"'"'s code)$' <<< "$first" ||
    { echo "FAIL: the JIT job's first function is not the JIT's code: $first"; fail=1; }
fi
# usage errors and a report that cannot be written
for p in 0 1000000 x; do
  log=$(run --repeat 1 --profile "$tmp/p.txt" --profile-period "$p")
  st=$?
  [ $st = 2 ] && grep -q 'profile-period' <<< "$log" ||
    { echo "FAIL: --profile-period $p: exit $st: $log"; fail=1; }
done
log=$(run --repeat 1 --profile-period 500)
st=$?
[ $st = 2 ] && grep -q 'profile-period without --profile' <<< "$log" ||
  { echo "FAIL: --profile-period without --profile: exit $st: $log"; fail=1; }
log=$(run --repeat 1 --profile "$tmp/no/such/folder/p.txt")
st=$?
[ $st = 1 ] && grep -q 'cannot write' <<< "$log" ||
  { echo "FAIL: an unwritable report: exit $st: $log"; fail=1; }
[ -e "$tmp/no" ] && { echo "FAIL: the unwritable report made something"; fail=1; }
[ $fail = 0 ] && echo "bench.profile: ok ($n samples)"
exit $fail
