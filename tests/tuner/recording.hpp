// The recorded H200 measurements the replay tests read (tests/tuner/data), opened as a migrated
// copy: the recording keeps the schema it was written with, and a read-only open refuses an
// older schema, so each test reads a private copy brought up to this build's schema.
#pragma once

#include <unistd.h>

#include <filesystem>
#include <optional>
#include <string>

#include "tuning_db.hpp"

namespace gemmtune::tuner::testing {

// Every configuration of reg2d and vectorized on three problems (2026-11-29).
inline const char* const kRecording = GEMMTUNE_TESTS_DIR "/tuner/data/h200-exhaustive-reg2d-vectorized.db";
// Every configuration of tmawgmma, wgmma and skinny on 2048^3, 1000x999x777 and 16x4096x4096
// (2026-12-04, bench/results/2026-12-04-h200-tuning-cost-device-check.md).
inline const char* const kTensorCoreRecording = GEMMTUNE_TESTS_DIR "/tuner/data/h200-exhaustive-tensor-core.db";

// A copy of the recording in the temporary folder (named for `name` and this process, so that
// test runs side by side do not share one), migrated; removed with its WAL files at the end.
class Recording {
 public:
  explicit Recording(const std::string& name, const char* recording = kRecording)
      : path_(std::filesystem::temp_directory_path() / (name + "-" + std::to_string(::getpid()) + ".db")) {
    std::filesystem::copy_file(recording, path_, std::filesystem::copy_options::overwrite_existing);
    db_.emplace(cache::Database::open(path_.string(), cache::OpenMode::ReadWrite));
  }
  ~Recording() {
    db_.reset();  // closed before its files go
    std::error_code ignored;
    for (const char* suffix : {"", "-wal", "-shm"}) std::filesystem::remove(path_.string() + suffix, ignored);
  }
  Recording(const Recording&) = delete;
  Recording& operator=(const Recording&) = delete;

  const cache::Database& db() const { return *db_; }

 private:
  std::filesystem::path path_;
  std::optional<cache::Database> db_;
};

}  // namespace gemmtune::tuner::testing
