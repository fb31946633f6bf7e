// FP32 GEMM on Hopper's warpgroup MMA (wgmma, sm_90a): 3xTF32 as in tf32x3.cuh, with the
// products issued by whole warpgroups, asynchronously, from a B operand in shared memory.
//
// Why a second tensor-core family: mma.sync on the H200 reaches about half of the tensor cores'
// TF32 rate (tf32x3 peaked at 64 TFLOPS of FP32 products, ~190 of TF32); wgmma is the
// instruction that reaches the rest. Its rules shape the kernel:
// - wgmma reads B from shared memory through a descriptor, and for .tf32 only in the K-major
//   "core matrix" layout (8 rows of 4 k, 128 contiguous bytes each). B is copied as stored by
//   cp.async (as in tf32x3), then every thread splits its share into big and small halves and
//   writes both in that layout: the split pass, which also transposes an N-contiguous B.
// - A comes from registers, in the same fragment layout as mma.sync m16n8k8's (each of the four
//   warps of a warpgroup holds 16 rows), so A is split on its way from shared memory, as in
//   tf32x3.
// - Each warpgroup computes 64 rows by BN columns; a block has BM / 64 warpgroups.
// - Accuracy: the tensor cores truncate as they accumulate (see tf32x3.cuh), so each BK tile's
//   3 * BK / 8 wgmmas sum into a second set of accumulators started from zero, which the FP32
//   pipe adds to the running sum once the tile is done. That costs BN / 2 registers a thread.
//
// The main loop overlaps the tensor cores with the split pass: while tile t's wgmmas run, the
// threads split tile t + 1's B into the other of two buffers; then they wait for the wgmmas, add
// the tile's sum, issue the copies of tile t + STAGES and split A's fragments of tile t + 1.
//
// SPLITK > 1 cuts K into SPLITK slices (grid z) added deterministically (splitk.cuh).
#pragma once

#include "common.cuh"
#include "cp_async.cuh"
#include "mma_epilogue.cuh"
#include "special_values.cuh"
#include "splitk.cuh"
#include "staged_tile.cuh"
#include "tf32_split.cuh"
#include "wgmma_instructions.cuh"
#include "wgmma_rules.h"

