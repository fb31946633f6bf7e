// Host-side checks that need no GPU: call validation, alignment, result comparison, timing
// statistics.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdint>
#include <limits>

#include "can_implement.hpp"
#include "compare.hpp"
#include "family_registry.hpp"
#include "gemm_call.hpp"
#include "precision.hpp"
#include "timing.hpp"

namespace gemmtune {
namespace {

// Fake device addresses: the checks look at their values only.
const float* address(std::uintptr_t value) { return reinterpret_cast<const float*>(value); }

GemmParams call(int M, int N, int K, long long lda, long long ldb, long long ldc, std::uintptr_t base = 0x10000) {
  return GemmParams{M, N, K, 1.0f, 0.0f, address(base), lda, address(base + 0x100000), ldb,
                    const_cast<float*>(address(base + 0x200000)), ldc, nullptr, 0};
}

}  // namespace

TEST_CASE("calls are validated against the layout's minimum leading dimensions", "[call]") {
  CHECK_FALSE(validate_call(call(10, 20, 30, 30, 20, 20), Layout::NN));
  CHECK(validate_call(call(10, 20, 30, 29, 20, 20), Layout::NN).value_or("").find("lda 29 is below 30") != std::string::npos);
  CHECK_FALSE(validate_call(call(10, 20, 30, 10, 30, 20), Layout::TT));
  CHECK(validate_call(call(10, 20, 30, 10, 20, 20), Layout::TT).value_or("").find("ldb 20 is below 30") != std::string::npos);
  CHECK(validate_call(call(10, 20, 30, 30, 20, 19), Layout::NN).value_or("").find("ldc 19 is below 20") != std::string::npos);
  CHECK(validate_call(call(0, 20, 30, 30, 20, 20), Layout::NN).value_or("").find("at least 1") != std::string::npos);
  GemmParams null_a = call(10, 20, 30, 30, 20, 20);
  null_a.A = nullptr;
  CHECK(validate_call(null_a, Layout::NN).value_or("").find("must not be null") != std::string::npos);
}

TEST_CASE("the call's alignment is the widest that every pointer and stride allows", "[call]") {
  CHECK(call_alignment(call(8, 8, 8, 8, 8, 8)) == 4);
  CHECK(call_alignment(call(8, 8, 8, 10, 8, 8)) == 2);
  CHECK(call_alignment(call(8, 8, 8, 9, 8, 8)) == 1);
  CHECK(call_alignment(call(8, 8, 8, 8, 8, 8, 0x10008)) == 2);
  CHECK(call_alignment(call(8, 8, 8, 8, 8, 8, 0x10004)) == 1);
}

TEST_CASE("a configuration wider than the call's alignment cannot implement it", "[call]") {
  const KernelConfig wide = find_family("vectorized").default_config(Layout::NN, 4);
  const KernelConfig narrow = find_family("vectorized").default_config(Layout::NN, 1);
  const DeviceTraits h200{132, 90};
  CHECK(can_implement(wide, call(8, 8, 8, 9, 8, 8), h200).value_or("").find("aligned to 4 floats") != std::string::npos);
  CHECK_FALSE(can_implement(narrow, call(8, 8, 8, 9, 8, 8), h200));
  CHECK_FALSE(can_implement(wide, call(8, 8, 8, 8, 8, 8), h200));
}

TEST_CASE("result comparison catches wrong values, NaN and ignores padding", "[compare]") {
  const int M = 3, N = 4;
  const long long ldc = 6;
  std::vector<float> ref(M * ldc, 1.0f), got = ref;
  got[5] = 1e9f;  // padding: ignored
  CHECK(compare_outputs(got, ref, M, N, ldc, 1e-5).passed);
  got[ldc + 2] = 1.001f;
  const Comparison wrong = compare_outputs(got, ref, M, N, ldc, 1e-5);
  CHECK_FALSE(wrong.passed);
  CHECK(wrong.max_abs_error == Approx(0.001).epsilon(1e-3));
  got[ldc + 2] = std::nanf("");
  const Comparison nan = compare_outputs(got, ref, M, N, ldc, 1e-5);
  CHECK_FALSE(nan.passed);
  CHECK(nan.non_finite == 1);
  CHECK(nan.summary.find("NaN") != std::string::npos);
}

TEST_CASE("result comparison against an FP64 reference measures the FP32 result's own rounding", "[compare]") {
  const int M = 2, N = 2;
  // 1/3 in FP64 and its nearest float: a relative difference of about 1e-8, which an FP32
  // reference (the float itself) would report as 0.
  const std::vector<double> exact(M * N, 1.0 / 3.0);
  const std::vector<float> rounded(M * N, static_cast<float>(1.0 / 3.0));
  const Comparison close = compare_outputs(rounded, exact, M, N, N, 1e-7);
  CHECK(close.passed);
  CHECK(close.relative_error > 0);
  CHECK(close.relative_error < std::ldexp(1.0, -24));
  CHECK(compare_outputs(rounded, std::vector<float>(M * N, static_cast<float>(1.0 / 3.0)), M, N, N, 1e-7)
            .relative_error == 0);
  std::vector<float> off = rounded;
  off[3] = 0.34f;
  CHECK_FALSE(compare_outputs(off, exact, M, N, N, 1e-3).passed);
  // Beyond FLT_MAX in FP64: FP32's infinity of the same sign is right there, another one is not.
  std::vector<double> huge = exact;
  huge[0] = 1e300;
  std::vector<float> inf = rounded;
  inf[0] = std::numeric_limits<float>::infinity();
  CHECK(compare_outputs(inf, huge, M, N, N, 1e-3).non_finite == 0);
  inf[0] = -std::numeric_limits<float>::infinity();
  CHECK(compare_outputs(inf, huge, M, N, N, 1e-3).non_finite == 1);
  inf[0] = std::numeric_limits<float>::infinity();
  CHECK(compare_outputs(inf, exact, M, N, N, 1e-3).non_finite == 1);
}

TEST_CASE("the FP32 tolerance grows with K and has a floor", "[compare]") {
  CHECK(gemm_tolerance(Precision::Fp32, 1) == 1e-5);
  CHECK(gemm_tolerance(Precision::Strict, 1) == 1e-5);
  CHECK(gemm_tolerance(Precision::Fp32, 4096) == Approx(2 * 4096 * std::ldexp(1.0, -24)));
  CHECK(gemm_tolerance(Precision::Fp32, 65536) > gemm_tolerance(Precision::Fp32, 4096));
  // Single-pass TF32's truncation (about 3e-4 on random data) passes; a wrong kernel (O(1)) does not.
  CHECK(gemm_tolerance(Precision::Tf32, 1024) > 1e-3);
  CHECK(gemm_tolerance(Precision::Tf32, 1024) < 1e-2);
}

TEST_CASE("timing statistics: median, quantiles and range", "[timing]") {
  const TimingStats stats = summarize_samples({5, 1, 4, 2, 3});
  CHECK(stats.median_ms == 3);
  CHECK(stats.min_ms == 1);
  CHECK(stats.max_ms == 5);
  CHECK(stats.p10_ms == Approx(1.4));
  CHECK(stats.p90_ms == Approx(4.6));
  CHECK(stats.repetitions == 5);
}

}  // namespace gemmtune
