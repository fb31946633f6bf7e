#include "winner_diff.hpp"

#include <map>
#include <utility>

namespace gemmtune::cache {

std::string_view to_string(DiffKind kind) {
  switch (kind) {
    case DiffKind::Identical: return "identical";
    case DiffKind::TimeChanged: return "time changed";
    case DiffKind::KernelChanged: return "kernel changed";
    case DiffKind::OnlyInA: return "only in A";
    case DiffKind::OnlyInB: return "only in B";
  }
  return "unknown";
}

std::optional<double> WinnerDifference::time_change() const {
  if (!a || !b) return std::nullopt;
  return (b->median_ms - a->median_ms) / a->median_ms;
}

std::vector<WinnerDifference> diff_winners(const std::vector<WinnerEntry>& a,
                                           const std::vector<WinnerEntry>& b) {
  std::map<std::pair<GpuKey, Problem>, WinnerDifference> by_key;
  for (const WinnerEntry& entry : a) {
    by_key[{entry.gpu, entry.problem}] = {entry.gpu, entry.problem, entry.winner, std::nullopt};
  }
  for (const WinnerEntry& entry : b) {
    auto& difference = by_key[{entry.gpu, entry.problem}];
    difference.gpu = entry.gpu;
    difference.problem = entry.problem;
    difference.b = entry.winner;
  }
  std::vector<WinnerDifference> differences;
  for (auto& [key, difference] : by_key) {
    if (!difference.b) {
      difference.kind = DiffKind::OnlyInA;
    } else if (!difference.a) {
      difference.kind = DiffKind::OnlyInB;
    } else if (difference.a->kernel_name != difference.b->kernel_name) {
      difference.kind = DiffKind::KernelChanged;
    } else if (difference.a->median_ms != difference.b->median_ms) {
      difference.kind = DiffKind::TimeChanged;
    } else {
      difference.kind = DiffKind::Identical;
    }
    differences.push_back(std::move(difference));
  }
  return differences;
}

}  // namespace gemmtune::cache
