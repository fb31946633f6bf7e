#include "gemm_call.hpp"

#include <cstdint>

#include "problem.hpp"

namespace gemmtune {

std::optional<std::string> validate_call(const GemmParams& p, Layout layout) {
  // The call's description is built only for a message: a valid call costs a few compares.
  const auto refuse = [&](const std::string& why) { return describe_call(p, layout) + ": " + why; };
  if (p.M < 1 || p.N < 1 || p.K < 1) return refuse("M, N and K must be at least 1");
  if (p.batch < 1 || p.batch > kMaxBatch) {
    return refuse("batch " + std::to_string(p.batch) + " is outside 1.." + std::to_string(kMaxBatch));
  }
  const int arrays = (p.A_array != nullptr) + (p.B_array != nullptr) + (p.C_array != nullptr);
  if (arrays != 0 && arrays != 3) return refuse("the pointer arrays of A, B and C are given all three or none");
  if (arrays == 0 && (p.A == nullptr || p.B == nullptr || p.C == nullptr)) {
    return refuse("A, B and C must not be null");
  }
  const long long min_lda = a_is_transposed(layout) ? p.M : p.K;
  const long long min_ldb = b_is_transposed(layout) ? p.K : p.N;
  if (p.lda < min_lda) return refuse("lda " + std::to_string(p.lda) + " is below " + std::to_string(min_lda));
  if (p.ldb < min_ldb) return refuse("ldb " + std::to_string(p.ldb) + " is below " + std::to_string(min_ldb));
  if (p.ldc < p.N) return refuse("ldc " + std::to_string(p.ldc) + " is below " + std::to_string(p.N));
  if (arrays == 0 && p.batch > 1) {
    // A stride of 0 gives every entry the same A or B, as cuBLAS allows; entries of C must not
    // overlap (two blocks would race on one element).
    if (p.stride_a < 0 || p.stride_b < 0) return refuse("the strides of A and B must not be negative");
    const long long c_entry = (static_cast<long long>(p.M) - 1) * p.ldc + p.N;
    if (p.stride_c < c_entry) {
      return refuse("stride_c " + std::to_string(p.stride_c) + " is below " + std::to_string(c_entry) +
                    " ((M - 1) * ldc + N): the batch's entries of C would overlap");
    }
  }
  return std::nullopt;
}

int call_alignment(const GemmParams& p) {
  // The entries' pointers are in device memory, which the host does not read.
  if (p.A_array != nullptr) return 1;
  for (int align : {4, 2}) {
    const std::uintptr_t bytes = static_cast<std::uintptr_t>(align) * sizeof(float);
    const bool pointers = reinterpret_cast<std::uintptr_t>(p.A) % bytes == 0 &&
                          reinterpret_cast<std::uintptr_t>(p.B) % bytes == 0 &&
                          reinterpret_cast<std::uintptr_t>(p.C) % bytes == 0;
    const bool strides = p.lda % align == 0 && p.ldb % align == 0 && p.ldc % align == 0 &&
                         (p.batch == 1 || (p.stride_a % align == 0 && p.stride_b % align == 0 && p.stride_c % align == 0));
    if (pointers && strides) return align;
  }
  return 1;
}

Problem problem_of(const GemmParams& p, Layout layout) { return Problem{layout, p.M, p.N, p.K, p.batch}; }

std::string describe_call(const GemmParams& p, Layout layout) {
  return std::string(layout_name(layout)) + " " + std::to_string(p.M) + "x" + std::to_string(p.N) +
         "x" + std::to_string(p.K) + (p.batch == 1 ? std::string() : " batch " + std::to_string(p.batch));
}

}  // namespace gemmtune
