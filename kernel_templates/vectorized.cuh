// Seed step 6: vectorized access. As step 5, but A is stored transposed in shared memory so that
// the inner loop reads TM values of A and TN of B with 128-bit shared loads, and global memory is
// read and written 128 bits at a time. ALIGN (floats) is what the call guarantees for the
// pointers and leading dimensions: 4 gives 128-bit global accesses, 2 gives 64-bit, 1 scalar.
#pragma once

#include "common.cuh"
#include "vectorized_rules.h"

namespace gemmtune {

// Copies the BK x BM tile of A (transposed: As[k * BM + m]) and the BK x BN tile of B
// (Bs[k * BN + n]) at (m0, n0, k0) to shared memory with 128-bit global loads where ALIGN allows.
// CHECKED: the tile may cross the matrix edge; out-of-range elements read as zero.
template <int BM, int BN, int BK, int THREADS, Layout L, int ALIGN, bool CHECKED>
__device__ __forceinline__ void vectorized_load_tiles(float* As, float* Bs, const GemmParams& p, int m0, int n0,
                                                      int k0, int tid) {
  const float4 zero = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
#pragma unroll
  for (int i = 0; i < BM * BK / 4 / THREADS; ++i) {
    const int chunk = i * THREADS + tid;
    if (!a_is_transposed(L)) {  // A row-major: a chunk is 4 k's of one row m
      const int m = chunk / (BK / 4);
      const int k = chunk % (BK / 4) * 4;
      const float4 v = !CHECKED || m0 + m < p.M
          ? load_float4<ALIGN>(p.A + static_cast<long long>(m0 + m) * p.lda + k0 + k, CHECKED ? p.K - k0 - k : 4)
          : zero;
      As[(k + 0) * BM + m] = v.x;
      As[(k + 1) * BM + m] = v.y;
      As[(k + 2) * BM + m] = v.z;
      As[(k + 3) * BM + m] = v.w;
    } else {  // A stored K x M: a chunk is 4 m's of one row k, already in shared order
      const int k = chunk / (BM / 4);
      const int m = chunk % (BM / 4) * 4;
      const float4 v = !CHECKED || k0 + k < p.K
          ? load_float4<ALIGN>(p.A + static_cast<long long>(k0 + k) * p.lda + m0 + m, CHECKED ? p.M - m0 - m : 4)
          : zero;
      *reinterpret_cast<float4*>(&As[k * BM + m]) = v;
    }
  }
#pragma unroll
  for (int i = 0; i < BK * BN / 4 / THREADS; ++i) {
    const int chunk = i * THREADS + tid;
    if (!b_is_transposed(L)) {  // B row-major: a chunk is 4 n's of one row k
      const int k = chunk / (BN / 4);
      const int n = chunk % (BN / 4) * 4;
      const float4 v = !CHECKED || k0 + k < p.K
          ? load_float4<ALIGN>(p.B + static_cast<long long>(k0 + k) * p.ldb + n0 + n, CHECKED ? p.N - n0 - n : 4)
          : zero;
      *reinterpret_cast<float4*>(&Bs[k * BN + n]) = v;
    } else {  // B stored N x K: a chunk is 4 k's of one row n
      const int n = chunk / (BK / 4);
      const int k = chunk % (BK / 4) * 4;
      const float4 v = !CHECKED || n0 + n < p.N
          ? load_float4<ALIGN>(p.B + static_cast<long long>(n0 + n) * p.ldb + k0 + k, CHECKED ? p.K - k0 - k : 4)
          : zero;
      Bs[(k + 0) * BN + n] = v.x;
      Bs[(k + 1) * BN + n] = v.y;
      Bs[(k + 2) * BN + n] = v.z;
      Bs[(k + 3) * BN + n] = v.w;
    }
  }
}

template <int BM, int BN, int BK, int TM, int TN, Layout L, int ALIGN>
__global__ void __launch_bounds__(reg2d_threads(BM, BN, TM, TN)) vectorized_sgemm(GemmParams p) {
  constexpr int THREADS = reg2d_threads(BM, BN, TM, TN);
  GEMMTUNE_VECTORIZED_RULES(GEMMTUNE_STATIC_ASSERT_RULE, "vectorized")
  __shared__ __align__(16) float As[BK * BM];  // transposed: As[k * BM + m]
  __shared__ __align__(16) float Bs[BK * BN];  // Bs[k * BN + n]
  const int tid = threadIdx.x;
  const int thread_col = tid % (BN / TN);
  const int thread_row = tid / (BN / TN);
  const int m0 = blockIdx.y * BM;
  const int n0 = blockIdx.x * BN;
  float acc[TM][TN] = {};
  float a_frag[TM];
  float b_frag[TN];
  for (int k0 = 0; k0 < p.K; k0 += BK) {
    // Tiles wholly inside the matrices (all but the edges) skip the bounds checks.
    if (m0 + BM <= p.M && n0 + BN <= p.N && k0 + BK <= p.K) {
      vectorized_load_tiles<BM, BN, BK, THREADS, L, ALIGN, false>(As, Bs, p, m0, n0, k0, tid);
    } else {
      vectorized_load_tiles<BM, BN, BK, THREADS, L, ALIGN, true>(As, Bs, p, m0, n0, k0, tid);
    }
    __syncthreads();
#pragma unroll
    for (int k = 0; k < BK; ++k) {
#pragma unroll
      for (int i = 0; i < TM; i += 4) load_fragment4(&a_frag[i], &As[k * BM + thread_row * TM + i]);
#pragma unroll
      for (int j = 0; j < TN; j += 4) load_fragment4(&b_frag[j], &Bs[k * BN + thread_col * TN + j]);
#pragma unroll
      for (int i = 0; i < TM; ++i)
#pragma unroll
        for (int j = 0; j < TN; ++j) acc[i][j] += a_frag[i] * b_frag[j];
    }
    __syncthreads();
  }
  // RUNS runs of 4 outputs at a time, their reads of C in flight together (store_c_runs4).
  constexpr int RUNS_PER_ROW = TN / 4;
  constexpr int RUNS = epilogue_runs<TM, TN, 8>();
#pragma unroll
  for (int r0 = 0; r0 < TM * RUNS_PER_ROW; r0 += RUNS) {
    int m[RUNS], n[RUNS], valid[RUNS];
    float runs[RUNS][4];
#pragma unroll
    for (int r = 0; r < RUNS; ++r) {
      const int i = (r0 + r) / RUNS_PER_ROW;
      const int j = (r0 + r) % RUNS_PER_ROW * 4;
      m[r] = m0 + thread_row * TM + i;
      n[r] = n0 + thread_col * TN + j;
      valid[r] = m[r] < p.M ? p.N - n[r] : 0;
#pragma unroll
      for (int e = 0; e < 4; ++e) runs[r][e] = acc[i][j + e];
    }
    store_c_runs4<ALIGN>(p, m, n, valid, runs);
  }
}

}  // namespace gemmtune
