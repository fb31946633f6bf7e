// tunedb: inspects tuning databases and writes the HTML report. Every database is opened
// read-only except merge's target, and a missing file is bad input (exit code 2), never a new
// empty database.
#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>
#include <spdlog/spdlog.h>

#include <cstdio>
#include <filesystem>
#include <iostream>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "arch_name.hpp"
#include "build_info.hpp"
#include "exit_codes.hpp"
#include "html_report.hpp"
#include "kernel_export.hpp"
#include "family_registry.hpp"
#include "log_options.hpp"
#include "numeric_options.hpp"
#include "nvrtc_compiler.hpp"
#include "output_file.hpp"
#include "precision.hpp"
#include "problem_rows.hpp"
#include "report_model.hpp"
#include "result_format.hpp"
#include "text.hpp"
#include "text_table.hpp"
#include "tuning_db_merge.hpp"
#include "tuning_db.hpp"
#include "winner_diff.hpp"

namespace {

using namespace gemmtune::cache;
using gemmtune::BadInput;
using gemmtune::csv_field;
using gemmtune::TextTable;
using gemmtune::kExitDone;
using gemmtune::kExitFailure;
// Keeps fields in the order written, so exports read like the schema.
using json = nlohmann::ordered_json;

// A figure for a table, or "-" where there is none.
std::string figure(std::optional<double> value, int digits = 3) {
  return value ? gemmtune::fixed(*value, digits) : "-";
}

std::string gpu_label(const GpuKey& gpu) {
  return gpu.name + " (sm_" + std::to_string(gpu.cc_major) + std::to_string(gpu.cc_minor) +
         ", " + std::to_string(gpu.sm_count) + " SMs)";
}

// A normwise error against FP64, or "-" where it was not measured.
std::string error_figure(std::optional<double> error) { return error ? gemmtune::scientific(*error, 1) : "-"; }

// --precision: empty, or a class name (checked by CLI11). A leaderboard or an export of a class
// holds the measurements of the kernels it admits; a list of winners, its own winners.
struct PrecisionFilter {
  std::string name;
  bool keeps_winner(const Winner& winner) const { return name.empty() || winner.precision == name; }
  bool keeps_measurement(const MeasurementRow& row) const {
    return name.empty() ||
           gemmtune::admits(gemmtune::parse_precision(name), gemmtune::parse_precision(row.precision));
  }
  std::vector<MeasurementRow> measurements(std::vector<MeasurementRow> rows) const {
    std::erase_if(rows, [&](const MeasurementRow& row) { return !keeps_measurement(row); });
    return rows;
  }
};

// cuBLAS time over ours: above 1 means the tuned kernel is faster.
std::string versus_cublas(const Winner& winner) {
  if (!winner.cublas_ms) return "-";
  return figure(*winner.cublas_ms / winner.median_ms, 2) + "x";
}

// A database named on the command line that cannot be opened (missing, not a gemmtune database,
// another schema version) is bad input; errors after the open are failures.
Database open_database(const std::string& path, OpenMode mode = OpenMode::ReadOnly) {
  try {
    Database db = Database::open(path, mode);
    spdlog::debug("{}: opened {}", path, mode == OpenMode::ReadOnly ? "read-only" : "read-write");
    return db;
  } catch (const Error& error) {
    throw BadInput(error.what());
  }
}

// A problem named on the command line (parse_problem's grammar), as the database's rows name it.
Problem parse_problem_argument(const std::string& text) {
  try {
    return gemmtune::to_row(gemmtune::parse_problem(text));
  } catch (const std::invalid_argument& error) {
    throw BadInput(error.what());
  }
}

// What the database holds besides measurements, so that a dry run's database does not look
// empty: "1805 cubins for sm_90 (NVRTC 13.0), listed by tunedb binaries; no measurements yet
// (tune --dry-run only compiles; tune --gpu measures)".
std::string holdings(const Database& db) {
  const std::vector<BinaryCount> counts = db.binary_counts();
  std::string text = to_string(counts) + (counts.empty() ? "" : ", listed by tunedb binaries");
  if (db.problem_summaries().empty()) text += "; no measurements yet (tune --dry-run only compiles; tune --gpu measures)";
  return text;
}

// Each (GPU, problem) with its progress and winner, as CSV: one row a problem, plain numbers.
void write_list_csv(std::ostream& out, const std::vector<ProblemSummary>& summaries, const PrecisionFilter& precision) {
  TextTable table({"gpu", "cc_major", "cc_minor", "sm_count", "layout", "m", "n", "k", "batch", "measured", "ok", "failed",
                   "precision", "winner", "winner_precision", "ms", "tflops", "fp64_error", "cublas_ms", "speedup"});
  for (const ProblemSummary& summary : summaries) {
    const auto& winner = summary.winner;
    if (!precision.name.empty() && !(winner && precision.keeps_winner(*winner))) continue;
    const auto speedup = winner && winner->cublas_ms ? std::optional(*winner->cublas_ms / winner->median_ms) : std::nullopt;
    table.add_row({summary.gpu.name, std::to_string(summary.gpu.cc_major), std::to_string(summary.gpu.cc_minor),
                   std::to_string(summary.gpu.sm_count), summary.problem.layout, std::to_string(summary.problem.m),
                   std::to_string(summary.problem.n), std::to_string(summary.problem.k), std::to_string(summary.problem.batch),
                   std::to_string(summary.measured), std::to_string(summary.ok), std::to_string(summary.failed),
                   winner ? winner->precision : "", winner ? winner->kernel_name : "",
                   winner ? winner->kernel_precision : "",
                   gemmtune::csv_number(winner ? std::optional(winner->median_ms) : std::nullopt),
                   gemmtune::csv_number(winner ? std::optional(winner->tflops) : std::nullopt),
                   gemmtune::csv_number(winner ? winner->fp64_error : std::nullopt),
                   gemmtune::csv_number(winner ? winner->cublas_ms : std::nullopt), gemmtune::csv_number(speedup)});
  }
  table.print_csv(out);
}

json gpu_json(const GpuKey& gpu) {
  return {{"name", gpu.name}, {"cc_major", gpu.cc_major}, {"cc_minor", gpu.cc_minor}, {"sm_count", gpu.sm_count}};
}

json problem_json(const Problem& problem) {
  return {{"layout", problem.layout}, {"m", problem.m}, {"n", problem.n}, {"k", problem.k}, {"batch", problem.batch}};
}

// What list shows, as one JSON object: the GPUs, each (GPU, problem), the cubins by arch.
void write_list_json(std::ostream& out, const Database& db, const PrecisionFilter& precision) {
  auto gpus = json::array();
  for (const Gpu& gpu : db.gpus()) {
    json entry = gpu_json(gpu.info.key);
    entry.update({{"driver_version", gpu.info.driver_version},
                  {"cuda_runtime_version", gpu.info.cuda_runtime_version},
                  {"nvrtc_version", gpu.info.nvrtc_version}});
    gpus.push_back(std::move(entry));
  }
  auto problems = json::array();
  for (const ProblemSummary& summary : db.problem_summaries()) {
    if (!precision.name.empty() && !(summary.winner && precision.keeps_winner(*summary.winner))) continue;
    json winner = nullptr;
    if (const auto& w = summary.winner) {
      winner = {{"precision", w->precision},
                {"kernel_name", w->kernel_name},
                {"kernel_precision", w->kernel_precision},
                {"fp64_error", gemmtune::json_or_null(w->fp64_error)},
                {"ms", w->median_ms},
                {"tflops", w->tflops},
                {"cublas_ms", gemmtune::json_or_null(w->cublas_ms)},
                {"cublas_tflops", gemmtune::json_or_null(w->cublas_tflops)},
                {"speedup", w->cublas_ms ? json(*w->cublas_ms / w->median_ms) : json(nullptr)},
                {"measured_at", w->measured_at}};
    }
    problems.push_back({{"gpu", gpu_json(summary.gpu)},
                        {"problem", problem_json(summary.problem)},
                        {"measured", summary.measured},
                        {"ok", summary.ok},
                        {"failed", summary.failed},
                        {"winner", winner}});
  }
  auto binaries = json::array();
  for (const BinaryCount& count : db.binary_counts()) {
    binaries.push_back({{"arch", count.arch}, {"nvrtc_version", count.nvrtc_version}, {"count", count.count}});
  }
  const json all = {{"gpus", gpus}, {"problems", problems}, {"binaries", binaries}};
  out << all.dump(2) << '\n';
}

void write_list_table(std::ostream& out, const Database& db, const PrecisionFilter& precision) {
  TextTable gpus({{"GPU"}, {"cc", true}, {"SMs", true}, {"driver"}, {"CUDA runtime"}, {"NVRTC"}});
  for (const Gpu& gpu : db.gpus()) {
    const GpuKey& key = gpu.info.key;
    gpus.add_row({key.name, std::to_string(key.cc_major) + "." + std::to_string(key.cc_minor),
                  std::to_string(key.sm_count), gpu.info.driver_version,
                  gpu.info.cuda_runtime_version, gpu.info.nvrtc_version});
  }
  out << "GPUs\n";
  gpus.print_plain(out);

  // "class": the class a winner was tuned for; "error": its normwise error against FP64.
  TextTable problems({{"GPU"}, {"problem"}, {"class"}, {"measured", true}, {"ok", true}, {"failed", true},
                      {"winner"}, {"ms", true}, {"TFLOPS", true}, {"error", true}, {"cuBLAS ms", true},
                      {"cuBLAS/ours", true}});
  for (const ProblemSummary& summary : db.problem_summaries()) {
    const auto& winner = summary.winner;
    if (!precision.name.empty() && !(winner && precision.keeps_winner(*winner))) continue;
    problems.add_row({gpu_label(summary.gpu), to_string(summary.problem), winner ? winner->precision : "-",
                      std::to_string(summary.measured), std::to_string(summary.ok),
                      std::to_string(summary.failed), winner ? winner->kernel_name : "-",
                      figure(winner ? std::optional(winner->median_ms) : std::nullopt),
                      figure(winner ? std::optional(winner->tflops) : std::nullopt, 2),
                      error_figure(winner ? winner->fp64_error : std::nullopt),
                      figure(winner ? winner->cublas_ms : std::nullopt),
                      winner ? versus_cublas(*winner) : "-"});
  }
  out << "\nProblems\n";
  problems.print_plain(out);
  out << '\n' << holdings(db) << '\n';
}

// Results on standard output, flushed: a failed write (a full disk, a closed pipe) is a failure.
int flush_standard_output() {
  if (std::cout.flush()) return kExitDone;
  spdlog::error("stdout: write failed");
  return kExitFailure;
}

int list_command(const std::string& db_path, gemmtune::ResultFormat format, const PrecisionFilter& precision) {
  const Database db = open_database(db_path);
  switch (format) {
    case gemmtune::ResultFormat::Table: write_list_table(std::cout, db, precision); break;
    case gemmtune::ResultFormat::Csv: write_list_csv(std::cout, db.problem_summaries(), precision); break;
    case gemmtune::ResultFormat::Json: write_list_json(std::cout, db, precision); break;
  }
  return flush_standard_output();
}

int show_command(const std::string& db_path, const std::string& problem_text,
                 const std::string& gpu_filter, const PrecisionFilter& precision) {
  const Problem problem = parse_problem_argument(problem_text);
  const Database db = open_database(db_path);
  const auto problem_id = db.find_problem(problem);
  bool shown = false;
  for (const Gpu& gpu : problem_id ? db.gpus(gpu_filter) : std::vector<Gpu>{}) {
    const auto rows = precision.measurements(db.measurements_for(gpu.id, *problem_id));
    if (rows.empty()) continue;
    std::cout << (shown ? "\n" : "") << gpu_label(gpu.info.key) << "  " << to_string(problem)
              << (precision.name.empty() ? "" : ", kernels " + precision.name + " admits") << "  (" << rows.size()
              << " measurements)\n";
    // "rank" among all the problem's ok measurements; "class": the kernel's; "FP64 error": its
    // normwise error against FP64; "error": why it failed.
    TextTable table({{"rank", true}, {"kernel"}, {"class"}, {"status"}, {"median ms", true}, {"min ms", true},
                     {"max ms", true}, {"TFLOPS", true}, {"FP64 error", true}, {"measured at"}, {"error"}});
    for (const MeasurementRow& row : rows) {
      const auto& timing = row.timing;
      table.add_row({row.rank ? std::to_string(*row.rank) : "-", row.kernel_name, row.precision,
                     std::string(to_string(row.status)),
                     figure(timing ? std::optional(timing->median_ms) : std::nullopt),
                     figure(timing ? std::optional(timing->min_ms) : std::nullopt),
                     figure(timing ? std::optional(timing->max_ms) : std::nullopt),
                     figure(row.tflops, 2), error_figure(row.fp64_error), row.measured_at, row.error_text});
    }
    table.print_plain(std::cout);
    shown = true;
  }
  if (!shown) {
    const bool measured = !db.problem_summaries().empty();
    throw BadInput(db_path + ": no measurements of " + to_string(problem) +
                   (gpu_filter.empty() ? "" : " on a GPU matching '" + gpu_filter + "'") +
                   (precision.name.empty() ? "" : " by a kernel " + precision.name + " admits") +
                   (measured ? "" : "; the database holds " + holdings(db)));
  }
  return kExitDone;
}

struct BinaryFilter {
  std::string arch;    // canonical_arch's key; empty: any
  std::string kernel;  // part of the kernel name, e.g. "warptile" or "_tn_"; empty: any
  std::string nvrtc;   // NVRTC version; empty: any
};

// Whether this build looks a stored cubin up (same template sources, NVRTC options and version),
// or why not.
std::string used_by_this_build(const BinaryInfo& binary) {
  try {
    const gemmtune::KernelFamily& family = gemmtune::find_family(gemmtune::parse_kernel_name(binary.key.kernel_name).family);
    if (binary.key.nvrtc_version != gemmtune::nvrtc_version()) return "no: NVRTC " + binary.key.nvrtc_version;
    if (binary.key.compile_options != gemmtune::nvrtc_compile_options()) return "no: other options";
    if (binary.key.source_hash != gemmtune::source_hash(family)) return "no: other templates";
    return "yes";
  } catch (const std::invalid_argument&) {
    return "no: unknown kernel";
  }
}

// Set at launch from the configuration, so not in ptxas's report; "-" for a name that does not parse.
std::string dynamic_smem(const std::string& kernel_name) {
  try {
    const gemmtune::KernelConfig config = gemmtune::parse_kernel_name(kernel_name);
    return std::to_string(gemmtune::find_family(config.family).dynamic_smem_bytes(config));
  } catch (const std::invalid_argument&) {
    return "-";
  }
}

int binaries_command(const std::string& db_path, const BinaryFilter& filter) {
  const Database db = open_database(db_path);
  const std::vector<BinaryInfo> all = db.binaries();
  TextTable table({{"kernel"}, {"arch"}, {"NVRTC"}, {"registers", true}, {"spill B", true}, {"static smem B", true},
               {"dynamic smem B", true}, {"cubin B", true}, {"this build"}, {"compiled at"}});
  std::size_t shown = 0;
  for (const BinaryInfo& binary : all) {
    const BinaryKey& key = binary.key;
    if ((!filter.arch.empty() && key.arch != filter.arch) || (!filter.nvrtc.empty() && key.nvrtc_version != filter.nvrtc) ||
        key.kernel_name.find(filter.kernel) == std::string::npos) {
      continue;
    }
    ++shown;
    const int static_smem = gemmtune::parse_ptxas_report(binary.compile_log).static_smem_bytes;
    table.add_row({key.kernel_name, key.arch, key.nvrtc_version, std::to_string(binary.registers),
                   std::to_string(binary.spill_bytes), static_smem < 0 ? "-" : std::to_string(static_smem),
                   dynamic_smem(key.kernel_name), std::to_string(binary.cubin_bytes), used_by_this_build(binary),
                   binary.compiled_at});
  }
  table.print_plain(std::cout);
  std::cout << '\n'
            << (shown == all.size() ? std::to_string(all.size()) + " cubins"
                                    : std::to_string(shown) + " of " + std::to_string(all.size()) + " cubins match")
            << " (" << db_path << "); 'this build': yes where this build's tune and runtime use the cubin (the "
            << "same templates, NVRTC options and NVRTC " << gemmtune::nvrtc_version() << ")\n";
  return kExitDone;
}

void write_csv(std::ostream& out, const std::vector<MeasurementRow>& rows) {
  out << "gpu,cc_major,cc_minor,sm_count,layout,m,n,k,batch,kernel_name,family,precision,params_json,status,"
         "median_ms,min_ms,max_ms,p10_ms,p90_ms,tflops,rank,repetitions,sm_clock_mhz,"
         "max_rel_error,fp64_error,error_text,measured_at,tuner_run,device_index\n";
  for (const MeasurementRow& row : rows) {
    const auto& t = row.timing;
    auto time = [&](double Timing::*field) { return t ? std::optional((*t).*field) : std::nullopt; };
    const std::vector<std::string> fields = {
        row.gpu.name, std::to_string(row.gpu.cc_major), std::to_string(row.gpu.cc_minor),
        std::to_string(row.gpu.sm_count), row.problem.layout, std::to_string(row.problem.m),
        std::to_string(row.problem.n), std::to_string(row.problem.k), std::to_string(row.problem.batch), row.kernel_name,
        row.family, row.precision, row.params_json, std::string(to_string(row.status)),
        gemmtune::csv_number(time(&Timing::median_ms)), gemmtune::csv_number(time(&Timing::min_ms)),
        gemmtune::csv_number(time(&Timing::max_ms)), gemmtune::csv_number(time(&Timing::p10_ms)),
        gemmtune::csv_number(time(&Timing::p90_ms)), gemmtune::csv_number(row.tflops),
        row.rank ? std::to_string(*row.rank) : "", std::to_string(row.repetitions),
        row.sm_clock_mhz ? std::to_string(*row.sm_clock_mhz) : "",
        gemmtune::csv_number(row.max_rel_error), gemmtune::csv_number(row.fp64_error), row.error_text, row.measured_at, row.tuner_run,
        row.device_index ? std::to_string(*row.device_index) : ""};
    for (std::size_t i = 0; i < fields.size(); ++i) out << (i ? "," : "") << csv_field(fields[i]);
    out << '\n';
  }
}

void write_json(std::ostream& out, const std::vector<MeasurementRow>& rows) {
  auto all = json::array();
  for (const MeasurementRow& row : rows) {
    const auto& t = row.timing;
    all.push_back({{"gpu", gpu_json(row.gpu)},
                   {"problem", problem_json(row.problem)},
                   {"kernel_name", row.kernel_name},
                   {"family", row.family},
                   {"precision", row.precision},
                   {"params", json::parse(row.params_json)},
                   {"status", to_string(row.status)},
                   {"median_ms", t ? json(t->median_ms) : nullptr},
                   {"min_ms", t ? json(t->min_ms) : nullptr},
                   {"max_ms", t ? json(t->max_ms) : nullptr},
                   {"p10_ms", t ? json(t->p10_ms) : nullptr},
                   {"p90_ms", t ? json(t->p90_ms) : nullptr},
                   {"tflops", gemmtune::json_or_null(row.tflops)},
                   {"rank", gemmtune::json_or_null(row.rank)},
                   {"repetitions", row.repetitions},
                   {"sm_clock_mhz", gemmtune::json_or_null(row.sm_clock_mhz)},
                   {"max_rel_error", gemmtune::json_or_null(row.max_rel_error)},
                   {"fp64_error", gemmtune::json_or_null(row.fp64_error)},
                   {"error_text", row.error_text},
                   {"measured_at", row.measured_at},
                   {"tuner_run", row.tuner_run},
                   {"device_index", gemmtune::json_or_null(row.device_index)}});
  }
  out << all.dump(2) << '\n';
}

// Which measurements export writes: all, or those of a problem, of GPUs whose name contains a
// text, only the ones that made a winner of their (GPU, problem), and only kernels a class admits
// (with winners_only: that class's winners).
struct ExportFilter {
  bool winners_only = false;
  PrecisionFilter precision;
  std::string problem;  // parse_problem's grammar; empty: any
  std::string gpu;      // part of the GPU name (case-insensitive); empty: any
};

// The measurements `filter` keeps. A problem or GPU the database does not hold is bad input, as
// for show: a typo must not pass for an empty export.
std::vector<MeasurementRow> filtered_measurements(const Database& db, const std::string& db_path,
                                                  const ExportFilter& filter) {
  std::optional<Problem> problem;
  if (!filter.problem.empty()) {
    problem = parse_problem_argument(filter.problem);
    if (!db.find_problem(*problem)) throw BadInput(db_path + ": holds no problem " + to_string(*problem));
  }
  std::set<GpuKey> gpus;
  for (const Gpu& gpu : db.gpus(filter.gpu)) gpus.insert(gpu.info.key);
  if (!filter.gpu.empty() && gpus.empty()) throw BadInput(db_path + ": holds no GPU matching '" + filter.gpu + "'");
  // A winner is the measurement that justified it: the same configuration, measured at the time
  // the winner records.
  // A measurement may stand behind the winners of several classes: it is written once.
  std::set<std::tuple<GpuKey, Problem, std::string, std::string>> winners;  // kernel, measured_at
  if (filter.winners_only) {
    for (const WinnerEntry& entry : db.all_winners(filter.gpu)) {
      if (!filter.precision.keeps_winner(entry.winner)) continue;
      winners.emplace(entry.gpu, entry.problem, entry.winner.kernel_name, entry.winner.measured_at);
    }
  }
  std::vector<MeasurementRow> kept;
  for (MeasurementRow& row : db.all_measurements()) {
    if ((problem && row.problem != *problem) || !gpus.contains(row.gpu)) continue;
    if (!filter.precision.keeps_measurement(row)) continue;
    if (filter.winners_only && !winners.contains({row.gpu, row.problem, row.kernel_name, row.measured_at})) continue;
    kept.push_back(std::move(row));
  }
  return kept;
}

int export_command(const std::string& db_path, const std::string& format, const std::string& out_path,
                   const ExportFilter& filter) {
  const Database db = open_database(db_path);
  const auto rows = filtered_measurements(db, db_path, filter);
  // Created before anything is written, so that a bad path is bad input; in place only when whole.
  std::optional<gemmtune::OutputFile> file;
  if (!out_path.empty()) file.emplace(out_path);
  spdlog::debug("{} measurements to {} as {}", rows.size(), out_path.empty() ? "standard output" : out_path, format);
  std::ostream& out = file ? file->stream() : std::cout;
  if (format == "csv") {
    write_csv(out, rows);
  } else {
    write_json(out, rows);
  }
  if (!file) return flush_standard_output();
  file->commit();
  return kExitDone;
}

// The one GPU whose winners export-kernels writes: the database's only one, or the only one
// matching --gpu.
GpuKey export_gpu(const Database& db, const std::string& db_path, const std::string& gpu_filter) {
  std::set<GpuKey> gpus;
  for (const WinnerEntry& entry : db.all_winners(gpu_filter)) gpus.insert(entry.gpu);
  const std::string matching = gpu_filter.empty() ? "" : " matching '" + gpu_filter + "'";
  if (gpus.empty()) throw BadInput(db_path + ": no winners" + matching + " to export (tune first)");
  if (gpus.size() > 1) {
    std::string names;
    for (const GpuKey& gpu : gpus) names += (names.empty() ? "" : ", ") + gpu_label(gpu);
    throw BadInput(db_path + ": winners of " + std::to_string(gpus.size()) + " GPUs" + matching + " (" + names +
                   "); an export is for one: pick it with --gpu");
  }
  return *gpus.begin();
}

int export_kernels_command(const std::string& db_path, const std::string& out_dir, const std::string& gpu_filter) {
  const Database db = open_database(db_path);
  const GpuKey gpu = export_gpu(db, db_path, gpu_filter);
  spdlog::debug("exporting the winners of {} to {} (cubins the database lacks are compiled now)", gpu_label(gpu), out_dir);
  const gemmtune::dispatch::ExportSummary summary = gemmtune::dispatch::export_kernels(db, gpu, out_dir);
  std::cout << "wrote " << out_dir << ": " << summary.problems << " tuned problems of " << gpu_label(gpu) << ", "
            << summary.kernels << " cubins (" << summary.from_database << " from the database, " << summary.compiled
            << " compiled now)";
  if (summary.unusable_problems) std::cout << "; left out " << summary.unusable_problems << " winners this build cannot run";
  std::cout << '\n';
  return flush_standard_output();
}

int diff_command(const std::string& a_path, const std::string& b_path) {
  const Database a = open_database(a_path);
  const Database b = open_database(b_path);
  const auto a_winners = a.all_winners();
  const auto b_winners = b.all_winners();
  spdlog::debug("{} winners in A, {} in B", a_winners.size(), b_winners.size());
  const auto differences = diff_winners(a_winners, b_winners);
  TextTable table({{"GPU"}, {"problem"}, {"class"}, {"change"}, {"A winner"}, {"A ms", true}, {"B winner"},
                   {"B ms", true}, {"B vs A", true}});
  std::map<DiffKind, int> counts;
  for (const WinnerDifference& difference : differences) {
    ++counts[difference.kind];
    const auto& wa = difference.a;
    const auto& wb = difference.b;
    const bool same_kernel = wa && wb && wa->kernel_name == wb->kernel_name;
    const auto change = difference.time_change();
    table.add_row({gpu_label(difference.gpu), to_string(difference.problem), difference.precision,
                   std::string(to_string(difference.kind)), wa ? wa->kernel_name : "-",
                   figure(wa ? std::optional(wa->median_ms) : std::nullopt),
                   same_kernel ? "(same)" : wb ? wb->kernel_name : "-",
                   figure(wb ? std::optional(wb->median_ms) : std::nullopt),
                   change ? (*change > 0 ? "+" : "") + figure(*change * 100, 1) + "%" : "-"});
  }
  std::cout << "A: " << a_path << "\nB: " << b_path << "\n\n";
  table.print_plain(std::cout);
  std::cout << '\n' << differences.size() << " winners compared";
  for (const auto& [kind, count] : counts) std::cout << ", " << count << " " << to_string(kind);
  std::cout << '\n';
  return kExitDone;
}

int merge_command(const std::string& into_path, const std::vector<std::string>& from_paths,
                  bool create) {
  if (!create && !std::filesystem::exists(into_path)) {
    throw BadInput(into_path + ": no such database file (pass --create to start a new one)");
  }
  Database into = open_database(into_path, OpenMode::ReadWrite);
  try {
    check_merge_sources(into, from_paths);
  } catch (const Error& error) {
    throw BadInput(error.what());
  }
  spdlog::debug("merging {} source(s) into {} in one transaction", from_paths.size(), into_path);
  const MergeCounts added = merge_databases(into, from_paths);
  std::cout << "merged " << from_paths.size() << " database(s) into " << into_path << ": added "
            << added.gpus << " GPUs, " << added.problems << " problems, " << added.configs
            << " configs, " << added.measurements << " measurements, " << added.binaries
            << " binaries, " << added.compile_outcomes << " compile outcomes; " << added.winners
            << " winners added or replaced\n";
  return kExitDone;
}

int report_command(const std::string& db_path, const std::string& out_path,
                   gemmtune::report::ReportOptions options) {
  namespace report = gemmtune::report;
  const Database db = open_database(db_path);
  const report::ReportModel model = [&] {
    try {
      return report::load_report(db, options, {db_path, gemmtune::utc_date_time(), gemmtune::build_commit()});
    } catch (const report::ReportOptionError& error) {
      throw BadInput(error.what());
    }
  }();
  const std::string html = report::render_report_html(model);
  spdlog::debug("{} GPU(s), {} bytes of HTML", model.gpus.size(), html.size());
  gemmtune::OutputFile file(out_path);
  file.stream() << html;
  file.commit();
  std::cout << "wrote " << out_path << ": " << model.gpus.size() << " GPU(s)"
            << (model.gpus.empty() ? ", nothing measured yet; the database holds " + to_string(model.binaries) : "")
            << '\n';
  return kExitDone;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"tunedb: lists, shows, exports, compares, merges and reports on gemmtune tuning databases, lists\n"
               "their cubins, and exports the winners' cubins for use without a database (export-kernels).\n"
               "Databases are opened read-only, except the target of merge. Results go to standard output,\n"
               "logs and errors to standard error.\n" +
               gemmtune::exit_codes_help("flags, a missing or unusable database, a problem or GPU it does not "
                                         "hold, an output file it cannot create",
                                         "an SQLite error while reading or merging")};
  gemmtune::prefix_parse_errors(app, "tunedb");
  app.require_subcommand(1);
  app.fallthrough();  // -v and -q also after the subcommand: tunedb list -q
  gemmtune::LogOptions log_options;
  gemmtune::add_log_options(app, log_options);
  std::string db_path = "tuned.db";
  auto add_db_option = [&](CLI::App* command) {
    command->add_option("--db", db_path, "tuning database to read")->capture_default_str();
  };
  PrecisionFilter precision;
  auto add_precision_option = [&](CLI::App* command, const std::string& what) {
    command->add_option("--precision", precision.name, "only " + what + ": strict, fp32 or tf32")
        ->check(CLI::IsMember({"strict", "fp32", "tf32"}));
  };

