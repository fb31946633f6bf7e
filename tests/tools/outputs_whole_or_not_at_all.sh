#!/usr/bin/env bash
# Every file a tool writes appears whole or not at all: each tool runs under a file-size limit
# (ulimit -f) that makes its write fail part-way, as a full disk would. It must exit 3, and the
# file it was asked to write must be as before (absent, or its old contents), with no temporary
# file left beside it.
#   outputs_whole_or_not_at_all.sh BIN_DIR MANY_DB WORK_DIR
# BIN_DIR holds tunedb and kernelc; MANY_DB is a database whose export and report are larger than
# the limit (tests/cache/write_tunedb_fixtures' many.db).
set -u
bin=$1 many_db=$2 work=$3
limit_kib=64  # room for SQLite's -shm index (32 KiB) of the database tunedb reads
rm -rf "$work" && mkdir -p "$work"
failures=0

# run_limited LIMIT_KIB COMMAND...: the command's exit code; SIGXFSZ is ignored so that the write
# fails with EFBIG instead of the signal killing the tool.
run_limited() {
  local limit=$1
  shift
  (trap '' XFSZ; ulimit -f "$limit"; exec "$@") >"$work/log" 2>&1
}

# expect_untouched WHAT FILE BEFORE LIMIT_KIB COMMAND...: BEFORE is "absent" or the old contents.
expect_untouched() {
  local what=$1 file=$2 before=$3 limit=$4
  shift 4
  if [ "$before" = absent ]; then rm -f "$file"; else printf '%s' "$before" >"$file"; fi
  run_limited "$limit" "$@"
  local code=$?
  local problem=""
  if [ "$code" -ne 3 ]; then problem="exit code $code, expected 3"; fi
  if [ "$before" = absent ] && [ -e "$file" ]; then problem="$problem; $file was left behind ($(stat -c %s "$file") bytes)"; fi
  if [ "$before" != absent ] && [ "$(cat "$file" 2>/dev/null)" != "$before" ]; then
    problem="$problem; the old contents of $file were replaced"
  fi
  if ! grep -q "write failed" "$work/log"; then problem="$problem; no 'write failed' message"; fi
  if ls -A "$(dirname "$file")" | grep -q '\.tmp-'; then problem="$problem; a temporary file was left behind"; fi
  if [ -n "$problem" ]; then
    echo "FAIL: $what: ${problem#; }"
    sed 's/^/    /' "$work/log"
    failures=$((failures + 1))
  else
    echo "ok: $what"
  fi
}

expect_untouched "tunedb export --out, new file" "$work/export.csv" absent $limit_kib \
  "$bin/tunedb" export --format csv --db "$many_db" --out "$work/export.csv"
expect_untouched "tunedb export --out, over an older export" "$work/export.csv" "old export" $limit_kib \
  "$bin/tunedb" export --format json --db "$many_db" --out "$work/export.csv"
expect_untouched "tunedb report --out, new file" "$work/report.html" absent $limit_kib \
  "$bin/tunedb" report --db "$many_db" --out "$work/report.html"
expect_untouched "tunedb report --out, over an older report" "$work/report.html" "old report" $limit_kib \
  "$bin/tunedb" report --db "$many_db" --out "$work/report.html"
# A naive cubin is about 8 KiB.
naive=gemmtune_sgemm_naive_nn_tile32_align1
mkdir -p "$work/cubins"
expect_untouched "kernelc --out" "$work/cubins/$naive.cubin" absent 4 "$bin/kernelc" --out "$work/cubins" "$naive"

# Without the limit the same commands write their files whole.
"$bin/tunedb" export --format csv --db "$many_db" --out "$work/export.csv" >/dev/null 2>&1 &&
  [ "$(wc -l <"$work/export.csv")" -eq 401 ] && echo "ok: export without a limit: 400 rows" ||
  { echo "FAIL: export without a limit"; failures=$((failures + 1)); }
"$bin/kernelc" --out "$work/cubins" "$naive" >/dev/null 2>&1 && [ -s "$work/cubins/$naive.cubin" ] &&
  echo "ok: kernelc without a limit" || { echo "FAIL: kernelc without a limit"; failures=$((failures + 1)); }

[ "$failures" -eq 0 ] && echo "all passed" || echo "$failures failed"
[ "$failures" -eq 0 ]
