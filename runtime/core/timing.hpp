// Timing of a GPU operation by the measurement protocol of DESIGN.md: warm-up, CUDA events
// around each repetition, inputs rotated between repetitions (the caller's launch function takes
// the rotation index), repetitions adapted to the operation's length, median and spread.
#pragma once

#include <cuda_runtime_api.h>

#include <functional>
#include <vector>

namespace gemmtune {

struct TimingOptions {
  double warmup_ms = 25.0;     // warm up at least this long (and at least 2 launches)
  double target_ms = 250.0;    // aim for this much timed work in total
  int min_repetitions = 5;
  int max_repetitions = 500;
};

struct TimingStats {
  double median_ms = 0;
  double min_ms = 0;
  double max_ms = 0;
  double p10_ms = 0;
  double p90_ms = 0;
  int repetitions = 0;
  // What the protocol alone would have timed: more than `repetitions` when a RepetitionPlan cut
  // the timing short, fewer when it extended it. 0: not known (summarize_samples).
  int planned_repetitions = 0;
};

// After the warm-up, the first min_repetitions are timed as a probe; the plan is given their
// times and the repetitions the protocol would time after them, and returns how many to time
// after them instead (0 stops there). The tuner cuts candidates that cannot win (early_cut.hpp).
using RepetitionPlan = std::function<int(const std::vector<double>& probe_ms, int planned)>;

// Calls launch(i) with i = 0, 1, ... cycling over `rotation` input sets; each call must enqueue
// one operation on `stream`. Throws what launch throws, or CudaError.
// With a `plan`, the repetitions after the probe are the plan's.
TimingStats time_launches(const std::function<void(int)>& launch, int rotation, cudaStream_t stream,
                          const TimingOptions& options = {}, const RepetitionPlan& plan = {});

// Median and spread of samples (not empty).
TimingStats summarize_samples(std::vector<double> samples_ms);

}  // namespace gemmtune