  CLI::App* list = app.add_subcommand(
      "list", "GPUs, then each problem with its progress, and its winner of each class: time, TFLOPS, error "
              "against FP64 and cuBLAS's");
  gemmtune::ResultFormat list_format = gemmtune::ResultFormat::Table;
  gemmtune::add_format_option(*list, list_format,
                              "it (csv: one row a GPU, problem and class; json: GPUs, problems and cubins in one object)");
  add_db_option(list);
  add_precision_option(list, "the winners of this class");

  CLI::App* show = app.add_subcommand("show", "the leaderboard of one problem: every candidate");
  std::string problem_text;
  std::string gpu_filter;
  show->add_option("PROBLEM", problem_text, "nn:4096x4096x4096, or 4096x4096x4096 for nn")->required();
  show->add_option("--gpu", gpu_filter, "only GPUs whose name contains this (case-insensitive)");
  add_db_option(show);
  add_precision_option(show, "the kernels this class admits");

  CLI::App* exporter = app.add_subcommand("export", "every measurement joined with its GPU, problem, config");
  std::string format;
  std::string out_path;
  exporter->add_option("--format", format, "csv or json")->required()->check(CLI::IsMember({"csv", "json"}));
  exporter->add_option("--out", out_path, "file to write (default: standard output)");
  ExportFilter export_filter;
  exporter->add_flag("--winners-only", export_filter.winners_only,
                     "only the measurements behind each (GPU, problem)'s winners (with --precision: that class's)");
  exporter->add_option("--problem", export_filter.problem, "only this problem: nn:4096x4096x4096, or 4096x4096x4096 for nn");
  exporter->add_option("--gpu", export_filter.gpu, "only GPUs whose name contains this (case-insensitive)");
  add_db_option(exporter);
  add_precision_option(exporter, "the measurements of kernels this class admits");

