// gemmbench: cuBLAS and every kernel family of a precision class with its default configuration on
// the same random inputs; each result checked against an FP64 reference; the seed chapter's table
// (version, key change, ms, TFLOPS, % of cuBLAS, error).
#include <CLI/CLI.hpp>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <cmath>
#include <iostream>
#include <optional>

#include "binary_store.hpp"
#include "build_info.hpp"
#include "cublas_gemm.hpp"
#include "cuda_handles.hpp"
#include "device.hpp"
#include "exit_codes.hpp"
#include "family_registry.hpp"
#include "gemm_call.hpp"
#include "kernel_name.hpp"
#include "loaded_kernel.hpp"
#include "measurement.hpp"
#include "log_options.hpp"
#include "numeric_options.hpp"
#include "nvrtc_compiler.hpp"
#include "output_file.hpp"
#include "precision.hpp"
#include "problem.hpp"
#include "problem_rows.hpp"
#include "search_setup.hpp"
#include "select_kernel.hpp"
#include "shapes_argument.hpp"
#include "shapes_file.hpp"
#include "text.hpp"
#include "text_table.hpp"
#include "timing.hpp"
#include "tuning_db.hpp"

namespace gemmtune {
namespace {

struct Options {
  std::vector<std::string> shapes;
  std::string shapes_file;
  std::string layout = "nn";
  std::vector<std::string> families;
  std::vector<std::string> kernels;  // --kernel: configurations timed besides the defaults
  float alpha = 1.0f;
  float beta = 1.0f;
  std::string csv_path;
  std::string db_path;
  bool untuned = false;  // also time what the runtime picks for the problem left out of --db
  double target_ms = 250.0;
  Precision precision = Precision::Fp32;  // families it admits; cuBLAS timed in its compute type
};

// The widest ALIGN the family offers that the call allows.
int pick_alignment(const KernelFamily& family, int call_align) {
  for (int align : family.alignments()) {
    if (align <= call_align) return align;
  }
  return family.alignments().back();
}

double tflops(const Problem& problem, double ms) { return problem.flops() / (ms * 1e-3) / 1e12; }

class Bench {
 public:
  Bench(const DeviceInfo& device, const Options& options, std::optional<cache::Database> db,
        std::vector<KernelConfig> named_configs)
      : device_(device),
        options_(options),
        db_(std::move(db)),
        named_configs_(std::move(named_configs)),
        check_(device.arch()) {}

  // Benchmarks one problem; adds rows to `table` and `csv`. Returns false when a kernel failed
  // to compile or run, or its check against cuBLAS.
  bool run(const Problem& problem, TextTable& table, TextTable& csv) {
    Stream stream;
    CublasHandle cublas;
    tuner::ProblemMeasurement measurement(problem, options_.alpha, options_.beta, options_.precision, device_.l2_bytes,
                                          device_.global_memory_bytes, stream.get(), cublas.get(), check_);
    TimingOptions timing;
    timing.target_ms = options_.target_ms;
    const TimingStats cublas_time = measurement.time_cublas(timing);
    const std::string shape = to_string(problem);
    spdlog::debug("{}: cuBLAS median {:.4f} ms over {} runs", shape, cublas_time.median_ms, cublas_time.repetitions);
    add_row(table, csv, shape, "cuBLAS", "-", cublas_compute_name(options_.precision),
            problem.batch > 1 ? "cublasGemmStridedBatchedEx" : "cublasGemmEx", problem,
            cublas_time, cublas_time.median_ms, measurement.cublas_check());

    bool all_passed = true;
    const int call_align = measurement.alignment();
    // Times one configuration after checking it against the reference; false when it failed.
    auto bench_config = [&](const std::string& tag, const std::string& summary, const KernelConfig& config) {
      const std::string name = kernel_name(config);
      try {
        const CompiledKernel compiled = compile_kernel(config, device_.arch());
        spdlog::debug("{}: compiled for {}: {}", name, device_.arch(), to_string(compiled.resources));
        const LoadedKernel kernel(config, compiled.cubin, compiled.lowered_name);
        const tuner::KernelMeasurement measured = measurement.measure(kernel, timing);
        const Comparison& check = measured.check;
        if (!measured.timing) {
          spdlog::error("{} on {}: wrong result: {}", name, shape, check.summary);
          add_failure(table, csv, shape, tag, summary, config, "WRONG against FP64: " + check.summary);
          return false;
        }
        const TimingStats& time = *measured.timing;
        spdlog::debug("{}: {}, median {:.4f} ms over {} runs", name, check.summary, time.median_ms, time.repetitions);
        add_row(table, csv, shape, tag, config.family, summary, name, problem, time, cublas_time.median_ms, check);
        return true;
      } catch (const std::exception& error) {
        spdlog::error("{} on {}: {}", name, shape, error.what());
        add_failure(table, csv, shape, tag, summary, config, std::string("FAILED: ") + first_line(error.what()));
        if (dynamic_cast<const CudaError*>(&error) != nullptr) throw;  // the context may be unusable
        return false;
      }
    };
    int version = 0;
    for (const KernelFamily* family : all_families()) {
      const std::string tag = "v" + std::to_string(version++);
      if (!selected(*family) || !family->supports_layout(problem.layout)) continue;
      const KernelConfig config = family->default_config(problem.layout, pick_alignment(*family, call_align));
      if (problem.batch > 1) {
        if (auto refusal = family->batch_refusal(config, false)) {
          spdlog::info("{}: {} left out: {}", shape, family->name(), *refusal);
          continue;
        }
      }
      all_passed = bench_config(tag, std::string(family->summary()), config) && all_passed;
    }
    for (const KernelConfig& named : named_configs_) {
      if (named.layout != problem.layout) continue;
      KernelConfig config = named;
      config.align = std::min(config.align, pick_alignment(find_family(config.family), call_align));
      all_passed = bench_config("named", "--kernel", config) && all_passed;
    }
    if (options_.untuned) {
      const dispatch::Choice choice = untuned_choice(problem, measurement.call());
      // With prefer_cublas off, the choice is always a kernel.
      const std::string why = "runtime's pick untuned (" + std::string(to_string(choice.selection.reason)) + ")";
      all_passed = bench_config("untuned", why, *choice.config) && all_passed;
      spdlog::info("{} untuned: {}", shape, describe(choice.selection));
    }
    if (std::optional<KernelConfig> tuned = tuned_winner(problem)) {
      // The winner was tuned on aligned inputs like these; on others, its narrower variant.
      tuned->align = std::min(tuned->align, pick_alignment(find_family(tuned->family), call_align));
      all_passed = bench_config("tuned", "tuned winner from " + tuned_db_path(), *tuned) && all_passed;
    }
    return all_passed;
  }

