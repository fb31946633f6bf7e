// GPUs, problems and configurations: the keys measurements refer to.
#include "sqlite_statement.hpp"
#include "tuning_db.hpp"

namespace gemmtune::cache {
std::int64_t Database::upsert_gpu(const GpuInfo& gpu) {
  Statement statement = connection_.prepare(
      "INSERT INTO gpus (name, cc_major, cc_minor, sm_count, driver_version,"
      " cuda_runtime_version, nvrtc_version) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)"
      " ON CONFLICT (name, cc_major, cc_minor, sm_count) DO UPDATE SET"
      " driver_version = excluded.driver_version,"
      " cuda_runtime_version = excluded.cuda_runtime_version,"
      " nvrtc_version = excluded.nvrtc_version"
      " RETURNING id");
  statement.bind_all(gpu.key.name, gpu.key.cc_major, gpu.key.cc_minor, gpu.key.sm_count,
                     gpu.driver_version, gpu.cuda_runtime_version, gpu.nvrtc_version);
  return statement.single_value<std::int64_t>();
}

std::optional<Gpu> Database::find_gpu(const GpuKey& key) const {
  for (Gpu& gpu : gpus(key.name)) {
    if (gpu.info.key == key) return std::move(gpu);
  }
  return std::nullopt;
}

std::vector<Gpu> Database::gpus(std::string_view name_part) const {
  Statement statement = connection_.prepare(
      "SELECT id, name, cc_major, cc_minor, sm_count, driver_version, cuda_runtime_version,"
      " nvrtc_version FROM gpus WHERE instr(lower(name), lower(?1)) > 0 ORDER BY id");
  statement.bind_all(name_part);
  std::vector<Gpu> gpus;
  while (statement.step()) {
    gpus.push_back({statement.column<std::int64_t>(0),
                    {{statement.column<std::string>(1), statement.column<int>(2),
                      statement.column<int>(3), statement.column<int>(4)},
                     statement.column<std::string>(5),
                     statement.column<std::string>(6),
                     statement.column<std::string>(7)}});
  }
  return gpus;
}

std::int64_t Database::upsert_problem(const Problem& problem) {
  // The no-op update makes RETURNING give the existing row's id on a conflict.
  Statement statement = connection_.prepare(
      "INSERT INTO problems (layout, m, n, k, batch) VALUES (?1, ?2, ?3, ?4, ?5)"
      " ON CONFLICT (layout, m, n, k, batch) DO UPDATE SET m = excluded.m RETURNING id");
  statement.bind_all(problem.layout, problem.m, problem.n, problem.k, problem.batch);
  return statement.single_value<std::int64_t>();
}

std::optional<std::int64_t> Database::find_problem(const Problem& problem) const {
  Statement statement = connection_.prepare(
      "SELECT id FROM problems WHERE layout = ?1 AND m = ?2 AND n = ?3 AND k = ?4 AND batch = ?5");
  statement.bind_all(problem.layout, problem.m, problem.n, problem.k, problem.batch);
  if (!statement.step()) return std::nullopt;
  return statement.column<std::int64_t>(0);
}

std::int64_t Database::upsert_config(std::string_view kernel_name, std::string_view family,
                                     std::string_view params_json, std::string_view precision) {
  require_precision_name(precision);
  Statement statement = connection_.prepare(
      "INSERT INTO configs (kernel_name, family, params_json, precision) VALUES (?1, ?2, json(?3), ?4)"
      " ON CONFLICT (kernel_name) DO UPDATE SET family = excluded.family,"
      " params_json = excluded.params_json, precision = excluded.precision RETURNING id");
  statement.bind_all(kernel_name, family, params_json, precision);
  return statement.single_value<std::int64_t>();
}

}  // namespace gemmtune::cache
