// IEEE special values through the kernels: infinities and NaNs in A and B must come out as IEEE
// FP32 arithmetic gives them (inf x nonzero = inf, inf x 0 = NaN, inf - inf = NaN, NaN
// propagates), and every other output stays within the usual bound of an FP64 reference.
#include <catch2/catch.hpp>

#include <cmath>
#include <limits>
#include <string>

#include "cuda_handles.hpp"
#include "family_registry.hpp"
#include "kernel_name.hpp"
#include "loaded_kernel.hpp"
#include "nvrtc_compiler.hpp"
#include "support/gpu_or_skip.hpp"
#include "support/host_gemm.hpp"
#include "workspace.hpp"

namespace gemmtune {
namespace {

const float kInf = std::numeric_limits<float>::infinity();
const float kNaN = std::numeric_limits<float>::quiet_NaN();

// A random problem with special values planted: an infinity in A whose row meets a zero of B
// (inf x 0), opposite infinities meeting in one output (inf - inf), a NaN in B, an infinity in B
// against finite A, and -inf in A. The FP64 reference is recomputed with IEEE rules (double
// arithmetic follows them).
testing::HostProblem problem_with_special_values(int M, int N, int K) {
  testing::HostProblem p = testing::make_host_problem(M, N, K, 31);
  auto a = [&](int m, int k) -> float& { return p.a[static_cast<std::size_t>(m) * K + k]; };
  auto b = [&](int k, int n) -> float& { return p.b[static_cast<std::size_t>(k) * N + n]; };
  a(1, 2) = kInf;            // row 1: inf, except where B's row 2 is 0
  b(2, 5) = 0.0f;            //   C(1, 5) = NaN
  a(3, 0) = kInf;            // row 3 against B(0, n) and -inf below: C(3, 7) = inf - inf = NaN
  a(3, 1) = -kInf;
  b(0, 7) = 1.0f, b(1, 7) = 1.0f;
  b(4, 9) = kNaN;            // column 9: NaN everywhere
  b(K - 1, 11) = -kInf;      // column 11: -inf x a(m, K - 1)
  a(M - 1, K - 2) = -kInf;   // last row
  for (int m = 0; m < M; ++m) {
    for (int n = 0; n < N; ++n) {
      double sum = 0.0, abs_sum = 0.0;
      for (int k = 0; k < K; ++k) {
        const double product = static_cast<double>(a(m, k)) * b(k, n);
        sum += product;
        abs_sum += std::abs(product);
      }
      p.ab[static_cast<std::size_t>(m) * N + n] = sum;
      p.abs_ab[static_cast<std::size_t>(m) * N + n] = abs_sum;
    }
  }
  return p;
}

// "" when every output is what IEEE arithmetic gives: the same NaN or infinity where the
// reference has one, else within (K + 4 + E) u of it.
std::string check_special(const testing::HostProblem& p, float alpha, float beta, const std::vector<float>& c,
                          long long ldc, int product_error_units) {
  const double u = std::ldexp(1.0, -24);
  std::string failures;
  int count = 0;
  for (int m = 0; m < p.M; ++m) {
    for (int n = 0; n < p.N; ++n) {
      const std::size_t i = static_cast<std::size_t>(m) * p.N + n;
      const double c0 = beta == 0.0f ? 0.0 : p.c0[i];
      const double expected = alpha * p.ab[i] + beta * c0;
      const float got = c[static_cast<std::size_t>(m * ldc + n)];
      bool ok;
      if (std::isnan(expected)) {
        ok = std::isnan(got);
      } else if (std::isinf(expected)) {
        ok = got == expected;
      } else {
        const double bound = (p.K + 4 + product_error_units) * u * (std::abs(alpha) * p.abs_ab[i] + std::abs(beta * c0));
        ok = std::isfinite(got) && std::abs(got - expected) <= bound + 1e-30;
      }
      if (!ok && count++ < 5) {
        failures += "C(" + std::to_string(m) + ", " + std::to_string(n) + ") = " + std::to_string(got) +
                    ", expected " + std::to_string(expected) + "\n";
      }
    }
  }
  if (count > 5) failures += "... " + std::to_string(count) + " wrong in all\n";
  return failures;
}

void check_family_on_special_values(const char* family_name) {
  const auto device = testing::gpu_or_skip();
  if (!device) return;
  const KernelFamily& family = find_family(family_name);
  if (!family.compile_arch(device->arch())) return;
  const testing::HostProblem p = problem_with_special_values(130, 70, 50);
  for (Layout layout : {Layout::NN, Layout::NT, Layout::TN, Layout::TT}) {
    const KernelConfig config = family.default_config(layout, family.alignments().front());
    const CompiledKernel compiled = compile_kernel(config, device->arch());
    const LoadedKernel kernel(config, compiled.cubin, compiled.lowered_name);
    const bool a_t = a_is_transposed(layout), b_t = b_is_transposed(layout);
    // Leading dimensions rounded up to 4 floats, so that every family's widest variant serves.
    auto aligned_ld = [](long long minimum) { return (minimum + 3) / 4 * 4; };
    const long long lda = aligned_ld(a_t ? p.M : p.K), ldb = aligned_ld(b_t ? p.K : p.N), ldc = aligned_ld(p.N);
    DeviceBuffer<float> a(static_cast<std::size_t>(lda) * (a_t ? p.K : p.M));
    DeviceBuffer<float> b(static_cast<std::size_t>(ldb) * (b_t ? p.N : p.K));
    DeviceBuffer<float> c(static_cast<std::size_t>(ldc) * p.M);
    a.upload(testing::store_operand(p.a, p.M, p.K, a_t, lda, 0, 0.0f));
    b.upload(testing::store_operand(p.b, p.K, p.N, b_t, ldb, 0, 0.0f));
    for (float beta : {0.0f, 0.5f}) {
      c.upload(testing::store_operand(beta == 0.0f ? std::vector<float>(p.c0.size(), kNaN) : p.c0, p.M, p.N, false,
                                      ldc, 0, 0.0f));
      GemmParams params{p.M, p.N, p.K, 0.75f, beta, a.data(), lda, b.data(), ldb, c.data(), ldc, nullptr, 0};
      Workspace workspace;
      workspace.attach(config, params, nullptr);
      kernel.launch(params, nullptr);
      GT_CUDA(cudaDeviceSynchronize(), kernel.name());
      INFO(kernel.name() << ", beta " << beta);
      CHECK(check_special(p, 0.75f, beta, c.download(), ldc, family.product_error_units()) == "");
    }
  }
}

}  // namespace

// The FFMA families are IEEE by construction; tmawgmma computes the units that hold such values
// again with FFMA. (tf32x3 and wgmma still turn some of them into NaN: issue 15.)
TEST_CASE("infinities and NaNs come out as IEEE arithmetic gives them: warptile", "[gpu]") {
  check_family_on_special_values("warptile");
}
TEST_CASE("infinities and NaNs come out as IEEE arithmetic gives them: skinny", "[gpu]") {
  check_family_on_special_values("skinny");
}
TEST_CASE("infinities and NaNs come out as IEEE arithmetic gives them: tmawgmma", "[gpu]") {
  check_family_on_special_values("tmawgmma");
}

}  // namespace gemmtune
