#!/usr/bin/env bash
# Tunes a shapes file on a Slurm cluster: a job array of SHARDS tasks, each tuning its shard on
# one GPU into its own database (tune_shards.sbatch), then a job that starts once every task has
# succeeded and merges them (merge_shards.sbatch). Slurm is the scheduler; nothing here is.
#
#   examples/slurm/submit.sh SHAPES_FILE SHARDS [sbatch options for both jobs...]
#   examples/slurm/submit.sh examples/shapes.txt 4 --partition=gpu --account=myproj
#
# Settings, from the environment (sbatch passes it on to the jobs):
#   GEMMTUNE_BIN  the folder of tune and tunedb (default: build/bin here)
#   GPU           tune --gpu (default H200)
#   SHARDS_DIR    where each task leaves shard-ID.db (default: shards; a shared file system)
#   MERGED        the database the shards are merged into, created or extended (default: tuned.db)
#   TUNE_ARGS     more tune options for every task, e.g. "--precision tf32 --budget 90s"
# Run it from the folder that holds the shapes file's relative path, as the jobs start there.
set -euo pipefail

if (( $# < 2 )); then
  echo "usage: $0 SHAPES_FILE SHARDS [sbatch options...]" >&2
  exit 2
fi
shapes=$1
shards=$2
shift 2
if [[ ! -f $shapes ]]; then
  echo "$0: $shapes: no such shapes file" >&2
  exit 2
fi
if ! [[ $shards =~ ^[1-9][0-9]*$ ]]; then
  echo "$0: SHARDS must be a whole number above 0, got '$shards'" >&2
  exit 2
fi
here=$(cd "$(dirname "$0")" && pwd)
export SHAPES=$shapes
export GEMMTUNE_BIN=${GEMMTUNE_BIN:-$PWD/build/bin}
export SHARDS_DIR=${SHARDS_DIR:-$PWD/shards}
export MERGED=${MERGED:-$PWD/tuned.db}
mkdir -p "$SHARDS_DIR" logs

# Tasks 0 to SHARDS-1: tune works out its shard, TASK_ID - TASK_MIN + 1 of TASK_COUNT.
array=$(sbatch --parsable --array="0-$((shards - 1))" "$@" "$here/tune_shards.sbatch")
array=${array%%;*}  # "JOBID;CLUSTER" on a federation
# afterok: only once every task of the array has ended with exit code 0.
merge=$(sbatch --parsable --dependency="afterok:$array" "$@" "$here/merge_shards.sbatch")
echo "submitted job array $array ($shards shard(s) of $shapes) and merge job ${merge%%;*} (into $MERGED)"
