#include "workspace_pool.hpp"

namespace gemmtune::dispatch {

float* WorkspacePool::get(cudaStream_t stream, std::size_t floats) {
  const Key key{stream, stream == cudaStreamPerThread ? std::this_thread::get_id() : std::thread::id()};
  const std::lock_guard lock(mutex_);
  DeviceBuffer<float>& buffer = buffers_[key];
  if (buffer.size() < floats) {
    // Kernels queued on this stream may still use the old buffer: let them finish first.
    if (buffer.size() > 0) GT_CUDA(cudaStreamSynchronize(stream), "growing a split-K workspace");
    buffer = DeviceBuffer<float>(floats);
    GT_CUDA(cudaMemsetAsync(buffer.data(), 0, floats * sizeof(float), stream),
            "zero-filling a split-K workspace of " + std::to_string(floats) + " floats");
  }
  return buffer.data();
}

}  // namespace gemmtune::dispatch
