#!/usr/bin/env bash
# compute-sanitizer over every kernel family: runs BUILD_DIR/bin/sanitize_kernels (one launch of
# each family's default configuration at each ALIGN it takes, and of the split-K and stream-K schedules, on
# small odd problems in the four layouts, each checked against an FP64 reference; see
# tests/reliability/sanitize_kernels.cpp) once plainly, to compile the kernels into a cubin
# database and check the results, then under memcheck (with the leak check), racecheck,
# initcheck and synccheck. Each log goes to OUT_DIR/sanitizer-<tool>.log; a markdown table comes
# last.
#
#   bash tools/sanitize_kernels.sh BUILD_DIR OUT_DIR
#
# SANITIZE_FAMILIES=tmawgmma,tmatf32 limits the runs to those families (sanitize_kernels
# --families), for a call with little device time to check the kernels that changed.
# SANITIZER_TIMEOUT (seconds, default 90) bounds each of the four sanitizer runs and
# SANITIZER_COMPILE_TIMEOUT (default twice that) the plain run, which compiles; gpu_run.sh gives the
# whole step SANITIZE_SECONDS (default 480). COMPUTE_SANITIZER names the program
# (default: found on PATH, in /usr/local/cuda*/ or under /opt/nvidia).
# Exit: 0 every tool ran and reported nothing; 1 an error, hazard, mismatch or timeout; 2 bad
# arguments or no sanitize_kernels; 3 no GPU, or compute-sanitizer missing or refusing the device.
set -uo pipefail

if [ $# -ne 2 ]; then
  echo "usage: bash tools/sanitize_kernels.sh BUILD_DIR OUT_DIR" >&2
  exit 2
fi
build=$1
out=$2
program=$build/bin/sanitize_kernels
if [ ! -x "$program" ]; then
  echo "sanitize_kernels: no $program (cmake --build $build --target sanitize_kernels)" >&2
  exit 2
fi
mkdir -p "$out"
limit=${SANITIZER_TIMEOUT:-90}
# The plain run compiles ~150 kernels (on every core; one after another, 58 s was too short).
compile_limit=${SANITIZER_COMPILE_TIMEOUT:-$((2 * limit))}
cubins=$out/sanitize-cubins.db
families=()
[ -n "${SANITIZE_FAMILIES:-}" ] && families=(--families "$SANITIZE_FAMILIES")
started=$(date +%s)
say() { echo "[sanitize_kernels $(($(date +%s) - started))s] $*"; }

find_sanitizer() {
  if [ -n "${COMPUTE_SANITIZER:-}" ]; then
    echo "$COMPUTE_SANITIZER"
    return
  fi
  command -v compute-sanitizer && return
  local candidate
  for candidate in /usr/local/cuda/bin/compute-sanitizer /usr/local/cuda-*/bin/compute-sanitizer \
                   /usr/local/cuda*/compute-sanitizer/compute-sanitizer; do
    if [ -x "$candidate" ]; then
      echo "$candidate"
      return
    fi
  done
  find /opt/nvidia -name compute-sanitizer -type f -perm -u+x 2>/dev/null | sort | tail -1
}

# The plain run compiles every kernel into the cubin database (the sanitizer runs only load them)
# and says whether the results are right without a sanitizer in the way.
say "plain run (compiles the kernels)"
timeout -k 5 "$compile_limit" "$program" --cubins "$cubins" "${families[@]}" > "$out/sanitizer-none.log" 2>&1
plain_status=$?
if grep -q '^SKIPPED:' "$out/sanitizer-none.log"; then
  echo "NO GPU: $(grep '^SKIPPED:' "$out/sanitizer-none.log")"
  exit 3
fi

sanitizer=$(find_sanitizer)
if [ -z "$sanitizer" ] || [ ! -x "$sanitizer" ]; then
  echo "COMPUTE-SANITIZER MISSING: not on PATH, in /usr/local/cuda*/ nor under /opt/nvidia (set COMPUTE_SANITIZER)"
  tail -1 "$out/sanitizer-none.log"
  exit 3
fi
say "using $sanitizer ($("$sanitizer" --version 2>/dev/null | grep -m1 -i version))"

declare -A options=(
  [memcheck]="--leak-check full --padding 512"  # padding: an access past an allocation's end meets no neighbour
  [racecheck]=""
  [initcheck]=""
  [synccheck]=""
)
tools=(memcheck racecheck initcheck synccheck)
declare -A status
for tool in "${tools[@]}"; do
  say "$tool"
  # shellcheck disable=SC2086
  timeout -k 5 "$limit" "$sanitizer" --tool "$tool" --error-exitcode 1 ${options[$tool]} \
    "$program" --cubins "$cubins" "${families[@]}" > "$out/sanitizer-$tool.log" 2>&1
  status[$tool]=$?
done

# Errors reported: memcheck, initcheck and synccheck end with "ERROR SUMMARY: N errors", racecheck
# with "RACECHECK SUMMARY: H hazards displayed (E errors, W warnings)".
errors_in() {
  local log=$1 line
  line=$(grep -E 'RACECHECK SUMMARY:' "$log" | tail -1)
  if [ -n "$line" ]; then
    echo "$line" | sed -E 's/.*\(([0-9]+) errors?, ([0-9]+) warnings?\).*/\1 (\2 warnings)/'
    return
  fi
  line=$(grep -E 'ERROR SUMMARY: [0-9]+ error' "$log" | tail -1)
  if [ -n "$line" ]; then
    echo "$line" | sed -E 's/.*ERROR SUMMARY: ([0-9]+) error.*/\1/'
  else
    echo "-"
  fi
}
launches_in() { grep -cE '^(ok|FAIL) ' "$1"; }
failed_in() { grep -cE '^FAIL ' "$1"; }
describe_exit() {  # status [limit]
  case $1 in
    124|137) echo "$1 (timed out after ${2:-$limit} s)" ;;
    *) echo "$1" ;;
  esac
}

