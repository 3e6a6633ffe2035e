#!/usr/bin/env bash
# Regenerate TGSI captures from GLSL with Mesa's softpipe (Debian 12 Mesa 22.3.6):
# each FILE.frag / FILE.comp (or .glsl with a `--stage`) runs once through tools/mesa-run
# with SOFTPIPE_DEBUG on, and the programs softpipe built are written to OUT/FILE.tgsi
# (the VERT program mesa-run generated to feed a fragment shader comes first, then the
# FRAG; or the COMP). See docs/mesa-reference.md.
#   scripts/capture-tgsi.sh [--out DIR] [--mesa-run PATH] [--size WxH] FILE.frag|FILE.comp ...
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
out=""
size="16x16"
mesa_run="${MESA_RUN:-}"
files=()
while [ $# -gt 0 ]; do
  case "$1" in
    --out) out=$2; shift 2 ;;
    --mesa-run) mesa_run=$2; shift 2 ;;
    --size) size=$2; shift 2 ;;
    -h|--help) sed -n '2,8p' "$0"; exit 0 ;;
    *) files+=("$1"); shift ;;
  esac
done
if [ ${#files[@]} -eq 0 ]; then
  echo "capture-tgsi: no GLSL files given" >&2; exit 2
fi
if [ -z "$mesa_run" ]; then
  for d in build-mesa build; do
    if [ -x "$root/$d/tools/mesa-run" ]; then mesa_run="$root/$d/tools/mesa-run"; break; fi
  done
fi
if [ -z "$mesa_run" ] || [ ! -x "$mesa_run" ]; then
  echo "capture-tgsi: tools/mesa-run not built (scripts/build.sh, needs libegl-dev + libgl-dev)" >&2
  exit 3
fi
w=${size%x*}; h=${size#*x}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
status=0
for f in "${files[@]}"; do
  src=$(realpath "$f")
  stem=$(basename "${f%.*}")
  dir=${out:-$(dirname "$src")}
  mkdir -p "$dir"
  dst=$(realpath -m "$dir/$stem.tgsi")
  case "$f" in
    *.comp) stage=COMP; run='"comp": { "grid": [1, 1, 1] }' ;;
    *) stage=FRAG; run="\"frag\": { \"width\": $w, \"height\": $h }" ;;
  esac
  cat > "$tmp/job.json" <<JOB
{ "texvm_job": 1,
  "programs": [ { "stage": "$stage", "tgsi": "$dst", "glsl": "$src" } ],
  $run }
JOB
  if "$mesa_run" --driver softpipe --tgsi "$dst" --quiet "$tmp/job.json"; then
    echo "capture-tgsi: $f -> $dst"
  else
    echo "capture-tgsi: $f: mesa-run failed" >&2
    status=1
  fi
done
exit $status
