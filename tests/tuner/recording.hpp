// The recorded H200 measurements the replay tests read (tests/tuner/data), opened as a migrated
// copy: the recording keeps the schema it was written with, and a read-only open refuses an
// older schema, so each test reads a private copy brought up to this build's schema.
#pragma once

#include <filesystem>
#include <string>
#include <unistd.h>

#include "tuning_db.hpp"

namespace gemmtune::tuner::testing {

inline const char* const kRecording = GEMMTUNE_TESTS_DIR "/tuner/data/h200-exhaustive-reg2d-vectorized.db";

// A copy of the recording in the temporary folder (named for `copy_name` and this process, so
// that test runs side by side do not share one), migrated. The copy is left for inspection.
inline cache::Database open_recording(const std::string& copy_name) {
  const std::filesystem::path copy =
      std::filesystem::temp_directory_path() / (copy_name + "-" + std::to_string(::getpid()) + ".db");
  std::filesystem::copy_file(kRecording, copy, std::filesystem::copy_options::overwrite_existing);
  return cache::Database::open(copy.string(), cache::OpenMode::ReadWrite);
}

}  // namespace gemmtune::tuner::testing
