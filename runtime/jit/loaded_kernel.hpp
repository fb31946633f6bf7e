// A compiled configuration loaded on the current device, ready to launch on any stream.
#pragma once

#include <cuda_runtime_api.h>

#include <string>
#include <vector>

#include "cuda_handles.hpp"
#include "gemm_params.h"
#include "kernel_config.hpp"
#include "kernel_family.hpp"

namespace gemmtune {

class LoadedKernel {
 public:
  // Loads `cubin` (made for this device's arch) and finds `lowered_name` in it. Raises the
  // dynamic shared memory limit where the configuration needs more than 48 KB.
  LoadedKernel(KernelConfig config, const std::vector<char>& cubin, const std::string& lowered_name);

  const KernelConfig& config() const { return config_; }
  const std::string& name() const { return name_; }
  int registers() const { return attributes_.numRegs; }
  std::size_t local_bytes() const { return attributes_.localSizeBytes; }  // > 0: spills
  int max_threads_per_block() const { return attributes_.maxThreadsPerBlock; }

  // Checks the call (validate_call, can_implement) and the block size against what the loaded
  // kernel allows, launches, and checks the launch. Throws Error / CudaError naming the kernel
  // and the shape; nothing is launched when a check fails.
  void launch(const GemmParams& params, cudaStream_t stream) const;

 private:
  KernelConfig config_;
  std::string name_;
  const KernelFamily* family_;
  Library library_;
  cudaKernel_t kernel_ = nullptr;
  cudaFuncAttributes attributes_{};
};

}  // namespace gemmtune