 private:
  // The named families; by default every family that runs on this GPU (wgmma only on Hopper) and
  // that the class admits.
  bool selected(const KernelFamily& family) const {
    if (options_.families.empty()) {
      return family.compile_arch(device_.arch()).has_value() && admits(options_.precision, family.precision());
    }
    return std::find(options_.families.begin(), options_.families.end(), family.name()) != options_.families.end();
  }

  static std::string first_line(const std::string& text) { return text.substr(0, text.find('\n')); }

  void add_row(TextTable& table, TextTable& csv, const std::string& shape, const std::string& version,
               std::string_view family, std::string_view summary, const std::string& kernel,
               const Problem& problem, const TimingStats& time, double cublas_ms, const Comparison& check) {
    const double percent = 100.0 * cublas_ms / time.median_ms;
    table.add_row({shape, version, std::string(summary), kernel, fixed(time.median_ms, 3),
                   fixed(tflops(problem, time.median_ms), 2), fixed(percent, 1), scientific(check.relative_error, 1),
                   check.passed ? "ok" : "over " + check.summary});
    csv.add_row({shape, version, std::string(family), kernel, fixed(time.median_ms, 5),
                 fixed(time.p10_ms, 5), fixed(time.p90_ms, 5), std::to_string(time.repetitions),
                 fixed(tflops(problem, time.median_ms), 3), fixed(percent, 2), scientific(check.relative_error, 3),
                 check.summary});
  }

  void add_failure(TextTable& table, TextTable& csv, const std::string& shape, const std::string& version,
                   const std::string& summary, const KernelConfig& config, const std::string& why) {
    table.add_row({shape, version, summary, kernel_name(config), "-", "-", "-", "-", why});
    csv.add_row({shape, version, config.family, kernel_name(config), "", "", "", "", "", "", "", why});
  }

  // What the runtime picks for `problem` (select_kernel) if it were not tuned, for the class
  // benchmarked: the database's winners of this GPU without the problem's own, or none without --db.
  dispatch::Choice untuned_choice(const Problem& problem, const GemmParams& call) const {
    const cache::GpuKey gpu{device_.name, device_.cc_major, device_.cc_minor, device_.sm_count};
    std::vector<cache::WinnerEntry> others;
    if (db_) {
      for (cache::WinnerEntry& entry : db_->all_winners(device_.name)) {
        if (entry.problem != to_row(problem)) others.push_back(std::move(entry));
      }
    }
    dispatch::SelectionPolicy policy;
    policy.precision = options_.precision;
    policy.has_cubin = [&](const KernelConfig& config) {
      return db_ && db_->has_binary(binary_key(config, device_.arch()));
    };
    return dispatch::select_kernel(dispatch::TuningTable(others, gpu), {problem.layout, call}, device_.traits(), policy);
  }

