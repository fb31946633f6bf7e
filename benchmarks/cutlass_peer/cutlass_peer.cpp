// cutlass_peer: the strongest FP32-accurate peer on the tensor cores, CUTLASS's 3xTF32 GEMMs, timed
// as gemmbench times gemmtune's kernels (the same operand sets, rotated beyond the L2; the same FP64
// reference and tolerance; cuBLAS pedantic FP32 timed in the same run), so that the peer column of
// a results table comes from the machine and the run it is compared on. For each problem it times
// every tile built in (peer_tiles.cuh) under each schedule (data-parallel, stream-K, split-K by
// each factor) and reports the best, as the kernels issue's CUTLASS column is defined.
// Built only with -DGEMMTUNE_CUTLASS_DIR=<a CUTLASS checkout> (benchmarks/CMakeLists.txt).
#include <CLI/CLI.hpp>
#include <cutlass/version.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <iostream>
#include <map>
#include <optional>

#include "build_info.hpp"
#include "cuda_handles.hpp"
#include "device.hpp"
#include "device_check.hpp"
#include "exit_codes.hpp"
#include "log_options.hpp"
#include "measurement.hpp"
#include "numeric_options.hpp"
#include "output_file.hpp"
#include "peer_kernel.hpp"
#include "precision.hpp"
#include "problem.hpp"
#include "shapes_argument.hpp"
#include "text.hpp"
#include "text_table.hpp"
#include "timing.hpp"

namespace gemmtune {
namespace {

struct Options {
  std::vector<std::string> shapes;
  std::string shapes_file;
  std::string layout = "nn";
  std::vector<int> splits = {2, 4, 8, 16, 32, 64, 128};
  std::string kernel_filter;  // only kernels whose name contains it
  float alpha = 1.0f;
  float beta = 1.0f;
  std::string csv_path;
  double target_ms = 50.0;
};

double tflops(const Problem& problem, double ms) { return problem.flops() / (ms * 1e-3) / 1e12; }

std::vector<peer::ScheduleChoice> schedules(const Options& options) {
  std::vector<peer::ScheduleChoice> choices = {{peer::Schedule::DataParallel, 1}, {peer::Schedule::StreamK, 1}};
  for (int split : options.splits) choices.push_back({peer::Schedule::SplitK, split});
  return choices;
}

// The fastest passing measurement so far, of every schedule and of each kind of schedule.
struct Best {
  std::string kernel;
  std::string schedule;
  TimingStats time;
  Comparison check;
};

// Split-K pays where the output tiles cannot fill the GPU; with more pieces than a few waves of
// blocks it only adds partial sums (and CUTLASS's workspace holds a tile of them a piece: a split
// of 128 on 8192^3 would ask for tens of GB). So a factor is timed only while the tiles are fewer
// than the SMs and the pieces at most 4 blocks an SM.
bool worth_splitting_on(long long tiles, int split, int sm_count) {
  return tiles < sm_count && tiles * split <= 4LL * sm_count;
}

class PeerBench {
 public:
  PeerBench(const DeviceInfo& device, const Options& options)
      : device_(device), options_(options), check_(device.arch()), kernels_(peer::all_peer_kernels()) {}

