// Seed step 2: as naive, but threadIdx.x runs along the columns of C, so a warp reads one row of
// B and writes one row of C with consecutive addresses (coalesced), and shares its A element.
#pragma once

#include "common.cuh"
#include "thread_per_output_rules.h"

namespace gemmtune {

template <int TILE, Layout L, int ALIGN>
__global__ void __launch_bounds__(TILE * TILE) coalesced_sgemm(GemmParams p) {
  GEMMTUNE_THREAD_PER_OUTPUT_RULES(GEMMTUNE_STATIC_ASSERT_RULE, "coalesced")
  const int n = blockIdx.x * TILE + threadIdx.x;
  const int m = blockIdx.y * TILE + threadIdx.y;
  if (m >= p.M || n >= p.N) return;
  float acc = 0.0f;
  for (int k = 0; k < p.K; ++k) acc += load_a<L>(p, m, k) * load_b<L>(p, k, n);
  store_c(p, m, n, acc);
}

}  // namespace gemmtune
