#!/usr/bin/env bash
# The texture conformance suite (issue 5; docs/fidelity-conformance.md §2, "Conformance
# suite").
# For every tests/conformance/cases/*.frag:
#   1. build the job from job.json.in (units from the case's `// units:` line: SAMP[i] /
#      GL binding i = the i-th texture:sampler pair),
#   2. run it on Mesa softpipe with SOFTPIPE_DEBUG capture (tools/mesa-run --tgsi): the
#      TGSI texvm runs is the one softpipe printed now, never a stored copy,
#   3. run it on llvmpipe (GALLIVM_PERF=no_quad_lod,no_aos_sampling),
#   4. run the captured TGSI with `texvm run`,
#   5. compare (conf_compare): `agreed` = bit-exact with llvmpipe; `tolerated` = within the
#      case's tolerance (`// class:` exact 0, filtered 4e-3 (explicit LOD), implicit 0.06
#      (lambda from derivatives: Mesa computes one lambda per quad), lod 0.3 (LOD queries),
#      or `tol=`);
#      `documented` = outside it but listed in known.txt (reason in
#      docs/fidelity-conformance.md);
#      otherwise a failure.
# Each case whose capture has TEX-family lookups with a D3D10 equivalent runs a second time
# as NAME/d3d: texvm runs the capture rewritten to SAMPLE, SAMPLE_B, SAMPLE_L, SAMPLE_D,
# SAMPLE_C, SAMPLE_I, GATHER4, SVIEWINFO, LOD ($CONF_D3D = conf_d3d) against the same
# Mesa outputs (Mesa's nir_to_tgsi never emits those opcodes).
# Then the programs of shared/corpus/tgsi/mesa-softpipe listed in corpus/cases.txt (tex_all
# once per u_op), with texvm running the corpus TGSI file itself ($TEXVM_SHARED_DIR).
# Prints one line per case and a summary table. Exit 0, 1 on failures, 77 (skip) when
# Mesa cannot run (no mesa-run, no EGL).
#   tests/conformance/run.sh TEXVM MESA_RUN CONF_COMPARE WORKDIR [CASE...]
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
texvm=$1 mesa_run=$2 compare=$3 work=$4
d3d_tool=${CONF_D3D:-}
shift 4
if [ ! -x "$mesa_run" ]; then
  echo "conformance: SKIP: tools/mesa-run not built (needs EGL + GL development files)"
  exit 77
fi
export GALLIVM_PERF=no_quad_lod,no_aos_sampling LP_NUM_THREADS=1
export ASAN_OPTIONS=detect_leaks=0
mkdir -p "$work"
only=("$@")
cases=()
if [ ${#only[@]} -eq 0 ]; then
  for f in "$here"/cases/*.frag; do cases+=("$(basename "${f%.frag}")"); done
else
  for c in "${only[@]}"; do [ -f "$here/cases/$c.frag" ] && cases+=("$c"); done
fi
declare -A known
while IFS= read -r line; do
  case "$line" in ''|'#'*) continue ;; esac
  known[${line%%:*}]=${line#*: }
done < "$here/known.txt"

n=0 agreed=0 tolerated=0 documented=0 failed=0 sp_exact=0 sp_tol=0

# run_case NAME CLASS TOL TEXVM_JOB [D3D]: the case's folder holds job.json (Mesa, captures
# NAME.tgsi) and TEXVM_JOB (texvm; the same job, possibly naming another TGSI file). With
# D3D set, Mesa is not run again: texvm runs TEXVM_JOB (the SAMPLE* rewrite of the capture)
# into tv_d3d/ and is compared with the Mesa outputs already there; the case is NAME/d3d.
run_case() {
  local c=$1 class=$2 tol=$3 tvjob=$4 d3d=${5:-} d="$work/$1" res="" why="" vl=- vs=- ml=0 ms=0
  local tv=tv label=$1
  if [ -n "$d3d" ]; then tv=tv_d3d label="$1/d3d"; mkdir -p "$d/$tv"; fi
  case "$class" in
    exact) tol=${tol:-0} ;;
    filtered) tol=${tol:-0.004} ;;
    implicit) tol=${tol:-0.06} ;;
    lod) tol=${tol:-0.3} ;;
    *) why="no class"; res=FAIL; tol=0 ;;
  esac
  n=$((n + 1))
  if [ -n "$res" ] || [ -n "$d3d" ]; then
    :
  elif ! "$mesa_run" --driver softpipe --tgsi "$d/$c.tgsi" --out-dir "$d/sp" --quiet \
         "$d/job.json" > "$d/softpipe.log" 2>&1; then
    if [ $n -eq 1 ] && grep -qi "egl\|display" "$d/softpipe.log"; then
      echo "conformance: SKIP: Mesa cannot run here: $(head -1 "$d/softpipe.log")"
      exit 77
    fi
    res=FAIL why="softpipe: $(tail -1 "$d/softpipe.log")"
  elif ! "$mesa_run" --driver llvmpipe --out-dir "$d/lp" --quiet "$d/job.json" \
         > "$d/llvmpipe.log" 2>&1; then
    res=FAIL why="llvmpipe: $(tail -1 "$d/llvmpipe.log")"
  fi
  # v_uv is the job's input 0; a shader that reads gl_FragCoord has POSITION as IN[0] and
  # v_uv (GENERIC[0]) after it: texvm's job names the register the capture gave it
  local uvreg
  uvreg=$(sed -n 's/^DCL IN\[\([0-9]*\)\].*GENERIC\[0\].*/\1/p' "$d/$c.tgsi" 2>/dev/null | head -1)
  if [ -z "$res" ] && [ -n "$uvreg" ] && [ "$uvreg" != 0 ]; then
    sed "s/\"index\": 0, \"values\"/\"index\": $uvreg, \"values\"/" "$tvjob" > "$d/$tv.job.json"
    tvjob="$d/$tv.job.json"
  fi
  if [ -z "$res" ] && ! "$texvm" run "$tvjob" --out-dir "$d/$tv" --quiet > "$d/$tv.log" 2>&1; then
    res=FAIL why="texvm: $(tail -1 "$d/$tv.log")"
  fi
  if [ -z "$res" ]; then
    read -r vl vs ml ms < <("$compare" "$d/$tv/out.rgba32f" "$d/lp/out.rgba32f" \
                                        "$d/sp/out.rgba32f" "$tol")
    case "$vl" in
      exact) res=agreed ;;
      tol) res=tolerated ;;
      *) res=FAIL why="max |texvm - llvmpipe| = $ml" ;;
    esac
    case "$vs" in exact) sp_exact=$((sp_exact + 1)) ;; tol) sp_tol=$((sp_tol + 1)) ;; esac
  fi
  if [ "$res" = FAIL ] && [ -n "${known[$label]:-}" ]; then
    res=documented why="${known[$label]} ($why)"
  fi
  case "$res" in
    agreed) agreed=$((agreed + 1)) ;;
    tolerated) tolerated=$((tolerated + 1)) ;;
    documented) documented=$((documented + 1)) ;;
    *) failed=$((failed + 1)) ;;
  esac
  printf '%-26s %-9s %-7s %-10s %-10s %s\n' "$label" "$class" "$tol" "$vl($ml)" "$vs($ms)" \
         "$res${why:+: $why}"
}