  // Times one problem; adds its summary row to `table` and every measurement to `csv`. Returns
  // false when a kernel failed to run or gave a wrong result.
  bool run(const Problem& problem, TextTable& table, TextTable& csv) {
    const std::string shape = to_string(problem);
    Stream stream;
    CublasHandle cublas;
    tuner::ProblemMeasurement measurement(problem, options_.alpha, options_.beta, Precision::Fp32, device_.l2_bytes,
                                          device_.global_memory_bytes, stream.get(), cublas.get(), check_);
    TimingOptions timing;
    timing.target_ms = options_.target_ms;
    const TimingStats cublas_time = measurement.time_cublas(timing);
    csv.add_row({shape, "cublas_pedantic", "-", fixed(cublas_time.median_ms, 5), fixed(cublas_time.p10_ms, 5),
                 fixed(cublas_time.p90_ms, 5), std::to_string(cublas_time.repetitions),
                 fixed(tflops(problem, cublas_time.median_ms), 3), "1.000",
                 scientific(measurement.cublas_check().relative_error, 3), measurement.cublas_check().summary});

    const GemmParams call = measurement.call();
    const int call_align = measurement.alignment();
    bool all_passed = true;
    std::optional<Best> best;
    std::map<peer::Schedule, Best> best_of_kind;
    int timed = 0;
    for (const auto& kernel : kernels_) {
      if (kernel->layout() != problem.layout || kernel->alignment() > call_align) continue;
      if (!options_.kernel_filter.empty() && kernel->name().find(options_.kernel_filter) == std::string::npos) continue;
      // Only the widest alignment the call allows: an align-1 kernel on aligned operands is slower
      // and would only add time.
      if (call_align >= 4 && kernel->alignment() < 4) continue;
      for (const peer::ScheduleChoice& schedule : schedules(options_)) {
        const std::string schedule_text = peer::schedule_name(schedule);
        if (!worth_splitting(*kernel, problem, schedule)) continue;
        std::string why_not;
        std::unique_ptr<peer::PreparedPeerCall> prepared = kernel->prepare(call, schedule, stream.get(), why_not);
        if (!prepared) {
          spdlog::debug("{} {} on {}: refused by CUTLASS: {}", kernel->name(), schedule_text, shape, why_not);
          continue;
        }
        const auto launch = [&](const GemmParams& params) { prepared->launch(params, stream.get()); };
        tuner::KernelMeasurement measured = measurement.measure_call(launch, Precision::Fp32, timing);
        if (measured.timing) {
          // Once more after the timing: its launches reused the workspace initialize() set up.
          measured.check = measurement.check_call(launch, Precision::Fp32);
          if (!measured.check.passed) measured.check.summary = "after the timed launches: " + measured.check.summary;
        }
        ++timed;
        if (!measured.check.passed || !measured.timing) {
          spdlog::error("{} {} on {}: wrong result: {}", kernel->name(), schedule_text, shape, measured.check.summary);
          csv.add_row({shape, kernel->name(), schedule_text, "", "", "", "", "", "", "",
                       "WRONG against FP64: " + measured.check.summary});
          all_passed = false;
          continue;
        }
        const TimingStats& time = *measured.timing;
        csv.add_row({shape, kernel->name(), schedule_text, fixed(time.median_ms, 5), fixed(time.p10_ms, 5),
                     fixed(time.p90_ms, 5), std::to_string(time.repetitions), fixed(tflops(problem, time.median_ms), 3),
                     fixed(cublas_time.median_ms / time.median_ms, 3), scientific(measured.check.relative_error, 3),
                     measured.check.summary});
        Best candidate{kernel->name(), schedule_text, time, measured.check};
        if (!best || time.median_ms < best->time.median_ms) best = candidate;
        auto kind = best_of_kind.find(schedule.schedule);
        if (kind == best_of_kind.end() || time.median_ms < kind->second.time.median_ms) {
          best_of_kind[schedule.schedule] = candidate;
        }
      }
    }
    const auto ratio_of = [&](peer::Schedule schedule) {
      auto kind = best_of_kind.find(schedule);
      return kind == best_of_kind.end() ? std::string("-") : fixed(cublas_time.median_ms / kind->second.time.median_ms, 2) + "x";
    };
    if (!best) {
      spdlog::warn("{}: no CUTLASS kernel built in takes this problem (layout, alignment or --kernel-filter)", shape);
      table.add_row({shape, fixed(cublas_time.median_ms, 4), fixed(tflops(problem, cublas_time.median_ms), 1), "none", "-",
                     "-", "-", "-", "-", "-", "-", "-"});
      return all_passed;
    }
    spdlog::info("{}: {} measurements, best {} {} {:.4f} ms", shape, timed, best->kernel, best->schedule,
                 best->time.median_ms);
    table.add_row({shape, fixed(cublas_time.median_ms, 4), fixed(tflops(problem, cublas_time.median_ms), 1),
                   best->kernel + " " + best->schedule, fixed(best->time.median_ms, 4),
                   fixed(tflops(problem, best->time.median_ms), 1), fixed(cublas_time.median_ms / best->time.median_ms, 2) + "x",
                   ratio_of(peer::Schedule::DataParallel), ratio_of(peer::Schedule::StreamK), ratio_of(peer::Schedule::SplitK),
                   scientific(best->check.relative_error, 1), std::to_string(timed)});
    return all_passed;
  }

 private:
  bool worth_splitting(const peer::PeerKernel& kernel, const Problem& problem, const peer::ScheduleChoice& schedule) const {
    return schedule.schedule != peer::Schedule::SplitK ||
           worth_splitting_on(kernel.output_tiles(problem.M, problem.N), schedule.split, device_.sm_count);
  }

