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
  const LaunchShape shape = family.launch_shape(config, Problem{config.layout, p.M, p.N, p.K}, device);
  if (shape.grid[1] > 65535 || shape.grid[2] > 65535) {
    return kernel_name(config) + ": grid of " + std::to_string(shape.grid[1]) + " rows exceeds 65535";
  }
  return std::nullopt;
}

}  // namespace gemmtune
