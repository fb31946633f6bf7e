#!/usr/bin/env bash
# The main job from a fresh clone: install what is missing, build, tune the example shapes
# (examples/shapes.txt) on the first GPU into tuned.db, then benchmark the tuned winners against
# cuBLAS and the seed kernels. Needs a CUDA GPU: without one it says what can be done instead and
# exits 2, before the minutes of building. Extra arguments go to tune (e.g. --budget 60).
set -euo pipefail

# Asked before anything else (nvidia-smi comes with the driver; no build needed): tune would stop
# at once without a GPU, after a build of several minutes. Bash builtins only until then.
if ! command -v nvidia-smi >/dev/null 2>&1; then
  why="nvidia-smi not found: no NVIDIA driver is installed"
elif ! gpus=$(nvidia-smi -L 2>&1) || [[ "$gpus" != *"GPU "* ]]; then
  why="nvidia-smi -L: ${gpus%%$'\n'*}"
fi
if [[ -n "${why:-}" ]]; then
  read -r -d '' advice <<EOF || true
quickstart: no usable NVIDIA GPU ($why), so nothing was built or tuned.
Tuning times kernels on a GPU. Without one you can still, from the top of the source tree:
  bash .ci/run
      install what is missing, build, and run the tests (those that need a GPU print SKIPPED)
  ./build/bin/tune --dry-run --arch sm_90 --shapes examples/shapes.txt --db tuned.db
      after the build: compile and store what tuning on an H200 (sm_90) would compile, for a later run there
  ./build/bin/kernelc --defaults
      compile each family's default configuration and print its registers, shared memory, spills
EOF
  printf '%s\n' "$advice" >&2
  exit 2
fi
echo "quickstart: $gpus"

cd "$(dirname "$0")/.."
bash tools/install_deps.sh
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release
cmake --build build -j"$(nproc)"
./build/bin/tune --gpu any --shapes examples/shapes.txt --db tuned.db "$@"
./build/bin/gemmbench --shapes examples/shapes.txt --db tuned.db
./build/bin/tunedb report --db tuned.db --out tuned-report.html
echo "quickstart: tuned.db holds every measurement; tuned-report.html shows them"
