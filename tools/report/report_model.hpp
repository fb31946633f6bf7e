// What a report shows, as plain values read from the database: no SQL and no HTML here.
// load_report fills it; render_report_html turns it into the page.
#pragma once

#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "cache_records.hpp"
#include "gpu_ceilings.hpp"

namespace gemmtune::cache {
class Database;
}

namespace gemmtune::report {

// Every measurement of one problem on one GPU: the candidates' spread.
struct CandidateSpread {
  cache::Problem problem;
  std::vector<cache::MeasurementRow> rows;  // leaderboard order: ok fastest first, then failures
};

struct GpuSection {
  cache::GpuInfo gpu;
  std::vector<cache::ProblemSummary> problems;  // each problem measured on this GPU
  std::optional<Ceilings> ceilings;             // nullopt: no roofline can be drawn
  std::optional<CandidateSpread> spread;
  std::string spread_note;  // why there is no spread, when there is none
};

struct Provenance {
  std::string database_path;
  std::string generated_at;  // "2026-11-29 18:40 UTC"
  std::string gemmtune_commit;
};

struct ReportModel {
  Provenance provenance;
  // The scatter's x parameter: a name ("BM") or a product ("BM*BN"); empty picks BM*BN when
  // the candidates have both, else their first numeric parameter.
  std::string spread_parameter;
  std::vector<GpuSection> gpus;  // empty: nothing measured yet
  std::vector<cache::BinaryCount> binaries;  // the cubins stored, which a dry run's database holds alone
};

struct ReportOptions {
  std::optional<cache::Problem> spread_problem;  // --problem; default: default_spread_problem
  std::string gpu_name_part;                     // --gpu; empty: every GPU
  std::string spread_parameter;                  // --param
  CeilingOverrides ceilings;
  // --precision: only this class's winners, and the candidates of kernels it admits; empty: all.
  std::string precision;
};

// --gpu or --problem asks for what the database does not hold: bad input, not a failure.
class ReportOptionError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Reads what the report needs. Throws ReportOptionError, saying what the database has, when
// --gpu matches no GPU of a non-empty database or --problem was measured on none of them.
ReportModel load_report(const cache::Database& db, const ReportOptions& options,
                        Provenance provenance);

// The problem with the most ok configurations, of equals the one with the most measured (so
// that a problem whose candidates all failed still shows its failures), of those the first;
// nullopt for no problems.
std::optional<cache::Problem> default_spread_problem(
    const std::vector<cache::ProblemSummary>& problems);

}  // namespace gemmtune::report
