// Scratch for the kernels that need it (split-K's partial sums and arrival counters), one buffer
// a stream: calls on one stream run in order and may share a buffer; calls on two streams may
// run at once and must not. Each buffer is a Workspace (jit/workspace.hpp): it grows when a call
// needs more and zeroes the counters a call needs where the calls before it may have left
// partial sums.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <functional>
#include <mutex>
#include <thread>
#include <unordered_map>

#include "workspace.hpp"

namespace gemmtune::dispatch {

class WorkspacePool {
 public:
  // A workspace of at least `floats`, its first `counter_floats` zero, for the next call on
  // `stream` (Workspace::prepare); valid until the Runtime is destroyed or a later call on the
  // same stream needs a larger one. Throws CudaError.
  float* get(cudaStream_t stream, std::size_t floats, std::size_t counter_floats);

 private:
  // cudaStreamPerThread is one handle for a different stream in every thread: the thread is
  // part of the key there (and only there).
  struct Key {
    cudaStream_t stream;
    std::thread::id thread;
    bool operator==(const Key&) const = default;
  };
  struct KeyHash {
    std::size_t operator()(const Key& key) const noexcept {
      return std::hash<cudaStream_t>()(key.stream) ^ std::hash<std::thread::id>()(key.thread);
    }
  };

  std::mutex mutex_;
  std::unordered_map<Key, Workspace, KeyHash> buffers_;
};

}  // namespace gemmtune::dispatch
