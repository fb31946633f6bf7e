// The measuring protocol of DESIGN.md for one problem on the current device: random operand sets
// (rotated beyond the L2, the same seed everywhere); on set 0 an FP64 reference (cuBLAS DGEMM on
// the inputs widened: C64 = alpha A B + beta C0, C0 the initial C) and cuBLAS in pedantic FP32;
// cuBLAS in the compute type of the class tuned for as the baseline timed (pedantic FP32 for
// strict and fp32, FAST_TF32 for tf32); each kernel checked against the FP64 reference with the
// tolerance of its own class (gemm_tolerance) before it is timed, with the workspace it needs. The
// references stay on the device and results are compared there (device_check.hpp).
// The tuner's measuring process and gemmbench both measure through it, so that both time
// kernels alike.
#pragma once

#include <cublas_v2.h>
#include <cuda_runtime_api.h>

#include <cstddef>
#include <functional>
#include <optional>
#include <vector>

#include "compare.hpp"
#include "device_check.hpp"
#include "gemm_params.h"
#include "loaded_kernel.hpp"
#include "operand_sets.hpp"
#include "precision.hpp"
#include "problem.hpp"
#include "timing.hpp"

namespace gemmtune::tuner {

struct KernelMeasurement {
  // Against the FP64 reference, within gemm_tolerance(the kernel's class, K): passed or not.
  Comparison check;
  // Against cuBLAS pedantic FP32 on the same inputs: recorded beside it, not decisive.
  Comparison against_cublas;
  std::optional<TimingStats> timing;  // when the check passed
  // Host wall time of the check (launch and both comparisons) and of the
  // timing, for the tuner's account of where its time goes.
  double check_seconds = 0;
  double timing_seconds = 0;
};

class ProblemMeasurement {
 public:
  // Fills the operand sets for `problem` (within a quarter of `device_memory`, spanning twice
  // `l2_bytes`) and computes the references on `stream` with `cublas`; `baseline` is the class
  // whose cuBLAS compute type is timed. Throws CudaError, CublasError.
  // `check` compares results on the device (loaded once a process: it compiles its kernels).
  ProblemMeasurement(const Problem& problem, float alpha, float beta, Precision baseline, std::size_t l2_bytes,
                     std::size_t device_memory, cudaStream_t stream, cublasHandle_t cublas, const DeviceCheck& check);

  // The call a kernel is measured on (set 0's operands), for can_implement and the like.
  GemmParams call() const { return operands_.params(0, alpha_, beta_); }
  // The floats every input pointer and leading dimension is aligned to.
  int alignment() const;

  // cuBLAS in the baseline's compute type: its time, and its result against the FP64 reference
  // (within the baseline class's tolerance).
  TimingStats time_cublas(const TimingOptions& timing);
  const Comparison& cublas_check() const { return cublas_check_; }
  // Checks `kernel` against the reference, then, when it passed, times it (the repetitions after
  // the probe as `plan` says, if given). Throws what a launch throws (Error for a refused launch,
  // CudaError).
  KernelMeasurement measure(const LoadedKernel& kernel, const TimingOptions& timing, const RepetitionPlan& plan = {});
  // The same for any implementation of the call, such as a peer library's kernel: `launch(params)`
  // enqueues one call on the measurement's stream with `params` (set 0's operands writing into
  // the scratch C for the check, then each set's in turn); `precision` is its class, for the
  // tolerance. Throws what `launch` throws.
  using CallLauncher = std::function<void(const GemmParams&)>;
  KernelMeasurement measure_call(const CallLauncher& launch, Precision precision, const TimingOptions& timing,
                                 const RepetitionPlan& plan = {});
  // The check alone, as measure_call makes it: for a second look after the timing (a call whose
  // state is carried from one launch to the next, such as a workspace of flags, must still be right).
  Comparison check_call(const CallLauncher& launch, Precision precision);

 private:
  Problem problem_;
  float alpha_;
  float beta_;
  Precision baseline_;
  cudaStream_t stream_;
  cublasHandle_t cublas_;
  // Both comparisons of `output` (on the device) with the class's tolerance.
  Comparison against_fp64(const float* output, double tolerance) const;
  Comparison against_pedantic(const float* output, double tolerance) const;

  const DeviceCheck& check_;
  OperandSets operands_;
  DeviceBuffer<double> reference64_;
  DeviceBuffer<float> pedantic_;  // cuBLAS pedantic FP32
  Comparison cublas_check_;
};

}  // namespace gemmtune::tuner