  // The database's winner of this class for this problem on this GPU, if --db was given and it has one.
  std::optional<KernelConfig> tuned_winner(const Problem& problem) const {
    if (!db_) return std::nullopt;
    const auto gpu = db_->find_gpu(cache::GpuKey{device_.name, device_.cc_major, device_.cc_minor, device_.sm_count});
    if (!gpu) return std::nullopt;
    const auto problem_id = db_->find_problem(to_row(problem));
    if (!problem_id) return std::nullopt;
    const auto winner = db_->winner(gpu->id, *problem_id, precision_name(options_.precision));
    if (!winner) return std::nullopt;
    return parse_kernel_name(winner->kernel_name);
  }
  std::string tuned_db_path() const { return db_ ? db_->path() : ""; }

  const DeviceInfo& device_;
  const Options& options_;
  std::optional<cache::Database> db_;
  std::vector<KernelConfig> named_configs_;
  tuner::DeviceCheck check_;  // compiled once: every problem's results are compared on the device
};

// Problems from --shape and --shapes; throws BadInput for a bad one, or for an unknown family.
std::vector<Problem> collect_problems(const Options& options) {
  std::vector<Problem> problems = problems_from_arguments(options.shapes, options.shapes_file, options.layout);
  try {
    for (const std::string& family : options.families) find_family(family);  // unknown: throws
  } catch (const std::invalid_argument& error) {
    throw BadInput(error.what());
  }
  return problems;
}

// The --kernel configurations; throws BadInput for a name that does not parse, that its family
// refuses (the rule it breaks) or whose layout no problem has.
std::vector<KernelConfig> collect_named_configs(const Options& options, const std::vector<Problem>& problems) {
  std::vector<KernelConfig> configs;
  for (const std::string& name : options.kernels) {
    try {
      KernelConfig config = parse_kernel_name(name);
      const KernelFamily& family = find_family(config.family);
      if (std::optional<std::string> why = family.check(config)) {
        throw BadInput("--kernel " + name + ": " + *why);
      }
      if (!admits(options.precision, family.precision())) {
        throw BadInput("--kernel " + name + ": a " + std::string(precision_name(family.precision())) +
                       " kernel, which --precision " + std::string(precision_name(options.precision)) +
                       " does not admit (--precision " + std::string(precision_name(family.precision())) + " does)");
      }
      const bool has_problem = std::any_of(problems.begin(), problems.end(),
                                           [&](const Problem& problem) { return problem.layout == config.layout; });
      if (!has_problem) {
        throw BadInput("--kernel " + name + ": no " + std::string(layout_name(config.layout)) + " problem to time it on");
      }
      configs.push_back(std::move(config));
    } catch (const std::logic_error& error) {  // invalid_argument, out_of_range
      throw BadInput("--kernel: " + std::string(error.what()));
    }
  }
  return configs;
}

std::optional<cache::Database> open_database(const std::string& path) {
  if (path.empty()) return std::nullopt;
  try {
    return cache::Database::open(path, cache::OpenMode::ReadOnly);
  } catch (const cache::Error& error) {
    throw BadInput(error.what());
  }
}

// Everything the command line names is checked (problems, families, the GPU, the database, the
// CSV file) before the first kernel runs.
int run(const Options& options) {
  const std::vector<Problem> problems = collect_problems(options);
  std::vector<KernelConfig> named_configs = collect_named_configs(options, problems);
  std::string problem_list;
  for (const Problem& problem : problems) problem_list += (problem_list.empty() ? "" : ", ") + to_string(problem);
  spdlog::debug("{} problem(s): {}", problems.size(), problem_list);

  std::string why_none;
  const std::optional<DeviceInfo> device = first_device(&why_none);
  if (!device) throw BadInput("no usable CUDA device: " + why_none);
  // A family (named, or behind a --kernel) this GPU cannot run, such as wgmma off Hopper.
  std::vector<std::string> families = options.families;
  for (const KernelConfig& config : named_configs) families.push_back(config.family);
  try {
    tuner::require_families_run_on(families, device->arch());
    tuner::require_families_admitted(options.families, options.precision);
  } catch (const std::invalid_argument& error) {
    throw BadInput(error.what());
  } catch (const InputError& error) {
    throw BadInput(error.what());
  }
  std::optional<cache::Database> db = open_database(options.db_path);
  // Created now, so that a path it cannot write is bad input; in place only once whole.
  std::optional<OutputFile> csv_file;
  if (!options.csv_path.empty()) csv_file.emplace(options.csv_path);
  GT_CUDA(cudaSetDevice(device->index));
  std::cout << "# gemmbench\n\n"
            << "- date: " << utc_date_time() << "\n- GPU: " << describe_device(*device) << ", NVRTC " << nvrtc_version()
            << "\n- commit: " << build_commit() << "\n- alpha " << options.alpha << ", beta " << options.beta
            << "; median of timed runs (CUDA events) after warm-up, inputs rotated over more than 2x L2"
            << "\n- precision " << precision_name(options.precision) << ": the families it admits; cuBLAS timed as "
            << cublas_compute_name(options.precision)
            << "; error: normwise, ||C - C64||_F / ||C64||_F against FP64 (cuBLAS DGEMM of alpha A B + beta C on the "
               "same inputs), within the tolerance of each kernel's own class\n\n";

  TextTable table({"problem", "version", "key change", "kernel", "ms", "TFLOPS", "% of cuBLAS", "error vs FP64", "check"});
  TextTable csv({"problem", "version", "family", "kernel", "median_ms", "p10_ms", "p90_ms", "repetitions",
                 "tflops", "percent_of_cublas", "fp64_error", "check"});
  bool all_passed = true;
  Bench bench(*device, options, std::move(db), std::move(named_configs));
  for (std::size_t i = 0; i < problems.size(); ++i) {
    // One plain line a problem, also when piped: a problem takes seconds, not a progress bar's worth.
    spdlog::info("[{}/{}] {}", i + 1, problems.size(), to_string(problems[i]));
    all_passed = bench.run(problems[i], table, csv) && all_passed;
  }
  table.print_markdown(std::cout);
  if (csv_file) {
    csv.print_csv(csv_file->stream());
    csv_file->commit();
  }
  if (!all_passed) {
    spdlog::error("some kernels failed to run or their check against FP64 (see the table)");
    return kExitFailure;
  }
  return kExitDone;
}

}  // namespace
}  // namespace gemmtune

