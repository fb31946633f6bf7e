#include "loaded_kernel.hpp"

#include "can_implement.hpp"
#include "family_registry.hpp"
#include "gemm_call.hpp"
#include "kernel_name.hpp"
#include "staged_copy.h"

namespace gemmtune {

LoadedKernel::LoadedKernel(KernelConfig config, const std::vector<char>& cubin,
                           const std::string& lowered_name)
    : config_(std::move(config)),
      name_(kernel_name(config_)),
      family_(&find_family(config_.family)),
      device_(current_device_traits()),
      library_(cubin.data(), "loading " + name_) {
  kernel_ = library_.kernel(lowered_name, name_);
  const void* function = reinterpret_cast<const void*>(kernel_);
  GT_CUDA(cudaFuncGetAttributes(&attributes_, function), name_);
  const std::size_t smem = family_->dynamic_smem_bytes(config_);
  if (smem > 48 * 1024) {
    GT_CUDA(cudaFuncSetAttribute(function, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                 static_cast<int>(smem)),
            name_ + " asking for " + std::to_string(smem) + " bytes of shared memory");
  }
}

LaunchPlan LoadedKernel::plan(const Problem& problem) const {
  LaunchPlan plan{family_->launch_shape(config_, problem, device_), family_->workspace_floats(config_, problem, device_),
                  family_->workspace_counter_floats(config_, problem, device_),
                  family_->operand_staging(config_, problem, device_), nullptr,
                  family_->prepass(config_, problem, device_)};
  if (plan.staging) {
    plan.staging_kernel = library_.kernel(kStagedCopyKernelName, name_ + "'s staged-copy kernel " + kStagedCopyKernelName +
                                                                     " (a cubin older than the staged copies?)");
  }
  if (plan.prepass) {
    plan.prepass_kernel = library_.kernel(plan.prepass->kernel, name_ + "'s prepass kernel " + plan.prepass->kernel);
  }
  const unsigned threads = plan.shape.block[0] * plan.shape.block[1] * plan.shape.block[2];
  if (static_cast<int>(threads) > attributes_.maxThreadsPerBlock) {
    throw Error(name_ + ": " + std::to_string(threads) + " threads a block, but with " +
                std::to_string(attributes_.numRegs) + " registers a thread it can launch at most " +
                std::to_string(attributes_.maxThreadsPerBlock));
  }
  return plan;
}

void LoadedKernel::launch(const GemmParams& params, cudaStream_t stream) const {
  if (auto reason = validate_call(params, config_.layout)) throw Error(*reason);
  if (auto reason = can_implement(config_, params, device_)) throw Error(*reason);
  const LaunchPlan call_plan = plan(problem_of(params, config_.layout));
  const std::size_t workspace = call_plan.workspace_floats;
  if (workspace > 0 && (params.workspace == nullptr || params.workspace_floats < static_cast<long long>(workspace))) {
    throw Error(name_ + ": needs a workspace of " + std::to_string(workspace) + " floats for " +
                describe_call(params, config_.layout) + ", given " + std::to_string(params.workspace_floats));
  }
  launch(call_plan, params, stream);
}

namespace {

// Launches `kernel` with one argument block; the error's message (the kernel's role and name, the
// call) is built only when the launch fails.
void launch_with(cudaKernel_t kernel, const LaunchShape& shape, KernelArguments& arguments, cudaStream_t stream,
                 const std::string& name, const char* role, const GemmParams& params, Layout layout) {
  void* argument_pointers[] = {arguments.bytes};
  cudaError_t status = cudaLaunchKernel(reinterpret_cast<const void*>(kernel), dim3(shape.grid[0], shape.grid[1], shape.grid[2]),
                                        dim3(shape.block[0], shape.block[1], shape.block[2]), argument_pointers,
                                        shape.dynamic_smem_bytes, stream);
  if (status == cudaSuccess) status = cudaGetLastError();
  if (status != cudaSuccess) {
    throw CudaError(status, "cudaLaunchKernel", std::string(role) + name + " on " + describe_call(params, layout),
                    std::source_location::current());
  }
}

}  // namespace

void LoadedKernel::launch(const LaunchPlan& plan, const GemmParams& params, cudaStream_t stream) const {
  GemmParams kernel_params = params;  // what the kernel reads: the staged copies, where there are
  if (plan.staging) stage_operands(*plan.staging, plan.staging_kernel, config_.layout, kernel_params, stream);
  KernelArguments arguments;
  if (plan.prepass) {
    family_->build_prepass_arguments(config_, kernel_params, *plan.prepass, arguments);
    launch_with(plan.prepass_kernel, plan.prepass->shape, arguments, stream, name_, "the prepass of ", params,
                config_.layout);
  }
  family_->build_arguments(config_, kernel_params, arguments);
  launch_with(kernel_, plan.shape, arguments, stream, name_, "", params, config_.layout);
}

}  // namespace gemmtune
