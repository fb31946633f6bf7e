// What a Runtime is opened on: the tuning database (read-only) and the winners it holds for
// this GPU, with the open-time policy for a missing database and an untuned GPU. No CUDA: the
// GPU is given as its key, so the policy is tested on any machine.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <unordered_map>

#include "cache_records.hpp"
#include "kernel_manifest.hpp"
#include "kernel_store.hpp"
#include "tuning_db.hpp"
#include "tuning_table.hpp"

namespace gemmtune::dispatch {

struct TuningSource {
  // Where kernels' cubins are looked up; nullopt when running without a database. Kept even when
  // it has no winner for this GPU: cubins are keyed by arch, not by GPU, and still serve.
  std::optional<cache::Database> database;
  // An ahead-of-time export instead (load_manifest_tuning): its folder and its cubins by kernel
  // name. Then there is no database, and nothing is compiled.
  std::optional<std::filesystem::path> manifest_dir;
  std::unordered_map<std::string, ManifestKernel> manifest_kernels;
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

// Reads the ahead-of-time export in `dir` (kernel_manifest.hpp) and keeps its winners for `gpu`,
// which has the arch `arch`. Throws DispatchError with
// - DatabaseNotFound: no DIR/manifest.json;
// - DatabaseError: not a manifest of this format and version, or a cubin missing or cut short;
// - UntunedGpu: its cubins are for another arch (whatever `allow_untuned` says: nothing there
//   could run, and nothing is compiled), or it was exported for another GPU (unless
//   `allow_untuned`: then the export's default kernels serve every call).
TuningSource load_manifest_tuning(const std::filesystem::path& dir, const cache::GpuKey& gpu, const std::string& arch,
                                  bool allow_untuned);

// How a KernelStore finds cubins in `source` (its database's under this build's key, or its
// export's files), and why it may not compile (empty: it may).
CubinLookup cubin_lookup(const TuningSource& source, const std::string& arch);
CubinCheck cubin_check(const TuningSource& source, const std::string& arch);  // whether it would find one
std::string compile_refusal(const TuningSource& source);

}  // namespace gemmtune::dispatch
