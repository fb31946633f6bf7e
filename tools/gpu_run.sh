#!/usr/bin/env bash
# The GPU machine's one call: build with the carried Debian packages (.deps, see
# ../shared/gpu-machine.md), then the steps asked for, a summary last. Logs and results go to
# $OUT (default /tmp/gemmtune-out); at most 8 files come back, so logs are packed.
#
#   GEMMTUNE_COMMIT=<hash> [STEPS="test tune bench overhead"] [TUNE_SHAPES=file] [TUNE_ARGS="..."]
#     [TUNE_SECONDS=240] [TUNE_GPU=H200] [BENCH_SECONDS=180] [BUILD_TARGETS="gemmbench test_gpu_kernels ..."]
#     [TEST_TIMEOUT=300] bash tools/gpu_run.sh [gemmbench arguments...]
# STEPS="" (set, empty) only builds, for a call that runs the built binaries itself afterwards.
# PREBUILT=DIR uses the build directory DIR carried from the development machine (name it and
# the binaries' folder in the call's carry, e.g. build/bin/gemmbench) instead of building: a build
# costs 2-4 minutes of a 10-minute call. An AB_BASE entry may be such a build too (a directory
# with bin/gemmbench, e.g. build-base from `git archive COMMIT` configured with
# -DGEMMTUNE_BUILD_TESTS=OFF), instead of sources to build here.
# BUILD_TARGETS builds only those targets (and what they need) instead of everything; TEST_TIMEOUT
# is ctest's limit a test, so that a kernel that hangs costs minutes, not the whole call.
# GEMMTUNE_COMMIT names the tree in the tables: give the hash as the machine that sent the tree
# sees it (a git rev-parse on the GPU machine once read a .git older than the tree it ran).
# TUNE_GPU is tune's --gpu (any: the first GPU, for a machine that is not an H200).
#
# Steps (the device call has a 10-minute limit: pick what fits):
#   test      every test, [gpu] included (ctest; TEST_FILTER=regex runs those that match)
#   gputests  only the [gpu] test cases, each binary run with Catch's "[gpu]" tag and durations
#             (TEST_TIMEOUT a binary): the CPU tests are CI's, so this is the quick GPU check.
#             GPU_TESTS=<Catch test spec> runs those cases instead, e.g.
#             GPU_TESTS='special values*,*: tmawgmma' (a binary with none of them is passed by).
#             Catch 2's wildcards work only at a pattern's ends: 'special values*: tmatf32'
#             matches nothing (write '*IEEE arithmetic gives them: tmatf32').
#   tune      tune TUNE_SHAPES (default examples/shapes.txt) with --time-limit TUNE_SECONDS
#   (tune and classes start from an empty database unless KEEP_DB=1, which resumes the last one)
#   classes   tune TUNE_SHAPES once for each precision class in CLASSES (default "strict fp32 tf32"),
#             into one database (winners are per class), each for at most TUNE_SECONDS: tune-CLASS.md,
#             each table with cuBLAS timed in the same run (pedantic, or FAST_TF32 for tf32)
#   bench     gemmbench (default: 4096^3 and examples/shapes.txt) with the tuned winners; then one run
#             for each file of BENCH_ARGS_FILES (gemmbench arguments, e.g. bench/narrow-tiles.args)
#   overhead  sgemm_overhead: host cost of a warm runtime call against a bare cudaLaunchKernel of the
#             same kernel and cuBLAS (the figure: sgemm() overhead N us)
#   compare   guided against exhaustive search (tools/compare_strategies.sh)
#   compile   compile-only throughput: tune --dry-run --arch sm_90 --strategy exhaustive (cold, every
#             candidate) with each --jobs of COMPILE_JOBS (default "16 4 1"), COMPILE_SECONDS (60)
#             each, of COMPILE_FAMILIES (default: every family tuned by default)
#   sanitize  compute-sanitizer over every kernel family (tools/sanitize_kernels.sh; SANITIZE_FAMILIES=a,b
#             only those)
#   probe     bandwidth_probe (PROBE_ARGS): read and copy bandwidth of plain kernels, the ceiling
#             for bandwidth-bound problems
#   peer      CUTLASS's 3xTF32 GEMMs (.peer/cutlass_peer, built on the development machine and
#             carried) on PEER_SHAPES (default bench/targets-h200.txt) for at most PEER_SECONDS
#             (300), PEER_ARGS passed on: peer.md, peer.csv
#   profile   Nsight Compute counters for each PROFILE_CASES entry, SHAPE=KERNEL with KERNEL cublas,
#             cublas-tf32 (CUBLAS_COMPUTE_32F_FAST_TF32) or a kernel name (default nn:4096x4096x4096=cublas): profile.txt; PROFILE_METRICS:
#             more ncu --metrics (e.g. regex:...stall...)
#   ab        the same gemmbench runs from this tree and from other ones, taking turns (new, base 1,
#             base 2, new, ...) so that clocks and heat treat all alike: AB_BASE=<directories holding
#             the other trees, space-separated, e.g. git archive COMMIT | tar -x -C ab-base,
#             untracked so that they travel>, AB_BASE_COMMIT=<their commits, for the tables, in the
#             same order>, AB_RUNS="gemmbench arguments; more arguments" (each a run): ab.md
set -uo pipefail
cd "$(dirname "$0")/.."
OUT=${OUT:-/tmp/gemmtune-out}
mkdir -p "$OUT"
build=/tmp/gemmtune-build
deps=/tmp/gemmtune-deps
steps=" ${STEPS-test tune bench overhead} "  # unset: these; set and empty: build only
started=$(date +%s)
status() { echo "[gpu_run $(($(date +%s) - started))s] $*"; }
wants() { [[ "$steps" == *" $1 "* ]]; }
summary=()  # files printed at the end, in order