  CLI::App* export_kernels = app.add_subcommand(
      "export-kernels", "the winners of one GPU as cubins and manifest.json, for Runtime::open_manifest (no SQLite, no NVRTC)");
  std::string kernels_dir;
  std::string kernels_gpu;
  export_kernels->add_option("--out", kernels_dir, "folder to write (new, empty, or an earlier export: replaced whole)")
      ->required();
  export_kernels->add_option("--gpu", kernels_gpu,
                             "the GPU whose winners to export, by part of its name (needed when the database has several)");
  add_db_option(export_kernels);

  CLI::App* diff = app.add_subcommand("diff", "winner and time differences, A to B");
  std::string a_path;
  std::string b_path;
  diff->add_option("A", a_path, "first database")->required();
  diff->add_option("B", b_path, "second database")->required();

  CLI::App* binaries = app.add_subcommand(
      "binaries", "the stored cubins: arch, NVRTC, registers, spills, shared memory, size, whether this build uses them");
  BinaryFilter binary_filter;
  binaries->add_option("--arch", binary_filter.arch, "only this arch: sm_90 (also sm_90a, 9.0, 90)");
  binaries->add_option("--kernel", binary_filter.kernel, "only kernels whose name contains this, e.g. warptile or _tn_");
  binaries->add_option("--nvrtc", binary_filter.nvrtc, "only cubins of this NVRTC version, e.g. 13.0");
  add_db_option(binaries);

