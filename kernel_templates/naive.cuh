// Seed step 1: one thread per output, threadIdx.x along the rows of C. Neighbouring threads of a
// warp read A and write C one row apart, so no access is coalesced: the slow baseline on purpose.
#pragma once

#include "common.cuh"
#include "thread_per_output_rules.h"

namespace gemmtune {

template <int TILE, Layout L, int ALIGN>
__global__ void __launch_bounds__(TILE * TILE) naive_sgemm(GemmParams p) {
  GEMMTUNE_THREAD_PER_OUTPUT_RULES(GEMMTUNE_STATIC_ASSERT_RULE, "naive")
  const int m = blockIdx.x * TILE + threadIdx.x;
  const int n = blockIdx.y * TILE + threadIdx.y;
  if (m >= p.M || n >= p.N) return;
  float acc = 0.0f;
  for (int k = 0; k < p.K; ++k) acc += load_a<L>(p, m, k) * load_b<L>(p, k, n);
  store_c(p, m, n, acc);
}

}  // namespace gemmtune
