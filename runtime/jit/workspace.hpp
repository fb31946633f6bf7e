// The scratch memory some kernels need (split-K partials and arrival counters, staged copies of
// A and B), grown on demand. A kernel needs only its arrival counters (the first
// workspace_counter_floats of it) to be zero when it starts, and leaves them zero; everything
// after them it writes before it reads. So a buffer that serves one kernel after another, or one
// kernel on several shapes, is zeroed where the next launch's counters reach past the part known
// to be zero: another kernel's partial sums may lie where this one counts arrivals.
// Not thread-safe: one per stream of work.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>

#include "cuda_handles.hpp"
#include "gemm_params.h"
#include "loaded_kernel.hpp"

namespace gemmtune {

class Workspace {
 public:
  // A buffer of at least `floats` whose first `counter_floats` are zero when work queued next on
  // `stream` starts (allocation and zeroing are ordered on it), for a launch that leaves those
  // zero and may write all the rest. Growing waits for the work queued on `stream` (it may still
  // use the old buffer). Throws CudaError.
  float* prepare(std::size_t floats, std::size_t counter_floats, cudaStream_t stream);

  // Sets params.workspace / workspace_floats to a buffer prepared for `kernel` on this call (none
  // when it needs none).
  void attach(const LoadedKernel& kernel, GemmParams& params, cudaStream_t stream);

 private:
  DeviceBuffer<float> buffer_;
  std::size_t zero_floats_ = 0;  // the prefix of buffer_ known to be zero once queued work is done
};

}  // namespace gemmtune
