#include "problem_rows.hpp"

#include <stdexcept>
#include <string>

namespace gemmtune {

cache::Problem to_row(const Problem& problem) {
  return cache::Problem{std::string(layout_name(problem.layout)), problem.M, problem.N, problem.K, problem.batch};
}

std::optional<Problem> from_row(const cache::Problem& row) {
  const auto fits = [](std::int64_t size) { return size >= 1 && size <= kMaxDimension; };
  if (!fits(row.m) || !fits(row.n) || !fits(row.k) || row.batch < 1 || row.batch > kMaxBatch) return std::nullopt;
  try {
    return Problem{parse_layout(row.layout), static_cast<int>(row.m), static_cast<int>(row.n), static_cast<int>(row.k),
                   static_cast<int>(row.batch)};
  } catch (const std::invalid_argument&) {
    return std::nullopt;
  }
}

}  // namespace gemmtune
