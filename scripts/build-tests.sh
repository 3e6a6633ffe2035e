#!/usr/bin/env bash
# Configure DIR and build only the unit test programs of one CTest label (not those
# labelled mesa) and the texvm CLI the tests may run: for builds where linking every
# program is slow (LTO). Run them with `ctest -L LABEL -LE mesa` in DIR.
#   scripts/build-tests.sh DIR LABEL [-DCMAKE_BUILD_TYPE=Release ...]
set -euo pipefail
cd "$(dirname "$0")/.."
if [ $# -lt 2 ]; then
  echo "usage: scripts/build-tests.sh DIR LABEL [cmake options]" >&2
  exit 2
fi
dir=$1 label=$2
shift 2
gen=()
if command -v ninja >/dev/null 2>&1; then gen=(-G Ninja); fi
cmake -S . -B "$dir" "${gen[@]}" "$@" >/dev/null
# CTest names a test <module>.<name> (or <module>.<name>.plain, the same program); its
# program is the target <module>_<name> (tests/CMakeLists.txt).
mapfile -t targets < <(cd "$dir" && ctest -N -L "$label" -LE mesa |
  sed -n 's/^ *Test *#[0-9]*: \([a-z0-9_]*\)\.\([a-z0-9_]*\)\(\.plain\)\{0,1\}$/\1_\2/p' | sort -u)
if [ ${#targets[@]} -eq 0 ]; then
  echo "scripts/build-tests.sh: no tests labelled '$label' in $dir" >&2
  exit 1
fi
cmake --build "$dir" -j "$(nproc)" --target texvm "${targets[@]}"
