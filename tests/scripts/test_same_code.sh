#!/usr/bin/env bash
# scripts.same_code (tests/scripts/tests.cmake): scripts/same-code.py on small programs
# built here with the C compiler, whose answers are known by construction:
#   - the same functions in another order, with a data object and a string before them
#     (every address moves): the same (exit 0);
#   - a vector constant of the constant pool changed in one lane, a scalar float constant
#     changed, a named table read at another index, another named table read: each
#     differs (exit 1), naming the function that changed and no other;
#   - a function removed: "only in OLD" (exit 1);
#   - a file that is not ELF, a missing one, a bad --function: exit 2.
#   tests/scripts/test_same_code.sh SOURCE_DIR
set -uo pipefail
src=${1:?usage: tests/scripts/test_same_code.sh SOURCE_DIR}
tool="$src/scripts/same-code.py"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "scripts.same_code: $*" >&2; exit 1; }
cc=${CC:-cc}
command -v objdump > /dev/null || fail "objdump (binutils) is not installed"

# A program with a vector constant (scale4), a scalar float constant (half), a named
# table (lut), a static variable in .bss (hits) and a string (main's). VARIANT picks the
# change; ORDER 1 puts the functions in another order after a padding object and string.
prog() { # NAME VARIANT ORDER
  local name=$1 variant=$2 order=$3
  {
    echo '#include <stdio.h>'
    echo '#include <string.h>'
    if [ "$order" = 1 ]; then
      echo 'static const char pad[] = "moves every address after it";'
      echo '__attribute__((used)) const char *padding(void) { return pad; }'
    fi
    echo 'static const int lut[8] = {3, 1, 4, 1, 5, 9, 2, 6};'
    echo '__attribute__((used)) static const int lut2[8] = {2, 7, 1, 8, 2, 8, 1, 8};'
    echo 'static unsigned hits;'
    local k=0.5f l=1.0f i=3
    [ "$variant" = scalar ] && k=0.25f
    [ "$variant" = vector ] && l=1.5f
    [ "$variant" = table ] && i=4
    local t=lut
    [ "$variant" = other ] && t=lut2
    local half="__attribute__((noinline)) float half(float x) { hits++; return x * $k; }"
    local scale="__attribute__((noinline)) void scale4(float *v) { const float s[4] = {2.0f, $l, 3.0f, 4.0f}; for (int j = 0; j < 4; j++) v[j] *= s[j] + (float)hits; }"
    local pick="__attribute__((noinline)) int pick(int j) { return $t[(j + $i) & 7]; }"
    if [ "$order" = 1 ]; then
      echo "$pick"; echo "$scale"; [ "$variant" = gone ] || echo "$half"
    else
      [ "$variant" = gone ] || echo "$half"; echo "$scale"; echo "$pick"
    fi
    echo 'int main(int argc, char **argv) {'
    echo '  float v[4] = {1, 2, 3, 4};'
    echo '  (void)argv; scale4(v);'
    [ "$variant" = gone ] || echo '  v[0] += half(v[1]);'
    echo '  printf("%g %d %u\n", (double)v[0], pick(argc), hits);'
    echo '  return 0; }'
  } > "$tmp/$name.c"
  "$cc" -O2 -o "$tmp/$name" "$tmp/$name.c" || fail "could not build $name"
}
prog base none 0
prog moved none 1
prog scalar scalar 0
prog vector vector 0
prog table table 0
prog gone gone 0
prog other other 0

expect() { # WANT_RC WANT_REGEX ARGS...
  local want=$1 re=$2
  shift 2
  out=$("$tool" "$@" 2>&1)
  rc=$?
  [ "$rc" = "$want" ] || fail "same-code $*: exit $rc, expected $want: $out"
  echo "$out" | grep -q -E -- "$re" || fail "same-code $*: expected /$re/ in: $out"
}
expect 0 '^same-code: the same: [0-9]+ functions' "$tmp/base" "$tmp/base"
# (--function: the program's own functions; padding is in MOVED alone)
expect 0 '^same-code: the same: 4 functions' --function '^(half|scale4|pick|main)$' \
  "$tmp/base" "$tmp/moved"
expect 1 '^differs: half: ' --function '^(half|scale4|pick|main)$' "$tmp/base" "$tmp/scalar"
expect 1 '1 of 4 functions differ' --function '^(half|scale4|pick|main)$' "$tmp/base" "$tmp/scalar"
expect 1 '^differs: scale4: ' --function '^(half|scale4|pick|main)$' "$tmp/base" "$tmp/vector"
expect 1 '1 of 4 functions differ' --function '^(half|scale4|pick|main)$' "$tmp/base" "$tmp/vector"
expect 1 '^differs: pick: ' --function '^(half|scale4|pick|main)$' "$tmp/base" "$tmp/table"
expect 1 "^differs: pick: .*<lut\\+0x0>.*<lut2\\+0x0>" --function '^(half|scale4|pick|main)$' \
  "$tmp/base" "$tmp/other"
expect 1 '^only in OLD: half$' --function '^(half|scale4|pick)$' "$tmp/base" "$tmp/gone"
printf 'not an ELF file\n' > "$tmp/text"
expect 2 'not a 64-bit little-endian ELF file' "$tmp/base" "$tmp/text"
expect 2 'No such file' "$tmp/base" "$tmp/missing"
expect 2 '^same-code: --function: ' --function '(' "$tmp/base" "$tmp/base"
echo "scripts.same_code: 12 checks passed"
