#!/usr/bin/env bash
# The main job from a fresh clone: install what is missing, build, and run the main job on the
# example shapes (examples/shapes.txt). Needs a CUDA GPU.
set -euo pipefail
cd "$(dirname "$0")/.."
bash tools/install_deps.sh
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release
cmake --build build -j"$(nproc)"
./build/bin/gemmbench --shapes examples/shapes.txt "$@"
