// cuBLAS as the reference and the baseline: the same row-major problem as the kernels, in
// pedantic FP32 (CUBLAS_COMPUTE_32F_PEDANTIC: no TF32, no reduced precision).
#pragma once

#include <cublas_v2.h>

#include "gemm_params.h"

namespace gemmtune {

// C = alpha op(A) op(B) + beta C for the row-major problem in `params`, on `stream`.
void cublas_sgemm(cublasHandle_t handle, Layout layout, const GemmParams& params, cudaStream_t stream);

}  // namespace gemmtune
