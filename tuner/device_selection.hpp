// `tune --devices all|0,1,...`: which of the visible GPUs a run measures on. The parent process
// never touches CUDA, so the visible devices come from the measuring process; choosing among
// them is plain code, tested with made-up devices.
//
// A run tunes for one GPU model: results are stored under the GPU's identity (name, compute
// capability, SM count) and serve every card of that model, so the devices of one run must all
// be of one model, and each must match --gpu.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "device.hpp"

namespace gemmtune::tuner {

struct DeviceRequest {
  bool all = false;          // every visible GPU that matches --gpu
  std::vector<int> indices;  // else these, in the order given
  std::string text;          // as typed, for messages

  bool operator==(const DeviceRequest&) const = default;
};

// Whether a GPU may be named more than once. Only as a test hook: with the environment variable
// GEMMTUNE_TEST_DEVICES_MAY_REPEAT=1, tune lets `--devices 0,0` through, so that a host with one
// GPU runs the code of several (two measuring processes sharing GPU 0:
// tests/reliability/test_devices_gpu.cpp). Timings taken so are disturbed by each other.
enum class DeviceRepeats { Refused, Allowed };
inline constexpr const char* kDevicesMayRepeatVariable = "GEMMTUNE_TEST_DEVICES_MAY_REPEAT";

// "all" or "0,1,3" (device indices as CUDA numbers them, each once unless `repeats` allows
// more). Throws std::invalid_argument naming what is wrong ("--devices '1,x': ...").
DeviceRequest parse_devices(std::string_view text, DeviceRepeats repeats = DeviceRepeats::Refused);

// Whether a device's name matches --gpu: contains it, case-insensitive; "any" matches every one.
bool matches_gpu(const DeviceInfo& device, const std::string& wanted);

// The devices `request` names among `visible`. Throws InputError for an index with no GPU
// (listing the visible ones), a named GPU that does not match --gpu, none matching --gpu (for
// `all`), and devices of more than one model.
std::vector<DeviceInfo> select_devices(const std::vector<DeviceInfo>& visible, const DeviceRequest& request,
                                       const std::string& wanted);

// "0: NVIDIA H200, 1: NVIDIA H200"
std::string describe_devices(const std::vector<DeviceInfo>& devices);

}  // namespace gemmtune::tuner
