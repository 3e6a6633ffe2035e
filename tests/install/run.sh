#!/usr/bin/env bash
# install.package: `cmake --install` of a build into a temporary prefix, then checks of what
# an outside project gets — the file set, the shared library's soname and version, texvm.pc
# (pkg-config) and the CMake package — by building tests/install/consumer against the
# installed tree both ways (pkg-config with the shared and the static library; CMake with
# texvm::texvm and texvm::texvm_static) and running each, and that the program's
# `--version` and the library's tv_version() agree with the project version.
#   run.sh BUILD_DIR PROJECT_VERSION
set -euo pipefail
build=$1
version=$2
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
prefix=$tmp/prefix
fail() { echo "install.package: FAIL: $*" >&2; exit 1; }

cmake --install "$build" --prefix "$prefix" >"$tmp/install.log" || { cat "$tmp/install.log"; fail "cmake --install"; }
pc=$(find "$prefix" -name texvm.pc)
[ -n "$pc" ] || fail "no texvm.pc installed"
libdir=$(dirname "$(dirname "$pc")")
for f in bin/texvm include/texvm/texvm.h include/texvm/tgsi.h include/texvm/vm.h \
         include/texvm/tex.h include/texvm/sass.h; do
  [ -e "$prefix/$f" ] || fail "missing $f"
done
for f in libtexvm.a libtexvm.so "libtexvm.so.${version%%.*}" "libtexvm.so.$version" \
         cmake/texvm/texvmConfig.cmake cmake/texvm/texvmConfigVersion.cmake \
         cmake/texvm/texvmTargets.cmake; do
  [ -e "$libdir/$f" ] || fail "missing ${libdir#$prefix/}/$f"
done
soname=$(objdump -p "$libdir/libtexvm.so" | awk '/SONAME/ {print $2}')
[ "$soname" = "libtexvm.so.${version%%.*}" ] || fail "soname '$soname', expected libtexvm.so.${version%%.*}"
nsrc=$(find "$prefix/include" -name '*.h' | xargs grep -l '#include "\(util\|tex\|vm\|tgsi\|sass\|pipe\|vtest\|job\|cli\)/' || true)
[ -z "$nsrc" ] || fail "installed headers include private headers: $nsrc"
# the job library (texvm_job, libpng and cJSON) is the program's: its header stays home
[ ! -e "$prefix/include/texvm/job.h" ] || fail "include/texvm/job.h is installed without its library"

expect_output() {  # NAME FILE
  grep -qx "version $version" "$2" || fail "$1: no 'version $version' line"
  grep -q "MOV OUT\[0\], IMM\[0\]" "$2" || fail "$1: the program's text is missing"
  grep -q "^error bad.tgsi:2:" "$2" || fail "$1: the bad program's error lacks its place"
}

# pkg-config, shared and static
export PKG_CONFIG_PATH="$libdir/pkgconfig"
[ "$(pkg-config --modversion texvm)" = "$version" ] || fail "pkg-config --modversion"
# shellcheck disable=SC2046
cc -std=c11 -Wall -Wextra -Werror -o "$tmp/pc_shared" "$here/consumer/consumer.c" \
   $(pkg-config --cflags --libs texvm)
LD_LIBRARY_PATH="$libdir" "$tmp/pc_shared" >"$tmp/pc_shared.out" || fail "pkg-config shared build does not run"
expect_output "pkg-config (shared)" "$tmp/pc_shared.out"
# shellcheck disable=SC2046
cc -std=c11 -Wall -Wextra -Werror -o "$tmp/pc_static" "$here/consumer/consumer.c" \
   $(pkg-config --cflags texvm) "$libdir/libtexvm.a" $(pkg-config --static --libs-only-l texvm | sed 's/-ltexvm//')
"$tmp/pc_static" >"$tmp/pc_static.out" || fail "pkg-config static build does not run"
expect_output "pkg-config (static)" "$tmp/pc_static.out"
objdump -p "$tmp/pc_static" | grep -q 'NEEDED.*libtexvm' && fail "static build needs libtexvm.so"

# the CMake package
cmake -S "$here/consumer" -B "$tmp/cm" -DCMAKE_PREFIX_PATH="$prefix" >"$tmp/cm.log" 2>&1 \
  || { cat "$tmp/cm.log"; fail "find_package(texvm)"; }
cmake --build "$tmp/cm" >>"$tmp/cm.log" 2>&1 || { cat "$tmp/cm.log"; fail "CMake consumer build"; }
"$tmp/cm/consumer_shared" >"$tmp/cm_shared.out" || fail "texvm::texvm consumer does not run"
expect_output "CMake texvm::texvm" "$tmp/cm_shared.out"
"$tmp/cm/consumer_static" >"$tmp/cm_static.out" || fail "texvm::texvm_static consumer does not run"
expect_output "CMake texvm::texvm_static" "$tmp/cm_static.out"

# the program and the library name the same version
[ "$("$prefix/bin/texvm" --version)" = "texvm $version" ] || fail "texvm --version"
echo "install.package: 4 consumers built and run (pkg-config shared/static, CMake shared/static); soname $soname"
