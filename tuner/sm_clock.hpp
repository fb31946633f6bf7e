// The SM clock of a device, read through NVML loaded at run time (dlopen), so that binaries still
// start where there is no driver. Recorded beside every measurement: a throttled card explains a
// slow time.
#pragma once

#include <optional>
#include <string>

namespace gemmtune::tuner {

// The current SM clock in MHz of the device with this PCI bus id ("0000:18:00.0"), or nullopt
// where NVML is missing or does not answer.
std::optional<int> sm_clock_mhz(const std::string& pci_bus_id);

}  // namespace gemmtune::tuner
