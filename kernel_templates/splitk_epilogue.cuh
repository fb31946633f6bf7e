// Deterministic split-K: the SPLITK blocks of one output tile each write their partial sums to
// the workspace; the last to arrive (counted with an atomic per tile) adds the partials in slice
// order 0, 1, ..., SPLITK-1, whatever the arrival order, so every run gives the same bits; it
// then applies alpha and beta and puts the tile's counter back to zero for the next launch.
//
// Workspace layout (floats): [counters: one per tile, rounded up to 4][partials: SPLITK x M x N].
#pragma once

#include "common.cuh"

namespace gemmtune {

__host__ __device__ constexpr long long splitk_counter_floats(long long tiles) { return (tiles + 3) / 4 * 4; }

// Called by every thread of the block after it wrote its partial outputs through
// splitk_partial(). Returns on every thread; the last block of the tile has finished it.
// ROWS x COLS is output tile number `tile` (of `tiles`) at (m0, n0); THREADS the block size.
template <int ROWS, int COLS, int THREADS, int SPLITK>
__device__ __forceinline__ void splitk_finish_tile(const GemmParams& p, long long tile, long long tiles, int m0, int n0,
                                                   int tid) {
  __shared__ int is_last;
  unsigned* counters = reinterpret_cast<unsigned*>(p.workspace);
  const float* partials = p.workspace + splitk_counter_floats(tiles);
  const long long slice = static_cast<long long>(p.M) * p.N;
  __threadfence();  // this block's partials are visible device-wide before it is counted
  __syncthreads();
  if (tid == 0) is_last = atomicAdd(&counters[tile], 1u) == SPLITK - 1;
  __syncthreads();
  if (!is_last) return;
  __threadfence();  // see the other blocks' partials
  for (int e = tid; e < ROWS * COLS; e += THREADS) {
    const int m = m0 + e / COLS;
    const int n = n0 + e % COLS;
    if (m >= p.M || n >= p.N) continue;
    const long long index = static_cast<long long>(m) * p.N + n;
    float sum = 0.0f;
#pragma unroll
    for (int z = 0; z < SPLITK; ++z) sum += __ldcg(&partials[z * slice + index]);  // L2: not this SM's L1
    store_c(p, m, n, sum);
  }
  if (tid == 0) counters[tile] = 0u;
}

// Where slice `z` keeps its partial sum of output (m, n), with `tiles` output tiles in the grid.
__device__ __forceinline__ float* splitk_partial(const GemmParams& p, long long tiles, int z, int m, int n) {
  return p.workspace + splitk_counter_floats(tiles) + static_cast<long long>(z) * p.M * p.N +
         static_cast<long long>(m) * p.N + n;
}

}  // namespace gemmtune
