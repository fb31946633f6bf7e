#include "tune_command.hpp"

#include <CLI/CLI.hpp>
#include <spdlog/spdlog.h>
#include <sched.h>
#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <iostream>
#include <limits>
#include <optional>
#include <stdexcept>
#include <thread>

#include "arch_name.hpp"
#include "cache_error.hpp"
#include "exit_codes.hpp"
#include "family_registry.hpp"
#include "log_options.hpp"
#include "make_strategy.hpp"
#include "numeric_options.hpp"
#include "nvrtc_compiler.hpp"
#include "precision.hpp"
#include "progress_printer.hpp"
#include "search_setup.hpp"
#include "shapes_argument.hpp"
#include "shapes_file.hpp"
#include "shard.hpp"
#include "text.hpp"
#include "output_file.hpp"
#include "result_format.hpp"
#include "tune_report.hpp"
#include "tuning_run.hpp"

namespace gemmtune {
namespace {

// A number and the unit written after it: "90s" -> 90, "s". Throws CLI::ValidationError for
// `option` when the text does not start with a number, saying it is not `expected`.
struct NumberWithUnit {
  double value;
  std::string unit;
};
NumberWithUnit split_number(const std::string& text, const std::string& option, const std::string& expected) {
  std::size_t used = 0;
  double value = 0;
  try {
    value = std::stod(text, &used);
  } catch (const std::exception&) {
    throw CLI::ValidationError(option, "'" + text + "' is not " + expected);
  }
  return {value, text.substr(used)};
}

// "120" -> 120 candidates; "90s", "15m" -> seconds. Throws CLI::ValidationError otherwise.
tuner::Budget parse_budget(const std::string& text) {
  tuner::Budget budget;
  const auto [value, unit] = split_number(text, "--budget", "a count (120) or a time (90s, 15m)");
  if (!(value > 0) || (unit.empty() && value != static_cast<double>(static_cast<long long>(value)))) {
    throw CLI::ValidationError("--budget", "'" + text + "' must be a positive whole count or a time");
  }
  if (unit.empty()) budget.max_candidates = static_cast<std::size_t>(value);
  else if (unit == "s") budget.max_seconds = value;
  else if (unit == "m") budget.max_seconds = 60 * value;
  else throw CLI::ValidationError("--budget", "unknown unit '" + unit + "' (use s or m)");
  return budget;
}

// --time-limit: "600", "600s", "10m", "1.5h" -> seconds. Throws CLI::ValidationError otherwise.
double parse_time_limit(const std::string& text) {
  const auto [value, unit] = split_number(text, "--time-limit", "a time (600, 600s, 10m, 1.5h)");
  const double scale = unit.empty() || unit == "s" ? 1 : unit == "m" ? 60 : unit == "h" ? 3600 : 0;
  if (scale == 0) throw CLI::ValidationError("--time-limit", "unknown unit '" + unit + "' (use s, m or h)");
  if (!(value > 0) || !std::isfinite(value)) {
    throw CLI::ValidationError("--time-limit", "'" + text + "' must be a positive time");
  }
  return value * scale;
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

}  // namespace

int tune_main(int argc, char** argv) {
  keep_ptxas_reports();  // spills are told by ptxas's report, in this process and its workers
  tuner::TuneOptions options;
  const int cores = usable_cores();
  options.jobs = cores;
  std::string shapes_path, budget_text;
  LogOptions log_options;
  CLI::App app{
      "tune: finds the fastest kernel configuration of a precision class for each problem of a shapes\n"
      "file on a GPU (or on several GPUs of one model at once: --devices). Every candidate is compiled\n"
      "(NVRTC, in worker processes), checked against an FP64 reference on the same random inputs, and\n"
      "timed in a separate process; every result, failures included, is kept in the database. A re-run\n"
      "skips what is stored, so an interrupted run resumes. The results table goes to standard output,\n"
      "then where the run's time went (measuring, waiting for compiles, compiling) and what the early\n"
      "cut of slow candidates saved; progress, logs and errors go to standard error.\n" +
      exit_codes_help("flags, shapes file, database, no matching GPU", "a CUDA error or another failure of the run")};
  app.name("tune");  // "Usage: tune ...", not the path it was run by
  prefix_parse_errors(app, "tune");
  app.add_option("--gpu", options.gpu,
                 "Required unless --dry-run: tune on the first visible GPU whose name contains this "
                 "(case-insensitive, e.g. H200; 'any': the first GPU)");
  std::string devices_text;
  app.add_option("--devices", devices_text,
                 "Which of the GPUs that match --gpu to measure on: 'all' or their indices (0,1,3; as "
                 "CUDA numbers them); all must be of one model. With several, each has its measuring process "
                 "and takes the next problem when it is free (one compile pool, one database); the report says "
                 "which GPU tuned each problem. Default: the first that matches");
  app.add_option("--shapes", shapes_path, "Shapes file: one 'M N K [nn|nt|tn|tt] [bBATCH]' a line (bBATCH: a strided batch), # comments; - for standard input")
      ->required();
  app.add_option("--db", options.db_path, "SQLite database to create or extend")->capture_default_str();
  app.add_option("--strategy", options.strategy, "Search strategy: exhaustive, random, guided")
      ->capture_default_str()
      ->check(CLI::IsMember({"exhaustive", "random", "guided"}));
  app.add_option("--budget", budget_text,
                 "Per problem: a number of candidates (120) or a time (90s, 15m; a dry run's compiling); default: "
                 "the strategy's own (guided: a quarter of the space, at most 300, and 20 to 60 where the nearest "
                 "tuned problems agree on a winner; exhaustive: all; random: all, in random order)");
  std::string time_limit_text;
  app.add_option("--time-limit", time_limit_text,
                 "A limit on the whole run (600, 600s, 10m, 1.5h), counted once the GPU and the database are open: "
                 "past it no problem starts and the search in progress stops; the report lists what was tuned and "
                 "what was cut or not started, and a later run on the same database resumes them (not with --dry-run)");
  app.add_option("--jobs", options.jobs,
                 "Compile worker processes (default: the number of cores; at most " + std::to_string(kMaxJobsPerCore) +
                     " a core: " + std::to_string(kMaxJobsPerCore * cores) + " here)")
      ->check(whole_number(1, std::numeric_limits<int>::max()));
  app.add_option("--families", options.families,
                 "Kernel families to search, comma-separated (default: all that --precision admits but the "
                 "naive/coalesced/smem baselines, and the Hopper families on other GPUs)")
      ->delimiter(',');
  std::string precision_text = "fp32";
  app.add_option("--precision", precision_text,
                 "Precision class to tune for: strict (FFMA families only, IEEE FP32 as cuBLAS pedantic), fp32 "
                 "(also 3xTF32 tensor-core families, FP32-accurate), tf32 (also single-pass TF32; cuBLAS timed as "
                 "FAST_TF32)")
      ->capture_default_str()
      ->check(CLI::IsMember({"strict", "fp32", "tf32"}, CLI::ignore_case));
  std::string shard_text;
  app.add_option("--shard", shard_text,
                 "Tune only shard I of N (1 <= I <= N) of the shapes file's distinct problems, e.g. 2/8: the sorted "
                 "problems dealt round-robin, so the N shards hold every problem once. Unset inside a Slurm job "
                 "array: the task's place in its array, from SLURM_ARRAY_TASK_ID, _MIN, _STEP and _COUNT "
                 "(--shard 1/1 tunes everything there)");
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
  ResultFormat format = ResultFormat::Table;
  add_format_option(app, format, "the final report (csv: one row a problem; json: the run and its problems)");
  std::string output_path;
  app.add_option("--output", output_path,
                 "Write the final report to this file (whole or not at all) instead of standard output");
  add_log_options(app, log_options);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& error) {
    return exit_for_parse_error(app, error);
  }
  start_logging("tune", log_options);
  std::optional<tuner::Shard> shard;
  std::string shard_origin;  // where the shard came from, for the log
  if (options.jobs > kMaxJobsPerCore * cores) {
    spdlog::warn("--jobs {} is more than {} compile processes a core ({} core(s) here): using {}", options.jobs,
                 kMaxJobsPerCore, cores, kMaxJobsPerCore * cores);
    options.jobs = kMaxJobsPerCore * cores;
  }

