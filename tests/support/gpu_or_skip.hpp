// For tests tagged [gpu]: the device to run on, or a printed "SKIPPED: <reason>" (which ctest
// reports as a skip) where there is none, as on CI.
#pragma once

#include <iostream>
#include <optional>
#include <string>

#include "device.hpp"

namespace gemmtune::testing {

inline std::optional<DeviceInfo> gpu_or_skip() {
  std::string why;
  std::optional<DeviceInfo> device = first_device(&why);
  if (!device) std::cout << "SKIPPED: no usable CUDA device: " << why << std::endl;
  return device;
}

}  // namespace gemmtune::testing
