#include "workspace.hpp"

#include "gemm_call.hpp"

namespace gemmtune {

void Workspace::attach(const LoadedKernel& kernel, GemmParams& params, cudaStream_t stream) {
  const std::size_t needed = kernel.plan(problem_of(params, kernel.config().layout)).workspace_floats;
  if (needed == 0) {
    params.workspace = nullptr;
    params.workspace_floats = 0;
    return;
  }
  if (buffer_.size() < needed) {
    GT_CUDA(cudaStreamSynchronize(stream), "before growing the workspace");  // nothing still uses the old one
    buffer_ = DeviceBuffer<float>(needed);
    GT_CUDA(cudaMemsetAsync(buffer_.data(), 0, needed * sizeof(float), stream), "zero-filling the workspace");
  }
  params.workspace = buffer_.data();
  params.workspace_floats = static_cast<long long>(buffer_.size());
}

}  // namespace gemmtune
