// Comparing the winners of two databases, (GPU, problem, precision) by (GPU, problem, precision).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "cache_records.hpp"

namespace gemmtune::cache {

enum class DiffKind {
  Identical,      // same kernel, same time
  TimeChanged,    // same kernel, another time
  KernelChanged,  // another kernel won
  OnlyInA,
  OnlyInB,
};
std::string_view to_string(DiffKind kind);  // "identical", "time changed", ...

struct WinnerDifference {
  GpuKey gpu;
  Problem problem;
  std::string precision;  // the class the winners were tuned for
  std::optional<Winner> a;
  std::optional<Winner> b;
  DiffKind kind = DiffKind::Identical;
  // (b - a) / a of the winners' median times, when both exist: -0.1 is 10% faster in B.
  std::optional<double> time_change() const;
};

// Every (GPU, problem, precision) with a winner in a or b, ordered by GPU, problem, then class
// (strict, fp32, tf32).
std::vector<WinnerDifference> diff_winners(const std::vector<WinnerEntry>& a,
                                           const std::vector<WinnerEntry>& b);

}  // namespace gemmtune::cache
