#include "gemm_call.hpp"

#include <cstdint>

#include "problem.hpp"

namespace gemmtune {

std::optional<std::string> validate_call(const GemmParams& p, Layout layout) {
  // The call's description is built only for a message: a valid call costs a few compares.
  const auto refuse = [&](const std::string& why) { return describe_call(p, layout) + ": " + why; };
  if (p.M < 1 || p.N < 1 || p.K < 1) return refuse("M, N and K must be at least 1");
  if (p.A == nullptr || p.B == nullptr || p.C == nullptr) return refuse("A, B and C must not be null");
  const long long min_lda = a_is_transposed(layout) ? p.M : p.K;
  const long long min_ldb = b_is_transposed(layout) ? p.K : p.N;
  if (p.lda < min_lda) return refuse("lda " + std::to_string(p.lda) + " is below " + std::to_string(min_lda));
  if (p.ldb < min_ldb) return refuse("ldb " + std::to_string(p.ldb) + " is below " + std::to_string(min_ldb));
  if (p.ldc < p.N) return refuse("ldc " + std::to_string(p.ldc) + " is below " + std::to_string(p.N));
  return std::nullopt;
}

int call_alignment(const GemmParams& p) {
  for (int align : {4, 2}) {
    const std::uintptr_t bytes = static_cast<std::uintptr_t>(align) * sizeof(float);
    const bool pointers = reinterpret_cast<std::uintptr_t>(p.A) % bytes == 0 &&
                          reinterpret_cast<std::uintptr_t>(p.B) % bytes == 0 &&
                          reinterpret_cast<std::uintptr_t>(p.C) % bytes == 0;
    const bool strides = p.lda % align == 0 && p.ldb % align == 0 && p.ldc % align == 0;
    if (pointers && strides) return align;
  }
  return 1;
}

std::string describe_call(const GemmParams& p, Layout layout) {
  return std::string(layout_name(layout)) + " " + std::to_string(p.M) + "x" + std::to_string(p.N) +
         "x" + std::to_string(p.K);
}

}  // namespace gemmtune