  try {
    if (!budget_text.empty()) options.budget = parse_budget(budget_text);
    if (!time_limit_text.empty()) {
      if (options.dry_run) throw CLI::ValidationError("--time-limit", "is for measuring; a dry run's --budget takes a time");
      options.time_limit_seconds = parse_time_limit(time_limit_text);
    }
    if (options.dry_run && options.arch.empty()) throw CLI::ValidationError("--dry-run", "needs --arch (e.g. sm_90)");
    if (options.list_only && !options.dry_run) throw CLI::ValidationError("--list", "needs --dry-run and --arch");
    if (!options.dry_run && options.gpu.empty()) throw CLI::ValidationError("--gpu", "is required (unless --dry-run)");
    for (const std::string& family : options.families) find_family(family);
    options.precision = parse_precision(precision_text);
    if (!devices_text.empty()) {
      if (options.dry_run) throw CLI::ValidationError("--devices", "is for measuring; --dry-run uses no GPU");
      const bool may_repeat = tuner::process_environment(tuner::kDevicesMayRepeatVariable) == "1";  // a test hook
      options.devices =
          tuner::parse_devices(devices_text, may_repeat ? tuner::DeviceRepeats::Allowed : tuner::DeviceRepeats::Refused);
    }
    if (!shard_text.empty()) {
      shard = tuner::parse_shard(shard_text);
    } else if ((shard = tuner::shard_from_slurm(tuner::process_environment))) {
      shard_origin = " (SLURM_ARRAY_TASK_ID " + tuner::process_environment("SLURM_ARRAY_TASK_ID").value_or("") + ")";
    }
    tuner::require_families_admitted(options.families, options.precision);
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
  } catch (const InputError& error) {  // a family the class does not admit
    std::cerr << "tune: " << error.what() << '\n';
    return kExitBadInput;
  }

