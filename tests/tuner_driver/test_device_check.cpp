// The correctness check on the device (tuner/device_check.hpp): its kernels compile for every
// arch the tuner measures on (no GPU needed), and on a GPU it gives compare_outputs' verdict,
// counts and (to the order of the sums) errors on results with wrong NaNs and infinities,
// overflow that is right, padding it must not read, and batches.
#include <catch2/catch.hpp>

#include <cmath>
#include <limits>
#include <random>
#include <vector>

#include "compare.hpp"
#include "cuda_handles.hpp"
#include "device_check.hpp"
#include "support/gpu_or_skip.hpp"

namespace gemmtune::tuner {
namespace {

constexpr float kInf = std::numeric_limits<float>::infinity();
constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();

struct Case {
  const char* what;
  int M, N;
  long long ldc;
  int batch;
  long long stride;
  std::vector<float> got;
  std::vector<double> ref64;
  std::vector<float> ref32;
};

// Random outputs a little off their reference, with `poison` applied to the outputs.
template <class Poison>
Case make_case(const char* what, int M, int N, long long ldc, int batch, Poison&& poison) {
  Case c{what, M, N, ldc, batch, static_cast<long long>(M) * ldc, {}, {}, {}};
  const std::size_t count = static_cast<std::size_t>(batch) * c.stride;
  std::mt19937 random(M * 131 + N);
  std::uniform_real_distribution<double> value(-1, 1);
  c.ref64.resize(count);
  c.got.resize(count);
  c.ref32.resize(count);
  for (std::size_t i = 0; i < count; ++i) {
    c.ref64[i] = value(random);
    c.ref32[i] = static_cast<float>(c.ref64[i]);
    c.got[i] = static_cast<float>(c.ref64[i] * (1 + 1e-6 * value(random)));
    if (i % c.ldc >= static_cast<std::size_t>(N)) c.got[i] = kNaN;  // padding: never read
  }
  poison(c);
  return c;
}

void same_verdict(const Comparison& device, const Comparison& host) {
  INFO("device: " << device.summary << "; host: " << host.summary);
  CHECK(device.passed == host.passed);
  CHECK(device.non_finite == host.non_finite);
  CHECK(device.max_abs_error == host.max_abs_error);
  if (std::isnan(host.relative_error)) {
    CHECK(std::isnan(device.relative_error));
  } else {
    CHECK(device.relative_error == Approx(host.relative_error).epsilon(1e-12));
  }
  // A batch's summary names the same entry (the error's last digit may differ).
  if (host.summary.rfind("entry ", 0) == 0) {
    CHECK(device.summary.substr(0, device.summary.find(':')) == host.summary.substr(0, host.summary.find(':')));
  }
}

}  // namespace

TEST_CASE("device check: its kernels compile for sm_80 and sm_90", "[nvrtc]") {
  for (const char* arch : {"sm_80", "sm_90"}) {
    const CompiledKernel compiled = compile_device_check(arch);
    CHECK_FALSE(compiled.cubin.empty());
  }
}

TEST_CASE("device check: the same verdicts and errors as compare_outputs", "[gpu]") {
  const auto device = testing::gpu_or_skip();
  if (!device) return;
  GT_CUDA(cudaSetDevice(device->index));
  const Stream stream;
  const DeviceCheck check(device->arch());
  const double tolerance = 1e-5;
  std::vector<Case> cases;
  cases.push_back(make_case("close, padded", 257, 129, 132, 1, [](Case&) {}));
  cases.push_back(make_case("one row", 1, 4099, 4100, 1, [](Case&) {}));
  cases.push_back(make_case("one column", 3001, 1, 4, 1, [](Case&) {}));
  cases.push_back(make_case("too far", 64, 64, 64, 1, [](Case& c) { c.got[100] += 1; }));
  cases.push_back(make_case("NaN and Inf where finite", 100, 70, 72, 1, [](Case& c) {
    c.got[5] = kNaN;
    c.got[72 * 50 + 3] = -kInf;
  }));
  cases.push_back(make_case("overflow of the right sign", 100, 70, 72, 1, [](Case& c) {
    c.ref64[7] = 1e39;
    c.got[7] = kInf;
    c.ref64[8] = -1e39;
    c.got[8] = -kInf;
  }));
  cases.push_back(make_case("overflow of the wrong sign", 100, 70, 72, 1, [](Case& c) {
    c.ref64[7] = 1e39;
    c.got[7] = -kInf;
  }));
  cases.push_back(make_case("NaN reference", 30, 30, 32, 1, [](Case& c) { c.ref64[40] = std::nan(""); }));
  cases.push_back(make_case("a batch, entry 3 wrong", 33, 17, 20, 5, [](Case& c) { c.got[3 * 33 * 20 + 2] = kNaN; }));
  cases.push_back(make_case("a batch, all close", 9, 9, 12, 3000, [](Case&) {}));
  for (const Case& c : cases) {
    INFO(c.what);
    DeviceBuffer<float> got(c.got.size());
    DeviceBuffer<double> ref64(c.ref64.size());
    DeviceBuffer<float> ref32(c.ref32.size());
    got.upload(c.got, stream.get());
    ref64.upload(c.ref64, stream.get());
    ref32.upload(c.ref32, stream.get());
    same_verdict(check.compare(got.data(), ref64.data(), c.M, c.N, c.ldc, tolerance, c.batch, c.stride, stream.get()),
                 compare_outputs(c.got, c.ref64, c.M, c.N, c.ldc, tolerance, c.batch, c.stride));
    same_verdict(check.compare(got.data(), ref32.data(), c.M, c.N, c.ldc, tolerance, c.batch, c.stride, stream.get()),
                 compare_outputs(c.got, c.ref32, c.M, c.N, c.ldc, tolerance, c.batch, c.stride));
  }
}

}  // namespace gemmtune::tuner
