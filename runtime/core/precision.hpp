// Precision classes: what a caller may accept of a kernel's arithmetic.
//   strict  IEEE FP32 by FFMA, as cuBLAS's pedantic FP32 (the FFMA families);
//   fp32    FP32-accurate: strict, or 3xTF32 on the tensor cores (error at or below FFMA's);
//   tf32    also single-pass TF32 on the tensor cores (each operand truncated to 10 bits of
//           mantissa, as CUBLAS_COMPUTE_32F_FAST_TF32 or PyTorch's allow_tf32).
// Each class admits the ones before it. The enum is the public API's (include/gemmtune/precision.hpp),
// so that callers and the code below dispatch name a class with one type.
#pragma once

#include <string_view>

#include "gemmtune/precision.hpp"

namespace gemmtune {

inline constexpr Precision kPrecisions[] = {Precision::Strict, Precision::Fp32, Precision::Tf32};

std::string_view precision_name(Precision precision);  // "strict", "fp32", "tf32"
// Parses a name (case-insensitive); throws std::invalid_argument naming the three otherwise.
Precision parse_precision(std::string_view text);

// Whether `precision` is one of the three (an enum from a caller may hold any int).
constexpr bool is_precision(Precision precision) {
  return precision == Precision::Strict || precision == Precision::Fp32 || precision == Precision::Tf32;
}

// Whether a kernel of class `kernel` may serve a caller that asked for `requested`.
constexpr bool admits(Precision requested, Precision kernel) {
  return static_cast<int>(kernel) <= static_cast<int>(requested);
}

// The tolerance on the normwise relative error against a reference, for a GEMM with inner
// dimension K computed in `precision`: FP32 accumulation's rounding grows with K; single-pass
// TF32 adds each operand's truncation (about 3e-4 on random data), and a wrong kernel is still
// far above it.
double gemm_tolerance(Precision precision, int K);

}  // namespace gemmtune
