// tunedb: inspects tuning databases and writes the HTML report. Every database is opened
// read-only except merge's target, and a missing file is bad input (exit code 2), never a new
// empty database.
#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>
#include <spdlog/spdlog.h>

#include <charconv>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "arch_name.hpp"
#include "build_info.hpp"
#include "exit_codes.hpp"
#include "html_report.hpp"
#include "family_registry.hpp"
#include "log_options.hpp"
#include "numeric_options.hpp"
#include "nvrtc_compiler.hpp"
#include "output_file.hpp"
#include "problem_rows.hpp"
#include "report_model.hpp"
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

// The shortest text that reads back as the same double, for exports.
std::string exact(double value) {
  char text[64];
  const auto result = std::to_chars(text, text + sizeof text, value);
  return std::string(text, result.ptr);
}

std::string gpu_label(const GpuKey& gpu) {
  return gpu.name + " (sm_" + std::to_string(gpu.cc_major) + std::to_string(gpu.cc_minor) +
         ", " + std::to_string(gpu.sm_count) + " SMs)";
}

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

int list_command(const std::string& db_path) {
  const Database db = open_database(db_path);
  TextTable gpus({{"GPU"}, {"cc", true}, {"SMs", true}, {"driver"}, {"CUDA runtime"}, {"NVRTC"}});
  for (const Gpu& gpu : db.gpus()) {
    const GpuKey& key = gpu.info.key;
    gpus.add_row({key.name, std::to_string(key.cc_major) + "." + std::to_string(key.cc_minor),
                  std::to_string(key.sm_count), gpu.info.driver_version,
                  gpu.info.cuda_runtime_version, gpu.info.nvrtc_version});
  }
  std::cout << "GPUs\n";
  gpus.print_plain(std::cout);

  TextTable problems({{"GPU"}, {"problem"}, {"measured", true}, {"ok", true}, {"failed", true},
                  {"winner"}, {"ms", true}, {"TFLOPS", true}, {"cuBLAS ms", true},
                  {"cuBLAS/ours", true}});
  for (const ProblemSummary& summary : db.problem_summaries()) {
    const auto& winner = summary.winner;
    problems.add_row({gpu_label(summary.gpu), to_string(summary.problem),
                      std::to_string(summary.measured), std::to_string(summary.ok),
                      std::to_string(summary.failed), winner ? winner->kernel_name : "-",
                      figure(winner ? std::optional(winner->median_ms) : std::nullopt),
                      figure(winner ? std::optional(winner->tflops) : std::nullopt, 2),
                      figure(winner ? winner->cublas_ms : std::nullopt),
                      winner ? versus_cublas(*winner) : "-"});
  }
  std::cout << "\nProblems\n";
  problems.print_plain(std::cout);
  std::cout << '\n' << holdings(db) << '\n';
  return kExitDone;
}

