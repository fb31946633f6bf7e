// Seed step 2: as naive, but threadIdx.x runs along the columns of C, so a warp reads one row of
// B and writes one row of C with consecutive addresses (coalesced), and shares its A element.
#pragma once

#include "common.cuh"

namespace gemmtune {

template <int TILE, Layout L, int ALIGN>
__global__ void __launch_bounds__(TILE * TILE) coalesced_sgemm(GemmParams p) {
  static_assert(TILE >= 1 && TILE * TILE <= 1024, "coalesced: TILE * TILE threads must be 1..1024");
  static_assert(ALIGN == 1, "coalesced: reads single floats; ALIGN must be 1");
  const int n = blockIdx.x * TILE + threadIdx.x;
  const int m = blockIdx.y * TILE + threadIdx.y;
  if (m >= p.M || n >= p.N) return;
  float acc = 0.0f;
  for (int k = 0; k < p.K; ++k) acc += load_a<L>(p, m, k) * load_b<L>(p, k, n);
  store_c(p, m, n, acc);
}

}  // namespace gemmtune
