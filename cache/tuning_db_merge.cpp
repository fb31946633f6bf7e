#include "tuning_db_merge.hpp"

#include <filesystem>
#include <vector>

#include "sqlite_statement.hpp"
#include "sqlite_transaction.hpp"

namespace gemmtune::cache {
namespace {

constexpr std::size_t kMaxSources = 10;  // SQLITE_MAX_ATTACHED's default

// Attaches a database read-only for the guard's lifetime. DETACH is refused inside a
// transaction, so guards must outlive the merge's Transaction.
class Attachment {
 public:
  Attachment(const Connection& connection, const std::string& path, std::string schema)
      : connection_(connection), schema_(std::move(schema)) {
    Statement attach = connection.prepare("ATTACH DATABASE ?1 AS " + schema_);
    attach.bind_all(file_uri(std::filesystem::absolute(path).string(), "mode=ro"));
    attach.run();
  }
  ~Attachment() {
    try {
      connection_.exec("DETACH DATABASE " + schema_);
    } catch (...) {
      // Destructors never throw; the attachment ends with the connection anyway.
    }
  }
  Attachment(const Attachment&) = delete;
  Attachment& operator=(const Attachment&) = delete;
  const std::string& schema() const { return schema_; }

 private:
  const Connection& connection_;
  std::string schema_;
};

// Joins a source row's (gpu_id, problem_id, config_id) to the target's ids by natural key,
// as g.id, p.id, c.id. `row` is the alias of the source row.
std::string target_ids_join(const std::string& src, const std::string& row) {
  return " JOIN " + src + ".gpus sg ON sg.id = " + row + ".gpu_id"
         " JOIN main.gpus g ON (g.name, g.cc_major, g.cc_minor, g.sm_count) ="
         " (sg.name, sg.cc_major, sg.cc_minor, sg.sm_count)"
         " JOIN " + src + ".problems sp ON sp.id = " + row + ".problem_id"
         " JOIN main.problems p ON (p.layout, p.m, p.n, p.k, p.batch) = (sp.layout, sp.m, sp.n, sp.k, sp.batch)"
         " JOIN " + src + ".configs sc ON sc.id = " + row + ".config_id"
         " JOIN main.configs c ON c.kernel_name = sc.kernel_name";
}

std::int64_t run(const Connection& connection, const std::string& sql) {
  connection.prepare(sql).run();
  return connection.changes();
}

void merge_one(const Connection& connection, const std::string& src, MergeCounts& counts) {
  // "WHERE true" keeps SQLite from reading ON CONFLICT as part of the SELECT's join.
  counts.gpus += run(connection,
      "INSERT INTO main.gpus (name, cc_major, cc_minor, sm_count, driver_version,"
      " cuda_runtime_version, nvrtc_version)"
      " SELECT name, cc_major, cc_minor, sm_count, driver_version, cuda_runtime_version,"
      " nvrtc_version FROM " + src + ".gpus WHERE true ORDER BY id"
      " ON CONFLICT (name, cc_major, cc_minor, sm_count) DO NOTHING");
  counts.problems += run(connection,
      "INSERT INTO main.problems (layout, m, n, k, batch) SELECT layout, m, n, k, batch FROM " + src +
      ".problems WHERE true ORDER BY id ON CONFLICT (layout, m, n, k, batch) DO NOTHING");
  counts.configs += run(connection,
      "INSERT INTO main.configs (kernel_name, family, params_json, precision)"
      " SELECT kernel_name, family, params_json, precision FROM " + src + ".configs WHERE true ORDER BY id"
      " ON CONFLICT (kernel_name) DO NOTHING");
  counts.measurements += run(connection,
      "INSERT INTO main.measurements (gpu_id, problem_id, config_id, status, median_ms, min_ms,"
      " max_ms, p10_ms, p90_ms, repetitions, sm_clock_mhz, max_rel_error, fp64_error, error_text,"
      " measured_at, tuner_run, device_index)"
      " SELECT g.id, p.id, c.id, m.status, m.median_ms, m.min_ms, m.max_ms, m.p10_ms, m.p90_ms,"
      " m.repetitions, m.sm_clock_mhz, m.max_rel_error, m.fp64_error, m.error_text, m.measured_at,"
      " m.tuner_run, m.device_index"
      " FROM " + src + ".measurements m" + target_ids_join(src, "m") +
      " WHERE NOT EXISTS (SELECT 1 FROM main.measurements x WHERE x.gpu_id = g.id"
      " AND x.problem_id = p.id AND x.config_id = c.id AND x.measured_at = m.measured_at)"
      " ORDER BY m.id");
  counts.binaries += run(connection,
      "INSERT INTO main.binaries (kernel_name, source_hash, compile_options, arch, nvrtc_version,"
      " lowered_name, cubin, registers, spill_bytes, compile_log, compiled_at)"
      " SELECT kernel_name, source_hash, compile_options, arch, nvrtc_version, lowered_name,"
      " cubin, registers, spill_bytes, compile_log, compiled_at FROM " + src + ".binaries"
      " WHERE true ON CONFLICT DO NOTHING");
  counts.compile_outcomes += run(connection,
      std::string("INSERT INTO main.compile_outcomes SELECT * FROM ") + src + ".compile_outcomes"
      " WHERE true ON CONFLICT DO NOTHING");
  counts.winners += run(connection,
      "INSERT INTO main.winners (gpu_id, problem_id, precision, config_id, median_ms, tflops,"
      " cublas_ms, cublas_tflops, fp64_error, measured_at)"
      " SELECT g.id, p.id, w.precision, c.id, w.median_ms, w.tflops, w.cublas_ms, w.cublas_tflops,"
      " w.fp64_error, w.measured_at FROM " + src + ".winners w" + target_ids_join(src, "w") +
      " WHERE true ON CONFLICT (gpu_id, problem_id, precision) DO UPDATE SET"
      " config_id = excluded.config_id, median_ms = excluded.median_ms,"
      " tflops = excluded.tflops, cublas_ms = excluded.cublas_ms,"
      " cublas_tflops = excluded.cublas_tflops, fp64_error = excluded.fp64_error,"
      " measured_at = excluded.measured_at"
      " WHERE excluded.measured_at > winners.measured_at");
}

}  // namespace

void check_merge_sources(const Database& into, std::span<const std::string> from_paths) {
  if (from_paths.size() > kMaxSources) {
    throw Error("merge", "at most " + std::to_string(kMaxSources) +
                             " databases can be merged at once, got " +
                             std::to_string(from_paths.size()),
                into.path());
  }
  for (const std::string& from : from_paths) {
    // Opening read-only checks that it exists, is a database and has this schema version.
    Database::open(from, OpenMode::ReadOnly);
    std::error_code error;
    if (std::filesystem::equivalent(into.path(), from, error)) {
      throw Error("merge", "cannot merge a database into itself (" + from + ")", into.path());
    }
  }
}

MergeCounts merge_databases(Database& into, std::span<const std::string> from_paths) {
  check_merge_sources(into, from_paths);
  const Connection& connection = into.connection();
  std::vector<std::unique_ptr<Attachment>> sources;
  for (const std::string& from : from_paths) {
    sources.push_back(std::make_unique<Attachment>(connection, from,
                                                   "merge_source" + std::to_string(sources.size())));
  }
  MergeCounts counts;
  Transaction transaction(connection);
  for (const auto& source : sources) merge_one(connection, source->schema(), counts);
  transaction.commit();
  return counts;
}

}  // namespace gemmtune::cache
