#!/usr/bin/env bash
# The GPU machine's one call: build with the carried Debian packages (.deps, see
# ../shared/gpu-machine.md), run every test including [gpu], tune the example shapes, run the
# benchmark (every family, cuBLAS and the tuned winners), print a summary last. Logs and results
# go to $OUT (default /tmp/gemmtune-out).
#
#   GEMMTUNE_COMMIT=<hash> [TUNE_SHAPES=file] [TUNE_ARGS="..."] [TUNE_SECONDS=240] [BENCH_SECONDS=180] [SKIP_TESTS=1] \
#     bash tools/gpu_run.sh [gemmbench arguments...]
#
# Defaults: tune examples/shapes.txt; benchmark 4096x4096x4096 and examples/shapes.txt.
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
  cmake --build "$build" -j"$(nproc)" --target gemmbench tune tunedb test_gpu_kernels test_runtime test_tuner_driver >> "$OUT/build.log" 2>&1 || exit 1
fi

test_status=skipped
if [ -z "${SKIP_TESTS:-}" ]; then
  status "testing"
  ctest --test-dir "$build" -j4 --output-on-failure > "$OUT/ctest.log" 2>&1
  test_status=$?
fi

status "tuning"
db=/tmp/gemmtune-tuned.db
rm -f "$db" "$db-wal" "$db-shm"
# The device call has a 10-minute limit: tuning gets TUNE_SECONDS (default 240) at most; each
# problem's result is logged as it ends, so a cut-short run still reports what it finished.
# shellcheck disable=SC2086
timeout "${TUNE_SECONDS:-240}" "$build/bin/tune" --gpu H200 --shapes "${TUNE_SHAPES:-examples/shapes.txt}" \
  --db "$db" --quiet ${TUNE_ARGS:-} > "$OUT/tune.md" 2> "$OUT/tune.log"
tune_status=$?
"$build/bin/tunedb" export --format csv --db "$db" --out "$OUT/measurements.csv" >> "$OUT/tune.log" 2>&1
"$build/bin/tunedb" list --db "$db" > "$OUT/tunedb-list.txt" 2>&1
gzip -c "$db" > "$OUT/tuned.db.gz"

status "benchmarking"
bench_args=("$@")
[ ${#bench_args[@]} -eq 0 ] && bench_args=(--shape 4096x4096x4096 --shapes examples/shapes.txt)
timeout "${BENCH_SECONDS:-180}" "$build/bin/gemmbench" "${bench_args[@]}" --db "$db" --csv "$OUT/bench.csv" \
  > "$OUT/bench.md" 2> "$OUT/bench.err"
bench_status=$?

status "call overhead"
"$build/bin/sgemm_overhead" > "$OUT/overhead.md" 2>&1

echo
echo "==================== summary ===================="
cat "$OUT/nvidia-smi.txt"
[ -f "$OUT/ctest.log" ] && grep -E "tests passed|tests failed|Failed|\*\*\*|SKIPPED" "$OUT/ctest.log" | tail -20
echo "ctest exit $test_status"
grep -E "winner|no candidate|error|Error" "$OUT/tune.log" | tail -25
cat "$OUT/tune.md"
echo "tune exit $tune_status"
cat "$OUT/bench.err"
cat "$OUT/bench.md"
cat "$OUT/overhead.md"
echo "gemmbench exit $bench_status; total $(($(date +%s) - started))s"

# At most 8 files come back from the GPU machine: the tables as they are, everything else packed.
packed=(build.log measurements.csv tunedb-list.txt tune.log bench.err nvidia-smi.txt tuned.db.gz)
(cd "$OUT" && tar -czf logs.tar.gz --ignore-failed-read "${packed[@]}" 2>/dev/null; rm -f "${packed[@]}")
