#include "loaded_kernel.hpp"

#include "can_implement.hpp"
#include "family_registry.hpp"
#include "gemm_call.hpp"
#include "kernel_name.hpp"

namespace gemmtune {

LoadedKernel::LoadedKernel(KernelConfig config, const std::vector<char>& cubin,
                           const std::string& lowered_name)
    : config_(std::move(config)),
      name_(kernel_name(config_)),
      family_(&find_family(config_.family)),
      library_(cubin.data(), "loading " + name_) {
  kernel_ = library_.kernel(lowered_name, name_);
  const void* function = reinterpret_cast<const void*>(kernel_);
  GT_CUDA(cudaFuncGetAttributes(&attributes_, function), name_);
  const std::size_t smem = family_->launch_shape(config_, 1, 1).dynamic_smem_bytes;
  if (smem > 48 * 1024) {
    GT_CUDA(cudaFuncSetAttribute(function, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                 static_cast<int>(smem)),
            name_ + " asking for " + std::to_string(smem) + " bytes of shared memory");
  }
}

void LoadedKernel::launch(const GemmParams& params, cudaStream_t stream) const {
  if (auto reason = validate_call(params, config_.layout)) throw Error(*reason);
  if (auto reason = can_implement(config_, params)) throw Error(*reason);
  const LaunchShape shape = family_->launch_shape(config_, params.M, params.N);
  const unsigned threads = shape.block[0] * shape.block[1] * shape.block[2];
  if (static_cast<int>(threads) > attributes_.maxThreadsPerBlock) {
    throw Error(name_ + ": " + std::to_string(threads) + " threads a block, but with " +
                std::to_string(attributes_.numRegs) + " registers a thread it can launch at most " +
                std::to_string(attributes_.maxThreadsPerBlock));
  }
  const std::size_t workspace = family_->workspace_floats(config_, params.M, params.N);
  if (workspace > 0 && (params.workspace == nullptr || params.workspace_floats < static_cast<long long>(workspace))) {
    throw Error(name_ + ": needs a zero-filled workspace of " + std::to_string(workspace) + " floats for " +
                describe_call(params, config_.layout) + ", given " + std::to_string(params.workspace_floats));
  }
  KernelArguments args;
  family_->kernel_arguments(config_, params, args);
  void* arg_pointers[] = {args.bytes};
  const std::string context = name_ + " on " + describe_call(params, config_.layout);
  GT_CUDA(cudaLaunchKernel(reinterpret_cast<const void*>(kernel_),
                           dim3(shape.grid[0], shape.grid[1], shape.grid[2]),
                           dim3(shape.block[0], shape.block[1], shape.block[2]), arg_pointers,
                           shape.dynamic_smem_bytes, stream),
          context);
  GT_CUDA(cudaGetLastError(), context);
}

}  // namespace gemmtune
