#include "problem.hpp"

#include <charconv>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <vector>

#include "echoed_text.hpp"

namespace gemmtune::tuner {
namespace {

std::vector<std::string_view> split_dimensions(std::string_view text) {
  std::vector<std::string_view> parts;
  std::size_t start = 0;
  while (true) {
    const std::size_t end = text.find_first_of("xX", start);
    parts.push_back(text.substr(start, end - start));
    if (end == std::string_view::npos) return parts;
    start = end + 1;
  }
}

std::string matrix_too_large(const char* matrix, const char* product, std::int64_t elements) {
  return std::string(matrix) + " has " + product + " = " + std::to_string(elements) +
         " elements; the limit is 2^31 - 1 so that element indices fit in 32-bit ints";
}

}  // namespace

double Problem::flops() const { return 2.0 * M * N * static_cast<double>(K); }

double Problem::min_bytes() const {
  return 4.0 * (static_cast<double>(M) * K + static_cast<double>(K) * N + static_cast<double>(M) * N);
}

std::string to_string(const Problem& problem) {
  return std::string(layout_name(problem.layout)) + ':' + std::to_string(problem.M) + 'x' +
         std::to_string(problem.N) + 'x' + std::to_string(problem.K);
}

int parse_dimension(std::string_view text, std::string_view name) {
  const std::string not_positive =
      std::string(name) + " must be a positive integer, got " + quoted(text);
  // Digits only: from_chars alone would take a leading '-' and stop quietly at "12abc" or "1e3".
  if (text.empty() || text.find_first_not_of("0123456789") != std::string_view::npos) {
    throw std::invalid_argument(not_positive);
  }
  std::int64_t value = 0;
  const std::from_chars_result parsed = std::from_chars(text.data(), text.data() + text.size(), value);
  if (parsed.ec == std::errc::result_out_of_range || value > kMaxDimension) {
    throw std::invalid_argument(std::string(name) + " = " + echoed(text) +
                                " is above the maximum " + std::to_string(kMaxDimension) + " (2^20)");
  }
  if (value == 0) throw std::invalid_argument(not_positive);
  return static_cast<int>(value);
}

std::array<int, 3> parse_dimensions(std::string_view text) {
  const std::vector<std::string_view> parts = split_dimensions(text);
  if (parts.size() != 3) {
    throw std::invalid_argument(quoted(text) + " has " + std::to_string(parts.size()) +
                                (parts.size() == 1 ? " size" : " sizes") + ", MxNxK needs 3");
  }
  return {parse_dimension(parts[0], "M"), parse_dimension(parts[1], "N"),
          parse_dimension(parts[2], "K")};
}

std::optional<std::string> problem_limit_violation(const Problem& problem) {
  for (const auto& [name, size] : {std::pair{"M", problem.M}, {"N", problem.N}, {"K", problem.K}}) {
    if (size < 1 || size > kMaxDimension) {
      return std::string(name) + " = " + std::to_string(size) + " is outside 1.." +
             std::to_string(kMaxDimension);
    }
  }
  const std::int64_t m = problem.M, n = problem.N, k = problem.K;
  if (m * k > kMaxMatrixElements) return matrix_too_large("A", "M*K", m * k);
  if (k * n > kMaxMatrixElements) return matrix_too_large("B", "K*N", k * n);
  if (m * n > kMaxMatrixElements) return matrix_too_large("C", "M*N", m * n);
  return std::nullopt;
}

Problem parse_problem(std::string_view text) {
  try {
    const std::size_t colon = text.find(':');
    if (colon == std::string_view::npos) {
      throw std::invalid_argument("expected 'layout:MxNxK', e.g. 'nn:4096x4096x4096'");
    }
    Problem problem;
    problem.layout = parse_layout(text.substr(0, colon));
    const std::array<int, 3> sizes = parse_dimensions(text.substr(colon + 1));
    problem.M = sizes[0];
    problem.N = sizes[1];
    problem.K = sizes[2];
    if (auto violation = problem_limit_violation(problem)) throw std::invalid_argument(*violation);
    return problem;
  } catch (const std::invalid_argument& error) {
    throw std::invalid_argument("problem " + quoted(text) + ": " + error.what());
  }
}

double log_distance(const Problem& a, const Problem& b) {
  if (a.layout != b.layout) return std::numeric_limits<double>::infinity();
  const auto term = [](int x, int y) {
    const double ratio = std::log2(static_cast<double>(x) / static_cast<double>(y));
    return ratio * ratio;
  };
  return std::sqrt(term(a.M, b.M) + term(a.N, b.N) + term(a.K, b.K));
}

}  // namespace gemmtune::tuner
