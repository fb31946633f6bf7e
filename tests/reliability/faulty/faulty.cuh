// A kernel family that fails on purpose, for the reliability tests only: it is embedded into the
// test programs, never into the shipped binaries. MODE selects how a candidate fails while the
// tuner measures it:
//   1  writes far outside any allocation (an illegal address: the CUDA context is lost)
//   2  executes a trap instruction (the context is lost)
//   3  never ends (only the tuner's timeout stops it)
//   4  finishes with a wrong result
//   5  does not fail: a correct SGEMM (one thread an output), so a run over the family has a
//      winner. (Not 0: the values in kernel names are positive.)
#pragma once

#include "common.cuh"

namespace gemmtune {

template <int MODE, Layout L, int ALIGN>
__global__ void __launch_bounds__(256) faulty_sgemm(GemmParams p) {
  static_assert(MODE >= 1 && MODE <= 5, "faulty: MODE must be 1..5");
  static_assert(ALIGN == 1, "faulty: reads single floats; ALIGN must be 1");
  if constexpr (MODE == 2) __trap();
  if constexpr (MODE == 3) {
    // clock64() is volatile, so the compiler can neither prove the loop endless nor drop it.
    while (clock64() >= 0) __nanosleep(1000);
  }
  const int n = blockIdx.x * 16 + threadIdx.x;
  const int m = blockIdx.y * 16 + threadIdx.y;
  if (m >= p.M || n >= p.N) return;
  float acc = 0.0f;
  for (int k = 0; k < p.K; ++k) acc += load_a<L>(p, m, k) * load_b<L>(p, k, n);
  if constexpr (MODE == 1) {
    if (m == 0 && n == 0) {
      // 4 TiB past C, computed from the argument so that the compiler cannot see it coming.
      volatile float* far_away = p.C + (1LL << 40);
      *far_away = acc;
    }
  }
  if constexpr (MODE == 4) acc += 1.0f;
  store_c(p, m, n, acc);
}

}  // namespace gemmtune