namespace gemmtune {

// A shared-memory matrix descriptor for wgmma: no swizzle, core matrices 8 rows x 16 bytes;
// `k_stride` bytes between core matrices adjacent in K (the PTX ISA's leading dimension byte
// offset), `row_stride` between those adjacent in N (its stride dimension byte offset).
__device__ __forceinline__ unsigned long long wgmma_descriptor(const float* matrix, unsigned k_stride,
                                                               unsigned row_stride) {
  const unsigned address = static_cast<unsigned>(__cvta_generic_to_shared(matrix));
  return static_cast<unsigned long long>((address & 0x3ffff) >> 4) |
         static_cast<unsigned long long>(k_stride >> 4) << 16 | static_cast<unsigned long long>(row_stride >> 4) << 32;
}

// The split halves of B's BN x BK tile as wgmma reads them: element (n, k) at core matrix
// (n / 8, k / 4), core matrices K-adjacent 128 bytes apart and N-adjacent BK * 32 apart.
template <int BN, int BK>
struct WgmmaBTile {
  static constexpr int FLOATS = wgmma_split_b_floats(BN, BK);
  static constexpr unsigned K_STRIDE_BYTES = 128;
  static constexpr unsigned ROW_STRIDE_BYTES = BK * 32;
  __device__ static constexpr int at(int n, int k) { return (n / 8 * (BK / 4) + k / 4) * 32 + n % 8 * 4 + k % 4; }
};

// Splits the staged B tile (as stored, StagedTile) into big and small halves in WgmmaBTile
// layout. A thread takes 4 consecutive k of one n at a time; consecutive threads take
// consecutive n, so both the staged reads (rows of BK + 4 or columns of BN + 8 floats) and the
// 16-byte stores (8 lanes fill one 128-byte core-matrix) meet no bank conflicts.
template <int BN, int BK, bool K_CONTIGUOUS, int THREADS>
__device__ __forceinline__ void split_b_tile(const float* staged, float* big, float* small, int tid,
                                             SplitHazardScan& hazards) {
  using Staged = StagedTile<BN, BK, K_CONTIGUOUS>;
  using Out = WgmmaBTile<BN, BK>;
  constexpr int QUADS = BN * BK / 4;
  // Not unrolled: it runs beside the accumulators and A's fragments, and unrolled, ptxas keeps
  // every quad's loads in flight at once (the nt default spilled).
#pragma unroll 1
  for (int i = 0; i < (QUADS + THREADS - 1) / THREADS; ++i) {
    const int q = i * THREADS + tid;
    if (QUADS % THREADS != 0 && q >= QUADS) break;
    const int n = q % BN;
    const int k = q / BN * 4;
    float x[4];
    if (K_CONTIGUOUS) {
      const float4 v = *reinterpret_cast<const float4*>(&staged[Staged::at(n, k)]);
      x[0] = v.x, x[1] = v.y, x[2] = v.z, x[3] = v.w;
    } else {
#pragma unroll
      for (int e = 0; e < 4; ++e) x[e] = staged[Staged::at(n, k + e)];
    }
    unsigned b[4], s[4];
#pragma unroll
    for (int e = 0; e < 4; ++e) {
      hazards.see(x[e]);
      split_tf32(x[e], b[e], s[e]);
    }
    *reinterpret_cast<uint4*>(&big[Out::at(n, k)]) = make_uint4(b[0], b[1], b[2], b[3]);
    *reinterpret_cast<uint4*>(&small[Out::at(n, k)]) = make_uint4(s[0], s[1], s[2], s[3]);
  }
}

template <int BM, int BN, int BK, int STAGES, int SPLITK, Layout L, int ALIGN>
__global__ void __launch_bounds__(wgmma_threads(BM), 1) wgmma_sgemm(GemmParams params) {
  // blockIdx.z: the split-K slice when SPLITK > 1 (the host refuses batched calls then), else the
  // batch entry.
  const GemmParams p = SPLITK == 1 ? batch_entry(params, blockIdx.z) : params;
  constexpr int THREADS = wgmma_threads(BM);
  constexpr int K_STEPS = BK / 8;
  using ATile = StagedTile<BM, BK, !a_is_transposed(L)>;
  using BStaged = StagedTile<BN, BK, b_is_transposed(L)>;
  using BSplit = WgmmaBTile<BN, BK>;
  constexpr int STAGE_FLOATS = ATile::FLOATS + BStaged::FLOATS;
  constexpr long long SMEM_BYTES = wgmma_smem_bytes(BM, BN, BK, STAGES, L);
  GEMMTUNE_WGMMA_RULES(GEMMTUNE_STATIC_ASSERT_RULE, "wgmma")
  static_assert(SMEM_BYTES == 4LL * (STAGES * STAGE_FLOATS + 4 * BSplit::FLOATS),
                "wgmma: the host's shared memory is the stages' and split buffers' layout");

  extern __shared__ __align__(128) float smem[];
  float* split_b = smem + STAGES * STAGE_FLOATS;  // [2 buffers][big, small][BSplit::FLOATS]
  const int tid = threadIdx.x;
  const int warp = tid / 32;
  const int lane = tid % 32;
  const int group = lane / 4;
  const int quad = lane % 4;
  const int warp_m0 = warp / 4 * 64 + warp % 4 * 16;  // this warp's 16 rows of its warpgroup's 64
  const int m0 = blockIdx.y * BM;
  const int n0 = blockIdx.x * BN;

  const KSlice<BK> slice = k_slice<BK, SPLITK>(p.K);
  const int k_begin = slice.begin, k_end = slice.end, k_tiles = slice.tiles();

  const bool interior = m0 + BM <= p.M && n0 + BN <= p.N;
  auto load_stage = [&](int tile) {
    float* as = smem + tile % STAGES * STAGE_FLOATS;
    float* bs = as + ATile::FLOATS;
    const int k0 = k_begin + tile * BK;
    if (interior && k0 + BK <= k_end) {
      ATile::template load<THREADS, ALIGN, false>(as, p.A, p.lda, m0, p.M, k0, k_end, tid);
      BStaged::template load<THREADS, ALIGN, false>(bs, p.B, p.ldb, n0, p.N, k0, k_end, tid);
    } else {
      ATile::template load<THREADS, ALIGN, true>(as, p.A, p.lda, m0, p.M, k0, k_end, tid);
      BStaged::template load<THREADS, ALIGN, true>(bs, p.B, p.ldb, n0, p.N, k0, k_end, tid);
    }
  };
  SplitHazardScan hazards;  // what this thread splits (special_values.cuh)
  auto split_stage = [&](int tile) {
    const float* bs = smem + tile % STAGES * STAGE_FLOATS + ATile::FLOATS;
    float* big = split_b + tile % 2 * 2 * BSplit::FLOATS;
    split_b_tile<BN, BK, b_is_transposed(L), THREADS>(bs, big, big + BSplit::FLOATS, tid, hazards);
    fence_shared_for_wgmma();
  };
  unsigned a_big[K_STEPS][4], a_small[K_STEPS][4];
  auto split_a_fragments = [&](int tile) {
    const float* a_lane = smem + tile % STAGES * STAGE_FLOATS + ATile::at(warp_m0 + group, quad);
#pragma unroll
    for (int s = 0; s < K_STEPS; ++s) {
#pragma unroll
      for (int e = 0; e < 4; ++e) {
        const float a = a_lane[ATile::at(e % 2 * 8, 8 * s + e / 2 * 4)];
        hazards.see(a);
        split_tf32(a, a_big[s][e], a_small[s][e]);
      }
    }
  };

  const int m_first = m0 + warp_m0 + group;
  const int n_first = n0 + 2 * quad;
  if (SPLITK == 1 && k_tiles <= kMmaPrefetchCTiles) prefetch_c_tile<BM, BN, THREADS>(p, m0, n0, tid);

  float acc[1][BN / 8][4] = {};
  float tile_sum[BN / 8][4];
  // The pipeline holds STAGES tiles as copied; tile t's stage is free again once its B is split
  // and its A fragments are in registers (in iteration t - 1), so it takes tile t + STAGES.
#pragma unroll
  for (int s = 0; s < STAGES; ++s) {
    if (s < k_tiles) load_stage(s);
    cp_async_commit();  // empty groups too, so that the waits below count the same everywhere
  }
  if (k_tiles > 0) {
    cp_async_wait<STAGES - 1>();
    __syncthreads();
    split_stage(0);
    split_a_fragments(0);
    __syncthreads();
  }
  for (int t = 0; t < k_tiles; ++t) {
    // Tile t: 3 wgmmas a k step into tile_sum, the first from zero.
    const float* big = split_b + t % 2 * 2 * BSplit::FLOATS;
    wgmma_fence();
#pragma unroll
    for (int s = 0; s < K_STEPS; ++s) {
      const unsigned long long big_desc =
          wgmma_descriptor(big + BSplit::at(0, 8 * s), BSplit::K_STRIDE_BYTES, BSplit::ROW_STRIDE_BYTES);
      const unsigned long long small_desc = wgmma_descriptor(big + BSplit::FLOATS + BSplit::at(0, 8 * s),
                                                             BSplit::K_STRIDE_BYTES, BSplit::ROW_STRIDE_BYTES);
      if (s == 0) {
        Wgmma<BN>::mma_from_zero(tile_sum, a_small[s], big_desc);
      } else {
        Wgmma<BN>::mma(tile_sum, a_small[s], big_desc);
      }
      Wgmma<BN>::mma(tile_sum, a_big[s], small_desc);
      Wgmma<BN>::mma(tile_sum, a_big[s], big_desc);
    }
    wgmma_commit();

    // Meanwhile tile t + 1's B is split into the other buffer, whose last readers (tile t - 1's
    // wgmmas) every warpgroup waited for before the barrier ending the last iteration.
    const bool more = t + 1 < k_tiles;
    if (more) {
      cp_async_wait<STAGES - 2>();  // tile t + 1 has landed (this thread's copies)...
      __syncthreads();              // ...and everyone's
      split_stage(t + 1);
    }

    wgmma_wait_all();
#pragma unroll
    for (int j = 0; j < BN / 8; ++j) {
#pragma unroll
      for (int e = 0; e < 4; ++e) {
        pin(tile_sum[j][e]);
        acc[0][j][e] += tile_sum[j][e];
      }
    }
#pragma unroll
    for (int s = 0; s < K_STEPS; ++s) {
#pragma unroll
      for (int e = 0; e < 4; ++e) {
        pin(a_big[s][e]);
        pin(a_small[s][e]);
      }
    }
    // Issued here, where the tile's sum and A's fragments are dead, not beside the wgmmas: the
    // copies' addresses would not fit in the registers left there.
    if (t + STAGES < k_tiles) load_stage(t + STAGES);
    cp_async_commit();
    if (more) split_a_fragments(t + 1);
    __syncthreads();  // tile t + 1's split B is complete
  }
  cp_async_wait<0>();
  // Every element of both tiles was split by some thread: an infinity, a NaN or an extreme
  // magnitude anywhere means the block's slice of K again with FFMA (special_values.cuh).
  if (__syncthreads_or(hazards.found()) && p.alpha != 0.0f) {
    ffma_mma_fragments<L>(p, acc, m_first, n_first, k_begin, k_end);
  }

  store_mma_tiles<1, BN / 8, BM, BN, THREADS, SPLITK, ALIGN>(p, acc, m_first, n_first, m0, n0, tid);
}

}  // namespace gemmtune
