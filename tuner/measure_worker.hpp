// Candidates are measured in a child process that owns the CUDA context: a kernel that crashes
// the context (an illegal address poisons it for good) or hangs costs only that process. The
// parent never initializes CUDA; it records the outcome, starts a new child and goes on.
#pragma once

#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "cache_records.hpp"
#include "device.hpp"
#include "nvrtc_compiler.hpp"
#include "precision.hpp"
#include "problem.hpp"
#include "timing.hpp"
#include "worker_process.hpp"

namespace gemmtune::tuner {

// Where a candidate's time in the measuring process went: loading its cubin, the correctness
// check (launch, comparisons), the timed launches (warm-up and probe too).
struct CandidateSeconds {
  double load = 0;
  double check = 0;
  double timing = 0;
};

struct MeasureResult {
  cache::Status status = cache::Status::Ok;
  std::optional<TimingStats> timing;  // when ok
  std::optional<int> sm_clock_mhz;
  std::optional<double> relative_error;  // normwise, against cuBLAS pedantic FP32, when the check ran
  std::optional<double> fp64_error;      // normwise, against the FP64 reference, when the check ran
  std::string error_text;
  // The measuring process's own time on the candidate, when it got as far as a check.
  std::optional<CandidateSeconds> seconds;
};

class MeasureWorker {
 public:
  // Starts the worker process; it reports the visible devices. Throws Error with the reason
  // (no driver, no device) when there is none.
  explicit MeasureWorker(TimingOptions timing);
  ~MeasureWorker();

  const std::vector<DeviceInfo>& devices() const { return devices_; }
  void select_device(int index);

  // Prepares random inputs for `problem` (rotated sets beyond L2, minimal leading dimensions),
  // computes the references and returns cuBLAS's time on them in the compute type of `baseline`
  // (measurement.hpp).
  TimingStats set_problem(const Problem& problem, Precision baseline);
  // The floats every input pointer and leading dimension of the current problem is aligned to.
  int problem_alignment() const { return problem_alignment_; }

  // Loads, checks against the FP64 reference and times one candidate; with `best_ms`, the best
  // time of the problem so far, a candidate that cannot come within reach of it is cut short and
  // a close one timed longer (early_cut.hpp). A crash, a hang past `timeout`, or a dead worker
  // gives a failed result; the worker is then replaced.
  MeasureResult measure(const CompiledKernel& compiled, const KernelConfig& config, std::chrono::milliseconds timeout,
                        std::optional<double> best_ms = std::nullopt);

  int restarts() const { return restarts_; }

 private:
  void start();
  Message request(const Message& message, std::optional<std::chrono::milliseconds> timeout);

  TimingOptions timing_;
  std::unique_ptr<WorkerProcess> process_;
  std::vector<DeviceInfo> devices_;
  std::optional<int> device_index_;
  std::optional<Problem> problem_;
  Precision baseline_ = Precision::Fp32;
  int problem_alignment_ = 1;
  int restarts_ = 0;
};

// The loop the measure worker runs.
int measure_worker_main(const MessageChannel& channel, const TimingOptions& timing);

}  // namespace gemmtune::tuner
