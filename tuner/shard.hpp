// `tune --shard I/N`: a deterministic split of a shapes file's problems into N shards, so that the
// tasks of a Slurm job array (or any N processes) each tune their share into their own database
// and `tunedb merge` gathers them. Shards are numbered from 1 (`1/4` ... `4/4`).
//
// The split works on the problems as parsed, never on the text: the distinct problems are sorted
// (Problem's own order, whatever fields a Problem has) and the i-th (0-based) goes to shard
// i % N + 1. So every problem is in exactly one shard, the split does not change when lines are
// reordered, blank or comment lines added, or a problem repeated, and shards differ in size by at
// most one problem. (Adding a problem to the file can move others to another shard: run every
// shard of one file, as a job array does.)
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "shapes_file.hpp"

namespace gemmtune::tuner {

struct Shard {
  int index = 1;  // 1 to count
  int count = 1;

  bool operator==(const Shard&) const = default;
};

// "2/4". Throws std::invalid_argument naming what is wrong ("--shard 0/2: ...").
Shard parse_shard(std::string_view text);

// "2/4"
std::string to_string(Shard shard);

// Reads an environment variable; nullopt when it is not set. Tests pass their own.
using EnvironmentLookup = std::function<std::optional<std::string>(const char* name)>;
std::optional<std::string> process_environment(const char* name);

// The shard of a Slurm job array task, or nullopt outside one (SLURM_ARRAY_TASK_ID unset).
// Slurm numbers a job array's tasks as the user wrote `--array` (0-9, 1-16, 5-20:5), so the shard
// is the task's place in its array: (SLURM_ARRAY_TASK_ID - SLURM_ARRAY_TASK_MIN) /
// SLURM_ARRAY_TASK_STEP + 1 of SLURM_ARRAY_TASK_COUNT (STEP 1 when unset). An array that is not
// one evenly stepped range (`--array=1,4,9`) cannot be mapped so: that, a missing
// SLURM_ARRAY_TASK_COUNT or SLURM_ARRAY_TASK_MIN and values that are not whole numbers throw
// std::invalid_argument saying to pass --shard.
std::optional<Shard> shard_from_slurm(const EnvironmentLookup& environment);

// The problems of `shard`, in the order they come in `problems` (which holds each problem once,
// as ShapesFile::problems does).
std::vector<ProblemSpec> problems_of_shard(const std::vector<ProblemSpec>& problems, Shard shard);

}  // namespace gemmtune::tuner
