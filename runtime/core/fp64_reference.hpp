// The FP64 reference of a GEMM on the device: the call's A, B and C widened to double, alpha and
// beta too, and C64 = alpha op(A) op(B) + beta C computed by cuBLAS DGEMM. It is the exact result
// of the FP32 inputs to within FP64's rounding (about 1e-16 K), so a kernel's distance from it is
// the kernel's own error; beta C is part of it as the kernel computes it (C's old values, widened).
#pragma once

#include <cublas_v2.h>
#include <cuda_runtime_api.h>

#include <vector>

#include "cuda_handles.hpp"
#include "gemm_params.h"

namespace gemmtune {

// C64 for the row-major problem in `params` (its pointers on the device; C is read, not written),
// row-major with `params.ldc` as its leading dimension, like the FP32 output it is compared with;
// for a strided batch every entry, `params.stride_c` apart (pointer arrays are refused).
// Throws CudaError, CublasError, Error for a call validate_call refuses.
std::vector<double> fp64_reference(cublasHandle_t handle, Layout layout, const GemmParams& params, cudaStream_t stream);
// The same, left in device memory (for a comparison on the device, tuner/device_check.hpp).
DeviceBuffer<double> fp64_reference_on_device(cublasHandle_t handle, Layout layout, const GemmParams& params,
                                              cudaStream_t stream);

}  // namespace gemmtune
