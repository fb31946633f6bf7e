#include "sm_clock.hpp"

#include <dlfcn.h>

namespace gemmtune::tuner {
namespace {

// The few NVML entry points used, declared here so that no NVML header or library is needed
// to build.
using nvmlReturn = int;
using nvmlDevice = void*;
constexpr int kNvmlSuccess = 0;
constexpr int kNvmlClockSm = 1;

struct Nvml {
  nvmlReturn (*init)() = nullptr;
  nvmlReturn (*handle_by_pci_bus_id)(const char*, nvmlDevice*) = nullptr;
  nvmlReturn (*clock_info)(nvmlDevice, int, unsigned*) = nullptr;
  bool ready = false;

  Nvml() {
    void* library = ::dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
    if (library == nullptr) return;
    init = reinterpret_cast<decltype(init)>(::dlsym(library, "nvmlInit_v2"));
    handle_by_pci_bus_id = reinterpret_cast<decltype(handle_by_pci_bus_id)>(::dlsym(library, "nvmlDeviceGetHandleByPciBusId_v2"));
    clock_info = reinterpret_cast<decltype(clock_info)>(::dlsym(library, "nvmlDeviceGetClockInfo"));
    ready = init != nullptr && handle_by_pci_bus_id != nullptr && clock_info != nullptr && init() == kNvmlSuccess;
  }
};

}  // namespace

std::optional<int> sm_clock_mhz(const std::string& pci_bus_id) {
  static Nvml nvml;
  if (!nvml.ready) return std::nullopt;
  nvmlDevice device = nullptr;
  unsigned mhz = 0;
  if (nvml.handle_by_pci_bus_id(pci_bus_id.c_str(), &device) != kNvmlSuccess) return std::nullopt;
  if (nvml.clock_info(device, kNvmlClockSm, &mhz) != kNvmlSuccess) return std::nullopt;
  return static_cast<int>(mhz);
}

}  // namespace gemmtune::tuner