  ProgressPrinter progress(log_options.quiet);
  try {
    // The whole shapes file is checked before any GPU work or database access, and so is the
    // output file (created now, in place only once the report is whole).
    const tuner::ShapesFile shapes = tuner::parse_shapes_file(shapes_file_path(shapes_path));
    std::vector<tuner::ProblemSpec> problems = shapes.problems;
    if (shard) {
      problems = tuner::problems_of_shard(shapes.problems, *shard);
      if (problems.empty()) {  // more shards than problems: a job array's extra task has nothing to do
        spdlog::info("shard {}{}: none of the {} problem(s) of {} is in this shard: nothing to do", to_string(*shard),
                     shard_origin, shapes.problems.size(), shapes_path);
        return kExitDone;
      }
      spdlog::info("shard {}{}: {} of the {} problem(s) of {}", to_string(*shard), shard_origin, problems.size(),
                   shapes.problems.size(), shapes_path);
    }
    std::optional<OutputFile> output;
    if (!output_path.empty()) output.emplace(output_path);
    auto on_progress = [&progress](const tuner::Progress& p) { progress(p); };
    const tuner::RunReport run = options.dry_run ? tuner::run_dry(options, problems, on_progress)
                                                 : tuner::run_tuning(options, problems, on_progress);
    progress.finish();
    std::ostream& out = output ? output->stream() : std::cout;
    if (options.list_only) {
      for (const std::string& name : run.planned) out << name << '\n';
    } else {
      write_tune_report(out, run, options, format);
    }
    if (output) {
      output->commit();
    } else if (!std::cout.flush()) {
      throw std::runtime_error("standard output: write failed");
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
