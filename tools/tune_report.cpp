#include "tune_report.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <optional>
#include <string>
#include <vector>

#include "build_info.hpp"
#include "cublas_gemm.hpp"
#include "precision.hpp"
#include "text.hpp"
#include "text_table.hpp"

namespace gemmtune {
namespace {

using json = nlohmann::ordered_json;  // fields in the order written

// The figures of one problem's line, computed once for every format.
struct ProblemFigures {
  std::optional<double> ms, tflops, speedup;  // absent without a winner
  std::optional<double> cublas_ms, cublas_tflops;  // absent where cuBLAS was not timed (a dry run)
};

ProblemFigures figures(const tuner::ProblemReport& p) {
  const double flops = p.problem.flops();
  ProblemFigures f;
  if (p.cublas_ms > 0) {
    f.cublas_ms = p.cublas_ms;
    f.cublas_tflops = flops / p.cublas_ms / 1e9;
  }
  if (p.winner) {
    f.ms = p.winner->median_ms;
    f.tflops = flops / p.winner->median_ms / 1e9;
    if (f.cublas_ms) f.speedup = *f.cublas_ms / p.winner->median_ms;
  }
  return f;
}

double per_second(std::size_t count, double seconds) { return count / std::max(seconds, 1e-9); }

// A run that measured on several GPUs (--devices) says which tuned each problem, and how many
// each tuned; one on a single GPU reads as it always has.
bool on_several_gpus(const tuner::RunReport& run) { return run.devices.size() > 1; }

// "GPU 0 (NVIDIA H200): 5 problem(s), 312.4 s of tuning; GPU 1 (NVIDIA H200): 4 problem(s), ..."
std::string device_shares_text(const tuner::RunReport& run) {
  std::string text;
  for (const tuner::DeviceShare& share : run.devices) {
    text += (text.empty() ? "" : "; ") + std::string("GPU ") + std::to_string(share.index) + " (" + share.name +
            "): " + std::to_string(share.problems) + " problem(s), " + fixed(share.seconds, 1) + " s of tuning";
  }
  return text;
}

// What --time-limit did to a problem, as the CSV and the JSON name it: "", "cut" or "not_started".
std::string_view time_limit_name(tuner::TimeLimitEffect effect) {
  switch (effect) {
    case tuner::TimeLimitEffect::None: return "";
    case tuner::TimeLimitEffect::Cut: return "cut";
    case tuner::TimeLimitEffect::NotStarted: return "not_started";
  }
  return "";
}

// "--time-limit reached: 2 problem(s) not tuned, 1 cut short; ...", or nothing.
std::string time_limit_text(const tuner::RunReport& run) {
  std::size_t cut = 0, not_started = 0;
  for (const tuner::ProblemReport& p : run.problems) {
    if (p.time_limit == tuner::TimeLimitEffect::Cut) ++cut;
    if (p.time_limit == tuner::TimeLimitEffect::NotStarted) ++not_started;
  }
  if (cut + not_started == 0) return {};
  return "--time-limit reached: " + std::to_string(not_started) + " problem(s) not tuned, " + std::to_string(cut) +
         " cut short; what was measured is in the database, and a run on it with the same shapes resumes them";
}

// "; 12 known to fail or spill, not compiled again", or nothing.
std::string known_failures_text(const tuner::RunReport& run) {
  if (run.compiles_avoided == 0) return {};
  return "; " + std::to_string(run.compiles_avoided) + " known to fail or spill, not compiled again";
}

// Where a run's time went, and what the early cut saved.
void write_time_split(std::ostream& out, const tuner::RunReport& run) {
  const double wall = std::max(run.wall_seconds, 1e-9);
  const double worker_time = std::max(1, run.compile_workers) * wall;
  const std::size_t measurers = std::max<std::size_t>(1, run.devices.size());
  const std::string measuring_processes =
      measurers == 1 ? "the measuring process" : "the " + std::to_string(measurers) + " measuring processes";
  out << "time: measuring " << fixed(run.measuring_seconds, 1) << " s (" << measuring_processes << " idle "
      << fixed(100 * std::max(0.0, 1 - run.measuring_seconds / (measurers * wall)), 0) << "% of the run), waiting for compiles "
      << fixed(run.waiting_for_compiles_seconds, 1) << " s, compiling " << fixed(run.compile_worker_seconds, 1)
      << " s of worker time (the workers busy " << fixed(100 * run.compile_worker_seconds / worker_time, 0)
      << "% of the run)\n";
  out << "measuring: loading cubins " << fixed(run.loading_seconds, 1) << " s, checking results "
      << fixed(run.checking_seconds, 1) << " s, timing " << fixed(run.timing_seconds, 1) << " s; the rest ("
      << fixed(std::max(0.0, run.measuring_seconds - run.loading_seconds - run.checking_seconds - run.timing_seconds), 1)
      << " s) inputs, references and cuBLAS, and messages\n";
  out << "early cut: " << run.timings_cut << " candidate(s) timed by their probe alone, " << run.timings_extended
      << " close one(s) timed longer; " << fixed(run.timing_seconds_saved, 1) << " s of timing saved\n";
}

void write_table(std::ostream& out, const tuner::RunReport& run, const tuner::TuneOptions& options) {
  out << "# tune: " << run.gpu_name << ", " << utc_date_time() << ", commit " << build_commit() << "\n\n";
  if (options.dry_run) {
    std::size_t planned = 0;
    for (const tuner::ProblemReport& p : run.problems) planned += p.candidates;
    out << run.planned.size() << " candidate(s) planned by the " << options.strategy << " search for "
        << run.problems.size() << " problem(s) (" << planned << " before those they share)"
        << (run.left_by_budget ? ", " + std::to_string(run.left_by_budget) + " left uncompiled by the time budget"
                               : std::string())
        << "\n";
    out << run.cubins_compiled << " cubins compiled (" << run.cubins_reused << " already in " << options.db_path
        << (run.cubins_stored_concurrently
                ? ", " + std::to_string(run.cubins_stored_concurrently) +
                      " of them after waiting for another run that was compiling them"
                : std::string())
        << ") in " << fixed(run.wall_seconds, 1) << " s with " << options.jobs << " worker(s): "
        << fixed(per_second(run.cubins_compiled, run.wall_seconds), 1) << " cubins/s" << known_failures_text(run)
        << "\n";
    return;
  }
  out << "precision " << precision_name(options.precision) << ": winners among the families it admits, cuBLAS timed as "
      << cublas_compute_name(options.precision) << "; error: normwise, against FP64 (alpha A B + beta C)\n\n";
  std::vector<TextTable::Column> columns{"problem", "winner", "class", "ms", "TFLOPS", "error", "cuBLAS ms",
                                         "cuBLAS TFLOPS", "speed-up vs cuBLAS", "tuning s",
                                         "candidates (measured/resumed/failed of space)"};
  if (on_several_gpus(run)) columns.insert(columns.begin() + 1, "GPU");
  TextTable table(std::move(columns));
  for (const tuner::ProblemReport& p : run.problems) {
    const ProblemFigures f = figures(p);
    const bool not_started = p.time_limit == tuner::TimeLimitEffect::NotStarted;
    std::vector<std::string> row{
        to_string(p.problem),
        p.winner ? p.winner->kernel_name
        : not_started ? "(not tuned: --time-limit reached)"
        : p.time_limit == tuner::TimeLimitEffect::Cut ? "(none: --time-limit reached before a result)"
                                                       : "(none: every candidate failed)",
        p.winner ? p.winner->kernel_precision : "-", f.ms ? fixed(*f.ms, 4) : "-", f.tflops ? fixed(*f.tflops, 2) : "-",
        p.winner && p.winner->fp64_error ? scientific(*p.winner->fp64_error, 1) : "-",
        f.cublas_ms ? fixed(*f.cublas_ms, 4) : "-", f.cublas_tflops ? fixed(*f.cublas_tflops, 2) : "-",
        f.speedup ? fixed(*f.speedup, 3) + "x" : "-", fixed(p.seconds, 1),
        std::to_string(p.measured) + "/" + std::to_string(p.resumed) + "/" + std::to_string(p.failed) + " of " +
            std::to_string(p.space) +
            (p.pruned ? " (" + std::to_string(p.pruned) + " known to spill or fail left out)" : "") +
            (p.time_limit == tuner::TimeLimitEffect::Cut ? " (search cut by --time-limit)" : "")};
    if (on_several_gpus(run)) row.insert(row.begin() + 1, std::to_string(p.device_index));
    table.add_row(std::move(row));
  }
  table.print_markdown(out);
  if (const std::string limited = time_limit_text(run); !limited.empty()) out << "\n" << limited << "\n";
  if (on_several_gpus(run)) out << "\nper GPU: " << device_shares_text(run) << "\n";
  out << "\n" << run.cubins_compiled << " cubins compiled by " << options.jobs << " worker process(es), "
      << run.cubins_reused << " reused from the database; " << run.worker_restarts
      << " measuring-process restart(s); total " << fixed(run.wall_seconds, 1) << " s ("
      << fixed(per_second(run.cubins_compiled, run.wall_seconds), 1)
      << " cubins/s over the whole run, compiling overlapped with measuring)" << known_failures_text(run) << "\n";
  write_time_split(out, run);
}

// One row a problem (a dry run's: its space alone, nothing being measured).
void write_csv(std::ostream& out, const tuner::RunReport& run, Precision precision) {
  std::vector<TextTable::Column> columns{"problem", "layout", "m", "n", "k", "batch", "precision", "winner",
                                         "winner_precision", "ms", "tflops", "fp64_error", "cublas_ms", "cublas_tflops",
                                         "speedup", "tuning_s", "measured", "resumed", "failed", "space", "time_limit"};
  if (on_several_gpus(run)) columns.emplace_back("device");
  TextTable table(std::move(columns));
  for (const tuner::ProblemReport& p : run.problems) {
    const ProblemFigures f = figures(p);
    std::vector<std::string> row{
        to_string(p.problem), std::string(layout_name(p.problem.layout)), std::to_string(p.problem.M),
        std::to_string(p.problem.N), std::to_string(p.problem.K), std::to_string(p.problem.batch),
        std::string(precision_name(precision)), p.winner ? p.winner->kernel_name : "",
        p.winner ? p.winner->kernel_precision : "", csv_number(f.ms), csv_number(f.tflops),
        csv_number(p.winner ? p.winner->fp64_error : std::nullopt), csv_number(f.cublas_ms), csv_number(f.cublas_tflops),
        csv_number(f.speedup), csv_number(p.seconds), std::to_string(p.measured), std::to_string(p.resumed),
        std::to_string(p.failed), std::to_string(p.space), std::string(time_limit_name(p.time_limit))};
    if (on_several_gpus(run)) row.push_back(std::to_string(p.device_index));
    table.add_row(std::move(row));
  }
  table.print_csv(out);
}

void write_json(std::ostream& out, const tuner::RunReport& run, const tuner::TuneOptions& options) {
  auto problems = json::array();
  for (const tuner::ProblemReport& p : run.problems) {
    const ProblemFigures f = figures(p);
    problems.push_back({{"problem", to_string(p.problem)},
                        {"layout", std::string(layout_name(p.problem.layout))},
                        {"m", p.problem.M},
                        {"n", p.problem.N},
                        {"k", p.problem.K},
                        {"batch", p.problem.batch},
                        {"winner", p.winner ? json(p.winner->kernel_name) : json(nullptr)},
                        {"winner_precision", p.winner ? json(p.winner->kernel_precision) : json(nullptr)},
                        {"fp64_error", p.winner ? json_or_null(p.winner->fp64_error) : json(nullptr)},
                        {"ms", json_or_null(f.ms)},
                        {"tflops", json_or_null(f.tflops)},
                        {"cublas_ms", json_or_null(f.cublas_ms)},
                        {"cublas_tflops", json_or_null(f.cublas_tflops)},
                        {"speedup", json_or_null(f.speedup)},
                        {"tuning_s", p.seconds},
                        {"measured", p.measured},
                        {"resumed", p.resumed},
                        {"failed", p.failed},
                        {"space", p.space},
                        {"pruned", p.pruned},
                        {"time_limit", p.time_limit == tuner::TimeLimitEffect::None ? json(nullptr)
                                                                                    : json(time_limit_name(p.time_limit))}});
    if (on_several_gpus(run)) problems.back()["device"] = p.device_index;
  }
  json report = {{"gpu", run.gpu_name},
                       {"date", utc_date_time()},
                       {"commit", build_commit()},
                       {"dry_run", options.dry_run},
                       {"precision", std::string(precision_name(options.precision))},
                       {"arch", options.dry_run ? json(options.arch) : json(nullptr)},
                       {"database", options.db_path},
                       {"jobs", options.jobs},
                       {"problems", problems},
                       {"cubins_compiled", run.cubins_compiled},
                       {"cubins_reused", run.cubins_reused},
                       {"cubins_stored_concurrently", run.cubins_stored_concurrently},
                       {"worker_restarts", run.worker_restarts},
                       {"compiles_avoided", run.compiles_avoided},
                       {"measuring_s", run.measuring_seconds},
                       {"waiting_for_compiles_s", run.waiting_for_compiles_seconds},
                       {"compile_worker_s", run.compile_worker_seconds},
                       {"loading_s", run.loading_seconds},
                       {"checking_s", run.checking_seconds},
                       {"timing_s", run.timing_seconds},
                       {"timings_cut", run.timings_cut},
                       {"timings_extended", run.timings_extended},
                       {"timing_saved_s", run.timing_seconds_saved},
                       {"wall_s", run.wall_seconds}};
  if (on_several_gpus(run)) {
    auto devices = json::array();
    for (const tuner::DeviceShare& share : run.devices) {
      devices.push_back({{"index", share.index}, {"name", share.name}, {"problems", share.problems},
                         {"tuning_s", share.seconds}});
    }
    report["devices"] = devices;
  }
  out << report.dump(2) << '\n';
}

}  // namespace

void write_tune_report(std::ostream& out, const tuner::RunReport& run, const tuner::TuneOptions& options,
                       ResultFormat format) {
  switch (format) {
    case ResultFormat::Table: return write_table(out, run, options);
    case ResultFormat::Csv: return write_csv(out, run, options.precision);
    case ResultFormat::Json: return write_json(out, run, options);
  }
}

}  // namespace gemmtune
