// Seed step 4: 1D register tiling. Each thread computes TM outputs of one column, so one value of
// B read from shared memory feeds TM multiply-adds, and the block tile (BM x BN) grows without
// growing the thread count.
#pragma once

#include "common.cuh"
#include "reg1d_rules.h"

namespace gemmtune {

template <int BM, int BN, int BK, int TM, Layout L, int ALIGN>
__global__ void __launch_bounds__(reg1d_threads(BM, BN, TM)) reg1d_sgemm(GemmParams p) {
  constexpr int THREADS = reg1d_threads(BM, BN, TM);
  GEMMTUNE_REG1D_RULES(GEMMTUNE_STATIC_ASSERT_RULE, "reg1d")
  __shared__ float As[BM * BK];
  __shared__ float Bs[BK * BN];
  const int tid = threadIdx.x;
  const int thread_col = tid % BN;
  const int thread_row = tid / BN;
  const int m0 = blockIdx.y * BM;
  const int n0 = blockIdx.x * BN;
  float acc[TM] = {};
  for (int k0 = 0; k0 < p.K; k0 += BK) {
    load_a_tile<BM, BK, THREADS, L, false>(As, p, m0, k0, tid);
    load_b_tile<BK, BN, THREADS, L>(Bs, p, k0, n0, tid);
    __syncthreads();
#pragma unroll
    for (int k = 0; k < BK; ++k) {
      const float b = Bs[k * BN + thread_col];
#pragma unroll
      for (int i = 0; i < TM; ++i) acc[i] += As[(thread_row * TM + i) * BK + k] * b;
    }
    __syncthreads();
  }
  const int n = n0 + thread_col;
#pragma unroll
  for (int i = 0; i < TM; ++i) {
    const int m = m0 + thread_row * TM + i;
    if (m < p.M && n < p.N) store_c(p, m, n, acc[i]);
  }
}

}  // namespace gemmtune
