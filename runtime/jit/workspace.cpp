#include "workspace.hpp"

#include "family_registry.hpp"

namespace gemmtune {

void Workspace::attach(const KernelConfig& config, GemmParams& params, cudaStream_t stream) {
  const std::size_t needed = find_family(config.family).workspace_floats(config, params.M, params.N);
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