  const DeviceInfo& device_;
  const Options& options_;
  tuner::DeviceCheck check_;
  std::vector<std::unique_ptr<peer::PeerKernel>> kernels_;
};

// Problems from --shape and --shapes; throws BadInput for a bad one, or a batch.
std::vector<Problem> collect_problems(const Options& options) {
  std::vector<Problem> problems = problems_from_arguments(options.shapes, options.shapes_file, options.layout);
  for (const Problem& problem : problems) {
    if (problem.batch > 1) {
      throw BadInput("problem " + to_string(problem) + ": cutlass_peer times single GEMMs, not batches");
    }
  }
  return problems;
}

int run(const Options& options) {
  const std::vector<Problem> problems = collect_problems(options);
  for (int split : options.splits) {
    if (split < 2) throw BadInput("--splits: each split-K factor must be 2 or more, not " + std::to_string(split));
  }
  std::string why_none;
  const std::optional<DeviceInfo> device = first_device(&why_none);
  if (!device) throw BadInput("no usable CUDA device: " + why_none);
  if (device->cc_major < 8) {
    throw BadInput(device->name + " is " + device->arch() + ": CUTLASS's 3xTF32 kernels need sm_80 or newer");
  }
  std::optional<OutputFile> csv_file;
  if (!options.csv_path.empty()) csv_file.emplace(options.csv_path);
  GT_CUDA(cudaSetDevice(device->index));
  std::cout << "# cutlass_peer\n\n"
            << "- date: " << utc_date_time() << "\n- GPU: " << describe_device(*device) << "\n- CUTLASS " << CUTLASS_MAJOR
            << "." << CUTLASS_MINOR << "." << CUTLASS_PATCH
            << " 3xTF32 (SM80 mma.sync, OpMultiplyAddFastF32), its stream-K kernel run data-parallel, stream-K "
               "and split-K; gemmtune commit "
            << build_commit() << "\n- alpha " << options.alpha << ", beta " << options.beta
            << "; median of timed runs (CUDA events) after warm-up, inputs rotated over more than 2x L2, as gemmbench"
            << "\n- x cuBLAS: cuBLAS pedantic FP32's median over CUTLASS's, in the same run; the dp, stream-K and "
               "split-K columns are the best of each kind; error: normwise against FP64, within FP32's bound\n\n";
  TextTable table({"problem", "cuBLAS ms", "cuBLAS TFLOPS", "best CUTLASS", "ms", "TFLOPS", "x cuBLAS", "dp",
                   "stream-K", "split-K", "error vs FP64", "timed"});
  TextTable csv({"problem", "kernel", "schedule", "median_ms", "p10_ms", "p90_ms", "repetitions", "tflops",
                 "x_cublas", "fp64_error", "check"});
  bool all_passed = true;
  PeerBench bench(*device, options);
  for (std::size_t i = 0; i < problems.size(); ++i) {
    spdlog::info("[{}/{}] {}", i + 1, problems.size(), to_string(problems[i]));
    all_passed = bench.run(problems[i], table, csv) && all_passed;
  }
  table.print_markdown(std::cout);
  if (csv_file) {
    csv.print_csv(csv_file->stream());
    csv_file->commit();
  }
  if (!all_passed) {
    spdlog::error("some CUTLASS kernels failed or gave a wrong result (see the CSV)");
    return kExitFailure;
  }
  return kExitDone;
}

}  // namespace
}  // namespace gemmtune

int main(int argc, char** argv) {
  using namespace gemmtune;
  Options options;
  LogOptions log_options;
  CLI::App app{
      "cutlass_peer: times CUTLASS's FP32-accurate tensor-core GEMMs (3xTF32) on the same inputs and by the\n"
      "same protocol as gemmbench, each tile built in under data-parallel, stream-K and split-K schedules,\n"
      "checks each result against an FP64 reference, and prints the best per problem beside cuBLAS\n"
      "pedantic FP32 timed in the same run. Row-major nn, nt and tn calls (nn also unaligned).\n" +
      exit_codes_help("flags, shapes, files, no GPU", "a CUTLASS kernel failed or gave a wrong result; a CUDA error")};
  prefix_parse_errors(app, "cutlass_peer");
  app.add_option("--shape", options.shapes, "A problem: MxNxK or LAYOUT:MxNxK (e.g. nt:4096x4096x4096); repeatable");
  app.add_option("--shapes", options.shapes_file, "A shapes file: one 'M N K [layout]' a line, # comments; - for standard input")
      ->check(CLI::Validator([](std::string& path) { return path == "-" ? std::string() : CLI::ExistingFile(path); },
                             "FILE or -"));
  app.add_option("--layout", options.layout, "Layout of --shape problems that name none: nn, nt, tn")->capture_default_str();
  app.add_option("--splits", options.splits,
                 "Split-K factors to time, each 2 or more; a factor is timed only where a kernel's output tiles are "
                 "fewer than the SMs and the pieces (tiles x factor) at most 4 an SM")->delimiter(',')->capture_default_str();
  app.add_option("--kernel-filter", options.kernel_filter, "Only the CUTLASS kernels whose name contains this text");
  app.add_option("--alpha", options.alpha, "alpha")->capture_default_str()->check(finite_number());
  app.add_option("--beta", options.beta, "beta")->capture_default_str()->check(finite_number());
  app.add_option("--csv", options.csv_path, "Also write every measurement (kernel, schedule, spread) as CSV to this file");
  app.add_option("--target-ms", options.target_ms, "Timed work per kernel, schedule and problem, in ms")
      ->capture_default_str()
      ->check(positive_number());
  add_log_options(app, log_options);
  return parse_and_run(app, argc, argv, "cutlass_peer", log_options, [&] { return run(options); });
}
