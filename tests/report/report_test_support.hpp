// Helpers of the report tests: the sample database in memory, its model, and text searches.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include "report_model.hpp"
#include "sample_report_database.hpp"
#include "tuning_db.hpp"

namespace gemmtune::report::test {

inline cache::Database sample_database() {
  cache::Database db = cache::Database::open(":memory:", cache::OpenMode::ReadWrite);
  fill_sample_report_database(db);
  return db;
}

inline ReportModel model_of(const cache::Database& db, const ReportOptions& options = {}) {
  return load_report(db, options, {"tuned.db", "2026-11-29 18:40 UTC", "0123456789ab"});
}

// The problems of the sample's only GPU.
inline std::vector<cache::ProblemSummary> sample_problem_summaries() {
  return model_of(sample_database()).gpus.at(0).problems;
}

inline std::size_t count(std::string_view text, std::string_view part) {
  std::size_t found = 0;
  for (std::size_t at = text.find(part); at != std::string_view::npos;
       at = text.find(part, at + 1)) {
    ++found;
  }
  return found;
}

inline bool contains(std::string_view text, std::string_view part) {
  return text.find(part) != std::string_view::npos;
}

}  // namespace gemmtune::report::test
