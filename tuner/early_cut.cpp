#include "early_cut.hpp"

#include <algorithm>

namespace gemmtune::tuner {

int further_repetitions(const std::vector<double>& probe_ms, int planned, std::optional<double> best_ms) {
  if (!best_ms || probe_ms.empty()) return planned;
  std::vector<double> sorted = probe_ms;
  std::sort(sorted.begin(), sorted.end());
  if (sorted.front() > EarlyCut::kReach * *best_ms) return 0;
  const double median = sorted.size() % 2 ? sorted[sorted.size() / 2]
                                          : (sorted[sorted.size() / 2 - 1] + sorted[sorted.size() / 2]) / 2;
  if (median <= EarlyCut::kClose * *best_ms) return EarlyCut::kExtend * planned;
  return planned;
}

}  // namespace gemmtune::tuner
