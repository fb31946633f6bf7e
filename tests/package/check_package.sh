#!/usr/bin/env bash
# Checks the CMake package of a build: installs it into a temporary prefix, checks what lands
# there, then configures, builds and runs tests/package/consumer/ against that prefix alone.
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
cmake --build "$build_dir" -j"$(nproc)" --target gemmtune_dispatch "${tools[@]}" >"$work/project-build.log" 2>&1 ||
  { cat "$work/project-build.log"; fail "building $build_dir failed"; }
prefix=$work/prefix
cmake --install "$build_dir" --prefix "$prefix" >"$work/install.log" || { cat "$work/install.log"; fail "cmake --install failed"; }

# What a consumer gets: the public headers and nothing else under include/, the package files,
# libraries and tools, and no path back into the source or build tree.
[[ -f $prefix/include/gemmtune/runtime.hpp && -f $prefix/include/gemmtune/types.hpp ]] ||
  fail "the public headers are not in $prefix/include/gemmtune"
stray_headers=$(find "$prefix/include" -type f ! -path "$prefix/include/gemmtune/*.hpp")
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

status=0
output=$("$consumer_build/consumer" "$work/tuned.db" 2>&1) || status=$?
echo "$output"
((status == 0)) || fail "the consumer exited with $status"
[[ $output == "consumer: opened "* || $output == "consumer: no GPU (no_device): "?* ]] ||
  fail "the consumer neither opened a Runtime nor said that there is no GPU"
echo "check_package: $found; installed $(find "$prefix" -type f | wc -l) files; the consumer built and ran"