refused=""
verdict=0
[ "$plain_status" -ne 0 ] && verdict=1
echo
echo "## compute-sanitizer on ${SANITIZE_FAMILIES:-every kernel family}"
echo
echo "$(grep -m1 '^device ' "$out/sanitizer-none.log"); $(grep -m1 ' kernels for ' "$out/sanitizer-none.log"); $("$sanitizer" --version 2>/dev/null | grep -m1 -i version)"
echo
echo "| tool | launches | failed launches | errors reported | exit code | log |"
echo "|---|---|---|---|---|---|"
echo "| none (plain run) | $(launches_in "$out/sanitizer-none.log") | $(failed_in "$out/sanitizer-none.log") | - | $(describe_exit "$plain_status" "$compile_limit") | sanitizer-none.log |"
for tool in "${tools[@]}"; do
  log=$out/sanitizer-$tool.log
  errors=$(errors_in "$log")
  echo "| $tool | $(launches_in "$log") | $(failed_in "$log") | $errors | $(describe_exit "${status[$tool]}") | sanitizer-$tool.log |"
  if grep -qiE 'device not supported|not supported on this (device|platform)|unsupported (device|gpu)' "$log"; then
    refused+="$tool: $(grep -m1 -iE 'device not supported|not supported on this (device|platform)|unsupported (device|gpu)' "$log")"$'\n'
  fi
  if [ "${status[$tool]}" -ne 0 ] || { [ "$errors" != "-" ] && [ "${errors%% *}" != "0" ]; }; then
    verdict=1
  fi
done
echo
if [ -n "$refused" ]; then
  echo "COMPUTE-SANITIZER REFUSED THE DEVICE:"
  printf '%s' "$refused"
  exit 3
fi
for tool in "${tools[@]}"; do
  # The first reports of each tool that found something, for the reader of the summary.
  if [ "${status[$tool]}" -ne 0 ]; then
    echo "--- $tool: first reports (whole log: sanitizer-$tool.log)"
    grep -E '^========= (Invalid|Race|Uninitialized|Barrier|Error|ERROR|Program hit|Leaked|Target application|  )' \
      "$out/sanitizer-$tool.log" | head -20
    grep -E '^FAIL ' "$out/sanitizer-$tool.log" | head -5
  fi
done
say "done: $([ $verdict -eq 0 ] && echo 'no errors' || echo 'ERRORS (see the table)')"
exit $verdict
