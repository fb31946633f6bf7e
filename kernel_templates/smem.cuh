// Seed step 3: shared-memory tiling. A block of TILE x TILE threads stages a TILE x TILE tile of
// A and of B in shared memory, so each global element is read once per block instead of once
// per thread.
#pragma once

#include "common.cuh"
#include "thread_per_output_rules.h"

namespace gemmtune {

template <int TILE, Layout L, int ALIGN>
__global__ void __launch_bounds__(TILE * TILE) smem_sgemm(GemmParams p) {
  GEMMTUNE_THREAD_PER_OUTPUT_RULES(GEMMTUNE_STATIC_ASSERT_RULE, "smem")
  constexpr int THREADS = TILE * TILE;
  __shared__ float As[TILE * TILE];
  __shared__ float Bs[TILE * TILE];
  const int tx = threadIdx.x;
  const int ty = threadIdx.y;
  const int tid = ty * TILE + tx;
  const int m0 = blockIdx.y * TILE;
  const int n0 = blockIdx.x * TILE;
  float acc = 0.0f;
  for (int k0 = 0; k0 < p.K; k0 += TILE) {
    load_a_tile<TILE, TILE, THREADS, L, false>(As, p, m0, k0, tid);
    load_b_tile<TILE, TILE, THREADS, L>(Bs, p, k0, n0, tid);
    __syncthreads();
#pragma unroll
    for (int k = 0; k < TILE; ++k) acc += As[ty * TILE + k] * Bs[k * TILE + tx];
    __syncthreads();
  }
  if (m0 + ty < p.M && n0 + tx < p.N) store_c(p, m0 + ty, n0 + tx, acc);
}

}  // namespace gemmtune
