#include "workspace_pool.hpp"

namespace gemmtune::dispatch {

float* WorkspacePool::get(cudaStream_t stream, std::size_t floats, std::size_t counter_floats) {
  const Key key{stream, stream == cudaStreamPerThread ? std::this_thread::get_id() : std::thread::id()};
  const std::lock_guard lock(mutex_);
  return buffers_[key].prepare(floats, counter_floats, stream);
}

}  // namespace gemmtune::dispatch
