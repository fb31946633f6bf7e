// [gpu] The measuring protocol's references: the FP64 reference that every candidate is checked
// against, cuBLAS's own distance from it in each class's compute type, and a candidate's error
// from it within its own class's tolerance.
#include <catch2/catch.hpp>

#include "cuda_handles.hpp"
#include "family_registry.hpp"
#include "loaded_kernel.hpp"
#include "measurement.hpp"
#include "nvrtc_compiler.hpp"
#include "support/gpu_or_skip.hpp"

namespace gemmtune::tuner {
namespace {

// An odd problem with beta != 0, so that C's old values are part of every reference.
const Problem kProblem{Layout::NN, 257, 129, 1000};
constexpr float kAlpha = 0.75f;
constexpr float kBeta = -1.25f;

ProblemMeasurement measure_problem(const DeviceInfo& device, Precision baseline, const Stream& stream,
                                   const CublasHandle& cublas, const DeviceCheck& check) {
  return ProblemMeasurement(kProblem, kAlpha, kBeta, baseline, device.l2_bytes, device.global_memory_bytes,
                            stream.get(), cublas.get(), check);
}

}  // namespace

TEST_CASE("measurement: cuBLAS pedantic is within FP32's bound of the FP64 reference, FAST_TF32 only within TF32's",
          "[gpu]") {
  const auto device = testing::gpu_or_skip();
  if (!device) return;
  GT_CUDA(cudaSetDevice(device->index));
  const Stream stream;
  const CublasHandle cublas;
  const DeviceCheck check(device->arch());
  const ProblemMeasurement pedantic = measure_problem(*device, Precision::Fp32, stream, cublas, check);
  INFO("pedantic: " << pedantic.cublas_check().summary);
  CHECK(pedantic.cublas_check().passed);
  CHECK(pedantic.cublas_check().relative_error > 0);  // FP32's rounding, seen against FP64
  CHECK(pedantic.cublas_check().relative_error < 1e-6);
  const ProblemMeasurement tf32 = measure_problem(*device, Precision::Tf32, stream, cublas, check);
  INFO("FAST_TF32: " << tf32.cublas_check().summary);
  CHECK(tf32.cublas_check().passed);
  CHECK(tf32.cublas_check().relative_error > 10 * pedantic.cublas_check().relative_error);
}

TEST_CASE("measurement: a candidate's error is measured against FP64 and judged by its own class", "[gpu]") {
  const auto device = testing::gpu_or_skip();
  if (!device) return;
  GT_CUDA(cudaSetDevice(device->index));
  const Stream stream;
  const CublasHandle cublas;
  const DeviceCheck check(device->arch());
  ProblemMeasurement measurement = measure_problem(*device, Precision::Fp32, stream, cublas, check);
  TimingOptions timing;
  timing.target_ms = 5;
  for (const char* family_name : {"reg2d", "tf32x3"}) {
    const KernelFamily& family = find_family(family_name);
    const KernelConfig config = family.default_config(kProblem.layout, 1);
    const CompiledKernel compiled = compile_kernel(config, device->arch());
    const LoadedKernel kernel(config, compiled.cubin, compiled.lowered_name);
    const KernelMeasurement measured = measurement.measure(kernel, timing);
    INFO(family_name << ": against FP64 " << measured.check.summary << "; against cuBLAS "
                     << measured.against_cublas.summary);
    CHECK(measured.check.passed);
    CHECK(measured.timing.has_value());
    CHECK(measured.check.relative_error < gemm_tolerance(family.precision(), kProblem.K));
    CHECK(measured.check.relative_error > 0);
    CHECK(measured.against_cublas.relative_error < 1e-5);
  }
}

}  // namespace gemmtune::tuner
