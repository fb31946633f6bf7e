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

GemmParams strided(int batch, long long stride_a, long long stride_b, long long stride_c) {
  GemmParams p = call(16, 16, 16, 16, 16, 16);
  p.batch = batch;
  p.stride_a = stride_a;
  p.stride_b = stride_b;
  p.stride_c = stride_c;
  return p;
}

std::string refusal(const std::optional<std::string>& reason) { return reason.value_or(""); }

TEST_CASE("batched calls are validated: the batch, the strides and the pointer arrays", "[call]") {
  CHECK_FALSE(validate_call(strided(3, 256, 256, 256), Layout::NN));
  CHECK_FALSE(validate_call(strided(3, 0, 0, 256), Layout::NN));  // one A and one B for every entry
  CHECK_FALSE(validate_call(strided(1, -5, 0, 0), Layout::NN));   // a batch of 1 ignores its strides
  CHECK(refusal(validate_call(strided(0, 256, 256, 256), Layout::NN)).find("batch 0 is outside 1..65535") !=
        std::string::npos);
  CHECK(refusal(validate_call(strided(65536, 256, 256, 256), Layout::NN)).find("outside 1..65535") != std::string::npos);
  CHECK(refusal(validate_call(strided(3, -256, 256, 256), Layout::NN)).find("must not be negative") != std::string::npos);
  // (M - 1) * ldc + N = 15 * 16 + 16 = 256: one float less and entries of C overlap.
  CHECK(refusal(validate_call(strided(3, 256, 256, 255), Layout::NN))
            .find("stride_c 255 is below 256 ((M - 1) * ldc + N): the batch's entries of C would overlap") !=
        std::string::npos);
  CHECK(refusal(validate_call(strided(3, 256, 256, 0), Layout::NN)).find("nn 16x16x16 batch 3: stride_c 0") !=
        std::string::npos);

  const float* entries[3] = {};
  float* outputs[3] = {};
  GemmParams arrays = call(16, 16, 16, 16, 16, 16);
  arrays.batch = 3;
  arrays.A = arrays.B = nullptr;
  arrays.C = nullptr;
  arrays.A_array = entries;
  arrays.B_array = entries;
  arrays.C_array = outputs;
  CHECK_FALSE(validate_call(arrays, Layout::NN));
  CHECK(call_alignment(arrays) == 1);
  arrays.B_array = nullptr;
  CHECK(refusal(validate_call(arrays, Layout::NN)).find("all three or none") != std::string::npos);
}

TEST_CASE("a batched call's alignment counts its strides", "[call]") {
  CHECK(call_alignment(strided(3, 256, 256, 256)) == 4);
  CHECK(call_alignment(strided(3, 258, 256, 256)) == 2);
  CHECK(call_alignment(strided(3, 256, 256, 257)) == 1);
  CHECK(call_alignment(strided(1, 257, 257, 257)) == 4);  // a batch of 1 has no second entry
}

TEST_CASE("families that serve no batched call refuse one, and split-K warp-tiled ones too", "[call]") {
  const DeviceTraits h200{132, 90};
  const GemmParams batched = strided(3, 256, 256, 256);
  for (const char* plain_only : {"naive", "reg2d", "vectorized", "skinny"}) {
    INFO(plain_only);
    const KernelFamily& family = find_family(plain_only);
    const KernelConfig config = family.default_config(Layout::NN, family.alignments().front());
    CHECK(refusal(can_implement(config, batched, h200)).find("serves plain (unbatched) calls only") != std::string::npos);
    CHECK_FALSE(can_implement(config, call(16, 16, 16, 16, 16, 16), h200));
  }
  for (const char* batch_capable : {"warptile", "wgmma", "tf32x3"}) {
    INFO(batch_capable);
    const KernelFamily& family = find_family(batch_capable);
    KernelConfig config = family.default_config(Layout::NN, family.alignments().front());
    config.set("SPLITK", 1);
    CHECK_FALSE(can_implement(config, batched, h200));
    CHECK(family.launch_shape(config, Problem{Layout::NN, 16, 16, 16, 3}, h200).grid[2] == 3);
    config.set("SPLITK", 4);
    CHECK(refusal(can_implement(config, batched, h200)).find("with SPLITK 4 serves plain calls only") != std::string::npos);
    CHECK(family.launch_shape(config, Problem{Layout::NN, 16, 16, 16, 1}, h200).grid[2] == 4);
  }
}

