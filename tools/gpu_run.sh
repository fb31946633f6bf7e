#!/usr/bin/env bash
# The GPU machine's one call: build with the carried Debian packages (.deps, see
# ../shared/gpu-machine.md), run every test including [gpu], run the benchmark, print a summary
# last. Logs and results go to $OUT (default /tmp/gemmtune-out).
#
#   GEMMTUNE_COMMIT=<hash> bash tools/gpu_run.sh [gemmbench arguments...]
#
# Without arguments the benchmark runs at 4096x4096x4096.
set -uo pipefail
cd "$(dirname "$0")/.."
OUT=${OUT:-/tmp/gemmtune-out}
mkdir -p "$OUT"
build=/tmp/gemmtune-build
deps=/tmp/gemmtune-deps
started=$(date +%s)
status() { echo "[gpu_run $(($(date +%s) - started))s] $*"; }

status "unpacking .deps"
mkdir -p "$deps"
for package in .deps/*.deb; do dpkg -x "$package" "$deps"; done
export LD_LIBRARY_PATH="$deps/usr/lib/x86_64-linux-gnu${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"

nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,temperature.gpu,power.draw --format=csv \
  > "$OUT/nvidia-smi.txt" 2>&1

status "building"
if ! { cmake -S . -B "$build" -DCMAKE_PREFIX_PATH="$deps/usr" -DCMAKE_BUILD_TYPE=Release &&
       cmake --build "$build" -j"$(nproc)"; } > "$OUT/build.log" 2>&1; then
  tail -40 "$OUT/build.log"
  status "BUILD FAILED (log: build.log); building the benchmark and the GPU tests alone"
  cmake --build "$build" -j"$(nproc)" --target gemmbench test_gpu_kernels >> "$OUT/build.log" 2>&1 || exit 1
fi

status "testing"
ctest --test-dir "$build" -j4 --output-on-failure > "$OUT/ctest.log" 2>&1
test_status=$?

status "benchmarking"
bench_args=("$@")
[ ${#bench_args[@]} -eq 0 ] && bench_args=(--shape 4096x4096x4096)
"$build/bin/gemmbench" "${bench_args[@]}" --csv "$OUT/bench.csv" > "$OUT/bench.md" 2> "$OUT/bench.err"
bench_status=$?

echo
echo "==================== summary ===================="
cat "$OUT/nvidia-smi.txt"
grep -E "tests passed|tests failed|Failed|\*\*\*|SKIPPED" "$OUT/ctest.log" | grep -v "SKIPPED: no usable" | tail -20
echo "ctest exit $test_status"
cat "$OUT/bench.err"
cat "$OUT/bench.md"
echo "gemmbench exit $bench_status; total $(($(date +%s) - started))s"
