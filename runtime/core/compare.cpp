#include "compare.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

namespace gemmtune {
namespace {

template <class Reference>
ComparisonSums sum_entry(const float* got, const Reference* ref, int M, int N, long long ldc) {
  ComparisonSums sums;
  for (int m = 0; m < M; ++m) {
    for (int n = 0; n < N; ++n) {
      const std::size_t index = static_cast<std::size_t>(m) * static_cast<std::size_t>(ldc) + n;
      const double expected = ref[index];
      const double actual = got[index];
      if (!std::isfinite(actual) && std::isfinite(expected)) {
        // An FP64 result beyond FLT_MAX rounds to an infinity of its sign in FP32: that is right.
        const bool overflows = std::abs(expected) > std::numeric_limits<float>::max() && std::isinf(actual) &&
                               std::signbit(actual) == std::signbit(expected);
        if (!overflows) ++sums.non_finite;
        continue;
      }
      const double diff = actual - expected;
      sums.diff_squares += diff * diff;
      sums.ref_squares += expected * expected;
      sums.max_abs_error = std::max(sums.max_abs_error, std::abs(diff));
    }
  }
  return sums;
}

template <class Reference>
Comparison compare(const std::vector<float>& got, const std::vector<Reference>& ref, int M, int N, long long ldc,
                   double tolerance, int batch, long long stride) {
  return worst_entry(batch, [&](int entry) {
    const std::size_t offset = static_cast<std::size_t>(entry) * static_cast<std::size_t>(stride);
    return judge(sum_entry(got.data() + offset, ref.data() + offset, M, N, ldc), tolerance);
  });
}

}  // namespace

Comparison judge(const ComparisonSums& sums, double tolerance) {
  Comparison result;
  result.non_finite = sums.non_finite;
  result.max_abs_error = sums.max_abs_error;
  result.relative_error =
      sums.ref_squares > 0 ? std::sqrt(sums.diff_squares / sums.ref_squares) : std::sqrt(sums.diff_squares);
  char text[160];
  if (result.non_finite > 0) {
    std::snprintf(text, sizeof text, "%lld outputs NaN/Inf (unwritten or read from poisoned C)", result.non_finite);
  } else {
    std::snprintf(text, sizeof text, "rel %.1e (tol %.1e), max abs %.1e", result.relative_error, tolerance,
                  result.max_abs_error);
  }
  result.summary = text;
  result.passed = result.non_finite == 0 && result.relative_error <= tolerance;
  return result;
}

Comparison compare_outputs(const std::vector<float>& got, const std::vector<float>& ref, int M, int N, long long ldc,
                           double tolerance, int batch, long long stride) {
  return compare(got, ref, M, N, ldc, tolerance, batch, stride);
}

Comparison compare_outputs(const std::vector<float>& got, const std::vector<double>& ref, int M, int N, long long ldc,
                           double tolerance, int batch, long long stride) {
  return compare(got, ref, M, N, ldc, tolerance, batch, stride);
}

}  // namespace gemmtune
