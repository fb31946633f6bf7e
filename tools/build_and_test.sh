#!/usr/bin/env bash
# Builds in ./build and runs every test. Tests that need a GPU skip, saying why, where there is none.
set -euo pipefail
cd "$(dirname "$0")/.."
jobs=$(nproc)
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release
cmake --build build -j"$jobs"
ctest --test-dir build -j"$jobs" --output-on-failure