TEST_CASE("the TMA families serve strided batches of aligned entries that do not overlap, through one schedule",
          "[call]") {
  const DeviceTraits h200{132, 90};
  for (const char* name : {"tmawgmma", "tmatf32"}) {
    INFO(name);
    const KernelFamily& family = find_family(name);
    const KernelConfig aligned = family.default_config(Layout::NN, 4);
    const GemmParams batched = strided(3, 256, 256, 256);  // 16 x 16 entries, packed
    CHECK_FALSE(can_implement(aligned, batched, h200));
    GemmParams arrays = batched;
    const float* entries[3] = {nullptr, nullptr, nullptr};
    arrays.A_array = entries, arrays.B_array = entries;
    float* outputs[3] = {nullptr, nullptr, nullptr};
    arrays.C_array = outputs;
    CHECK(refusal(can_implement(family.default_config(Layout::NN, 1), arrays, h200)).find("strided batches only") !=
          std::string::npos);
    CHECK(refusal(can_implement(family.default_config(Layout::NN, 1), batched, h200)).find("ALIGN 1 serves plain") !=
          std::string::npos);
    // One A for every entry (stride 0), or entries that overlap: refused, with the operand named.
    CHECK(refusal(can_implement(aligned, strided(3, 0, 256, 256), h200)).find("A's stride 0") != std::string::npos);
    CHECK(refusal(can_implement(aligned, strided(3, 256, 128, 256), h200)).find("B's stride 128") != std::string::npos);
    // The persistent grid counts every entry's tiles: 64 entries of one 128 x 128 tile each.
    CHECK(family.launch_shape(aligned, Problem{Layout::NN, 128, 128, 128, 1}, h200).grid[0] == 1);
    CHECK(family.launch_shape(aligned, Problem{Layout::NN, 128, 128, 128, 64}, h200).grid[0] == 64);
    CHECK(family.launch_shape(aligned, Problem{Layout::NN, 128, 128, 128, 200}, h200).grid[0] == 132);
  }
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

TEST_CASE("a batch of results is compared entry by entry, naming the entry that fails", "[compare]") {
  const int M = 2, N = 3, batch = 3;
  const long long ldc = 3, stride = 8;  // two floats of padding between entries
  std::vector<double> ref(batch * stride, 2.0);
  std::vector<float> got(batch * stride, 2.0f);
  got[6] = got[7] = 1e9f;  // padding between entries 0 and 1: ignored
  const Comparison exact = compare_outputs(got, ref, M, N, ldc, 1e-6, batch, stride);
  CHECK(exact.passed);
  CHECK(exact.summary.rfind("entry 0: ", 0) == 0);
  got[2 * stride + 4] = 2.5f;  // entry 2, row 1, column 1
  const Comparison wrong = compare_outputs(got, ref, M, N, ldc, 1e-6, batch, stride);
  CHECK_FALSE(wrong.passed);
  CHECK(wrong.summary.rfind("entry 2: ", 0) == 0);
  CHECK(wrong.max_abs_error == Approx(0.5));
  // One entry alone looks right: the error is not diluted by the batch.
  CHECK(compare_outputs(got, ref, M, N, ldc, 1e-6, 2, stride).passed);
  got[stride] = std::nanf("");
  CHECK(compare_outputs(got, ref, M, N, ldc, 1e-6, batch, stride).summary.rfind("entry 1: 1 outputs NaN", 0) == 0);
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
