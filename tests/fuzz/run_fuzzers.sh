#!/usr/bin/env bash
# Builds the libFuzzer fuzzers of the parsers (tests/fuzz, with clang++ 15 or later) and runs each
# for a bounded time from the seed corpus. Exits non-zero when a fuzzer finds a crash or a broken
# invariant; the input that did it is kept under BUILD_DIR/artifacts/.
#
#   bash tests/fuzz/run_fuzzers.sh [--build-dir DIR] [--seconds N] [--cxx clang++-16]
#
# Defaults: build/fuzz, 40 s each (three fuzzers: two minutes), the newest clang++ found.
set -euo pipefail
source_dir="$(cd "$(dirname "$0")" && pwd)"
build_dir="$source_dir/../../build/fuzz"
seconds=40
cxx=""
while (($#)); do
  case "$1" in
    --build-dir) build_dir="$2"; shift 2 ;;
    --seconds) seconds="$2"; shift 2 ;;
    --cxx) cxx="$2"; shift 2 ;;
    *) echo "run_fuzzers: unknown argument '$1'" >&2; exit 2 ;;
  esac
done
if [ -z "$cxx" ]; then
  for candidate in clang++-19 clang++-18 clang++-17 clang++-16 clang++-15 clang++; do
    if command -v "$candidate" >/dev/null; then cxx="$candidate"; break; fi
  done
fi
[ -n "$cxx" ] || { echo "run_fuzzers: no clang++ found (tools/install_deps.sh installs clang-16)" >&2; exit 2; }

echo "run_fuzzers: building with $cxx into $build_dir"
mkdir -p "$build_dir"
if ! { cmake -S "$source_dir" -B "$build_dir" -DCMAKE_CXX_COMPILER="$cxx" &&
       cmake --build "$build_dir" -j"$(nproc)"; } > "$build_dir/build.log" 2>&1; then
  cat "$build_dir/build.log"
  echo "run_fuzzers: the build failed" >&2
  exit 1
fi

failed=()
for parser in problem shapes_file kernel_name; do
  dictionary="$source_dir/problem.dict"
  max_len=4096
  case "$parser" in
    kernel_name) dictionary="$source_dir/kernel_name.dict"; max_len=256 ;;
    problem) max_len=256 ;;
  esac
  # New inputs go to a scratch corpus; the seeds in the source tree are only read.
  corpus="$build_dir/corpus/$parser"
  artifacts="$build_dir/artifacts"
  mkdir -p "$corpus" "$artifacts"
  echo "run_fuzzers: fuzz_$parser for ${seconds} s"
  if "$build_dir/fuzz_$parser" "$corpus" "$source_dir/corpus/$parser" -dict="$dictionary" \
       -max_total_time="$seconds" -max_len="$max_len" -timeout=10 -rss_limit_mb=2048 \
       -artifact_prefix="$artifacts/$parser-" -print_final_stats=1 > "$build_dir/fuzz_$parser.log" 2>&1; then
    grep -E "^stat::(number_of_executed_units|new_units_added)" "$build_dir/fuzz_$parser.log" | sed "s/^/  $parser /"
  else
    failed+=("$parser")
    tail -n 40 "$build_dir/fuzz_$parser.log"
  fi
done
if ((${#failed[@]})); then
  echo "run_fuzzers: FAILED: ${failed[*]} (inputs under $build_dir/artifacts/)" >&2
  exit 1
fi
echo "run_fuzzers: no crash and no broken invariant in ${seconds} s of each fuzzer"
