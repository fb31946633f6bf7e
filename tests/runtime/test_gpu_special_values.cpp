// IEEE special values through every kernel family: infinities and NaNs in A and B come out as
// IEEE FP32 arithmetic gives them (inf x nonzero = inf, inf x 0 = NaN, inf - inf = NaN, NaN
// propagates); extreme magnitudes (near FLT_MAX, tiny, subnormal, signed zeros; rows and columns
// of nothing but tiny values against large ones) stay within the usual bound of an FP64
// reference; alpha = 0 leaves A and B out of the result and beta = 0 leaves C out, as BLAS
// defines them; alpha or beta NaN or infinite give what IEEE arithmetic gives.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <string>

#include "cuda_handles.hpp"
#include "family_registry.hpp"
#include "kernel_name.hpp"
#include "loaded_kernel.hpp"
#include "nvrtc_compiler.hpp"
#include "support/family_test_cases.hpp"
#include "support/gpu_or_skip.hpp"
#include "support/host_gemm.hpp"
#include "workspace.hpp"

namespace gemmtune {
namespace {

const float kInf = std::numeric_limits<float>::infinity();
const float kNaN = std::numeric_limits<float>::quiet_NaN();

// Recomputes p.ab and p.abs_ab from p.a and p.b in FP64, which follows IEEE's rules for
// infinities and NaNs.
void recompute_reference(testing::HostProblem& p) {
  for (int m = 0; m < p.M; ++m) {
    for (int n = 0; n < p.N; ++n) {
      double sum = 0.0, abs_sum = 0.0;
      for (int k = 0; k < p.K; ++k) {
        const double product = static_cast<double>(p.a[static_cast<std::size_t>(m) * p.K + k]) *
                               p.b[static_cast<std::size_t>(k) * p.N + n];
        sum += product;
        abs_sum += std::abs(product);
      }
      p.ab[static_cast<std::size_t>(m) * p.N + n] = sum;
      p.abs_ab[static_cast<std::size_t>(m) * p.N + n] = abs_sum;
    }
  }
}

// A random problem with infinities and NaNs planted: an infinity in A whose row meets a zero of B
// (inf x 0), opposite infinities meeting in one output (inf - inf), a NaN in B, an infinity in B
// against finite A, and -inf in A.
testing::HostProblem problem_with_infinities(int M, int N, int K) {
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
  recompute_reference(p);
  return p;
}

// Finite extremes whose results stay in range: values near FLT_MAX against small ones, tiny and
// subnormal values against large ones (products of ordinary size), and signed zeros.
testing::HostProblem problem_with_extremes(int M, int N, int K) {
  testing::HostProblem p = testing::make_host_problem(M, N, K, 32);
  auto a = [&](int m, int k) -> float& { return p.a[static_cast<std::size_t>(m) * K + k]; };
  auto b = [&](int k, int n) -> float& { return p.b[static_cast<std::size_t>(k) * N + n]; };
  for (int m = 0; m < M; m += 3) a(m, 0) = 3.0e38f;  // times B(0, n) in (-1, 1): in range
  for (int m = 1; m < M; m += 3) a(m, 1) = 1.0e-40f; // subnormal, times 1e30 below
  for (int n = 0; n < N; ++n) b(1, n) = n % 2 ? 1.0e30f : -1.0e30f;
  for (int m = 2; m < M; m += 3) a(m, 2) = 2.0e-38f; // tiny normal, times 1e28
  for (int n = 0; n < N; ++n) b(2, n) = 1.0e28f;
  for (int n = 0; n < N; n += 2) b(3, n) = -0.0f;
  for (int m = 0; m < M; m += 2) a(m, 4) = -0.0f;
  recompute_reference(p);
  return p;
}

// Rows and columns made entirely of tiny values against rows and columns of large ones, so that
// their products are of ordinary size and no other term hides them: subnormal (|x| < 2^-126:
// TF32 keeps fewer of their bits) and tiny normal values (1e-36, about 2^-120: a 3xTF32 split
// leaves them subnormal small parts). Large: 1e15, so that large times large stays in range.
testing::HostProblem problem_with_tiny_values(int M, int N, int K) {
  testing::HostProblem p = testing::make_host_problem(M, N, K, 33);
  const float scale[4] = {1.0f, 1.0e-39f, 1.0e-36f, 1.0e15f};  // by row of A (m % 4), column of B (n % 4)
  for (int m = 0; m < M; ++m) {
    for (int k = 0; k < K; ++k) p.a[static_cast<std::size_t>(m) * K + k] *= scale[m % 4];
  }
  for (int k = 0; k < K; ++k) {
    for (int n = 0; n < N; ++n) p.b[static_cast<std::size_t>(k) * N + n] *= scale[n % 4];
  }
  recompute_reference(p);
  return p;
}

// Tiny values in one place only: A's rows 70-89 (in the second 64-row block) hold subnormals
// (1e-39: TF32 keeps 7 of their bits) at k 260-269 (the third 128-k block) and zeros elsewhere,
// against B's rows 260-269 times 1e15; B's columns 130-139 (the third block of N) hold them at k
// 10-19 (the first), against A's columns 10-19 times 1e15. No other term hides them, so a kernel
// told of tiny values by blocks (tmawgmma's WATCH 2) that reads another block's flag than the one
// holding them leaves those outputs outside FP32's bound, as the tiny values above. Stream-K on
// this shape gives units of one k tile, so the k blocks are told apart too.
testing::HostProblem problem_with_a_tiny_block(int M, int N, int K) {
  testing::HostProblem p = testing::make_host_problem(M, N, K, 34);
  auto a = [&](int m, int k) -> float& { return p.a[static_cast<std::size_t>(m) * K + k]; };
  auto b = [&](int k, int n) -> float& { return p.b[static_cast<std::size_t>(k) * N + n]; };
  for (int k = 0; k < K; ++k) {
    const bool a_block = k >= 260 && k < 270, b_block = k >= 10 && k < 20;
    for (int m = 70; m < 90; ++m) a(m, k) = a_block ? a(m, k) * 1.0e-39f : 0.0f;
    for (int n = 130; n < 140; ++n) b(k, n) = b_block ? b(k, n) * 1.0e-39f : 0.0f;
    for (int n = 0; n < N; ++n) {
      if (a_block && (n < 130 || n >= 140)) b(k, n) *= 1.0e15f;
    }
    for (int m = 0; m < M; ++m) {
      if (b_block && (m < 70 || m >= 90)) a(m, k) *= 1.0e15f;
    }
  }
  recompute_reference(p);
  return p;
}

// Single-pass TF32 keeps the top 10 bits of an operand's FP32 fraction field: a subnormal keeps
// fewer significant bits, up to 2^-136 from its value (the spacing of TF32's subnormals). The
// sum over k of that times the other factor, for output (m, n): what the tf32 class may add to
// its bound (0 where no operand is subnormal).
double tf32_subnormal_allowance(const testing::HostProblem& p, int m, int n) {
  const double spacing = std::ldexp(1.0, -136);
  auto subnormal = [](float x) { return std::fpclassify(x) == FP_SUBNORMAL; };
  double allowance = 0.0;
  for (int k = 0; k < p.K; ++k) {
    const float a = p.a[static_cast<std::size_t>(m) * p.K + k], b = p.b[static_cast<std::size_t>(k) * p.N + n];
    if (subnormal(a)) allowance += spacing * std::abs(b);
    if (subnormal(b)) allowance += spacing * std::abs(a);
  }
  return allowance;
}

std::string show(double x) {
  char text[32];
  std::snprintf(text, sizeof text, "%.9g", x);
  return text;
}

// "" when every output is what IEEE and BLAS arithmetic give: alpha = 0 leaves the product out,
// beta = 0 leaves C out; the same NaN or infinity where the reference has one, else within
// (K + 4 + E) u of it (and, for the tf32 class, TF32's rounding of subnormal operands).
std::string check_special(const testing::HostProblem& p, float alpha, float beta, const std::vector<float>& c,
                          long long ldc, const KernelFamily& family) {
  const double u = std::ldexp(1.0, -24);
  const int product_error_units = family.product_error_units();
  const bool tf32_rounding = family.precision() == Precision::Tf32;
  std::string failures;
  int count = 0;
  for (int m = 0; m < p.M; ++m) {
    for (int n = 0; n < p.N; ++n) {
      const std::size_t i = static_cast<std::size_t>(m) * p.N + n;
      const double product = alpha == 0.0f ? 0.0 : alpha * p.ab[i];
      const double from_c = beta == 0.0f ? 0.0 : beta * static_cast<double>(p.c0[i]);
      const double expected = product + from_c;
      const float got = c[static_cast<std::size_t>(m * ldc + n)];
      bool ok;
      if (std::isnan(expected)) {
        ok = std::isnan(got);
      } else if (std::isinf(expected)) {
        ok = got == expected;
      } else {
        const double scale = (alpha == 0.0f ? 0.0 : std::abs(alpha) * p.abs_ab[i]) + std::abs(from_c);
        double bound = (p.K + 4 + product_error_units) * u * scale;
        if (tf32_rounding && alpha != 0.0f) bound += std::abs(alpha) * tf32_subnormal_allowance(p, m, n);
        ok = std::isfinite(got) && std::abs(got - expected) <= bound + 1e-30;
      }
      if (!ok && count++ < 5) {
        failures += "C(" + std::to_string(m) + ", " + std::to_string(n) + ") = " + show(got) + ", expected " +
                    show(expected) + "\n";
      }
    }
  }
  if (count > 5) failures += "... " + std::to_string(count) + " wrong in all\n";
  return failures;
}

void check_family_on_special_values(std::string_view family_name) {
  const auto device = testing::gpu_or_skip();
  if (!device) return;
  const KernelFamily& family = find_family(family_name);
  if (!family.compile_arch(device->arch())) {
    WARN(family.name() << " skipped: it does not run on " << device->arch());
    return;
  }
  // 130 x 130: a 128 x 128 block lies inside the matrix, so that warptile's steady loop (no bounds
  // checks) runs too, for the tiles whose next stage is whole (K 50: 4 of 7 at BK 8).
  const testing::HostProblem problems[] = {problem_with_infinities(130, 130, 50), problem_with_extremes(130, 130, 50),
                                           problem_with_tiny_values(130, 130, 50), problem_with_a_tiny_block(200, 200, 300)};
  const char* problem_names[] = {"infinities and NaNs", "extremes", "tiny values", "a block of tiny values"};
  // (alpha, beta): the ordinary cases, then alpha = 0 (A and B hold infinities and NaNs), then
  // NaN and infinite scalars.
  const std::pair<float, float> scalars[] = {{0.75f, 0.0f}, {0.75f, 0.5f}, {0.0f, 0.0f}, {0.0f, 0.5f},
                                             {0.75f, kNaN}, {0.75f, kInf}, {kNaN, 0.5f}};
  std::vector<KernelConfig> configs;  // the defaults, shape defaults too, of every layout
  for (Layout layout : {Layout::NN, Layout::NT, Layout::TN, Layout::TT}) {
    for (KernelConfig& config : family.default_configs(layout, family.alignments().front())) {
      configs.push_back(std::move(config));
    }
    // tmatf32's 256-wide tiles redo their FFMA pass in passes of columns; in a cluster of two
    // (256 on A's side for nn, B's otherwise; tn's transposed copy leaves room for 2 stages).
    if (family.name() == "tmatf32") {
      KernelConfig wide = family.default_config(layout, family.alignments().front());
      wide.set(layout == Layout::NN ? "BM" : "BN", 256);
      wide.set("STAGES", 2);
      configs.push_back(wide);
      wide.set("CLUSTER", 2);
      configs.push_back(wide);
    }
    // tn from a transposed copy of A (ACOPY 2), run as nn: the FFMA redo reads the copy.
    if (layout == Layout::TN && (family.name() == "tmawgmma" || family.name() == "tmatf32")) {
      KernelConfig copied = family.default_config(layout, family.alignments().front());
      copied.set("ACOPY", 2);
      configs.push_back(copied);
    }
    // A misaligned call's configuration reading aligned copies of A and B (warptile COPY 2): the
    // copies carry the special values, and pad with zeros.
    if (family.name() == "warptile") {
      KernelConfig copied = family.default_config(layout, 1);
      copied.set("COPY", 2);
      configs.push_back(copied);
      // No register cap (REGS 2): its epilogue keeps more runs of C in flight.
      KernelConfig uncapped = family.default_config(layout, family.alignments().front());
      uncapped.set("REGS", 2);
      configs.push_back(uncapped);
    }
    // 3xTF32 told of tiny values by a scan of A and B before the GEMM (WATCH 2), not in its loop.
    if (family.name() == "tf32x3") {
      KernelConfig scanned = family.default_config(layout, family.alignments().front());
      scanned.set("WATCH", 2);
      configs.push_back(scanned);
      scanned.set("SPLITK", 4);
      configs.push_back(scanned);
    }
    if (family.name() == "tmawgmma") {
      KernelConfig scanned = family.default_config(layout, family.alignments().front());
      scanned.set("WATCH", 2);
      configs.push_back(scanned);
      scanned.set("SCHEDULE", 3);
      configs.push_back(scanned);
    }
    // Two MMA warpgroups taking turns (PINGPONG 2, tiles of 64 rows on the side read from
    // registers: B's for nn, A's otherwise): each redoes its own units, behind its own barrier.
    if (family.name() == "tmawgmma" || family.name() == "tmatf32") {
      KernelConfig turns = family.default_config(layout, family.alignments().front());
      turns.set(layout == Layout::NN ? "BN" : "BM", 64);
      turns.set("PINGPONG", 2);
      configs.push_back(turns);
      // A narrow Y tile (32 rows read from shared memory: A's for nn, B's otherwise), and split-K
      // summed in clusters of four (CSPLIT 4): each block redoes its own share of a unit's k tiles
      // before rank 0 adds the shares; with WATCH 2, each reads the scan's flags of its share.
      KernelConfig narrow = family.default_config(layout, family.alignments().front());
      narrow.set(layout == Layout::NN ? "BM" : "BN", 32);
      configs.push_back(narrow);
      KernelConfig shared_sums = family.default_config(layout, family.alignments().front());
      shared_sums.set("BM", 64);
      shared_sums.set("BN", 64);
      shared_sums.set("SCHEDULE", 2);
      shared_sums.set("SPLITK", 2);
      shared_sums.set("CSPLIT", 4);
      configs.push_back(shared_sums);
      if (family.name() == "tmawgmma") {
        shared_sums.set("WATCH", 2);
        configs.push_back(shared_sums);
      }
    }
  }
  for (const KernelConfig& config : configs) {
    const Layout layout = config.layout;
    const CompiledKernel compiled = compile_kernel(config, device->arch());
    const LoadedKernel kernel(config, compiled.cubin, compiled.lowered_name);
    for (const testing::HostProblem& p : problems) {
      const bool a_t = a_is_transposed(layout), b_t = b_is_transposed(layout);
      // Leading dimensions rounded up to 4 floats, so that every family's widest variant serves.
      auto aligned_ld = [](long long minimum) { return (minimum + 3) / 4 * 4; };
      const long long lda = aligned_ld(a_t ? p.M : p.K), ldb = aligned_ld(b_t ? p.K : p.N), ldc = aligned_ld(p.N);
      DeviceBuffer<float> a(static_cast<std::size_t>(lda) * (a_t ? p.K : p.M));
      DeviceBuffer<float> b(static_cast<std::size_t>(ldb) * (b_t ? p.N : p.K));
      DeviceBuffer<float> c(static_cast<std::size_t>(ldc) * p.M);
      a.upload(testing::store_operand(p.a, p.M, p.K, a_t, lda, 0, 0.0f));
      b.upload(testing::store_operand(p.b, p.K, p.N, b_t, ldb, 0, 0.0f));
      for (auto [alpha, beta] : scalars) {
        // beta == 0 must not read C: poison it with NaN.
        c.upload(testing::store_operand(beta == 0.0f ? std::vector<float>(p.c0.size(), kNaN) : p.c0, p.M, p.N, false,
                                        ldc, 0, 0.0f));
        GemmParams params{p.M, p.N, p.K, alpha, beta, a.data(), lda, b.data(), ldb, c.data(), ldc, nullptr, 0};
        Workspace workspace;
        workspace.attach(kernel, params, nullptr);
        kernel.launch(params, nullptr);
        GT_CUDA(cudaDeviceSynchronize(), kernel.name());
        INFO(kernel.name() << ", " << problem_names[&p - problems] << ", alpha "
                           << alpha << ", beta " << beta);
        CHECK(check_special(p, alpha, beta, c.download(), ldc, family) == "");
      }
    }
  }
}

// One test case a registered family (tests/support/family_test_cases.hpp). The FFMA families are
// IEEE by construction; the 3xTF32 ones compute blocks that hold special values again with FFMA.
const testing::FamilyTestCases special_values("special values come out as IEEE arithmetic gives them", "[gpu]",
                                              [](const KernelFamily& family) {
                                                check_family_on_special_values(family.name());
                                              });

}  // namespace

// A family registered once the program runs is not left out.
TEST_CASE("special values come out as IEEE arithmetic gives them: any other registered family", "[gpu]") {
  if (!testing::gpu_or_skip()) return;
  for (const KernelFamily* family : all_families()) {
    if (!special_values.covers(*family)) check_family_on_special_values(family->name());
  }
}

}  // namespace gemmtune
