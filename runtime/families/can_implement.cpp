#include "can_implement.hpp"

#include "family_registry.hpp"
#include "gemm_call.hpp"
#include "kernel_name.hpp"

namespace gemmtune {

std::optional<std::string> can_implement(const KernelConfig& config, const GemmParams& p, const DeviceTraits& device) {
  const KernelFamily& family = find_family(config.family);
  if (auto reason = family.check(config)) return reason;
  if (config.align > call_alignment(p)) {
    return kernel_name(config) + ": needs pointers and leading dimensions aligned to " +
           std::to_string(config.align) + " floats; this call allows " + std::to_string(call_alignment(p));
  }
  const bool pointer_arrays = p.A_array != nullptr;
  if (p.batch > 1 || pointer_arrays) {
    if (auto reason = family.batch_refusal(config, pointer_arrays)) {
      return kernel_name(config) + ": " + *reason + "; this call is " +
             (pointer_arrays ? "pointer-array" : "strided") + " batched (batch " + std::to_string(p.batch) + ")";
    }
    if (!pointer_arrays) {
      if (auto reason = family.stride_refusal(config, p)) return kernel_name(config) + ": " + *reason;
    }
  }
  const LaunchShape shape = family.launch_shape(config, problem_of(p, config.layout), device);
  if (shape.grid[1] > 65535 || shape.grid[2] > 65535) {
    return kernel_name(config) + ": grid of " + std::to_string(shape.grid[1]) + " x " + std::to_string(shape.grid[2]) +
           " (y x z) exceeds 65535";
  }
  return std::nullopt;
}

}  // namespace gemmtune
