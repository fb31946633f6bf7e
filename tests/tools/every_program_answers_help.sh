#!/usr/bin/env bash
# Every program in BIN_DIR answers --help and -h: exit 0, a usage text on standard output, and
# nothing created where it runs (sgemm_example took --help for its database path, and
# write_tunedb_fixtures made a folder named --help).
#   every_program_answers_help.sh BIN_DIR WORK_DIR
set -u
bin=$1 work=$2
failures=0 checked=0
for program in "$bin"/*; do
  [ -f "$program" ] && [ -x "$program" ] || continue
  name=$(basename "$program")
  for flag in --help -h; do
    rm -rf "$work" && mkdir -p "$work"
    (cd "$work" && timeout 30 "$program" "$flag" >"$work/../help.out" 2>"$work/../help.err")
    code=$?
    problem=""
    [ "$code" -eq 0 ] || problem="exit code $code"
    grep -qi "usage" "$work/../help.out" || problem="$problem; no usage text on standard output"
    [ -z "$(ls -A "$work")" ] || problem="$problem; created $(ls -A "$work" | tr '\n' ' ')"
    checked=$((checked + 1))
    if [ -n "$problem" ]; then
      echo "FAIL: $name $flag: ${problem#; }"
      sed 's/^/    /' "$work/../help.err" | head -5
      failures=$((failures + 1))
    fi
  done
done
echo "$checked runs, $failures failed"
[ "$checked" -gt 0 ] && [ "$failures" -eq 0 ]
