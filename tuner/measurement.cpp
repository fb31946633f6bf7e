#include "measurement.hpp"

#include "cublas_gemm.hpp"
#include "family_registry.hpp"
#include "gemm_call.hpp"
#include "precision.hpp"
#include "workspace.hpp"

namespace gemmtune::tuner {
namespace {

// The same inputs for every candidate, in every process, after a restart too.
constexpr unsigned kOperandSeed = 20261129u;

}  // namespace

ProblemMeasurement::ProblemMeasurement(const Problem& problem, float alpha, float beta, std::size_t l2_bytes,
                                       std::size_t device_memory, cudaStream_t stream, cublasHandle_t cublas)
    : problem_(problem),
      alpha_(alpha),
      beta_(beta),
      stream_(stream),
      cublas_(cublas),
      operands_(problem.layout, problem.M, problem.N, problem.K, l2_bytes, device_memory, kOperandSeed) {
  cublas_sgemm(cublas_, problem_.layout, operands_.check_params(alpha_, beta_, stream_), stream_);
  reference_ = operands_.check_result(stream_);
}

int ProblemMeasurement::alignment() const { return call_alignment(call()); }

TimingStats ProblemMeasurement::time_cublas(const TimingOptions& timing) {
  return time_launches(
      [&](int i) { cublas_sgemm(cublas_, problem_.layout, operands_.params(i, alpha_, beta_), stream_); },
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
  result.check = compare_outputs(operands_.check_result(stream_), reference_, problem_.M, problem_.N, operands_.ldc(),
                                 gemm_tolerance(find_family(kernel.config().family).precision(), problem_.K));
  if (!result.check.passed) return result;
  result.timing = time_launches([&](int i) { kernel.launch(with_workspace(operands_.params(i, alpha_, beta_)), stream_); },
                                operands_.count(), stream_, timing, plan);
  return result;
}

}  // namespace gemmtune::tuner
