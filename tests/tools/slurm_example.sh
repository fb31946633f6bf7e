#!/usr/bin/env bash
# examples/slurm/ without Slurm: runs tune_shards.sbatch as four tasks of --array=10-13 would run
# (SLURM_ARRAY_TASK_* set as Slurm sets them; dry runs, so no GPU), then merge_shards.sbatch, and
# checks that the merged database holds the cubins of one dry run of the whole file; then that a
# task run again resumes from its saved database, and that merging again changes nothing.
#   slurm_example.sh BUILD_BIN EXAMPLES_SLURM_DIR WORK_DIR
set -euo pipefail
bin=$1 scripts=$2 work=$3
rm -rf "$work"
mkdir -p "$work/shards"
cd "$work"
printf '128 128 128\n# three problems for four tasks: one has nothing to do\n100 100 100 nt\n256 256 256\n' > shapes.txt
dry_run="--dry-run --arch sm_90 --families reg1d --strategy exhaustive --budget 4"
export SHAPES=shapes.txt GEMMTUNE_BIN=$bin SHARDS_DIR=$work/shards MERGED=$work/tuned.db TUNE_ARGS="$dry_run"
fail() { echo "FAILED: $*" >&2; exit 1; }
cubins() { "$bin/tunedb" binaries --db "$1" | grep -c '^gemmtune_sgemm_' || true; }

run_task() {
  SLURM_ARRAY_TASK_ID=$1 SLURM_ARRAY_TASK_MIN=10 SLURM_ARRAY_TASK_COUNT=4 bash "$scripts/tune_shards.sbatch" \
    > "task-$1.log" 2>&1 || { cat "task-$1.log"; fail "task $1 exited $?"; }
}
for id in 10 11 12 13; do run_task "$id"; done
grep -q "shard 4/4 (SLURM_ARRAY_TASK_ID 13): none of the 3 problem(s)" task-13.log || fail "task 13 should say it has nothing to do"
[[ -f shards/shard-10.db && -f shards/shard-11.db && -f shards/shard-12.db ]] || fail "tasks 10-12 should leave their databases"
[[ ! -e shards/shard-13.db ]] || fail "task 13 had nothing to do and should leave no database"
ls "${TMPDIR:-/tmp}"/gemmtune-shard-* > /dev/null 2>&1 && fail "a task left its local folder behind"

bash "$scripts/merge_shards.sbatch" > merge.log 2>&1 || { cat merge.log; fail "merge exited $?"; }
# shellcheck disable=SC2086
"$bin/tune" $dry_run --shapes shapes.txt --db one.db -q > /dev/null
expected=$(cubins one.db)
(( expected > 0 )) || fail "the one dry run compiled nothing"
[[ $(cubins tuned.db) == "$expected" ]] || fail "merged $(cubins tuned.db) cubins, one dry run $expected"
diff <("$bin/tunedb" binaries --db one.db | grep '^gemmtune_' | awk '{print $1}' | sort) \
     <("$bin/tunedb" binaries --db tuned.db | grep '^gemmtune_' | awk '{print $1}' | sort) || fail "other cubins merged"

run_task 10
grep -q "resuming from $work/shards/shard-10.db" task-10.log || fail "task 10 run again should resume"
grep -q "0 cubins compiled" task-10.log || fail "task 10 run again should find everything stored"
bash "$scripts/merge_shards.sbatch" > merge-again.log 2>&1 || { cat merge-again.log; fail "merge again exited $?"; }
grep -q "added 0 GPUs, 0 problems, 0 configs, 0 measurements, 0 binaries, 0 compile outcomes; 0 winners" merge-again.log ||
  { cat merge-again.log; fail "merging again should add nothing"; }
echo "slurm example: 4 tasks, 3 shard databases, $expected cubins merged; resumed and merged again"
