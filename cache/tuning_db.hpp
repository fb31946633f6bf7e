// The tuning database: where the tuner keeps every measurement and the winners, where the
// dispatch runtime finds them, and what tunedb inspects. The one public entry point of cache/;
// no SQL is needed outside this folder.
#pragma once

#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "cache_error.hpp"
#include "cache_records.hpp"
#include "sqlite_connection.hpp"

namespace gemmtune::cache {

enum class OpenMode {
  ReadOnly,   // never creates, migrates or writes the file; works on a read-only file
  ReadWrite,  // creates the file if missing, switches it to WAL, migrates its schema
};

class Database {
 public:
  // Opens `path` (":memory:" for a private in-memory database). Refuses, leaving the file
  // byte-for-byte as it was: a file that is not an SQLite database or is truncated, a damaged
  // one (SQLite's quick_check, bounded in time: integrity_check.hpp), a
  // database written by newer code (higher schema version), an SQLite database that is not a
  // gemmtune one; in ReadWrite mode a file it may not write, or one in a directory where it
  // cannot create the -wal and -shm files; and in ReadOnly mode a missing file (NotFoundError)
  // or an older schema.
  // Waits up to 10 s for other writers rather than failing with "database is locked".
  static Database open(const std::string& path, OpenMode mode);

  const std::string& path() const noexcept { return connection_.path(); }
  OpenMode mode() const noexcept { return mode_; }
  // The connection, for cache/ internals and tests that build unusual databases.
  const Connection& connection() const noexcept { return connection_; }

  // GPUs, problems and configurations: inserted once, found again by their natural key.
  std::int64_t upsert_gpu(const GpuInfo& gpu);  // also updates the recorded versions
  std::optional<Gpu> find_gpu(const GpuKey& key) const;
  // GPUs whose name contains `name_part` (case-insensitive; empty: all), by id.
  std::vector<Gpu> gpus(std::string_view name_part = {}) const;
  std::int64_t upsert_problem(const Problem& problem);
  std::optional<std::int64_t> find_problem(const Problem& problem) const;
  // params_json: a JSON object of the template parameters plus layout and align, e.g.
  // {"BM":128,"BN":128,"BK":8,"TM":8,"TN":8,"layout":"nn","align":1}; precision: the family's
  // class (kPrecisionNames; std::invalid_argument otherwise).
  std::int64_t upsert_config(std::string_view kernel_name, std::string_view family,
                             std::string_view params_json, std::string_view precision);

  // Adds a measurement (history is kept: a re-measure is a new row) and, when asked, makes it
  // the winner of its (GPU, problem) for winner->precision, both in one transaction. Returns the
  // measurement's id. Throws std::invalid_argument when timing is not present exactly for
  // Status::Ok, when a winner update is asked for a failed measurement, or for a precision that
  // is not a class.
  std::int64_t record_measurement(const Measurement& measurement,
                                  const std::optional<WinnerUpdate>& winner = std::nullopt);
  // Offers the fastest ok measurement stored for (GPU, problem) whose configuration's class is
  // one of `kernel_precisions` as the winner for update.precision, under update.policy: what a
  // run of one class makes of measurements another class's run left (a resumed run measures
  // them no more). Returns whether there was such a measurement.
  bool offer_stored_winner(std::int64_t gpu_id, std::int64_t problem_id,
                           const std::vector<std::string>& kernel_precisions, const WinnerUpdate& update);
  // Kernel names measured for (GPU, problem), whatever the outcome: what a resumed run skips.
  std::set<std::string> measured_kernels(std::int64_t gpu_id, std::int64_t problem_id) const;
  // The leaderboard: ok measurements fastest first, then failures, newest first.
  std::vector<MeasurementRow> measurements_for(std::int64_t gpu_id, std::int64_t problem_id) const;
  // Every measurement, by GPU, problem and leaderboard order (for exports).
  std::vector<MeasurementRow> all_measurements() const;

  // The winner of (GPU, problem) for the class `precision` ("strict", "fp32", "tf32").
  std::optional<Winner> winner(std::int64_t gpu_id, std::int64_t problem_id, std::string_view precision) const;
  // Winners of every class of the GPUs whose name contains `gpu_name_part` (empty: all).
  std::vector<WinnerEntry> all_winners(std::string_view gpu_name_part = {}) const;
  // Each (GPU, problem) measured or won, with its progress: once for each class it has a winner
  // of (strict, fp32, tf32 in that order), or once without a winner.
  std::vector<ProblemSummary> problem_summaries(std::string_view gpu_name_part = {}) const;

  // Stores a compiled kernel, replacing one with the same key.
  void store_binary(const Binary& binary);
  std::optional<Binary> find_binary(const BinaryKey& key) const;
  bool has_binary(const BinaryKey& key) const;  // without reading the cubin
  // Every stored cubin without its bytes, by arch, NVRTC version and kernel name.
  std::vector<BinaryInfo> binaries() const;
  // The stored cubins counted by arch and NVRTC version, in that order.
  std::vector<BinaryCount> binary_counts() const;

  // What compiling a cubin key gave, recorded once a key (a later record replaces it: the same
  // key compiles the same way, so this only refreshes the figures).
  void store_compile_outcome(const CompileOutcomeRecord& outcome);
  std::optional<CompileOutcomeRecord> find_compile_outcome(const BinaryKey& key) const;
  // Every outcome recorded for `arch` by `nvrtc_version`, by kernel name: the data register
  // rules are fitted to and compile times estimated from.
  std::vector<CompileOutcomeRecord> compile_outcomes(const std::string& arch, const std::string& nvrtc_version) const;

 private:
  Database(Connection connection, OpenMode mode);

  Connection connection_;
  OpenMode mode_;
};

}  // namespace gemmtune::cache
