// The inputs of a timed GEMM problem on the device: random A, B and C (random_operand: uniform in
// (-1, 1), never zeros) with minimal leading dimensions, repeated in enough sets that one rotation spans twice
// the L2, so a timed run never finds its operands cached by the previous one; plus the initial C
// kept apart and a scratch C for the correctness check. A batched problem's sets hold its entries
// packed (strides M*K, K*N and M*N), as a strided-batched call has them. gemmbench and the tuner's measuring
// process share it, so both time kernels the same way.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>
#include <vector>

#include "cuda_handles.hpp"
#include "gemm_params.h"
#include "problem.hpp"

namespace gemmtune {

// `count` values uniform over the odd multiples of 2^-24 in (-1, 1) (so never zero), value i a
// hash of (`seed`, i): the same on every machine and in every process. A problem's inputs are up
// to 192M values, which std::mt19937 and uniform_real_distribution took 1-2 s to draw; a hash a
// value takes about a third of that (64M values on a 2-core machine: 0.19 s against 0.54 s, the
// allocation included; bench/results/2026-12-04-h200-tuning-cost-device-check.md).
std::vector<float> random_operand(std::size_t count, std::uint64_t seed);

class OperandSets {
 public:
  // Allocates and fills the sets for `problem` (every batch entry with its own values): as many as
  // make 2x `l2_bytes` (at least 2, at most 64), within a quarter of `device_memory`. The same
  // `seed` gives the same values.
  OperandSets(const Problem& problem, std::size_t l2_bytes, std::size_t device_memory, unsigned seed);

  int count() const { return static_cast<int>(sets_.size()); }
  // Set i's operands, writing into set i's own C (for timing).
  GemmParams params(int i, float alpha, float beta) const;
  // Set 0's operands writing into the scratch C, after resetting it to the initial C on `stream`.
  GemmParams check_params(float alpha, float beta, cudaStream_t stream);
  // The scratch C after a check run: every batch entry, `c_stride()` floats apart.
  std::vector<float> check_result(cudaStream_t stream) const { return c_check_.download(stream); }
  // The scratch C itself, on the device.
  const DeviceBuffer<float>& check_output() const { return c_check_; }
  long long ldc() const { return ldc_; }
  long long c_stride() const { return stride_c_; }

 private:
  struct Set {
    DeviceBuffer<float> a, b, c;
  };

  int M_, N_, K_, batch_;
  long long lda_, ldb_, ldc_;
  long long stride_a_, stride_b_, stride_c_;
  std::vector<Set> sets_;
  DeviceBuffer<float> c_initial_, c_check_;
};

}  // namespace gemmtune
