// Seed step 1: one thread per output, threadIdx.x along the rows of C. Neighbouring threads of a
// warp read A and write C one row apart, so no access is coalesced: the slow baseline on purpose.
#pragma once

#include "common.cuh"

namespace gemmtune {

template <int TILE, Layout L, int ALIGN>
__global__ void __launch_bounds__(TILE * TILE) naive_sgemm(GemmParams p) {
  static_assert(TILE >= 1 && TILE * TILE <= 1024, "naive: TILE * TILE threads must be 1..1024");
  static_assert(ALIGN == 1, "naive: reads single floats; ALIGN must be 1");
  const int m = blockIdx.x * TILE + threadIdx.x;
  const int n = blockIdx.y * TILE + threadIdx.y;
  if (m >= p.M || n >= p.N) return;
  float acc = 0.0f;
  for (int k = 0; k < p.K; ++k) acc += load_a<L>(p, m, k) * load_b<L>(p, k, n);
  store_c(p, m, n, acc);
}

}  // namespace gemmtune
