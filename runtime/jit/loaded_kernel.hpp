// A compiled configuration loaded on the current device, ready to launch on any stream.
#pragma once

#include <cuda_runtime_api.h>

#include <optional>
#include <string>
#include <vector>

#include "cuda_handles.hpp"
#include "device.hpp"
#include "gemm_params.h"
#include "kernel_config.hpp"
#include "kernel_family.hpp"
#include "problem.hpp"

namespace gemmtune {

// How a configuration launches on one problem on this device, worked out once (dispatch: once a
// route) so that a launch does no more than build the arguments and call cudaLaunchKernel.
struct LaunchPlan {
  LaunchShape shape;
  std::size_t workspace_floats = 0;  // scratch the kernel needs in GemmParams::workspace
  std::size_t counter_floats = 0;    // of which the first, its arrival counters, must be zero (workspace.hpp)
  // Set when the kernel reads aligned copies of A and B, made in the workspace before each launch
  // by the staged-copy kernel of the same cubin (kernel_templates/staged_copy.cuh).
  std::optional<StagedOperandLayout> staging;
  cudaKernel_t staging_kernel = nullptr;
  // Set when the family runs a kernel of the same cubin before this one (KernelFamily::prepass).
  std::optional<Prepass> prepass;
  cudaKernel_t prepass_kernel = nullptr;
};

class LoadedKernel {
 public:
  // Loads `cubin` (made for this device's arch) and finds `lowered_name` in it. Raises the
  // dynamic shared memory limit where the configuration needs more than 48 KB.
  LoadedKernel(KernelConfig config, const std::vector<char>& cubin, const std::string& lowered_name);

  const KernelConfig& config() const { return config_; }
  const std::string& name() const { return name_; }
  const DeviceTraits& device() const { return device_; }
  int registers() const { return attributes_.numRegs; }
  std::size_t local_bytes() const { return attributes_.localSizeBytes; }  // > 0: spills
  int max_threads_per_block() const { return attributes_.maxThreadsPerBlock; }
  // The kernel as cudaLaunchKernel takes it (for benchmarks that launch it bare).
  const void* handle() const { return reinterpret_cast<const void*>(kernel_); }

  // The launch on `problem` (the configuration's layout): shape and workspace. Throws Error
  // naming the kernel when the block is larger than the loaded kernel allows (its registers).
  LaunchPlan plan(const Problem& problem) const;

  // Checks the call (validate_call, can_implement), plans it and checks its workspace, then
  // launches it. Throws Error / CudaError naming the kernel and the shape; nothing is launched
  // when a check fails.
  void launch(const GemmParams& params, cudaStream_t stream) const;

  // The warm path: `plan` is this call's problem's, and the call was checked when the plan was
  // made (dispatch's routes key on everything the checks look at). Builds the family's argument
  // block (after the copies of A and B, for a plan with staging) and launches; a message is built
  // only when the launch fails (CudaError).
  void launch(const LaunchPlan& plan, const GemmParams& params, cudaStream_t stream) const;

 private:
  KernelConfig config_;
  std::string name_;
  const KernelFamily* family_;
  DeviceTraits device_;
  Library library_;
  cudaKernel_t kernel_ = nullptr;
  cudaFuncAttributes attributes_{};
};

}  // namespace gemmtune
