#include "measurement.hpp"

#include <chrono>

#include "cublas_gemm.hpp"
#include "family_registry.hpp"
#include "fp64_reference.hpp"
#include "gemm_call.hpp"
#include "precision.hpp"
#include "workspace.hpp"

namespace gemmtune::tuner {
namespace {

// The same inputs for every candidate, in every process, after a restart too.
constexpr unsigned kOperandSeed = 20261129u;

}  // namespace

ProblemMeasurement::ProblemMeasurement(const Problem& problem, float alpha, float beta, Precision baseline,
                                       std::size_t l2_bytes, std::size_t device_memory, cudaStream_t stream,
                                       cublasHandle_t cublas, const DeviceCheck& check)
    : problem_(problem),
      alpha_(alpha),
      beta_(beta),
      baseline_(baseline),
      stream_(stream),
      cublas_(cublas),
      check_(check),
      operands_(problem, l2_bytes, device_memory, kOperandSeed) {
  // check_params resets the scratch C to the initial C each time: every reference starts from it.
  reference64_ = fp64_reference_on_device(cublas_, problem_.layout, operands_.check_params(alpha_, beta_, stream_), stream_);
  const DeviceBuffer<float>& output = operands_.check_output();
  cublas_sgemm(cublas_, problem_.layout, operands_.check_params(alpha_, beta_, stream_), stream_, Precision::Strict);
  pedantic_ = DeviceBuffer<float>(output.size());
  pedantic_.copy_from(output, stream_);
  if (baseline_ == Precision::Tf32) {
    cublas_sgemm(cublas_, problem_.layout, operands_.check_params(alpha_, beta_, stream_), stream_, baseline_);
  }
  cublas_check_ = against_fp64(output.data(), gemm_tolerance(baseline_, problem_.K));
}

Comparison ProblemMeasurement::against_fp64(const float* output, double tolerance) const {
  return check_.compare(output, reference64_.data(), problem_.M, problem_.N, operands_.ldc(), tolerance,
                        problem_.batch, operands_.c_stride(), stream_);
}

Comparison ProblemMeasurement::against_pedantic(const float* output, double tolerance) const {
  return check_.compare(output, pedantic_.data(), problem_.M, problem_.N, operands_.ldc(), tolerance, problem_.batch,
                        operands_.c_stride(), stream_);
}

int ProblemMeasurement::alignment() const { return call_alignment(call()); }

TimingStats ProblemMeasurement::time_cublas(const TimingOptions& timing) {
  return time_launches(
      [&](int i) { cublas_sgemm(cublas_, problem_.layout, operands_.params(i, alpha_, beta_), stream_, baseline_); },
      operands_.count(), stream_, timing);
}

KernelMeasurement ProblemMeasurement::measure(const LoadedKernel& kernel, const TimingOptions& timing,
                                              const RepetitionPlan& plan) {
  Workspace workspace;
  return measure_call(
      [&](GemmParams params) {
        workspace.attach(kernel, params, stream_);
        kernel.launch(params, stream_);
      },
      find_family(kernel.config().family).precision(), timing, plan);
}

Comparison ProblemMeasurement::check_call(const CallLauncher& launch, Precision precision) {
  launch(operands_.check_params(alpha_, beta_, stream_));
  return against_fp64(operands_.check_output().data(), gemm_tolerance(precision, problem_.K));
}

KernelMeasurement ProblemMeasurement::measure_call(const CallLauncher& launch, Precision precision,
                                                   const TimingOptions& timing, const RepetitionPlan& plan) {
  KernelMeasurement result;
  const auto check_started = std::chrono::steady_clock::now();
  result.check = check_call(launch, precision);
  result.against_cublas = against_pedantic(operands_.check_output().data(), gemm_tolerance(precision, problem_.K));
  const auto timing_started = std::chrono::steady_clock::now();
  result.check_seconds = std::chrono::duration<double>(timing_started - check_started).count();
  if (!result.check.passed) return result;
  result.timing = time_launches([&](int i) { launch(operands_.params(i, alpha_, beta_)); }, operands_.count(), stream_,
                                timing, plan);
  result.timing_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - timing_started).count();
  return result;
}

}  // namespace gemmtune::tuner
