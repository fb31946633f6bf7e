#include "winner_diff.hpp"

#include <map>
#include <tuple>
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

namespace {

// A class's place in strict, fp32, tf32 (an unknown name after them).
int class_rank(const std::string& precision) {
  int rank = 0;
  for (std::string_view name : kPrecisionNames) {
    if (name == precision) return rank;
    ++rank;
  }
  return rank;
}

}  // namespace

std::optional<double> WinnerDifference::time_change() const {
  if (!a || !b) return std::nullopt;
  return (b->median_ms - a->median_ms) / a->median_ms;
}

std::vector<WinnerDifference> diff_winners(const std::vector<WinnerEntry>& a,
                                           const std::vector<WinnerEntry>& b) {
  using Key = std::tuple<GpuKey, Problem, int>;
  auto key_of = [](const WinnerEntry& entry) { return Key{entry.gpu, entry.problem, class_rank(entry.winner.precision)}; };
  std::map<Key, WinnerDifference> by_key;
  for (const WinnerEntry& entry : a) {
    by_key[key_of(entry)] = {entry.gpu, entry.problem, entry.winner.precision, entry.winner, std::nullopt};
  }
  for (const WinnerEntry& entry : b) {
    auto& difference = by_key[key_of(entry)];
    difference.gpu = entry.gpu;
    difference.problem = entry.problem;
    difference.precision = entry.winner.precision;
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
