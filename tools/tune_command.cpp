#include "tune_command.hpp"

#include <CLI/CLI.hpp>
#include <spdlog/spdlog.h>
#include <sched.h>
#include <unistd.h>

#include <cstdio>
#include <iostream>
#include <limits>
#include <thread>

#include "arch_name.hpp"
#include "build_info.hpp"
#include "cache_error.hpp"
#include "exit_codes.hpp"
#include "family_registry.hpp"
#include "log_options.hpp"
#include "make_strategy.hpp"
#include "numeric_options.hpp"
#include "nvrtc_compiler.hpp"
#include "progress_printer.hpp"
#include "shapes_argument.hpp"
#include "shapes_file.hpp"
#include "text.hpp"
#include "text_table.hpp"
#include "tuning_run.hpp"

namespace gemmtune {
namespace {

// "120" -> 120 candidates; "90s", "15m" -> seconds. Throws CLI::ValidationError otherwise.
tuner::Budget parse_budget(const std::string& text) {
  tuner::Budget budget;
  std::size_t used = 0;
  double value = 0;
  try {
    value = std::stod(text, &used);
  } catch (const std::exception&) {
    throw CLI::ValidationError("--budget", "'" + text + "' is not a count (120) or a time (90s, 15m)");
  }
  const std::string unit = text.substr(used);
  if (!(value > 0) || (unit.empty() && value != static_cast<double>(static_cast<long long>(value)))) {
    throw CLI::ValidationError("--budget", "'" + text + "' must be a positive whole count or a time");
  }
  if (unit.empty()) budget.max_candidates = static_cast<std::size_t>(value);
  else if (unit == "s") budget.max_seconds = value;
  else if (unit == "m") budget.max_seconds = 60 * value;
  else throw CLI::ValidationError("--budget", "unknown unit '" + unit + "' (use s or m)");
  return budget;
}

// More compile processes than this many a core only wait for one another (and a typo such as
// --jobs 100000 forks until the machine stalls): more are cut to it, with a warning.
constexpr int kMaxJobsPerCore = 4;

// The cores this process may run on: its CPU affinity, which a container or taskset narrows.
int usable_cores() {
  cpu_set_t cores;
  if (::sched_getaffinity(0, sizeof cores, &cores) == 0) return std::max(1, CPU_COUNT(&cores));
  return static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
}

// "; 12 known to fail or spill, not compiled again", or nothing.
std::string known_failures_text(const tuner::RunReport& run) {
  if (run.compiles_avoided == 0) return {};
  return "; " + std::to_string(run.compiles_avoided) + " known to fail or spill, not compiled again";
}

// Where a run's time went, and what the early cut saved.
void print_time_split(const tuner::RunReport& run) {
  const double wall = std::max(run.wall_seconds, 1e-9);
  const double worker_time = std::max(1, run.compile_workers) * wall;
  std::cout << "time: measuring " << fixed(run.measuring_seconds, 1) << " s (the measuring process idle "
            << fixed(100 * std::max(0.0, 1 - run.measuring_seconds / wall), 0) << "% of the run), waiting for compiles "
            << fixed(run.waiting_for_compiles_seconds, 1) << " s, compiling " << fixed(run.compile_worker_seconds, 1)
            << " s of worker time (the workers busy " << fixed(100 * run.compile_worker_seconds / worker_time, 0)
            << "% of the run)\n";
  std::cout << "early cut: " << run.timings_cut << " candidate(s) timed by their probe alone, "
            << run.timings_extended << " close one(s) timed longer; " << fixed(run.timing_seconds_saved, 1)
            << " s of timing saved\n";
}

void print_report(const tuner::RunReport& run, const tuner::TuneOptions& options) {
  std::cout << "# tune: " << run.gpu_name << ", " << utc_date_time() << ", commit " << build_commit()
            << "\n\n";
  if (options.dry_run) {
    std::size_t planned = 0;
    for (const tuner::ProblemReport& p : run.problems) planned += p.candidates;
    std::cout << run.planned.size() << " candidate(s) planned by the " << options.strategy << " search for "
              << run.problems.size() << " problem(s) (" << planned << " before those they share)"
              << (run.left_by_budget ? ", " + std::to_string(run.left_by_budget) + " left uncompiled by the time budget"
                                     : std::string())
              << "\n";
    std::cout << run.cubins_compiled << " cubins compiled (" << run.cubins_reused << " already in " << options.db_path
              << (run.cubins_stored_concurrently
                      ? ", " + std::to_string(run.cubins_stored_concurrently) +
                            " of them after waiting for another run that was compiling them"
                      : std::string())
              << ") in " << fixed(run.wall_seconds, 1) << " s with " << options.jobs << " worker(s): "
              << fixed(run.cubins_compiled / std::max(run.wall_seconds, 1e-9), 1) << " cubins/s"
              << known_failures_text(run) << "\n";
    return;
  }
  TextTable table({"problem", "winner", "ms", "TFLOPS", "cuBLAS ms", "cuBLAS TFLOPS", "speed-up vs cuBLAS",
                   "tuning s", "candidates (measured/resumed/failed of space)"});
  for (const tuner::ProblemReport& p : run.problems) {
    const double flops = p.problem.flops();
    std::vector<std::string> row{to_string(p.problem)};
    if (p.winner) {
      row.insert(row.end(), {p.winner->kernel_name, fixed(p.winner->median_ms, 4),
                             fixed(flops / p.winner->median_ms / 1e9, 2)});
    } else {
      row.insert(row.end(), {"(none: every candidate failed)", "-", "-"});
    }
    row.insert(row.end(), {fixed(p.cublas_ms, 4), fixed(flops / p.cublas_ms / 1e9, 2),
                           p.winner ? fixed(p.cublas_ms / p.winner->median_ms, 3) + "x" : "-",
                           fixed(p.seconds, 1),
                           std::to_string(p.measured) + "/" + std::to_string(p.resumed) + "/" + std::to_string(p.failed) +
                               " of " + std::to_string(p.space) +
                               (p.pruned ? " (" + std::to_string(p.pruned) + " known to spill or fail left out)" : "")});
    table.add_row(row);
  }
  table.print_markdown(std::cout);
  std::cout << "\n" << run.cubins_compiled << " cubins compiled by " << options.jobs << " worker process(es), "
            << run.cubins_reused << " reused from the database; " << run.worker_restarts
            << " measuring-process restart(s); total " << fixed(run.wall_seconds, 1) << " s ("
            << fixed(run.cubins_compiled / std::max(run.wall_seconds, 1e-9), 1)
            << " cubins/s over the whole run, compiling overlapped with measuring)" << known_failures_text(run) << "\n";
  print_time_split(run);
}

}  // namespace

int tune_main(int argc, char** argv) {
  keep_ptxas_reports();  // spills are told by ptxas's report, in this process and its workers
  tuner::TuneOptions options;
  const int cores = usable_cores();
  options.jobs = cores;
  std::string shapes_path, budget_text;
  LogOptions log_options;
  CLI::App app{
      "tune: finds the fastest kernel configuration for each problem of a shapes file on one GPU.\n"
      "Every candidate is compiled (NVRTC, in worker processes), checked against cuBLAS on the same\n"
      "random inputs, and timed in a separate process; every result, failures included, is kept in\n"
      "the database. A re-run skips what is stored, so an interrupted run resumes. The results table\n"
      "goes to standard output, then where the run's time went (measuring, waiting for compiles,\n"
      "compiling) and what the early cut of slow candidates saved; progress, logs and errors go to\n"
      "standard error.\n" +
      exit_codes_help("flags, shapes file, database, no matching GPU", "a CUDA error or another failure of the run")};
  app.name("tune");  // "Usage: tune ...", not the path it was run by
  prefix_parse_errors(app, "tune");
  app.add_option("--gpu", options.gpu,
                 "Required unless --dry-run: tune on the first visible GPU whose name contains this "
                 "(case-insensitive, e.g. H200; 'any': the first GPU)");
  app.add_option("--shapes", shapes_path, "Shapes file: one 'M N K [nn|nt|tn|tt]' a line, # comments; - for standard input")
      ->required();
  app.add_option("--db", options.db_path, "SQLite database to create or extend")->capture_default_str();
  app.add_option("--strategy", options.strategy, "Search strategy: exhaustive, random, guided")
      ->capture_default_str()
      ->check(CLI::IsMember({"exhaustive", "random", "guided"}));
  app.add_option("--budget", budget_text,
                 "Per problem: a number of candidates (120) or a time (90s, 15m; a dry run's compiling); default: "
                 "the strategy's own (guided: a quarter of the space, at most 300, and 20 to 60 where the nearest "
                 "tuned problems agree on a winner; exhaustive: all; random: all, in random order)");
  app.add_option("--jobs", options.jobs,
                 "Compile worker processes (default: the number of cores; at most " + std::to_string(kMaxJobsPerCore) +
                     " a core: " + std::to_string(kMaxJobsPerCore * cores) + " here)")
      ->check(whole_number(1, std::numeric_limits<int>::max()));
  app.add_option("--families", options.families,
                 "Kernel families to search, comma-separated (default: all but the naive/coalesced/smem baselines, and wgmma on GPUs other than Hopper)")
      ->delimiter(',');
  app.add_flag("--retune", options.retune, "Measure again what the database already holds");
  app.add_flag("--dry-run", options.dry_run,
               "Compile and store for --arch, without a GPU, what the strategy would compile on one within the "
               "budget (guided: the cost model's favourites and their neighbours; random: the budget's draws; "
               "exhaustive: everything); logs the count and an estimated time first");
  app.add_flag("--list", options.list_only,
               "With --dry-run: print the names of the candidates it would compile, one a line, and compile nothing");
  app.add_option("--arch", options.arch,
                 "With --dry-run: the arch to compile for: sm_90 (also sm_90a, compute_90, 9.0 or 90; all stored as sm_90)");
  app.add_option("--timeout-floor", options.timeout_floor_seconds,
                 "Seconds a candidate may run before it is killed as hung, at least")
      ->capture_default_str()
      ->check(positive_number());
  add_log_options(app, log_options);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& error) {
    return exit_for_parse_error(app, error);
  }
  start_logging("tune", log_options);
  if (options.jobs > kMaxJobsPerCore * cores) {
    spdlog::warn("--jobs {} is more than {} compile processes a core ({} core(s) here): using {}", options.jobs,
                 kMaxJobsPerCore, cores, kMaxJobsPerCore * cores);
    options.jobs = kMaxJobsPerCore * cores;
  }

