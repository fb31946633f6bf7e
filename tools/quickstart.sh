#!/usr/bin/env bash
# The main job from a fresh clone: install what is missing, build, tune the example shapes
# (examples/shapes.txt) on the first GPU into tuned.db, then benchmark the tuned winners against
# cuBLAS and the seed kernels. Needs a CUDA GPU. Extra arguments go to tune (e.g. --budget 60).
set -euo pipefail
cd "$(dirname "$0")/.."
bash tools/install_deps.sh
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release
cmake --build build -j"$(nproc)"
./build/bin/tune --gpu any --shapes examples/shapes.txt --db tuned.db "$@"
./build/bin/gemmbench --shapes examples/shapes.txt --db tuned.db
./build/bin/tunedb report --db tuned.db --out tuned-report.html
echo "quickstart: tuned.db holds every measurement; tuned-report.html shows them"