int main(int argc, char** argv) {
  using namespace gemmtune;
  keep_ptxas_reports();  // the compiled kernels' resources are logged
  Options options;
  LogOptions log_options;
  CLI::App app{
      "gemmbench: times cuBLAS and every kernel family of a precision class with its default configuration\n"
      "(and, with --db, the class's tuned winner) on the same random inputs, checks each result against\n"
      "an FP64 reference, and prints a table. cuBLAS runs as CUBLAS_COMPUTE_32F_PEDANTIC for --precision\n"
      "strict and fp32, as CUBLAS_COMPUTE_32F_FAST_TF32 for tf32. Results go to standard output, logs\n"
      "and errors to standard error.\n" +
      exit_codes_help("flags, shapes, families, files, a database it cannot use, no GPU",
                      "a kernel failed to compile or run, or gave a wrong result; a CUDA error")};
  prefix_parse_errors(app, "gemmbench");
  app.add_option("--shape", options.shapes, "A problem: MxNxK or LAYOUT:MxNxK[:bBATCH] (e.g. nt:4096x4096x4096, nn:128x128x128:b64); repeatable");
  app.add_option("--shapes", options.shapes_file, "A shapes file: one 'M N K [layout] [bBATCH]' a line, # comments; - for standard input")
      ->check(CLI::Validator([](std::string& path) { return path == "-" ? std::string() : CLI::ExistingFile(path); },
                             "FILE or -"));
  app.add_option("--layout", options.layout, "Layout of --shape problems that name none: nn, nt, tn, tt")
      ->capture_default_str();
  app.add_option("--families", options.families,
                 "Only these kernel families (default: all that run on the GPU and that --precision admits)")
      ->delimiter(',');
  std::string precision_text = "fp32";
  app.add_option("--precision", precision_text,
                 "Precision class: strict (FFMA families), fp32 (also 3xTF32), tf32 (also single-pass TF32; cuBLAS "
                 "timed as FAST_TF32)")
      ->capture_default_str()
      ->check(CLI::IsMember({"strict", "fp32", "tf32"}, CLI::ignore_case));
  app.add_option("--kernel", options.kernels,
                 "Also time this configuration, by kernel name (as tunedb lists them), on every problem of its "
                 "layout; at most the alignment the inputs allow; repeatable");
  app.add_option("--alpha", options.alpha, "alpha")->capture_default_str()->check(finite_number());
  app.add_option("--beta", options.beta, "beta")->capture_default_str()->check(finite_number());
  app.add_option("--db", options.db_path, "Also time the winner tuned for each problem on this GPU in this database")
      ->check(CLI::ExistingFile);
  app.add_flag("--untuned", options.untuned,
               "Also time what the runtime would pick for each problem untuned: with --db, from its other "
               "problems' winners (the problem itself left out) and the defaults; without, the defaults alone");
  app.add_option("--csv", options.csv_path, "Also write every row, with spread and repetitions, as CSV to this file");
  app.add_option("--target-ms", options.target_ms, "Timed work per kernel and problem, in ms")
      ->capture_default_str()
      ->check(positive_number());
  add_log_options(app, log_options);
  return parse_and_run(app, argc, argv, "gemmbench", log_options, [&] {
    options.precision = parse_precision(precision_text);
    return run(options);
  });
}
