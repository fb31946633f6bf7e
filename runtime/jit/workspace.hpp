// The zero-filled scratch memory some kernels need (split-K partials and counters), grown on
// demand. Kernels leave their counters at zero, so a buffer is zero-filled only when allocated.
// Not thread-safe: one per stream of work.
#pragma once

#include <cuda_runtime_api.h>

#include "cuda_handles.hpp"
#include "gemm_params.h"
#include "loaded_kernel.hpp"

namespace gemmtune {

class Workspace {
 public:
  // Sets params.workspace / workspace_floats to a zero-filled buffer big enough for `kernel` on
  // this call (none when it needs none). Allocation and zero-fill are ordered on `stream`.
  void attach(const LoadedKernel& kernel, GemmParams& params, cudaStream_t stream);

 private:
  DeviceBuffer<float> buffer_;
};

}  // namespace gemmtune
