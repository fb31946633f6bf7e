#include "compare.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

namespace gemmtune {
namespace {

template <class Reference>
Comparison compare_entry(const float* got, const Reference* ref, int M, int N, long long ldc, double tolerance) {
  Comparison result;
  double diff_squares = 0, ref_squares = 0;
  for (int m = 0; m < M; ++m) {
    for (int n = 0; n < N; ++n) {
      const std::size_t index = static_cast<std::size_t>(m) * static_cast<std::size_t>(ldc) + n;
      const double expected = ref[index];
      const double actual = got[index];
      if (!std::isfinite(actual) && std::isfinite(expected)) {
        // An FP64 result beyond FLT_MAX rounds to an infinity of its sign in FP32: that is right.
        const bool overflows = std::abs(expected) > std::numeric_limits<float>::max() && std::isinf(actual) &&
                               std::signbit(actual) == std::signbit(expected);
        if (!overflows) ++result.non_finite;
        continue;
      }
      const double diff = actual - expected;
      diff_squares += diff * diff;
      ref_squares += expected * expected;
      result.max_abs_error = std::max(result.max_abs_error, std::abs(diff));
    }
  }
  result.relative_error = ref_squares > 0 ? std::sqrt(diff_squares / ref_squares) : std::sqrt(diff_squares);
  char text[160];
  if (result.non_finite > 0) {
    std::snprintf(text, sizeof text, "%lld outputs NaN/Inf (unwritten or read from poisoned C)",
                  result.non_finite);
  } else {
    std::snprintf(text, sizeof text, "rel %.1e (tol %.1e), max abs %.1e", result.relative_error,
                  tolerance, result.max_abs_error);
  }
  result.summary = text;
  result.passed = result.non_finite == 0 && result.relative_error <= tolerance;
  return result;
}

// Each entry on its own; the first that fails, else the one furthest from its reference.
template <class Reference>
Comparison compare(const std::vector<float>& got, const std::vector<Reference>& ref, int M, int N, long long ldc,
                   double tolerance, int batch, long long stride) {
  Comparison worst;
  for (int entry = 0; entry < batch; ++entry) {
    const std::size_t offset = static_cast<std::size_t>(entry) * static_cast<std::size_t>(stride);
    Comparison result = compare_entry(got.data() + offset, ref.data() + offset, M, N, ldc, tolerance);
    if (batch > 1) result.summary = "entry " + std::to_string(entry) + ": " + result.summary;
    if (entry == 0 || !result.passed || result.relative_error > worst.relative_error) worst = std::move(result);
    if (!worst.passed) break;
  }
  return worst;
}

}  // namespace

Comparison compare_outputs(const std::vector<float>& got, const std::vector<float>& ref, int M, int N, long long ldc,
                           double tolerance, int batch, long long stride) {
  return compare(got, ref, M, N, ldc, tolerance, batch, stride);
}

Comparison compare_outputs(const std::vector<float>& got, const std::vector<double>& ref, int M, int N, long long ldc,
                           double tolerance, int batch, long long stride) {
  return compare(got, ref, M, N, ldc, tolerance, batch, stride);
}

}  // namespace gemmtune