int show_command(const std::string& db_path, const std::string& problem_text,
                 const std::string& gpu_filter) {
  const Problem problem = parse_problem_argument(problem_text);
  const Database db = open_database(db_path);
  const auto problem_id = db.find_problem(problem);
  bool shown = false;
  for (const Gpu& gpu : problem_id ? db.gpus(gpu_filter) : std::vector<Gpu>{}) {
    const auto rows = db.measurements_for(gpu.id, *problem_id);
    if (rows.empty()) continue;
    std::cout << (shown ? "\n" : "") << gpu_label(gpu.info.key) << "  " << to_string(problem)
              << "  (" << rows.size() << " measurements)\n";
    TextTable table({{"rank", true}, {"kernel"}, {"status"}, {"median ms", true}, {"min ms", true},
                 {"max ms", true}, {"TFLOPS", true}, {"measured at"}, {"error"}});
    for (const MeasurementRow& row : rows) {
      const auto& timing = row.timing;
      table.add_row({row.rank ? std::to_string(*row.rank) : "-", row.kernel_name,
                     std::string(to_string(row.status)),
                     figure(timing ? std::optional(timing->median_ms) : std::nullopt),
                     figure(timing ? std::optional(timing->min_ms) : std::nullopt),
                     figure(timing ? std::optional(timing->max_ms) : std::nullopt),
                     figure(row.tflops, 2), row.measured_at, row.error_text});
    }
    table.print_plain(std::cout);
    shown = true;
  }
  if (!shown) {
    const bool measured = !db.problem_summaries().empty();
    throw BadInput(db_path + ": no measurements of " + to_string(problem) +
                   (gpu_filter.empty() ? "" : " on a GPU matching '" + gpu_filter + "'") +
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

std::string csv_number(std::optional<double> value) { return value ? exact(*value) : ""; }

void write_csv(std::ostream& out, const std::vector<MeasurementRow>& rows) {
  out << "gpu,cc_major,cc_minor,sm_count,layout,m,n,k,kernel_name,family,params_json,status,"
         "median_ms,min_ms,max_ms,p10_ms,p90_ms,tflops,rank,repetitions,sm_clock_mhz,"
         "max_rel_error,error_text,measured_at,tuner_run\n";
  for (const MeasurementRow& row : rows) {
    const auto& t = row.timing;
    auto time = [&](double Timing::*field) { return t ? std::optional((*t).*field) : std::nullopt; };
    const std::vector<std::string> fields = {
        row.gpu.name, std::to_string(row.gpu.cc_major), std::to_string(row.gpu.cc_minor),
        std::to_string(row.gpu.sm_count), row.problem.layout, std::to_string(row.problem.m),
        std::to_string(row.problem.n), std::to_string(row.problem.k), row.kernel_name,
        row.family, row.params_json, std::string(to_string(row.status)),
        csv_number(time(&Timing::median_ms)), csv_number(time(&Timing::min_ms)),
        csv_number(time(&Timing::max_ms)), csv_number(time(&Timing::p10_ms)),
        csv_number(time(&Timing::p90_ms)), csv_number(row.tflops),
        row.rank ? std::to_string(*row.rank) : "", std::to_string(row.repetitions),
        row.sm_clock_mhz ? std::to_string(*row.sm_clock_mhz) : "",
        csv_number(row.max_rel_error), row.error_text, row.measured_at, row.tuner_run};
    for (std::size_t i = 0; i < fields.size(); ++i) out << (i ? "," : "") << csv_field(fields[i]);
    out << '\n';
  }
}

template <class T>
json or_null(const std::optional<T>& value) {
  return value ? json(*value) : json(nullptr);
}

void write_json(std::ostream& out, const std::vector<MeasurementRow>& rows) {
  auto all = json::array();
  for (const MeasurementRow& row : rows) {
    const auto& t = row.timing;
    all.push_back({{"gpu", {{"name", row.gpu.name},
                            {"cc_major", row.gpu.cc_major},
                            {"cc_minor", row.gpu.cc_minor},
                            {"sm_count", row.gpu.sm_count}}},
                   {"problem", {{"layout", row.problem.layout},
                                {"m", row.problem.m},
                                {"n", row.problem.n},
                                {"k", row.problem.k}}},
                   {"kernel_name", row.kernel_name},
                   {"family", row.family},
                   {"params", json::parse(row.params_json)},
                   {"status", to_string(row.status)},
                   {"median_ms", t ? json(t->median_ms) : nullptr},
                   {"min_ms", t ? json(t->min_ms) : nullptr},
                   {"max_ms", t ? json(t->max_ms) : nullptr},
                   {"p10_ms", t ? json(t->p10_ms) : nullptr},
                   {"p90_ms", t ? json(t->p90_ms) : nullptr},
                   {"tflops", or_null(row.tflops)},
                   {"rank", or_null(row.rank)},
                   {"repetitions", row.repetitions},
                   {"sm_clock_mhz", or_null(row.sm_clock_mhz)},
                   {"max_rel_error", or_null(row.max_rel_error)},
                   {"error_text", row.error_text},
                   {"measured_at", row.measured_at},
                   {"tuner_run", row.tuner_run}});
  }
  out << all.dump(2) << '\n';
}

int export_command(const std::string& db_path, const std::string& format,
                   const std::string& out_path) {
  const Database db = open_database(db_path);
  // Created before anything is read, so that a bad path is bad input; in place only when whole.
  std::optional<gemmtune::OutputFile> file;
  if (!out_path.empty()) file.emplace(out_path);
  const auto rows = db.all_measurements();
  spdlog::debug("{} measurements to {} as {}", rows.size(), out_path.empty() ? "standard output" : out_path, format);
  std::ostream& out = file ? file->stream() : std::cout;
  if (format == "csv") {
    write_csv(out, rows);
  } else {
    write_json(out, rows);
  }
  if (file) {
    file->commit();
    return kExitDone;
  }
  out.flush();
  if (!out) {
    spdlog::error("stdout: write failed");
    return kExitFailure;
  }
  return kExitDone;
}

int diff_command(const std::string& a_path, const std::string& b_path) {
  const Database a = open_database(a_path);
  const Database b = open_database(b_path);
  const auto a_winners = a.all_winners();
  const auto b_winners = b.all_winners();
  spdlog::debug("{} winners in A, {} in B", a_winners.size(), b_winners.size());
  const auto differences = diff_winners(a_winners, b_winners);
  TextTable table({{"GPU"}, {"problem"}, {"change"}, {"A winner"}, {"A ms", true}, {"B winner"},
               {"B ms", true}, {"B vs A", true}});
  std::map<DiffKind, int> counts;
  for (const WinnerDifference& difference : differences) {
    ++counts[difference.kind];
    const auto& wa = difference.a;
    const auto& wb = difference.b;
    const bool same_kernel = wa && wb && wa->kernel_name == wb->kernel_name;
    const auto change = difference.time_change();
    table.add_row({gpu_label(difference.gpu), to_string(difference.problem),
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
  CLI::App app{"tunedb: lists, shows, exports, compares, merges and reports on gemmtune tuning databases, and\n"
               "lists their cubins.\n"
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

  CLI::App* list = app.add_subcommand(
      "list", "GPUs, then each problem with its progress, winner, time, TFLOPS and cuBLAS's");
  add_db_option(list);

  CLI::App* show = app.add_subcommand("show", "the leaderboard of one problem: every candidate");
  std::string problem_text;
  std::string gpu_filter;
  show->add_option("PROBLEM", problem_text, "nn:4096x4096x4096, or 4096x4096x4096 for nn")->required();
  show->add_option("--gpu", gpu_filter, "only GPUs whose name contains this (case-insensitive)");
  add_db_option(show);

  CLI::App* exporter = app.add_subcommand("export", "every measurement joined with its GPU, problem, config");
  std::string format;
  std::string out_path;
  exporter->add_option("--format", format, "csv or json")->required()->check(CLI::IsMember({"csv", "json"}));
  exporter->add_option("--out", out_path, "file to write (default: standard output)");
  add_db_option(exporter);

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

  return gemmtune::parse_and_run(app, argc, argv, "tunedb", log_options, [&] {
    if (*list) return list_command(db_path);
    if (*show) return show_command(db_path, problem_text, gpu_filter);
    if (*exporter) return export_command(db_path, format, out_path);
    if (*diff) return diff_command(a_path, b_path);
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
      if (!report_problem.empty()) report_options.spread_problem = parse_problem_argument(report_problem);
      return report_command(db_path, report_path, std::move(report_options));
    }
    return merge_command(into_path, from_paths, create);
  });
}
