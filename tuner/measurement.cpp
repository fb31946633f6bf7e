#include "measurement.hpp"

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
                                       cublasHandle_t cublas)
    : problem_(problem),
      alpha_(alpha),
      beta_(beta),
      baseline_(baseline),
      stream_(stream),
      cublas_(cublas),
      operands_(problem, l2_bytes, device_memory, kOperandSeed) {
  // check_params resets the scratch C to the initial C each time: every reference starts from it.
  reference64_ = fp64_reference(cublas_, problem_.layout, operands_.check_params(alpha_, beta_, stream_), stream_);
  auto cublas_result = [&](Precision precision) {
    cublas_sgemm(cublas_, problem_.layout, operands_.check_params(alpha_, beta_, stream_), stream_, precision);
    return operands_.check_result(stream_);
  };
  pedantic_ = cublas_result(Precision::Strict);
  cublas_check_ = compare_outputs(baseline_ == Precision::Tf32 ? cublas_result(baseline_) : pedantic_, reference64_,
                                  problem_.M, problem_.N, operands_.ldc(), gemm_tolerance(baseline_, problem_.K),
                                  problem_.batch, operands_.c_stride());
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
  auto with_workspace = [&](GemmParams params) {
    workspace.attach(kernel, params, stream_);
    return params;
  };
  KernelMeasurement result;
  kernel.launch(with_workspace(operands_.check_params(alpha_, beta_, stream_)), stream_);
  const std::vector<float> output = operands_.check_result(stream_);
  const double tolerance = gemm_tolerance(find_family(kernel.config().family).precision(), problem_.K);
  result.check = compare_outputs(output, reference64_, problem_.M, problem_.N, operands_.ldc(), tolerance,
                                 problem_.batch, operands_.c_stride());
  result.against_cublas = compare_outputs(output, pedantic_, problem_.M, problem_.N, operands_.ldc(), tolerance,
                                          problem_.batch, operands_.c_stride());
  if (!result.check.passed) return result;
  result.timing = time_launches([&](int i) { kernel.launch(with_workspace(operands_.params(i, alpha_, beta_)), stream_); },
                                operands_.count(), stream_, timing, plan);
  return result;
}

}  // namespace gemmtune::tuner
