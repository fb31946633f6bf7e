// What a Runtime is opened on: the tuning database (read-only) and the winners it holds for
// this GPU, with the open-time policy for a missing database and an untuned GPU. No CUDA: the
// GPU is given as its key, so the policy is tested on any machine.
#pragma once

#include <optional>
#include <string>

#include "cache_records.hpp"
#include "tuning_db.hpp"
#include "tuning_table.hpp"

namespace gemmtune::dispatch {

struct TuningSource {
  // Where kernels' cubins are looked up; nullopt when running without a database. Kept even when
  // it has no winner for this GPU: cubins are keyed by arch, not by GPU, and still serve.
  std::optional<cache::Database> database;
  TuningTable table;
  // "24 tuned problems from tuned.db", "no database: default kernels only", ...
  std::string description;
};

// Opens `db_path` read-only and keeps the winners of `gpu`. Throws DispatchError with
// - DatabaseNotFound: the file does not exist, or the path is empty;
// - DatabaseError: the cache layer refuses the file (not SQLite, not gemmtune's, a newer or
//   older schema, unreadable) — whatever `allow_untuned` says;
// - UntunedGpu: the database has no winner for `gpu`; the message lists the GPUs it has.
// With `allow_untuned`, the first and the last instead give a source with an empty table.
TuningSource load_tuning(const std::string& db_path, const cache::GpuKey& gpu, bool allow_untuned);

}  // namespace gemmtune::dispatch
