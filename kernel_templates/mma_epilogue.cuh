// The epilogue of a block tile held in MMA accumulator fragments (mma.sync's, and wgmma's, whose
// four warps stack them): C = alpha acc + beta C, or this slice's split-K partial sums; and when
// to ask L2 for C first.
#pragma once

#include "common.cuh"
#include "splitk.cuh"

namespace gemmtune {

// Up to this many k tiles, the kernel asks L2 for its C tile first (prefetch_c_tile); beyond, the
// main loop is long enough that the lines would be evicted before the epilogue reads them.
constexpr int kMmaPrefetchCTiles = 4;

// Where the accumulators are: a grid of MMA_M x MMA_N tiles of 16 x 8, lane (group, quad) holding
// elements e = 0..3 of each at (m_first + 16 i + e / 2 * 8, n_first + 8 j + e % 2), as mma.sync's
// (and wgmma's, four warps stacked) accumulator fragments lay them out.

// The epilogue of a BM x BN block tile held as such fragments: C = alpha acc + beta C, or with
// SPLITK > 1 this slice's partial sums, added by splitk_finish_tile.
template <int MMA_M, int MMA_N, int BM, int BN, int THREADS, int SPLITK, int ALIGN>
__device__ __forceinline__ void store_mma_tiles(const GemmParams& p, float (&acc)[MMA_M][MMA_N][4], int m_first,
                                                int n_first, int m0, int n0, int tid) {
  if (SPLITK == 1) {
    // Every old value of C is read before any output is written: a store to C might alias a
    // later load, so interleaved, each load would wait for the store before it.
#pragma unroll
    for (int i = 0; i < MMA_M; ++i) {
#pragma unroll
      for (int j = 0; j < MMA_N; ++j) {
#pragma unroll
        for (int half = 0; half < 2; ++half) {
          float* run = &acc[i][j][2 * half];
          const int m = m_first + 16 * i + 8 * half;
          const int n = n_first + 8 * j;
          run[0] = alpha_times(p, run[0]);
          run[1] = alpha_times(p, run[1]);
          if (p.beta != 0.0f && m < p.M && n < p.N) {
            float old[2];
            load_run<2, ALIGN>(p.C + static_cast<long long>(m) * p.ldc + n, p.N - n, old);
            run[0] += p.beta * old[0];
            run[1] += p.beta * old[1];
          }
        }
      }
    }
#pragma unroll
    for (int i = 0; i < MMA_M; ++i) {
#pragma unroll
      for (int j = 0; j < MMA_N; ++j) {
#pragma unroll
        for (int half = 0; half < 2; ++half) {
          const int m = m_first + 16 * i + 8 * half;
          const int n = n_first + 8 * j;
          const float run[2] = {acc[i][j][2 * half], acc[i][j][2 * half + 1]};
          if (m < p.M && n < p.N) store_run<2, ALIGN>(p.C + static_cast<long long>(m) * p.ldc + n, run, p.N - n);
        }
      }
    }
  } else {
    const long long tiles = static_cast<long long>(gridDim.x) * gridDim.y;
    const long long tile = static_cast<long long>(blockIdx.y) * gridDim.x + blockIdx.x;
#pragma unroll
    for (int i = 0; i < MMA_M; ++i) {
#pragma unroll
      for (int j = 0; j < MMA_N; ++j) {
#pragma unroll
        for (int e = 0; e < 4; ++e) {
          const int m = m_first + 16 * i + e / 2 * 8;
          const int n = n_first + 8 * j + e % 2;
          if (m < p.M && n < p.N) *splitk_partial<SPLITK>(p, tiles, blockIdx.z, m, n) = acc[i][j][e];
        }
      }
    }
    splitk_finish_tile<BM, BN, THREADS, SPLITK, ALIGN>(p, tile, tiles, blockIdx.z, m0, n0, tid);
  }
}

}  // namespace gemmtune
