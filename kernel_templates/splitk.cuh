// Deterministic split-K: the SPLITK blocks of one output tile each write their partial sums to
// the workspace, and the partials are added in a fixed order, whatever the arrival order, so
// every run gives the same bits.
//
// Up to kSplitkGroup slices, the last block of the tile to arrive (counted with an atomic per
// tile) adds slices 0, 1, ..., SPLITK-1 and applies alpha and beta. Beyond, one block would read
// SPLITK whole tiles alone (2 MB for 128 slices of 64 x 64) while the others sit idle, so the sum
// is a two-level tree: the slices form groups of kSplitkGroup; the last block of each group adds
// its group's slices in order into the group's first slice, and the last group to finish adds
// the groups' sums in order. Each finisher resets its counter for the next launch.
//
// The workspace's layout is splitk_workspace.h's, which the host sizes it by.
#pragma once

#include "common.cuh"
#include "splitk_workspace.h"

namespace gemmtune {

// The part of K this block computes, slice blockIdx.z of SPLITK: [begin, end), whole BK tiles;
// the last slice may be shorter or empty. With SPLITK 1 the block has all of K, whatever its z
// (which is then a batched call's entry).
template <int BK>
struct KSlice {
  int begin;
  int end;
  __device__ __forceinline__ int tiles() const { return (end - begin + BK - 1) / BK; }
};
template <int BK, int SPLITK>
__device__ __forceinline__ KSlice<BK> k_slice(int K) {
  const int k_per_slice = ((K + SPLITK - 1) / SPLITK + BK - 1) / BK * BK;
  const int slice = SPLITK == 1 ? 0 : static_cast<int>(blockIdx.z);
  const int begin = min(K, slice * k_per_slice);
  return {begin, min(K, begin + k_per_slice)};
}

// Where slice `z` keeps its partial sum of output (m, n), with `tiles` output tiles in the grid.
template <int SPLITK>
__device__ __forceinline__ float* splitk_partial(const GemmParams& p, long long tiles, int z, int m, int n) {
  return p.workspace + splitk_counter_floats(tiles, SPLITK) + static_cast<long long>(z) * p.M * p.N +
         static_cast<long long>(m) * p.N + n;
}

namespace detail {

// Whether this block is the last of `count` to arrive at `counter`; every thread gets the answer.
// The block's partials are made visible device-wide before it is counted, and the last one then
// sees everyone's.
__device__ __forceinline__ bool splitk_arrive_last(unsigned* counter, unsigned count, int tid) {
  __shared__ int is_last;
  __threadfence();
  __syncthreads();
  if (tid == 0) is_last = atomicAdd(counter, 1u) == count - 1;
  __syncthreads();
  const bool last = is_last;
  if (last) __threadfence();
  return last;
}

// For each output (m, n) of the ROWS x COLS tile at (m0, n0) inside the matrix, adds the COUNT
// terms first[s * stride + index] (index = m * N + n) for s = 0, 1, ... in that order, and hands
// the sums on. The terms are read from L2: other SMs wrote them.
//
// This runs on one block per tile while the rest of the GPU may be idle, so it is latency that
// counts. Where N allows (N % 4 == 0 makes every index of a 4-aligned column a multiple of 4, and
// the workspace is 16-byte aligned, as cudaMalloc's are), each thread reads 4 outputs' terms
// with one 16-byte load, and BATCH such quads (about 16 terms in flight: 64 registers, at a
// point where the accumulators are dead) are loaded before any is summed, then handed to
// quads(m, n, index, valid, sums) together, so that their stores and reads of C go out together
// too: a store the compiler cannot tell from the next loads' addresses keeps those loads behind
// it, one round trip a quad otherwise. valid[b] is 4 for a quad inside the matrix (N % 4 == 0), 0
// for one outside. Elsewhere one output at a time goes to single(m, n, index, sum). The sums
// are the same bits either way: each output's terms are added in order.
template <int COUNT>
__device__ constexpr int splitk_sum_batch() {
  return COUNT <= 4 ? 4 : COUNT <= 8 ? 2 : 1;
}
template <int ROWS, int COLS, int THREADS, int COUNT, class Quads, class Single>
__device__ __forceinline__ void splitk_sum_tile(const GemmParams& p, const float* first, long long stride, int m0,
                                                int n0, int tid, Quads quads, Single single) {
  if (COLS % 4 == 0 && p.N % 4 == 0 && reinterpret_cast<unsigned long long>(first) % 16 == 0) {
    constexpr int QUADS = ROWS * COLS / 4;
    constexpr int BATCH = splitk_sum_batch<COUNT>();
    for (int q0 = tid; q0 < QUADS; q0 += BATCH * THREADS) {
      int m[BATCH], n[BATCH], valid[BATCH];
      long long indices[BATCH];
      float sums[BATCH][4];
#pragma unroll
      for (int b = 0; b < BATCH; ++b) {
        const int q = q0 + b * THREADS;
        m[b] = m0 + q / (COLS / 4);
        n[b] = n0 + q % (COLS / 4) * 4;
        valid[b] = q < QUADS && m[b] < p.M && n[b] < p.N ? 4 : 0;  // n < N and N % 4 == 0: all four
        indices[b] = static_cast<long long>(m[b]) * p.N + n[b];
#pragma unroll
        for (int e = 0; e < 4; ++e) sums[b][e] = 0.0f;
      }
#pragma unroll
      for (int b = 0; b < BATCH; ++b) {
        if (valid[b] == 0) continue;
#pragma unroll
        for (int s = 0; s < COUNT; ++s) {
          const float4 term = __ldcg(reinterpret_cast<const float4*>(&first[s * stride + indices[b]]));
          sums[b][0] += term.x;
          sums[b][1] += term.y;
          sums[b][2] += term.z;
          sums[b][3] += term.w;
        }
      }
      quads(m, n, indices, valid, sums);
    }
    return;
  }
  for (int e = tid; e < ROWS * COLS; e += THREADS) {
    const int m = m0 + e / COLS;
    const int n = n0 + e % COLS;
    if (m >= p.M || n >= p.N) continue;
    const long long index = static_cast<long long>(m) * p.N + n;
    float sum = 0.0f;
#pragma unroll
    for (int s = 0; s < COUNT; ++s) sum += __ldcg(&first[s * stride + index]);
    single(m, n, index, sum);
  }
}

// Where splitk_sum_tile's sums go (its quads and single outputs; NVRTC takes no generic lambdas
// in device code). To C through the epilogue, the quads' reads of C in flight together:
template <int ALIGN>
struct SumsToC {
  const GemmParams& p;
  template <int BATCH>
  __device__ __forceinline__ void operator()(const int (&m)[BATCH], const int (&n)[BATCH], const long long (&)[BATCH],
                                             const int (&valid)[BATCH], const float (&sums)[BATCH][4]) const {
    store_c_runs4<ALIGN>(p, m, n, valid, sums);
  }
  __device__ __forceinline__ void operator()(int m, int n, long long, float sum) const { store_c(p, m, n, sum); }
};
// To the workspace at the same index (a group's sum, into the group's first slice), past L1.
struct SumsToWorkspace {
  float* sums_out;
  template <int BATCH>
  __device__ __forceinline__ void operator()(const int (&)[BATCH], const int (&)[BATCH], const long long (&index)[BATCH],
                                             const int (&valid)[BATCH], const float (&sums)[BATCH][4]) const {
#pragma unroll
    for (int b = 0; b < BATCH; ++b) {
      if (valid[b] > 0) {
        __stcg(reinterpret_cast<float4*>(&sums_out[index[b]]), make_float4(sums[b][0], sums[b][1], sums[b][2], sums[b][3]));
      }
    }
  }
  __device__ __forceinline__ void operator()(int, int, long long index, float sum) const { __stcg(&sums_out[index], sum); }
};

}  // namespace detail

// Called by every thread of the block after it wrote its partial outputs through
// splitk_partial(). Returns on every thread; the last block of the tile has finished it.
// ROWS x COLS is output tile number `tile` (of `tiles`) at (m0, n0); this block computed slice z;
// THREADS the block size; ALIGN the call's alignment of C, as for store_c_runs4.
template <int ROWS, int COLS, int THREADS, int SPLITK, int ALIGN>
__device__ __forceinline__ void splitk_finish_tile(const GemmParams& p, long long tile, long long tiles, int z, int m0,
                                                   int n0, int tid) {
  static_assert(splitk_slices_legal(SPLITK), "SPLITK above 16 must be a multiple of 16 (whole groups of slices)");
  constexpr int GROUPS = splitk_groups(SPLITK);
  constexpr int GROUP = GROUPS == 1 ? SPLITK : kSplitkGroup;
  unsigned* counters = reinterpret_cast<unsigned*>(p.workspace);
  float* partials = p.workspace + splitk_counter_floats(tiles, SPLITK);
  const long long slice = static_cast<long long>(p.M) * p.N;
  const int group = z / GROUP;
  unsigned* group_counter = &counters[tile * GROUPS + group];
  if (!detail::splitk_arrive_last(group_counter, GROUP, tid)) return;

  // The group's slices, in order (for one group: the whole sum).
  float* group_sum = partials + static_cast<long long>(group) * GROUP * slice;
  // Where the sum is whole (one group), it goes to C; else to the group's first slice.
  const detail::SumsToC<ALIGN> to_c{p};
  if constexpr (GROUPS == 1) {
    detail::splitk_sum_tile<ROWS, COLS, THREADS, GROUP>(p, group_sum, slice, m0, n0, tid, to_c, to_c);
  } else {
    const detail::SumsToWorkspace to_group{group_sum};
    detail::splitk_sum_tile<ROWS, COLS, THREADS, GROUP>(p, group_sum, slice, m0, n0, tid, to_group, to_group);
  }
  if (tid == 0) *group_counter = 0u;
  if (GROUPS == 1) return;

  // The groups' sums, in order.
  unsigned* tile_counter = &counters[tiles * GROUPS + tile];
  if (!detail::splitk_arrive_last(tile_counter, GROUPS, tid)) return;
  detail::splitk_sum_tile<ROWS, COLS, THREADS, GROUPS>(p, partials, GROUP * slice, m0, n0, tid, to_c, to_c);
  if (tid == 0) *tile_counter = 0u;
}

}  // namespace gemmtune
