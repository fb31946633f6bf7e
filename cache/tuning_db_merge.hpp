// Merging tuning databases: results from several machines or runs gathered into one.
#pragma once

#include <cstdint>
#include <span>
#include <string>

#include "tuning_db.hpp"

namespace gemmtune::cache {

// Rows added to (and, for winners, replaced in) the target.
struct MergeCounts {
  std::int64_t gpus = 0;
  std::int64_t problems = 0;
  std::int64_t configs = 0;
  std::int64_t measurements = 0;
  std::int64_t binaries = 0;
  std::int64_t compile_outcomes = 0;
  std::int64_t winners = 0;
};

// Copies GPUs, problems, configurations, measurements, binaries, compile outcomes and winners of each database
// in `from_paths` (opened read-only) into `into`, in one transaction: a failure leaves `into`
// as it was. Nothing in `into` is lost: measurements of both are kept, exact duplicates (same
// GPU, problem, kernel and measured_at) once; of two winners for one (GPU, problem), the one
// measured later wins; of two binaries or compile outcomes with one key, `into`'s stays. At most
// 10 sources (SQLite's limit on attached databases).
// Calls check_merge_sources first.
MergeCounts merge_databases(Database& into, std::span<const std::string> from_paths);

// Throws Error unless every source can be merged into `into`: at most 10, each an existing
// gemmtune database of this schema version (NotFoundError for a missing one), none `into`
// itself. Writes nothing; callers that report unusable input apart from failures while merging
// (tunedb) call it before merge_databases.
void check_merge_sources(const Database& into, std::span<const std::string> from_paths);

}  // namespace gemmtune::cache
