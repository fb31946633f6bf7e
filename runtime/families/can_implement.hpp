// Whether a configuration can serve one call, decided on the host before anything is launched.
#pragma once

#include <optional>
#include <string>

#include "device.hpp"
#include "gemm_params.h"
#include "kernel_config.hpp"

namespace gemmtune {

// Why `config` cannot run this call on `device` (family refuses the config, wrong layout,
// alignment wider than the call allows, a batched call the configuration does not serve, grid
// too large), or nullopt.
std::optional<std::string> can_implement(const KernelConfig& config, const GemmParams& params, const DeviceTraits& device);

}  // namespace gemmtune