  try {
    if (!budget_text.empty()) options.budget = parse_budget(budget_text);
    if (options.dry_run && options.arch.empty()) throw CLI::ValidationError("--dry-run", "needs --arch (e.g. sm_90)");
    if (options.list_only && !options.dry_run) throw CLI::ValidationError("--list", "needs --dry-run and --arch");
    if (!options.dry_run && options.gpu.empty()) throw CLI::ValidationError("--gpu", "is required (unless --dry-run)");
    for (const std::string& family : options.families) find_family(family);
    if (options.dry_run) {
      const std::string typed = options.arch;
      try {
        options.arch = canonical_arch(typed);
      } catch (const std::invalid_argument& error) {
        throw CLI::ValidationError("--arch", error.what());
      }
      if (options.arch != typed) {
        spdlog::info("--arch {}: compiling for {}, the arch the GPU reports, under which a run on it finds the cubins",
                     typed, options.arch);
      }
      require_supported_arch(options.arch);
    }
  } catch (const CLI::ParseError& error) {  // the ValidationErrors above
    return exit_for_parse_error(app, error);
  } catch (const std::invalid_argument& error) {
    std::cerr << "tune: " << error.what() << '\n';
    return kExitBadInput;
  }

  ProgressPrinter progress(log_options.quiet);
  try {
    // The whole shapes file is checked before any GPU work or database access.
    const tuner::ShapesFile shapes = tuner::parse_shapes_file(shapes_file_path(shapes_path));
    auto on_progress = [&progress](const tuner::Progress& p) { progress(p); };
    const tuner::RunReport run = options.dry_run ? tuner::run_dry(options, shapes.problems, on_progress)
                                                 : tuner::run_tuning(options, shapes.problems, on_progress);
    progress.finish();
    if (options.list_only) {
      for (const std::string& name : run.planned) std::cout << name << '\n';
    } else {
      print_report(run, options);
    }
    return kExitDone;
  } catch (const tuner::ShapesFileError& error) {
    std::cerr << "tune: " << error.what() << '\n';
    return kExitBadInput;
  } catch (const InputError& error) {  // a database, GPU or family the user must change
    progress.finish();  // ends a progress bar's line; no blank line otherwise
    std::cerr << "tune: " << error.what() << '\n';
    return kExitBadInput;
  } catch (const std::exception& error) {
    progress.finish();
    std::cerr << "tune: " << error.what() << '\n';
    return kExitFailure;
  }
}

}  // namespace gemmtune
