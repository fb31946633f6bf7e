#!/usr/bin/env bash
# Guided against exhaustive search, for issue 3's claim "guided reaches >= 97% of exhaustive's best
# while measuring <= 25% of the space". Tunes the same problems twice into two fresh databases,
# once with each strategy, then tools/strategy_table.py compares them (run on the GPU machine).
#
#   bash tools/compare_strategies.sh BUILD_DIR OUT_DIR [SHAPES_FILE] [FAMILIES]
#
# Defaults: bench/strategy-shapes.txt (one square, one skinny, one odd problem) and the families
# reg2d,vectorized: their whole space (about 280 configurations a problem) is small enough to
# measure exhaustively within one call of the GPU machine.
set -uo pipefail
build=${1:?usage: compare_strategies.sh BUILD_DIR OUT_DIR [SHAPES_FILE] [FAMILIES]}
out=${2:?usage: compare_strategies.sh BUILD_DIR OUT_DIR [SHAPES_FILE] [FAMILIES]}
shapes=${3:-bench/strategy-shapes.txt}
families=${4:-reg2d,vectorized}
mkdir -p "$out"
for strategy in exhaustive guided; do
  db="$out/strategy-$strategy.db"
  rm -f "$db" "$db-wal" "$db-shm"
  "$build/bin/tune" --gpu any --shapes "$shapes" --families "$families" --strategy "$strategy" --db "$db" --quiet \
    > "$out/strategy-$strategy.md" 2> "$out/strategy-$strategy.log" || {
    echo "tune --strategy $strategy failed (exit $?):"; tail -20 "$out/strategy-$strategy.log"; exit 1; }
done
python3 "$(dirname "$0")/strategy_table.py" "$out/strategy-exhaustive.db" "$out/strategy-guided.db"
