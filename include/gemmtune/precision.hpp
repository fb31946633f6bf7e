// The precision classes a caller may ask of gemmtune's kernels (docs/api.md):
//   Strict  IEEE FP32 by FFMA, as cuBLAS's pedantic FP32;
//   Fp32    FP32-accurate: Strict, or 3xTF32 on the tensor cores (error at or below FFMA's);
//   Tf32    also single-pass TF32 on the tensor cores (as CUBLAS_COMPUTE_32F_FAST_TF32).
// Each class admits the ones before it. Plain C++17; the library's own code uses this type too.
#pragma once

namespace gemmtune {

enum class Precision : int { Strict = 0, Fp32 = 1, Tf32 = 2 };

// "strict", "fp32", "tf32".
const char* to_string(Precision precision) noexcept;

}  // namespace gemmtune