  CLI::App* merge =
      app.add_subcommand("merge", "copy everything of FROM databases into INTO; of two winners the newer wins");
  std::string into_path;
  std::vector<std::string> from_paths;
  bool create = false;
  merge->add_option("INTO", into_path, "database to merge into (written)")->required();
  merge->add_option("FROM", from_paths, "databases to merge from (read-only; at most 10)")->required();
  merge->add_flag("--create", create, "create INTO when it does not exist");

  CLI::App* reporter = app.add_subcommand(
      "report", "one self-contained HTML file: charts of winners, cuBLAS, roofline, candidates");
  std::string report_path;
  std::string report_problem;
  gemmtune::report::ReportOptions report_options;
  reporter->add_option("--out", report_path, "HTML file to write")->required();
  reporter->add_option("--problem", report_problem,
                       "problem whose candidates to plot (default: the most ok measurements)");
  reporter->add_option("--gpu", report_options.gpu_name_part, "only GPUs whose name contains this (case-insensitive)");
  reporter->add_option("--param", report_options.spread_parameter,
                       "x of the candidates plot: a parameter or a product, e.g. BK or BM*BN "
                       "(default: BM*BN if present, else the first parameter)");
  reporter->add_option("--peak-tflops", report_options.ceilings.peak_tflops,
                       "roofline compute ceiling (default: built-in table, else observed)")
      ->check(gemmtune::positive_number());
  reporter->add_option("--bandwidth-gbs", report_options.ceilings.bandwidth_gbs,
                       "roofline memory ceiling in GB/s (default: built-in table, else observed)")
      ->check(gemmtune::positive_number());
  add_db_option(reporter);
  add_precision_option(reporter, "the winners of this class, and the candidates of kernels it admits");

  return gemmtune::parse_and_run(app, argc, argv, "tunedb", log_options, [&] {
    if (*list) return list_command(db_path, list_format, precision);
    if (*show) return show_command(db_path, problem_text, gpu_filter, precision);
    if (*exporter) {
      export_filter.precision = precision;
      return export_command(db_path, format, out_path, export_filter);
    }
    if (*diff) return diff_command(a_path, b_path);
    if (*export_kernels) return export_kernels_command(db_path, kernels_dir, kernels_gpu);
    if (*binaries) {
      if (!binary_filter.arch.empty()) {
        try {
          binary_filter.arch = gemmtune::canonical_arch(binary_filter.arch);
        } catch (const std::invalid_argument& error) {
          throw BadInput("--arch: " + std::string(error.what()));
        }
      }
      return binaries_command(db_path, binary_filter);
    }
    if (*reporter) {
      report_options.precision = precision.name;
      if (!report_problem.empty()) report_options.spread_problem = parse_problem_argument(report_problem);
      return report_command(db_path, report_path, std::move(report_options));
    }
    return merge_command(into_path, from_paths, create);
  });
}