status "unpacking .deps"
mkdir -p "$deps"
for package in .deps/*.deb; do dpkg -x "$package" "$deps"; done
export LD_LIBRARY_PATH="$deps/usr/lib/x86_64-linux-gnu${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"

nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,temperature.gpu,power.draw --format=csv \
  > "$OUT/nvidia-smi.txt" 2>&1
summary+=(nvidia-smi.txt)

# The Python package needs pybind11: a wheel carried in .deps (python3 -m pip download pybind11
# --no-deps -d .deps) is unpacked (a wheel is a zip) and used; the machine's Python must have its
# headers (Python.h). Without either, the package is left out (GEMMTUNE_BUILD_PYTHON=AUTO).
python_args=()
pybind11_wheel=$(ls .deps/pybind11-*.whl 2>/dev/null | tail -1)
if [[ -n $pybind11_wheel ]]; then
  python3 -c "import sys, zipfile; zipfile.ZipFile(sys.argv[1]).extractall(sys.argv[2])" "$pybind11_wheel" "$deps/python"
  python_args=(-Dpybind11_DIR="$deps/python/pybind11/share/cmake/pybind11")
fi

if [[ -n ${PREBUILT:-} ]]; then
  # Binaries built on the development machine (CUDA 13.0, the same Debian packages) and carried:
  # the device time of a build goes to measuring instead. They load CUDA's libraries from here.
  build=$(cd "$PREBUILT" && pwd)
  export LD_LIBRARY_PATH="$LD_LIBRARY_PATH:/usr/local/cuda/lib64:/usr/local/cuda/lib"
  status "using the carried build in $PREBUILT (no build here)"
  ls "$build"/bin > "$OUT/build.log" 2>&1
else
  status "building"
  if ! { cmake -S . -B "$build" -DCMAKE_PREFIX_PATH="$deps/usr" -DCMAKE_BUILD_TYPE=Release "${python_args[@]}" &&
         cmake --build "$build" -j"$(nproc)" ${BUILD_TARGETS:+--target $BUILD_TARGETS}; } > "$OUT/build.log" 2>&1; then
    tail -40 "$OUT/build.log"
    status "BUILD FAILED (log: build.log); building the tools alone"
    cmake --build "$build" -j"$(nproc)" --target gemmbench tune tunedb sgemm_overhead >> "$OUT/build.log" 2>&1 || exit 1
  fi
fi

if wants test; then
  status "testing"
  ctest --test-dir "$build" -j4 --output-on-failure --timeout "${TEST_TIMEOUT:-900}" ${TEST_FILTER:+-R "$TEST_FILTER"} \
    > "$OUT/ctest.log" 2>&1
  echo "ctest exit $?" >> "$OUT/ctest.log"
  grep -E "tests passed|tests failed|Failed|\*\*\*|SKIPPED|ctest exit" "$OUT/ctest.log" | tail -30 > "$OUT/ctest-summary.txt"
  summary+=(ctest-summary.txt)
  # ctest shows a passing test's output only on failure: the accuracy figures are printed here.
  timeout 120 "$build/bin/test_gpu_kernels" "tf32x3 stays as close to FP64 as FP32 arithmetic does" 2>&1 |
    grep -E "normwise|passed|failed" > "$OUT/accuracy.txt"
  summary+=(accuracy.txt)
fi

if wants gputests; then
  status "[gpu] tests"
  for binary in "$build"/bin/test_*; do
    [ -x "$binary" ] || continue
    # A binary with no [gpu] case exits non-zero with "No test cases matched": skip it quietly.
    # (captured, not piped into grep -q: under pipefail the binary's SIGPIPE would skip it)
    names=$("$binary" --list-test-names-only "${GPU_TESTS:-[gpu]}" 2>/dev/null)
    [[ -n "$names" && "$names" != usage:* ]] || continue  # (test_c_api is not a Catch program)
    echo "## $(basename "$binary")" >> "$OUT/gputests.log"
    timeout "${TEST_TIMEOUT:-300}" "$binary" "${GPU_TESTS:-[gpu]}" -d yes >> "$OUT/gputests.log" 2>&1
    echo "exit $? $(basename "$binary")" >> "$OUT/gputests.log"
  done
  # The C API's and the Python package's [gpu] tests are ctest entries of their own; with
  # BUILD_TARGETS they were not built, and a PREBUILT build carries no ctest files: they would
  # only fail for that.
  if [ -z "${BUILD_TARGETS:-}" ] && [ -z "${PREBUILT:-}" ]; then
    ctest --test-dir "$build" --output-on-failure --timeout "${TEST_TIMEOUT:-300}" -R "capi_sgemm_against_cublas_gpu|python_torch_gpu" \
      >> "$OUT/gputests.log" 2>&1
    echo "exit $? ctest capi and python [gpu]" >> "$OUT/gputests.log"
  else
    echo "## ctest capi and python [gpu]: not run (BUILD_TARGETS or PREBUILT: not built here)" >> "$OUT/gputests.log"
  fi
  grep -E "^## |^exit |test cases|assertions|FAILED|SKIPPED|^[0-9.]+ s: |Passed|Failed|Not Run|relative difference" \
    "$OUT/gputests.log" > "$OUT/gputests-summary.txt"
  summary+=(gputests-summary.txt)
fi

db=/tmp/gemmtune-tuned.db
# tune stops itself at --time-limit TUNE_SECONDS and still writes its table (the problems it cut or
# did not start say so); `timeout` only guards against a hang, with room for the compiles in flight.
tune_guard() { echo $(( ${TUNE_SECONDS:-240} + 120 )); }
# A fresh database each call, unless KEEP_DB=1: then a later call on the same warm machine resumes
# what an earlier one's timeout cut short (tune skips what is stored).
fresh_db() { [ "${KEEP_DB:-0}" = 1 ] || rm -f "$db" "$db-wal" "$db-shm"; }
if wants tune; then
  status "tuning"
  fresh_db
  # The table goes to tune.md, the logs to tune.log. Each problem's winner is logged (at info, so
  # not with --quiet) as the problem ends, so a run cut short still reports what it finished.
  # shellcheck disable=SC2086
  timeout "$(tune_guard)" "$build/bin/tune" --time-limit "${TUNE_SECONDS:-240}s" --gpu "${TUNE_GPU:-H200}" --shapes "${TUNE_SHAPES:-examples/shapes.txt}" \
    --db "$db" ${TUNE_ARGS:-} > "$OUT/tune.md" 2> "$OUT/tune.log"
  echo "tune exit $?" >> "$OUT/tune.md"
  grep -E "winner|no candidate|rror" "$OUT/tune.log" | tail -25 >> "$OUT/tune.md"
  "$build/bin/tunedb" export --format csv --db "$db" --out "$OUT/measurements.csv" >> "$OUT/tune.log" 2>&1
  "$build/bin/tunedb" list --db "$db" > "$OUT/tunedb-list.txt" 2>&1
  "$build/bin/tunedb" report --db "$db" --out "$OUT/report.html" >> "$OUT/tune.log" 2>&1
  gzip -c "$db" > "$OUT/tuned.db.gz"
  # A file over 16 MiB does not come back, and the database holds every cubin: a big one would
  # take the logs down with it. measurements.csv keeps every measurement either way.
  if [ "$(stat -c %s "$OUT/tuned.db.gz")" -gt $((12 * 1024 * 1024)) ]; then
    echo "(tuned.db.gz: $(stat -c %s "$OUT/tuned.db.gz") bytes, too big to bring back; left out)" >> "$OUT/tune.md"
    rm -f "$OUT/tuned.db.gz"
  fi
  summary+=(tune.md)
fi

if wants classes; then
  fresh_db
  for class in ${CLASSES:-strict fp32 tf32}; do
    status "tuning, precision $class"
    # shellcheck disable=SC2086
    timeout "$(tune_guard)" "$build/bin/tune" --time-limit "${TUNE_SECONDS:-240}s" --gpu "${TUNE_GPU:-H200}" --precision "$class" \
      --shapes "${TUNE_SHAPES:-examples/shapes.txt}" --db "$db" ${TUNE_ARGS:-} > "$OUT/tune-$class.md" 2> "$OUT/tune-$class.log"
    tune_exit=$?
    echo "tune exit $tune_exit" >> "$OUT/tune-$class.md"
    if [ "$tune_exit" = 124 ]; then  # the table is written whole or not at all: say what to do
      echo "killed $(tune_guard) s in, past its --time-limit: what it measured is in the database; KEEP_DB=1 on the next call (same warm machine) resumes" >> "$OUT/tune-$class.md"
    fi
    grep -E "no candidate|rror" "$OUT/tune-$class.log" | tail -10 >> "$OUT/tune-$class.md"
    summary+=("tune-$class.md")
  done
  "$build/bin/tunedb" export --format csv --db "$db" --out "$OUT/measurements.csv" >> "$OUT/tune.log" 2>&1
  "$build/bin/tunedb" list --db "$db" > "$OUT/tunedb-list.txt" 2>&1
fi

if wants bench; then
  status "benchmarking"
  db_args=()
  [ -f "$db" ] && db_args=(--db "$db")
  # With BENCH_ARGS_FILES and no arguments, only those files' runs (no default run).
  if [ $# -gt 0 ] || [ -z "${BENCH_ARGS_FILES:-}" ]; then
    bench_args=("$@")
    [ ${#bench_args[@]} -eq 0 ] && bench_args=(--shape 4096x4096x4096 --shapes examples/shapes.txt)
    timeout "${BENCH_SECONDS:-180}" "$build/bin/gemmbench" "${bench_args[@]}" "${db_args[@]}" --csv "$OUT/bench.csv" \
      > "$OUT/bench.md" 2> "$OUT/bench.err"
    echo "gemmbench exit $?" >> "$OUT/bench.md"
    cat "$OUT/bench.err" >> "$OUT/bench.md"
    summary+=(bench.md)
  fi
  # BENCH_ARGS_FILES="bench/a.args bench/b.args": one more gemmbench run for each file (its
  # arguments, one or more a line), into bench-<name>.md, each for at most BENCH_SECONDS.
  for args_file in ${BENCH_ARGS_FILES:-}; do
    name=$(basename "$args_file" .args)
    # shellcheck disable=SC2046  # the file's words are gemmbench's arguments
    timeout "${BENCH_SECONDS:-180}" "$build/bin/gemmbench" $(cat "$args_file") "${db_args[@]}" \
      --csv "$OUT/bench-$name.csv" > "$OUT/bench-$name.md" 2>&1
    echo "gemmbench exit $? ($args_file)" >> "$OUT/bench-$name.md"
    summary+=("bench-$name.md")
  done
fi

if wants overhead; then
  status "call overhead"
  timeout 120 "$build/bin/sgemm_overhead" > "$OUT/overhead.md" 2>&1
  echo "sgemm_overhead exit $?" >> "$OUT/overhead.md"
  summary+=(overhead.md)
fi

if wants compare; then
  status "guided against exhaustive"
  timeout "${COMPARE_SECONDS:-360}" bash tools/compare_strategies.sh "$build" "$OUT/strategies" > "$OUT/strategies.md" 2>&1
  echo "compare_strategies exit $?" >> "$OUT/strategies.md"
  for db_file in "$OUT"/strategies/*.db; do gzip "$db_file"; done
  summary+=(strategies.md)
fi

if wants compile; then
  status "compile throughput"
  printf "1024 1024 1024\n" > /tmp/gemmtune-one-shape.txt
  # Every compile is cold: compile_kernel turns NVRTC's use of the driver's compute cache off.
  for jobs in ${COMPILE_JOBS:-16 4 1}; do
    rm -f /tmp/gemmtune-dry.db*
    echo "## --jobs $jobs" >> "$OUT/compile.md"
    timeout 150 "$build/bin/tune" --dry-run --arch sm_90 --jobs "$jobs" --shapes /tmp/gemmtune-one-shape.txt \
      --strategy exhaustive --budget "${COMPILE_SECONDS:-60}s" ${COMPILE_FAMILIES:+--families "$COMPILE_FAMILIES"} \
      --db /tmp/gemmtune-dry.db --quiet 2>&1 | tail -1 >> "$OUT/compile.md"
  done
  echo "(nproc: $(nproc))" >> "$OUT/compile.md"
  summary+=(compile.md)
fi

if wants sanitize; then
  status "compute-sanitizer"
  timeout "${SANITIZE_SECONDS:-480}" bash tools/sanitize_kernels.sh "$build" "$OUT/sanitizer" > "$OUT/sanitizer.md" 2>&1
  echo "sanitize_kernels exit $?" >> "$OUT/sanitizer.md"
  summary+=(sanitizer.md)
fi

if wants probe; then
  status "bandwidth probe"
  timeout 120 "$build/bin/bandwidth_probe" ${PROBE_ARGS:-} > "$OUT/probe.md" 2>&1
  echo "bandwidth_probe exit $?" >> "$OUT/probe.md"
  summary+=(probe.md)
fi

if wants peer; then
  # Built on the development machine (the GPU machine has no CUTLASS): see docs/performance.md,
  # "The CUTLASS column". The binary travels in .peer/ (name .peer in the device call's carry).
  status "CUTLASS peer"
  if [ -x .peer/cutlass_peer ]; then
    # It was linked against /usr/local/cuda/lib; the toolkit's libraries may sit elsewhere here.
    for dir in /usr/local/cuda/lib64 /usr/local/cuda/targets/x86_64-linux/lib; do
      [ -d "$dir" ] && export LD_LIBRARY_PATH="$LD_LIBRARY_PATH:$dir"
    done
    # shellcheck disable=SC2086
    timeout "${PEER_SECONDS:-300}" .peer/cutlass_peer --shapes "${PEER_SHAPES:-bench/targets-h200.txt}" \
      --csv "$OUT/peer.csv" ${PEER_ARGS:-} > "$OUT/peer.md" 2> "$OUT/peer.log"
    echo "cutlass_peer exit $?" >> "$OUT/peer.md"
    grep -E "rror|WRONG" "$OUT/peer.log" | tail -10 >> "$OUT/peer.md"
  else
    echo "no .peer/cutlass_peer: build it here with -DGEMMTUNE_CUTLASS_DIR and carry .peer" > "$OUT/peer.md"
  fi
  summary+=(peer.md)
fi

if wants profile; then
  status "profiling"
  ncu=$(command -v ncu || find /opt/nvidia /usr/local/cuda* -name ncu -type f 2>/dev/null | head -1)
  sections=(--section SpeedOfLight --section LaunchStats --section Occupancy --section WarpStateStats
            --section SchedulerStats --section ComputeWorkloadAnalysis --section MemoryWorkloadAnalysis
            --section InstructionStats)
  # ncu_once SHAPE KERNEL WITH_METRICS(0/1): one gemmbench run under ncu, appended to profile.txt.
  # cuBLAS: its first two launches (the reference call, with a split-K reduction where it has one).
  # A kernel name: the first launch of that family's template, which is the named kernel's check
  # run, since gemmbench is told to time only one other family (skinny, or naive for skinny).
  ncu_once() {
    local shape=$1 kernel=$2 extra=(--print-details all) filter run=()
    [ "$3" = 1 ] && extra+=(--metrics "$PROFILE_METRICS")
    if [ "$kernel" = cublas ]; then
      filter=(-k "regex:gemm|gemv|Kernel|reduce|dot" -c 2)
      run=(--families skinny)
    elif [ "$kernel" = cublas-tf32 ]; then
      # CUBLAS_COMPUTE_32F_FAST_TF32's kernels; the FP64 reference and the operand generator run
      # first, so the first six GEMM-like launches cover them and the TF32 call.
      filter=(-k "regex:gemm|xmma|cutlass|Kernel|reduce" -c 6)
      run=(--precision tf32 --families skinny)
    else
      local base=${kernel#gemmtune_sgemm_}
      local family=${base%%_*} other=skinny
      [ "$family" = skinny ] && other=naive
      filter=(-k "regex:${family}_sgemm" -c 1)
      # tf32 admits every class, so a tmatf32 kernel is timed too; each kernel is still checked
      # within its own class's tolerance.
      run=(--precision tf32 --families "$other" --kernel "$kernel")
    fi
    timeout 120 "$ncu" --clock-control none "${sections[@]}" "${extra[@]}" "${filter[@]}" \
      "$build/bin/gemmbench" --shape "$shape" --target-ms 1 -q "${run[@]}" >> "$OUT/profile.txt" 2>&1
  }
  # PROFILE_CASES: space-separated SHAPE=KERNEL (KERNEL: cublas or a kernel name as tunedb lists
  # them); PROFILE_METRICS: more ncu --metrics (e.g. regex:...stall...), dropped if ncu refuses them.
  for case in ${PROFILE_CASES:-nn:4096x4096x4096=cublas}; do
    shape=${case%%=*} kernel=${case#*=} metrics=0
    [ -n "${PROFILE_METRICS:-}" ] && metrics=1
    echo "## $kernel on $shape" >> "$OUT/profile.txt"
    ncu_once "$shape" "$kernel" "$metrics"
    code=$?
    echo "ncu exit $code" >> "$OUT/profile.txt"
    if [ "$code" -ne 0 ] && [ "$metrics" = 1 ]; then
      ncu_once "$shape" "$kernel" 0
      echo "ncu exit $? (without PROFILE_METRICS)" >> "$OUT/profile.txt"
    fi
  done
  grep -E "^## |^  [a-zA-Z_].*\(|ncu exit|Duration|DRAM Throughput|Memory Throughput|L2 Cache Throughput|L1/TEX Cache Throughput|Cluster Size|Dynamic Shared Memory Per Block|L2 Hit|Registers Per|Grid Size|Block Size|Waves Per SM|Theoretical Occupancy|Achieved Occupancy|Compute \(SM\) Throughput|Issue Slots Busy|No Eligible|Executed Ipc A|stalled|bank_conflicts|Stall" \
    "$OUT/profile.txt" > "$OUT/profile-summary.txt"
  summary+=(profile-summary.txt)
fi

if wants ab; then
  status "A/B against ${AB_BASE:?ab needs AB_BASE}"
  read -ra base_dirs <<< "$AB_BASE"
  read -ra base_commits <<< "${AB_BASE_COMMIT:-}"
  sides=(new)
  for i in "${!base_dirs[@]}"; do
    base_build=/tmp/gemmtune-build-base$i
    if [ -x "${base_dirs[$i]}/bin/gemmbench" ]; then  # a carried build of the base, not its sources
      rm -rf "$base_build" && ln -s "$(cd "${base_dirs[$i]}" && pwd)" "$base_build"
      sides+=("$i")
    elif { cmake -S "${base_dirs[$i]}" -B "$base_build" -DCMAKE_PREFIX_PATH="$deps/usr" -DCMAKE_BUILD_TYPE=Release \
           -DGEMMTUNE_BUILD_PYTHON=OFF && cmake --build "$base_build" -j"$(nproc)" --target gemmbench; } \
         >> "$OUT/ab-build.log" 2>&1; then
      sides+=("$i")
    else
      tail -20 "$OUT/ab-build.log"; echo "A/B base ${base_dirs[$i]}: build failed" >> "$OUT/ab.md"
    fi
  done
  IFS=';' read -ra ab_runs <<< "${AB_RUNS:?ab needs AB_RUNS}"
  for args in "${ab_runs[@]}"; do
    for round in 1 2; do
      for side in "${sides[@]}"; do
        binary="$build/bin/gemmbench" commit=${GEMMTUNE_COMMIT:-} name=new
        if [ "$side" != new ]; then
          binary=/tmp/gemmtune-build-base$side/bin/gemmbench commit=${base_commits[$side]:-base$side}
          name="base ${base_dirs[$side]}"
        fi
        echo "## $name, round $round: gemmbench$args" >> "$OUT/ab.md"
        # shellcheck disable=SC2086  # the arguments are word-split on purpose
        GEMMTUNE_COMMIT=$commit timeout 200 "$binary" -q $args >> "$OUT/ab.md" 2>&1
        echo "exit $?" >> "$OUT/ab.md"
      done
    done
  done
  summary+=(ab.md)
fi

echo
echo "==================== summary ($(($(date +%s) - started))s) ===================="
for file in "${summary[@]}"; do echo "---- $file"; cat "$OUT/$file"; done

# At most 8 files come back from the GPU machine: the tables as they are, everything else packed.
keep=" tune.md tune-strict.md tune-fp32.md tune-tf32.md bench.md bench.csv strategies.md overhead.md report.html logs.tar.gz "
(cd "$OUT" && for entry in *; do [[ "$keep" == *" $entry "* ]] || echo "$entry"; done > /tmp/gemmtune-pack.txt &&
  tar -czf logs.tar.gz -T /tmp/gemmtune-pack.txt && xargs -a /tmp/gemmtune-pack.txt rm -rf)
