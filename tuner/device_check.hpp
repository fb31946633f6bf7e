// The correctness check of a measured candidate, on the device: its output compared with a
// reference that stays in device memory, by a small kernel that sums each block's share of the
// comparison (ComparisonSums, compare.hpp), the host adding the blocks' sums in order and judging
// them as compare_outputs does. It replaces copying the output to the host and comparing it
// there, which cost a large problem more than timing it (8192^3: 256 MB to the host and two
// passes over 64M outputs for every candidate).
#pragma once

#include <cuda_runtime_api.h>

#include <string>

#include "compare.hpp"
#include "cuda_handles.hpp"
#include "nvrtc_compiler.hpp"

namespace gemmtune::tuner {

// The comparison kernels compiled for `arch` ("sm_90"): a compile test runs without a GPU.
CompiledKernel compile_device_check(const std::string& arch);

class DeviceCheck {
 public:
  // Compiles (NVRTC) and loads the kernels for the current device's `arch`.
  explicit DeviceCheck(const std::string& arch);

  // compare_outputs over device memory: `got` and `ref` hold `batch` row-major M x N entries,
  // `stride` elements apart, with leading dimension `ldc`; sums and verdict as the host's, up to
  // the order of the sums (the blocks' partial sums). Synchronizes `stream`. Throws CudaError.
  Comparison compare(const float* got, const double* ref, int M, int N, long long ldc, double tolerance, int batch,
                     long long stride, cudaStream_t stream) const;
  Comparison compare(const float* got, const float* ref, int M, int N, long long ldc, double tolerance, int batch,
                     long long stride, cudaStream_t stream) const;

 private:
  Comparison run(cudaKernel_t kernel, const float* got, const void* ref, int M, int N, long long ldc,
                 double tolerance, int batch, long long stride, cudaStream_t stream) const;

  Library library_;
  cudaKernel_t against_fp64_ = nullptr;
  cudaKernel_t against_fp32_ = nullptr;
};

}  // namespace gemmtune::tuner
