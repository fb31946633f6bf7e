#include <catch2/catch.hpp>

#include "device_selection.hpp"
#include "error.hpp"

using namespace gemmtune;
using namespace gemmtune::tuner;

namespace {

DeviceInfo gpu(int index, const std::string& name = "NVIDIA H200", int cc_major = 9, int sm_count = 132) {
  DeviceInfo device;
  device.index = index;
  device.name = name;
  device.cc_major = cc_major;
  device.sm_count = sm_count;
  return device;
}

std::vector<int> indices_of(const std::vector<DeviceInfo>& devices) {
  std::vector<int> indices;
  for (const DeviceInfo& device : devices) indices.push_back(device.index);
  return indices;
}

std::string error_of_parse(const std::string& text) {
  try {
    parse_devices(text);
  } catch (const std::invalid_argument& error) {
    return error.what();
  }
  return "";
}

std::string error_of_select(const std::vector<DeviceInfo>& visible, const std::string& text, const std::string& wanted) {
  try {
    select_devices(visible, parse_devices(text), wanted);
  } catch (const InputError& error) {
    return error.what();
  }
  return "";
}

}  // namespace

TEST_CASE("tuner: parse_devices reads all or device indices", "[tuner]") {
  CHECK(parse_devices("all").all);
  CHECK(parse_devices("ALL").all);
  CHECK(parse_devices("0").indices == std::vector<int>{0});
  CHECK(parse_devices("3,0,1").indices == std::vector<int>{3, 0, 1});
  CHECK_FALSE(parse_devices("3,0,1").all);
}

TEST_CASE("tuner: parse_devices refuses what is not a list of distinct indices and says why", "[tuner]") {
  const std::string expected = "expected all or device indices separated by commas (0,1,3)";
  for (const char* text : {"", ",", "0,", ",1", "0,,1", "a", "-1", "1.0", " 1", "gpu0", "0;1", "12345"}) {
    INFO(text);
    CHECK_THAT(error_of_parse(text), Catch::Contains(expected));
  }
  CHECK(error_of_parse("0,1,0") == "--devices '0,1,0': device 0 is named twice");
  CHECK(error_of_parse("1024") == "--devices '1024': device 1024 is above 1023");
}

TEST_CASE("tuner: only the test hook lets a GPU be named twice, giving a measuring process each time", "[tuner]") {
  CHECK(parse_devices("0,0", DeviceRepeats::Allowed).indices == std::vector<int>{0, 0});
  CHECK_THROWS_WITH(parse_devices("0,0"), "--devices '0,0': device 0 is named twice");
  CHECK_THROWS_WITH(parse_devices("0,0,x", DeviceRepeats::Allowed), Catch::Contains("expected all or device indices"));
  const std::vector<DeviceInfo> one{gpu(0)};
  CHECK(indices_of(select_devices(one, parse_devices("0,0", DeviceRepeats::Allowed), "H200")) == std::vector<int>{0, 0});
}

TEST_CASE("tuner: select_devices takes the GPUs named or all that match --gpu", "[tuner]") {
  const std::vector<DeviceInfo> four{gpu(0), gpu(1), gpu(2), gpu(3)};
  CHECK(indices_of(select_devices(four, parse_devices("all"), "H200")) == std::vector<int>{0, 1, 2, 3});
  CHECK(indices_of(select_devices(four, parse_devices("2,0"), "h200")) == std::vector<int>{2, 0});
  CHECK(indices_of(select_devices(four, parse_devices("1"), "any")) == std::vector<int>{1});
  // all: only those --gpu matches, so that a host's other model is left out rather than refused.
  const std::vector<DeviceInfo> mixed{gpu(0), gpu(1, "NVIDIA A100-SXM4-80GB", 8, 108), gpu(2)};
  CHECK(indices_of(select_devices(mixed, parse_devices("all"), "H200")) == std::vector<int>{0, 2});
  CHECK(indices_of(select_devices(mixed, parse_devices("all"), "a100")) == std::vector<int>{1});
}

TEST_CASE("tuner: select_devices refuses a GPU the host lacks or one --gpu does not match or mixed models",
          "[tuner]") {
  const std::vector<DeviceInfo> one{gpu(0)};
  CHECK(error_of_select(one, "7", "H200") == "--devices 7: there is no GPU 7 on this host (visible: 0: NVIDIA H200)");
  CHECK(error_of_select(one, "0,1", "any") == "--devices 0,1: there is no GPU 1 on this host (visible: 0: NVIDIA H200)");
  CHECK(error_of_select(one, "all", "A100") ==
        "--devices all: no visible GPU matches --gpu 'A100' (visible: 0: NVIDIA H200)");
  const std::vector<DeviceInfo> mixed{gpu(0), gpu(1, "NVIDIA A100-SXM4-80GB", 8, 108)};
  CHECK(error_of_select(mixed, "1", "H200") ==
        "--devices 1: GPU 1 is NVIDIA A100-SXM4-80GB, which does not match --gpu 'H200'");
  CHECK_THAT(error_of_select(mixed, "0,1", "NVIDIA"),
             Catch::StartsWith("--devices 0,1: GPU 0 is NVIDIA H200 (sm_90, 132 SMs) and GPU 1 is NVIDIA "
                               "A100-SXM4-80GB (sm_80, 108 SMs): a run tunes one GPU model"));
  CHECK_THAT(error_of_select(mixed, "all", "any"), Catch::Contains("a run tunes one GPU model"));
  // One name, another SM count (a cut-down part, a MIG slice): another model too.
  const std::vector<DeviceInfo> cut{gpu(0), gpu(1, "NVIDIA H200", 9, 66)};
  CHECK_THAT(error_of_select(cut, "all", "H200"), Catch::Contains("GPU 1 is NVIDIA H200 (sm_90, 66 SMs)"));
}
