#include "timing.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

#include "cuda_handles.hpp"

namespace gemmtune {
namespace {

double quantile(const std::vector<double>& sorted, double q) {
  const double position = q * static_cast<double>(sorted.size() - 1);
  const std::size_t below = static_cast<std::size_t>(std::floor(position));
  const std::size_t above = std::min(below + 1, sorted.size() - 1);
  const double fraction = position - static_cast<double>(below);
  return sorted[below] * (1.0 - fraction) + sorted[above] * fraction;
}

}  // namespace

TimingStats summarize_samples(std::vector<double> samples) {
  std::sort(samples.begin(), samples.end());
  TimingStats stats;
  stats.repetitions = static_cast<int>(samples.size());
  stats.min_ms = samples.front();
  stats.max_ms = samples.back();
  stats.median_ms = quantile(samples, 0.5);
  stats.p10_ms = quantile(samples, 0.1);
  stats.p90_ms = quantile(samples, 0.9);
  return stats;
}

namespace {

// Times `count` launches from `first` (each between two events) and appends their times.
void time_repetitions(const std::function<void(int)>& launch, int rotation, cudaStream_t stream, int first, int count,
                      std::vector<double>& samples) {
  if (count <= 0) return;
  std::vector<Event> marks(static_cast<std::size_t>(count) + 1);
  marks[0].record(stream);
  for (int i = 0; i < count; ++i) {
    launch((first + i) % rotation);
    marks[static_cast<std::size_t>(i) + 1].record(stream);
  }
  marks.back().synchronize();
  for (std::size_t i = 1; i < marks.size(); ++i) samples.push_back(marks[i].elapsed_since(marks[i - 1]));
}

}  // namespace

TimingStats time_launches(const std::function<void(int)>& launch, int rotation, cudaStream_t stream,
                          const TimingOptions& options, const RepetitionPlan& plan) {
  rotation = std::max(rotation, 1);
  Event start, stop;
  // Warm-up: module load, clocks ramping, caches. Also gives the length of one launch.
  int launches = 0;
  double warm_ms = 0;
  start.record(stream);
  do {
    launch(launches % rotation);
    ++launches;
    stop.record(stream);
    stop.synchronize();
    warm_ms = stop.elapsed_since(start);
  } while (launches < 2 || warm_ms < options.warmup_ms);
  const double estimate_ms = std::max(warm_ms / launches, 1e-4);
  const int repetitions = std::clamp(static_cast<int>(options.target_ms / estimate_ms),
                                     options.min_repetitions, options.max_repetitions);

  std::vector<double> samples;
  samples.reserve(static_cast<std::size_t>(repetitions));
  int probe = 0;
  int after_probe = repetitions;
  if (plan) {
    probe = std::min(std::max(options.min_repetitions, 1), repetitions);
    time_repetitions(launch, rotation, stream, launches, probe, samples);
    after_probe = std::max(0, plan(samples, repetitions - probe));
  }
  time_repetitions(launch, rotation, stream, launches + probe, after_probe, samples);
  TimingStats stats = summarize_samples(std::move(samples));
  stats.planned_repetitions = repetitions;
  return stats;
}

}  // namespace gemmtune
