// cuBLAS as the reference and the baseline: the same row-major problem as the kernels, in the
// compute type of a precision class: pedantic FP32 (CUBLAS_COMPUTE_32F_PEDANTIC: no TF32, no
// reduced precision) for strict and fp32, CUBLAS_COMPUTE_32F_FAST_TF32 for tf32.
#pragma once

#include <cublas_v2.h>

#include "gemm_params.h"
#include "precision.hpp"

namespace gemmtune {

// The compute type cuBLAS is timed and checked with for a class.
cublasComputeType_t cublas_compute_type(Precision precision);
// "CUBLAS_COMPUTE_32F_PEDANTIC" or "CUBLAS_COMPUTE_32F_FAST_TF32", for tables.
const char* cublas_compute_name(Precision precision);

// C = alpha op(A) op(B) + beta C for the row-major problem in `params`, on `stream`, in the
// compute type of `precision`; for each entry of a batched call, through cuBLAS's strided
// (cublasGemmStridedBatchedEx, as cublasSgemmStridedBatched) or pointer-array
// (cublasGemmBatchedEx, as cublasSgemmBatched) call.
void cublas_sgemm(cublasHandle_t handle, Layout layout, const GemmParams& params, cudaStream_t stream,
                  Precision precision = Precision::Strict);

}  // namespace gemmtune