printf '%-26s %-9s %-7s %-10s %-10s %s\n' case class tol llvmpipe softpipe result
for c in "${cases[@]}"; do
  src="$here/cases/$c.frag"
  d="$work/$c"
  rm -rf "$d"
  mkdir -p "$d/sp" "$d/lp" "$d/tv"
  cp "$src" "$d/$c.frag"
  units=$(sed -n 's#^// units: *##p' "$src" | head -1)
  class=$(sed -n 's#^// class: *\([a-z]*\).*#\1#p' "$src" | head -1)
  tol=$(sed -n 's#^// class:.*tol=\([0-9.e-]*\).*#\1#p' "$src" | head -1)
  json=""
  i=0
  IFS=',' read -ra pairs <<< "$units"
  for p in "${pairs[@]}"; do
    [ -n "$json" ] && json="$json, "
    json="$json{ \"slot\": $i, \"texture\": \"${p%%:*}\", \"sampler\": \"${p#*:}\" }"
    i=$((i + 1))
  done
  sed -e "s#@TGSI@#$c.tgsi#" -e "s#@GLSL@#$c.frag#" -e "s#@NAME@#$c#" \
      -e "s#@UNITS@#$json#" "$here/job.json.in" > "$d/job.json"
  run_case "$c" "$class" "$tol" "$d/job.json"
  # the same program with its TEX-family lookups rewritten to the D3D10 SAMPLE* forms
  if [ -f "$d/$c.tgsi" ] && [ -n "$d3d_tool" ] &&
     "$d3d_tool" "$d/$c.tgsi" "$d/${c}_d3d.tgsi" > "$d/d3d.log" 2>&1; then
    sed -e "s#\"tgsi\": \"$c.tgsi\"#\"tgsi\": \"${c}_d3d.tgsi\"#" "$d/job.json" > "$d/job_d3d.json"
    run_case "$c" "$class" "$tol" "$d/job_d3d.json" d3d
  fi
done

# The corpus programs (all cases, or those named on the command line).
corpus=${TEXVM_SHARED_DIR:+$TEXVM_SHARED_DIR/corpus/tgsi/mesa-softpipe}
if [ -n "$corpus" ] && [ -d "$corpus" ]; then
  while read -r c tpl glsl tgsi class tol uop; do
    case "$c" in ''|'#'*) continue ;; esac
    if [ ${#only[@]} -gt 0 ] && [[ ! " ${only[*]} " == *" $c "* ]]; then continue; fi
    d="$work/$c"
    rm -rf "$d"
    mkdir -p "$d/sp" "$d/lp" "$d/tv"
    cp "$corpus/$glsl" "$corpus/$tgsi" "$d/"
    [ "$tol" = - ] && tol=""
    sed -e "s#@TGSI@#$c.tgsi#" -e "s#@GLSL@#$glsl#" -e "s#@UOP@#$uop#" \
        "$here/corpus/$tpl" > "$d/job.json"
    sed -e "s#@TGSI@#$tgsi#" -e "s#@GLSL@#$glsl#" -e "s#@UOP@#$uop#" \
        "$here/corpus/$tpl" > "$d/job_texvm.json"
    run_case "$c" "$class" "$tol" "$d/job_texvm.json"
  done < "$here/corpus/cases.txt"
else
  echo "conformance: TEXVM_SHARED_DIR not set or no corpus: corpus programs not run"
fi
echo
echo "| cases | agreed (bit-exact, llvmpipe) | tolerated | documented differences | failures | softpipe bit-exact | softpipe within tolerance |"
echo "|---|---|---|---|---|---|---|"
echo "| $n | $agreed | $tolerated | $documented | $failed | $sp_exact | $sp_tol |"
[ $failed -eq 0 ]
