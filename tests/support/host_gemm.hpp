// Host-side GEMM problems for tests: random logical operands, their storage in any layout with
// any leading dimension and offset, and an FP64 reference with a rigorous error bound.
#pragma once

#include <cmath>
#include <cstddef>
#include <random>
#include <string>
#include <vector>

#include "gemm_params.h"

namespace gemmtune::testing {

struct HostProblem {
  int M, N, K;
  std::vector<float> a;   // logical op(A), row-major M x K
  std::vector<float> b;   // logical op(B), row-major K x N
  std::vector<float> c0;  // initial C, row-major M x N
  std::vector<double> ab;      // exact-ish A * B in FP64
  std::vector<double> abs_ab;  // sum over k of |a||b|: scales the rounding-error bound
};

inline HostProblem make_host_problem(int M, int N, int K, unsigned seed) {
  HostProblem p{M, N, K, {}, {}, {}, {}, {}};
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> uniform(-1.0f, 1.0f);
  auto fill = [&](std::vector<float>& v, std::size_t n) {
    v.resize(n);
    for (float& x : v) x = uniform(rng);
  };
  fill(p.a, static_cast<std::size_t>(M) * K);
  fill(p.b, static_cast<std::size_t>(K) * N);
  fill(p.c0, static_cast<std::size_t>(M) * N);
  p.ab.assign(static_cast<std::size_t>(M) * N, 0.0);
  p.abs_ab.assign(static_cast<std::size_t>(M) * N, 0.0);
  for (int m = 0; m < M; ++m) {
    for (int k = 0; k < K; ++k) {
      const double a = p.a[static_cast<std::size_t>(m) * K + k];
      const float* b_row = &p.b[static_cast<std::size_t>(k) * N];
      double* ab_row = &p.ab[static_cast<std::size_t>(m) * N];
      double* abs_row = &p.abs_ab[static_cast<std::size_t>(m) * N];
      for (int n = 0; n < N; ++n) {
        ab_row[n] += a * b_row[n];
        abs_row[n] += std::abs(a * b_row[n]);
      }
    }
  }
  return p;
}

// Stores a logical rows x cols row-major matrix as the kernel reads it: as is ('n') or
// transposed ('t'), with leading dimension ld, after `offset` leading floats (to misalign),
// padding filled with `pad`.
inline std::vector<float> store_operand(const std::vector<float>& logical, int rows, int cols,
                                        bool transposed, long long ld, int offset, float pad) {
  const long long stored_rows = transposed ? cols : rows;
  std::vector<float> out(static_cast<std::size_t>(offset + stored_rows * ld), pad);
  for (int r = 0; r < rows; ++r) {
    for (int c = 0; c < cols; ++c) {
      const long long index = transposed ? static_cast<long long>(c) * ld + r : static_cast<long long>(r) * ld + c;
      out[static_cast<std::size_t>(offset + index)] = logical[static_cast<std::size_t>(r) * cols + c];
    }
  }
  return out;
}

// Checks one result element by element against alpha * AB + beta * C0 with the bound
// (K + 4 + E) u (|alpha| sum|a||b| + |beta c0|), u = 2^-24: any summation order of a correct FP32
// kernel stays inside it, a missing or doubled term does not. E is the kernel family's
// product_error_units() (0 where each product is exact before it is added). Padding (columns >= N
// of each row, up to ldc) must still hold `pad`. Returns "" when all is well, else the first
// failures.
inline std::string check_result(const HostProblem& p, float alpha, float beta, const std::vector<float>& c,
                                long long ldc, int offset, float pad, int product_error_units = 0) {
  const double u = std::ldexp(1.0, -24);
  std::string failures;
  int failure_count = 0;
  auto fail = [&](const std::string& what) {
    if (failure_count++ < 5) failures += what + "\n";
  };
  for (int m = 0; m < p.M; ++m) {
    for (long long n = 0; n < ldc; ++n) {
      const float got = c[static_cast<std::size_t>(offset + m * ldc + n)];
      const std::string where = "(" + std::to_string(m) + ", " + std::to_string(n) + ")";
      if (n >= p.N) {
        if (!(got == pad)) fail("padding " + where + " overwritten with " + std::to_string(got));
        continue;
      }
      const std::size_t i = static_cast<std::size_t>(m) * p.N + static_cast<std::size_t>(n);
      const double c0 = beta == 0.0f ? 0.0 : p.c0[i];
      const double expected = alpha * p.ab[i] + beta * c0;
      const double bound =
          (p.K + 4 + product_error_units) * u * (std::abs(alpha) * p.abs_ab[i] + std::abs(beta * c0)) + 1e-30;
      if (!std::isfinite(got) || std::abs(got - expected) > bound) {
        fail("C" + where + " = " + std::to_string(got) + ", expected " + std::to_string(expected) +
             " (bound " + std::to_string(bound) + ")");
      }
    }
  }
  if (failure_count > 5) failures += "... " + std::to_string(failure_count) + " failures in all\n";
  return failures;
}

}  // namespace gemmtune::testing
