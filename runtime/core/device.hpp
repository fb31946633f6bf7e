// The visible CUDA devices, and why there are none (CI has the toolkit but no driver).
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace gemmtune {

struct DeviceInfo {
  int index = 0;
  std::string name;  // "NVIDIA H200"
  int cc_major = 0;
  int cc_minor = 0;
  int sm_count = 0;
  std::size_t l2_bytes = 0;
  std::size_t smem_per_block_optin = 0;  // the most dynamic shared memory a block may ask for
  std::size_t global_memory_bytes = 0;
  int driver_version = 0;   // 13000 = 13.0
  int runtime_version = 0;
  std::string arch() const { return "sm_" + std::to_string(cc_major * 10 + cc_minor); }
};

// Every visible device. Empty where there is none; then `why_none` (if given) says why, e.g.
// "cudaGetDeviceCount: cudaErrorInsufficientDriver (CUDA driver version is insufficient...)".
std::vector<DeviceInfo> visible_devices(std::string* why_none = nullptr);

// The first visible device, or nullopt with the reason in `why_none`.
std::optional<DeviceInfo> first_device(std::string* why_none = nullptr);

// "13.0" from 13000.
std::string cuda_version_string(int version);

}  // namespace gemmtune
