// Helpers of the cache tests: a temporary directory, file bytes, and a seeded database.
#pragma once

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <stdexcept>
#include <string>

#include "sqlite_statement.hpp"
#include "tuning_db.hpp"

namespace gemmtune::cache::test {

// A fresh directory under the system's temporary one, removed with everything in it.
class TempDir {
 public:
  TempDir() {
    std::string pattern = (std::filesystem::temp_directory_path() / "gemmtune-cache-XXXXXX").string();
    if (!mkdtemp(pattern.data())) throw std::runtime_error("mkdtemp failed for " + pattern);
    path_ = pattern;
  }
  ~TempDir() {
    std::error_code ignored;
    std::filesystem::permissions(path_, std::filesystem::perms::owner_all,
                                 std::filesystem::perm_options::add, ignored);
    std::filesystem::remove_all(path_, ignored);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;

  const std::filesystem::path& path() const { return path_; }
  std::string file(const std::string& name) const { return (path_ / name).string(); }

 private:
  std::filesystem::path path_;
};

inline std::string read_bytes(const std::string& path) {
  std::ifstream file(path, std::ios::binary);
  if (!file) throw std::runtime_error("cannot read " + path);
  return {std::istreambuf_iterator<char>(file), std::istreambuf_iterator<char>()};
}

inline void write_bytes(const std::string& path, const std::string& bytes) {
  std::ofstream file(path, std::ios::binary | std::ios::trunc);
  file.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  if (!file) throw std::runtime_error("cannot write " + path);
}

inline GpuInfo h200() { return {{"NVIDIA H200", 9, 0, 132}, "570.86", "13.0", "13.0"}; }
inline GpuInfo a100() { return {{"NVIDIA A100-SXM4-80GB", 8, 0, 108}, "535.1", "12.2", "12.2"}; }

inline std::string reg2d_name(int bm) {
  return "gemmtune_sgemm_reg2d_nn_bm" + std::to_string(bm) + "_bn128_bk8_tm8_tn8_align1";
}

inline std::int64_t add_reg2d_config(Database& db, int bm) {
  return db.upsert_config(reg2d_name(bm), "reg2d",
                          R"({"BM":)" + std::to_string(bm) +
                              R"(,"BN":128,"BK":8,"TM":8,"TN":8,"layout":"nn","align":1})",
                          "strict");
}

// An ok measurement whose times are all `ms`.
inline Measurement ok_measurement(std::int64_t gpu_id, std::int64_t problem_id,
                                  std::int64_t config_id, double ms,
                                  const std::string& measured_at = "") {
  Measurement measurement;
  measurement.gpu_id = gpu_id;
  measurement.problem_id = problem_id;
  measurement.config_id = config_id;
  measurement.status = Status::Ok;
  measurement.timing = Timing{ms, ms, ms, ms, ms};
  measurement.repetitions = 10;
  measurement.measured_at = measured_at;
  measurement.tuner_run = "test";
  return measurement;
}

inline Measurement failed_measurement(std::int64_t gpu_id, std::int64_t problem_id,
                                      std::int64_t config_id, Status status,
                                      const std::string& error_text) {
  Measurement measurement;
  measurement.gpu_id = gpu_id;
  measurement.problem_id = problem_id;
  measurement.config_id = config_id;
  measurement.status = status;
  measurement.error_text = error_text;
  measurement.tuner_run = "test";
  return measurement;
}

// Rows in a table, through the store's own connection.
inline std::int64_t count_rows(const Database& db, const std::string& table) {
  return db.connection().prepare("SELECT COUNT(*) FROM " + table).single_value<std::int64_t>();
}

}  // namespace gemmtune::cache::test
