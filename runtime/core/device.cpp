#include "device.hpp"

#include <cuda_runtime_api.h>

#include "error.hpp"

namespace gemmtune {

std::vector<DeviceInfo> visible_devices(std::string* why_none) {
  int count = 0;
  const cudaError_t status = cudaGetDeviceCount(&count);
  if (status != cudaSuccess || count == 0) {
    if (why_none != nullptr) {
      *why_none = status != cudaSuccess
          ? std::string("cudaGetDeviceCount: ") + cudaGetErrorName(status) + " (" + cudaGetErrorString(status) + ")"
          : std::string("cudaGetDeviceCount found no CUDA device");
    }
    cudaGetLastError();  // clear the sticky-free error so later calls start clean
    return {};
  }
  int driver = 0, runtime = 0;
  GT_CUDA(cudaDriverGetVersion(&driver));
  GT_CUDA(cudaRuntimeGetVersion(&runtime));
  std::vector<DeviceInfo> devices;
  for (int index = 0; index < count; ++index) {
    cudaDeviceProp prop{};
    GT_CUDA(cudaGetDeviceProperties(&prop, index), "device " + std::to_string(index));
    DeviceInfo info;
    info.index = index;
    info.name = prop.name;
    info.cc_major = prop.major;
    info.cc_minor = prop.minor;
    info.sm_count = prop.multiProcessorCount;
    info.l2_bytes = static_cast<std::size_t>(prop.l2CacheSize);
    info.smem_per_block_optin = prop.sharedMemPerBlockOptin;
    info.global_memory_bytes = prop.totalGlobalMem;
    info.driver_version = driver;
    info.runtime_version = runtime;
    devices.push_back(info);
  }
  return devices;
}

DeviceTraits current_device_traits() {
  int device = 0, sm_count = 0, major = 0, minor = 0;
  GT_CUDA(cudaGetDevice(&device));
  GT_CUDA(cudaDeviceGetAttribute(&sm_count, cudaDevAttrMultiProcessorCount, device));
  GT_CUDA(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device));
  GT_CUDA(cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, device));
  return {sm_count, major * 10 + minor};
}

std::optional<DeviceInfo> first_device(std::string* why_none) {
  std::vector<DeviceInfo> devices = visible_devices(why_none);
  if (devices.empty()) return std::nullopt;
  return devices.front();
}

std::string cuda_version_string(int version) {
  return std::to_string(version / 1000) + "." + std::to_string(version % 1000 / 10);
}

std::string describe_device(const DeviceInfo& device) {
  return device.name + " (" + device.arch() + ", " + std::to_string(device.sm_count) + " SMs), driver " +
         cuda_version_string(device.driver_version) + ", CUDA runtime " + cuda_version_string(device.runtime_version);
}

}  // namespace gemmtune
