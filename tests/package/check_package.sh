#!/usr/bin/env bash
# Checks the CMake package of a build: installs it into a temporary prefix, checks what lands
# there (headers, libgemmtune.so with its SONAME, the CMake and pkg-config files), then configures,
# builds and runs tests/package/consumer/ against that prefix alone (find_package: gemmtune::runtime
# from C++, gemmtune::shared from C), and builds its C program once more with pkg-config alone.
#
#   bash tests/package/check_package.sh BUILD_DIR
#
# BUILD_DIR is configured when it is not yet, and the installed targets are brought up to date
# (a no-op after a full build, as under ctest). Exit 0: the consumer opened a Runtime, or said
# that there is no GPU.
set -euo pipefail
if (($# != 1)); then
  echo "usage: $0 BUILD_DIR" >&2
  exit 2
fi
source_dir=$(cd "$(dirname "$0")/../.." && pwd)
build_dir=$(mkdir -p "$1" && cd "$1" && pwd)

fail() {
  echo "check_package: $*" >&2
  exit 1
}
# The value of a variable in the build's CMakeCache.txt (empty when it is not there).
cache_value() {
  sed -n "s/^$1:[A-Z]*=//p" "$build_dir/CMakeCache.txt"
}

if [[ ! -f $build_dir/CMakeCache.txt ]]; then
  cmake -S "$source_dir" -B "$build_dir" -DCMAKE_BUILD_TYPE=Release
fi
work=$(mktemp -d "${TMPDIR:-/tmp}/gemmtune_package.XXXXXX")
trap 'rm -rf "$work"' EXIT
tools=(tune tunedb gemmbench kernelc)
cmake --build "$build_dir" -j"$(nproc)" --target gemmtune_dispatch gemmtune_shared "${tools[@]}" >"$work/project-build.log" 2>&1 ||
  { cat "$work/project-build.log"; fail "building $build_dir failed"; }
prefix=$work/prefix
cmake --install "$build_dir" --prefix "$prefix" >"$work/install.log" || { cat "$work/install.log"; fail "cmake --install failed"; }

# What a consumer gets: the public headers and nothing else under include/, the package files,
# libraries and tools, and no path back into the source or build tree.
public_headers=(runtime.hpp types.hpp gemmtune.h)
for header in "${public_headers[@]}"; do
  [[ -f $prefix/include/gemmtune/$header ]] || fail "the public header $header is not in $prefix/include/gemmtune"
done
stray_headers=$(find "$prefix/include" -type f ! -path "$prefix/include/gemmtune/*.hpp" ! -path "$prefix/include/gemmtune/gemmtune.h")
[[ -z $stray_headers ]] || fail "installed headers beyond the public ones: $stray_headers"
config=$(find "$prefix" -name gemmtuneConfig.cmake -print -quit)
[[ -n $config ]] || fail "no gemmtuneConfig.cmake under $prefix"
config_dir=$(dirname "$config")
for file in gemmtuneConfigVersion.cmake gemmtuneTargets.cmake; do
  [[ -f $config_dir/$file ]] || fail "no $file beside $config"
done
if grep -lF -e "$source_dir/" -e "$build_dir/" "$config_dir"/*.cmake; then
  fail "the installed package files above refer to the source or build tree"
fi
shared_library=$(find "$prefix" -name "libgemmtune.so.0" -print -quit)
[[ -n $shared_library && -L $prefix/$(dirname "${shared_library#"$prefix"/}")/libgemmtune.so ]] ||
  fail "no libgemmtune.so.0 with its libgemmtune.so link under $prefix"
soname=$(objdump -p "$shared_library" | sed -n 's/^ *SONAME *//p')
[[ $soname == libgemmtune.so.0 ]] || fail "$shared_library has SONAME '$soname', expected libgemmtune.so.0"
exported=$(nm -D --defined-only "$shared_library" | awk '{print $3}' | grep -v '^GEMMTUNE_0$' | grep -cv -e '^gemmtune_' -e '^_ZN8gemmtune' -e '^_ZNK8gemmtune') || true
((exported == 0)) || fail "$shared_library exports $exported symbols outside gemmtune's API"
pc_file=$(find "$prefix" -name gemmtune.pc -print -quit)
[[ $pc_file == */pkgconfig/gemmtune.pc ]] || fail "no pkgconfig/gemmtune.pc under $prefix"
for tool in "${tools[@]}"; do
  [[ -x $prefix/bin/$tool ]] || fail "$prefix/bin/$tool is not installed"
  "$prefix/bin/$tool" --help >/dev/null || fail "the installed $tool --help failed"
done

# The consumer, with the compiler and generator of the build; gemmtune is found in the prefix
# first, its dependencies where the build found them (e.g. unpacked Debian packages).
consumer_build=$work/consumer-build
prefix_path=$prefix
build_prefix_path=$(cache_value CMAKE_PREFIX_PATH)
[[ -z $build_prefix_path ]] || prefix_path+=";$build_prefix_path"
configure_args=(-S "$source_dir/tests/package/consumer" -B "$consumer_build" -G "$(cache_value CMAKE_GENERATOR)"
                -DCMAKE_BUILD_TYPE=Release "-DCMAKE_PREFIX_PATH=$prefix_path"
                "-DCMAKE_CXX_COMPILER=$(cache_value CMAKE_CXX_COMPILER)")
cuda_root=$(cache_value CUDAToolkit_ROOT)
[[ -z $cuda_root ]] || configure_args+=("-DCUDAToolkit_ROOT=$cuda_root")
cmake "${configure_args[@]}" >"$work/configure.log" 2>&1 || { cat "$work/configure.log"; fail "configuring the consumer failed"; }
found=$(grep -o "Found gemmtune .*" "$work/configure.log") || { cat "$work/configure.log"; fail "the consumer did not report the package"; }
[[ $found == "Found gemmtune "[0-9]*" in $config_dir" ]] ||
  fail "the consumer found the wrong package (or one without a version): '$found', expected the one in $config_dir"
cmake --build "$consumer_build" >"$work/build.log" 2>&1 || { cat "$work/build.log"; fail "building the consumer failed"; }

# Runs a consumer program; it must open a Runtime or say that there is no GPU.
run_consumer() {
  local program=$1 name
  name=$(basename "$program")
  local status=0 output
  output=$("$program" "$work/tuned.db" 2>&1) || status=$?
  echo "$output"
  ((status == 0)) || fail "$name exited with $status"
  [[ $output == "$name: opened "* || $output == "$name: no GPU (no_device): "?* ]] ||
    fail "$name neither opened a Runtime nor said that there is no GPU"
}
run_consumer "$consumer_build/consumer"
run_consumer "$consumer_build/consumer_c"

# The C consumer once more, built by the C compiler with what pkg-config says and nothing else.
pkg_flags=$(PKG_CONFIG_PATH=$(dirname "$pc_file") pkg-config --cflags --libs gemmtune) ||
  fail "pkg-config does not read $pc_file"
[[ $(PKG_CONFIG_PATH=$(dirname "$pc_file") pkg-config --modversion gemmtune) == [0-9]*.[0-9]*.[0-9]* ]] ||
  fail "pkg-config gives gemmtune no version"
mkdir -p "$work/pkg-config"
# shellcheck disable=SC2086  # the flags are words
cc -std=c99 -o "$work/pkg-config/consumer_c" "$source_dir/tests/package/consumer/main.c" $pkg_flags \
  -Wl,-rpath,"$(dirname "$shared_library")" || fail "building the C consumer with pkg-config's flags ($pkg_flags) failed"
run_consumer "$work/pkg-config/consumer_c"
echo "check_package: $found; installed $(find "$prefix" -type f | wc -l) files; the consumers built and ran" \
  "(find_package: C++ and C; pkg-config: C)"
