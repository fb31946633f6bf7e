// The measuring protocol of DESIGN.md for one problem on the current device: random operand sets
// (rotated beyond the L2, the same seed everywhere), cuBLAS (pedantic FP32) on set 0 as the
// reference and the baseline, and each kernel checked against the reference before it is timed,
// with the workspace it needs. The tuner's measuring process and gemmbench both measure through
// it, so that both time kernels alike.
#pragma once

#include <cublas_v2.h>
#include <cuda_runtime_api.h>

#include <cstddef>
#include <optional>
#include <vector>

#include "compare.hpp"
#include "gemm_params.h"
#include "loaded_kernel.hpp"
#include "operand_sets.hpp"
#include "problem.hpp"
#include "timing.hpp"

namespace gemmtune::tuner {

struct KernelMeasurement {
  Comparison check;                   // against cuBLAS on the same inputs
  std::optional<TimingStats> timing;  // when the check passed
};

class ProblemMeasurement {
 public:
  // Fills the operand sets for `problem` (within a quarter of `device_memory`, spanning twice
  // `l2_bytes`) and computes the reference on `stream` with `cublas`. Throws CudaError,
  // CublasError.
  ProblemMeasurement(const Problem& problem, float alpha, float beta, std::size_t l2_bytes, std::size_t device_memory,
                     cudaStream_t stream, cublasHandle_t cublas);

  // The call a kernel is measured on (set 0's operands), for can_implement and the like.
  GemmParams call() const { return operands_.params(0, alpha_, beta_); }
  // The floats every input pointer and leading dimension is aligned to.
  int alignment() const;

  TimingStats time_cublas(const TimingOptions& timing);
  // Checks `kernel` against the reference, then, when it passed, times it (the repetitions after
  // the probe as `plan` says, if given). Throws what a launch throws (Error for a refused launch,
  // CudaError).
  KernelMeasurement measure(const LoadedKernel& kernel, const TimingOptions& timing, const RepetitionPlan& plan = {});

 private:
  Problem problem_;
  float alpha_;
  float beta_;
  cudaStream_t stream_;
  cublasHandle_t cublas_;
  OperandSets operands_;
  std::vector<float> reference_;
};

}  // namespace gemmtune::tuner
