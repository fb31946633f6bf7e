// Seed step 5: 2D register tiling. Each thread computes a TM x TN outer product per k step from
// TM values of A and TN of B held in registers: TM * TN multiply-adds for TM + TN shared loads.
#pragma once

#include "common.cuh"
#include "reg2d_rules.h"

namespace gemmtune {

template <int BM, int BN, int BK, int TM, int TN, Layout L, int ALIGN>
__global__ void __launch_bounds__(reg2d_threads(BM, BN, TM, TN)) reg2d_sgemm(GemmParams p) {
  constexpr int THREADS = reg2d_threads(BM, BN, TM, TN);
  GEMMTUNE_REG2D_RULES(GEMMTUNE_STATIC_ASSERT_RULE, "reg2d")
  __shared__ float As[BM * BK];
  __shared__ float Bs[BK * BN];
  const int tid = threadIdx.x;
  const int thread_col = tid % (BN / TN);
  const int thread_row = tid / (BN / TN);
  const int m0 = blockIdx.y * BM;
  const int n0 = blockIdx.x * BN;
  float acc[TM][TN] = {};
  float a_frag[TM];
  float b_frag[TN];
  for (int k0 = 0; k0 < p.K; k0 += BK) {
    load_a_tile<BM, BK, THREADS, L, false>(As, p, m0, k0, tid);
    load_b_tile<BK, BN, THREADS, L>(Bs, p, k0, n0, tid);
    __syncthreads();
#pragma unroll
    for (int k = 0; k < BK; ++k) {
#pragma unroll
      for (int i = 0; i < TM; ++i) a_frag[i] = As[(thread_row * TM + i) * BK + k];
#pragma unroll
      for (int j = 0; j < TN; ++j) b_frag[j] = Bs[k * BN + thread_col * TN + j];
#pragma unroll
      for (int i = 0; i < TM; ++i)
#pragma unroll
        for (int j = 0; j < TN; ++j) acc[i][j] += a_frag[i] * b_frag[j];
    }
    __syncthreads();
  }
#pragma unroll
  for (int i = 0; i < TM; ++i) {
    const int m = m0 + thread_row * TM + i;
#pragma unroll
    for (int j = 0; j < TN; ++j) {
      const int n = n0 + thread_col * TN + j;
      if (m < p.M && n < p.N) store_c(p, m, n, acc[i][j]);
    }
  }
}

}  // namespace gemmtune
