#include "precision.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "text.hpp"

namespace gemmtune {

std::string_view precision_name(Precision precision) {
  switch (precision) {
    case Precision::Strict: return "strict";
    case Precision::Fp32: return "fp32";
    case Precision::Tf32: return "tf32";
  }
  return "?";
}

const char* to_string(Precision precision) noexcept { return precision_name(precision).data(); }

Precision parse_precision(std::string_view text) {
  const std::string name = lower(text);
  for (Precision precision : kPrecisions) {
    if (name == precision_name(precision)) return precision;
  }
  throw std::invalid_argument("precision must be strict, fp32 or tf32, not " + quoted(text));
}

double gemm_tolerance(Precision precision, int K) {
  // float32 unit round-off is 2^-24; a K-term dot product accumulates about K of them in the
  // worst case. Twice that, with a floor for the epilogue's own rounding at tiny K.
  const double fp32 = std::max(1e-5, 2.0 * K * std::ldexp(1.0, -24));
  // TF32 truncates each operand by up to 2^-10 of itself; on random data the normwise error is
  // near 3e-4 whatever K (cuBLAS's TF32: 2.6e-4 on the H200).
  return precision == Precision::Tf32 ? std::max(4e-3, fp32) : fp32;
}

}  // namespace gemmtune
