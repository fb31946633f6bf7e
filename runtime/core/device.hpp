// The visible CUDA devices, and why there are none (CI has the toolkit but no driver).
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace gemmtune {

// The GPU as a kernel family's launch shape and workspace see it (runtime/families/): a
// persistent kernel (one block an SM) sizes its grid by it. Dispatch works it out once for each
// route, the tuner once for each problem.
struct DeviceTraits {
  int sm_count = 0;
  int arch = 0;  // compute capability as 10 * major + minor: 90 for sm_90
};

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
  DeviceTraits traits() const { return {sm_count, cc_major * 10 + cc_minor}; }
};

// The traits of the current device (cudaGetDevice). Throws CudaError.
DeviceTraits current_device_traits();

// Every visible device. Empty where there is none; then `why_none` (if given) says why, e.g.
// "cudaGetDeviceCount: cudaErrorInsufficientDriver (CUDA driver version is insufficient...)".
std::vector<DeviceInfo> visible_devices(std::string* why_none = nullptr);

// The first visible device, or nullopt with the reason in `why_none`.
std::optional<DeviceInfo> first_device(std::string* why_none = nullptr);

// "13.0" from 13000.
std::string cuda_version_string(int version);
// "NVIDIA H200 (sm_90, 132 SMs), driver 13.0, CUDA runtime 13.0": the GPU line of a results table's header.
std::string describe_device(const DeviceInfo& device);

}  // namespace gemmtune
