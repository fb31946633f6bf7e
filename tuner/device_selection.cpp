#include "device_selection.hpp"

#include <algorithm>
#include <stdexcept>

#include "error.hpp"
#include "text.hpp"

namespace gemmtune::tuner {
namespace {

// No host has more GPUs than this; a larger index is a typo (and keeps stoi in range).
constexpr int kMaxDeviceIndex = 1023;

bool same_model(const DeviceInfo& a, const DeviceInfo& b) {
  return a.name == b.name && a.cc_major == b.cc_major && a.cc_minor == b.cc_minor && a.sm_count == b.sm_count;
}

std::string model_of(const DeviceInfo& device) {
  return device.name + " (" + device.arch() + ", " + std::to_string(device.sm_count) + " SMs)";
}

}  // namespace

DeviceRequest parse_devices(std::string_view text, DeviceRepeats repeats) {
  DeviceRequest request;
  request.text = std::string(text.substr(0, 40));
  const std::string quoted = "--devices '" + request.text + "'";
  if (lower(std::string(text)) == "all") {
    request.all = true;
    return request;
  }
  for (std::size_t start = 0; start <= text.size();) {
    const std::size_t comma = std::min(text.find(',', start), text.size());
    const std::string_view item = text.substr(start, comma - start);
    if (item.empty() || item.size() > 4 || !std::all_of(item.begin(), item.end(), [](char c) { return c >= '0' && c <= '9'; })) {
      throw std::invalid_argument(quoted + ": expected all or device indices separated by commas (0,1,3)");
    }
    const int index = std::stoi(std::string(item));
    if (index > kMaxDeviceIndex) {
      throw std::invalid_argument(quoted + ": device " + std::to_string(index) + " is above " +
                                  std::to_string(kMaxDeviceIndex));
    }
    if (repeats == DeviceRepeats::Refused && std::count(request.indices.begin(), request.indices.end(), index) > 0) {
      throw std::invalid_argument(quoted + ": device " + std::to_string(index) + " is named twice");
    }
    request.indices.push_back(index);
    start = comma + 1;
  }
  return request;
}

bool matches_gpu(const DeviceInfo& device, const std::string& wanted) {
  return lower(wanted) == "any" || lower(device.name).find(lower(wanted)) != std::string::npos;
}

std::string describe_devices(const std::vector<DeviceInfo>& devices) {
  std::string text;
  for (const DeviceInfo& device : devices) {
    text += (text.empty() ? "" : ", ") + std::to_string(device.index) + ": " + device.name;
  }
  return text.empty() ? "none" : text;
}

std::vector<DeviceInfo> select_devices(const std::vector<DeviceInfo>& visible, const DeviceRequest& request,
                                       const std::string& wanted) {
  const std::string option = "--devices " + request.text;
  std::vector<DeviceInfo> chosen;
  if (request.all) {
    for (const DeviceInfo& device : visible) {
      if (matches_gpu(device, wanted)) chosen.push_back(device);
    }
    if (chosen.empty()) {
      throw InputError(option + ": no visible GPU matches --gpu '" + wanted + "' (visible: " +
                       describe_devices(visible) + ")");
    }
  } else {
    for (const int index : request.indices) {
      const auto found = std::find_if(visible.begin(), visible.end(), [&](const DeviceInfo& d) { return d.index == index; });
      if (found == visible.end()) {
        throw InputError(option + ": there is no GPU " + std::to_string(index) + " on this host (visible: " +
                         describe_devices(visible) + ")");
      }
      if (!matches_gpu(*found, wanted)) {
        throw InputError(option + ": GPU " + std::to_string(index) + " is " + found->name +
                         ", which does not match --gpu '" + wanted + "'");
      }
      chosen.push_back(*found);
    }
  }
  for (const DeviceInfo& device : chosen) {
    if (!same_model(device, chosen.front())) {
      throw InputError(option + ": GPU " + std::to_string(chosen.front().index) + " is " + model_of(chosen.front()) +
                       " and GPU " + std::to_string(device.index) + " is " + model_of(device) +
                       ": a run tunes one GPU model (results are stored per model); name the GPUs of one model, "
                       "or narrow --gpu");
    }
  }
  return chosen;
}

}  // namespace gemmtune::tuner
