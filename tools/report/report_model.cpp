#include "report_model.hpp"

#include <stdexcept>
#include <utility>

#include "candidate_scatter.hpp"
#include "precision.hpp"
#include "tuning_db.hpp"

namespace gemmtune::report {

std::optional<cache::Problem> default_spread_problem(
    const std::vector<cache::ProblemSummary>& problems) {
  const cache::ProblemSummary* best = nullptr;
  for (const cache::ProblemSummary& summary : problems) {
    if (!best || std::pair(summary.ok, summary.measured) > std::pair(best->ok, best->measured)) {
      best = &summary;
    }
  }
  if (!best) return std::nullopt;
  return best->problem;
}

namespace {

// A --param that no plotted candidate has is a mistake like a --problem the database does not
// hold: refused, naming the parameters there are, rather than a page whose chart is a note.
void refuse_unknown_parameter(const ReportModel& model, const std::string& parameter) {
  std::string known;
  for (const GpuSection& section : model.gpus) {
    if (!section.spread) continue;
    for (const cache::MeasurementRow& row : section.spread->rows) {
      if (row.status == cache::Status::Ok && parameter_value(row.params_json, parameter)) return;
    }
    if (known.empty()) known = parameter_names(section.spread->rows);
  }
  if (known.empty()) return;  // no ok candidate: nothing is plotted, against any parameter
  throw ReportOptionError("--param '" + parameter + "': no candidate plotted has it; their parameters are " + known +
                          " (or a product of them, such as BM*BN)");
}

}  // namespace

ReportModel load_report(const cache::Database& db, const ReportOptions& options,
                        Provenance provenance) {
  ReportModel model{std::move(provenance), options.spread_parameter, {}, db.binary_counts()};
  const std::vector<cache::Gpu> all_gpus = db.gpus();
  const std::vector<cache::Gpu> gpus = db.gpus(options.gpu_name_part);
  if (gpus.empty() && !all_gpus.empty()) {
    std::string names;
    for (const cache::Gpu& gpu : all_gpus) names += (names.empty() ? "" : ", ") + gpu.info.key.name;
    throw ReportOptionError(db.path() + ": no GPU matches '" + options.gpu_name_part +
                            "'; the database has: " + names);
  }
  const std::vector<cache::ProblemSummary> summaries = db.problem_summaries(options.gpu_name_part);
  bool any_spread = false;

  for (const cache::Gpu& gpu : gpus) {
    GpuSection section{gpu.info, {}, std::nullopt, std::nullopt, ""};
    for (const cache::ProblemSummary& summary : summaries) {
      const bool of_class = options.precision.empty() || (summary.winner && summary.winner->precision == options.precision);
      if (summary.gpu == gpu.info.key && of_class) section.problems.push_back(summary);
    }
    section.ceilings = choose_ceilings(gpu.info.key.name, section.problems, options.ceilings);

    const std::optional<cache::Problem> spread_problem =
        options.spread_problem ? options.spread_problem : default_spread_problem(section.problems);
    const std::optional<std::int64_t> problem_id =
        spread_problem ? db.find_problem(*spread_problem) : std::nullopt;
    std::vector<cache::MeasurementRow> rows;
    if (problem_id) rows = db.measurements_for(gpu.id, *problem_id);
    if (!options.precision.empty()) {
      const Precision precision = parse_precision(options.precision);
      std::erase_if(rows, [&](const cache::MeasurementRow& row) { return !admits(precision, parse_precision(row.precision)); });
    }
    if (!rows.empty()) {
      any_spread = true;
      section.spread = CandidateSpread{*spread_problem, std::move(rows)};
    } else if (options.spread_problem) {
      section.spread_note = to_string(*options.spread_problem) + " was not measured on this GPU.";
    } else {
      section.spread_note = "Nothing was measured on this GPU yet.";
    }
    model.gpus.push_back(std::move(section));
  }
  if (options.spread_problem && !any_spread && !model.gpus.empty()) {
    throw ReportOptionError(
        db.path() + ": no measurements of " + to_string(*options.spread_problem) +
        (options.gpu_name_part.empty() ? std::string()
                                       : " on a GPU matching '" + options.gpu_name_part + "'"));
  }
  if (!options.spread_parameter.empty()) refuse_unknown_parameter(model, options.spread_parameter);
  return model;
}

}  // namespace gemmtune::report
