#include "workspace.hpp"

#include <string>

#include "gemm_call.hpp"

namespace gemmtune {

float* Workspace::prepare(std::size_t floats, std::size_t counter_floats, cudaStream_t stream) {
  if (buffer_.size() < floats) {
    if (buffer_.size() > 0) GT_CUDA(cudaStreamSynchronize(stream), "before growing the workspace");
    buffer_ = DeviceBuffer<float>(floats);
    GT_CUDA(cudaMemsetAsync(buffer_.data(), 0, floats * sizeof(float), stream),
            "zero-filling a workspace of " + std::to_string(floats) + " floats");
    zero_floats_ = floats;
  }
  if (counter_floats > zero_floats_) {
    GT_CUDA(cudaMemsetAsync(buffer_.data() + zero_floats_, 0, (counter_floats - zero_floats_) * sizeof(float), stream),
            "zeroing " + std::to_string(counter_floats) + " floats of arrival counters");
  }
  // After the launch its counters are zero again; what follows them may hold its partial sums.
  zero_floats_ = counter_floats;
  return buffer_.data();
}

void Workspace::attach(const LoadedKernel& kernel, GemmParams& params, cudaStream_t stream) {
  const LaunchPlan plan = kernel.plan(problem_of(params, kernel.config().layout));
  if (plan.workspace_floats == 0) {
    params.workspace = nullptr;
    params.workspace_floats = 0;
    return;
  }
  params.workspace = prepare(plan.workspace_floats, plan.counter_floats, stream);
  params.workspace_floats = static_cast<long long>(plan.workspace_floats);
}

}  // namespace gemmtune
