#!/usr/bin/env bash
# README command 1: set up, build, and render every example job (examples/*/job.json) into
# out/<example>/ with `texvm run`, and the graphics pipeline's demo (a tessellated,
# displacement-mapped surface: tools/tess-demo) into out/tess_surface/, then say where the
# images are.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
scripts/build.sh build
bin=build/texvm
shopt -s nullglob
tgsi=(examples/*.tgsi examples/tgsi/*.tgsi)
if [ ${#tgsi[@]} -gt 0 ]; then
  echo "== texvm check ${tgsi[*]}"
  "$bin" check "${tgsi[@]}"
  for f in "${tgsi[@]}"; do
    echo "== texvm fmt $f"
    "$bin" fmt "$f"
  done
fi

jobs=(examples/*/job.json)
if [ ${#jobs[@]} -eq 0 ]; then
  echo "no example jobs under examples/*/job.json"
  exit 0
fi
mkdir -p out
ok=()
failed=()
unsupported=()
for job in "${jobs[@]}"; do
  name=$(basename "$(dirname "$job")")
  echo "== texvm run $job --out-dir out/$name"
  rc=0
  "$bin" run "$job" --out-dir "out/$name" || rc=$?
  case $rc in
    0) ok+=("$name") ;;
    4) unsupported+=("$name") ;;   # a feature texvm does not have yet (named above)
    *) failed+=("$name (exit $rc)") ;;
  esac
done

echo "== tools/tess-demo out/tess_surface/surface.png"
mkdir -p out/tess_surface
if build/tools/tess-demo out/tess_surface/surface.png; then
  ok+=(tess_surface)
else
  failed+=("tess_surface (tess-demo)")
fi

echo
echo "== demo: ${#ok[@]} of $((${#jobs[@]} + 1)) demos rendered"
for name in "${ok[@]}"; do
  for img in out/"$name"/*.png; do
    echo "   $img"
  done
done
if [ ${#unsupported[@]} -gt 0 ]; then
  echo "== not rendered, they need a feature texvm does not have yet (exit 4, named above):"
  for n in "${unsupported[@]}"; do
    echo "   $n"
  done
fi
if [ ${#failed[@]} -gt 0 ]; then
  echo "== failed:"
  for f in "${failed[@]}"; do
    echo "   $f"
  done
  exit 1
fi
echo "Images are in $(pwd)/out/"
