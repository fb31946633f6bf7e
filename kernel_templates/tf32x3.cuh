// FP32 GEMM on the tensor cores: 3xTF32 with mma.sync m16n8k8, a multi-stage cp.async pipeline
// and optional split-K.
//
// A TF32 number keeps 10 of FP32's 23 mantissa bits, so each operand x is split in two:
// big = tf32(x) and small = x - big, which together hold 21 bits of x. a * b is then computed as
// a_small b_big + a_big b_small + a_big b_big, three TF32 MMAs; the dropped a_small b_small and
// the truncation of the small parts cost at most 20 FP32 units of rounding (2^-24 |a b|) a
// product, where an FFMA costs one, and each k step's sum is added to the running sum in FP32
// (see the main loop). Measured against FP64 on the H200 (tests/runtime/test_gpu_accuracy.cpp),
// the result is closer than warptile's FFMA at K from 512 to 65536. The tensor cores run TF32
// several times faster than the FP32 pipes run FFMA, so three MMAs a product still leave them
// ahead.
//
// Block tile BM x BN x BK; warp tiles WM x WN, each a grid of 16 x 8 MMA tiles. Operand tiles go
// to shared memory by cp.async in the orientation they are stored in, with no transposition: a
// K-contiguous tile (a row-major A, a transposed B) keeps rows of BK + 4 floats, an M- or
// N-contiguous one rows of BM + 8 (BN + 8) floats. Those paddings put the 32 lanes' fragment
// loads in 32 different banks in both cases (lane l reads row l / 4 and k l % 4 of the fragment).
// STAGES buffers are filled ahead of use, as in warptile; edge tiles are zero-filled by the
// copies, so the inner loop never checks bounds.
//
// SPLITK > 1 cuts K into SPLITK slices (grid z) added deterministically (splitk.cuh).
//
// Special values (special_values.cuh): with WATCH 1 every value a thread splits is watched for
// infinities, NaNs, magnitudes of 2^127 and up and nonzero ones below 2^-103, and a block that met
// one computes its outputs again with FFMA. With WATCH 2 the main loop watches nothing, as
// tmawgmma's: the outputs tell of infinities and NaNs (an infinity's small part is inf - inf =
// NaN, which reaches every output of its row or column; a value whose rounding to TF32 overflows
// does the same; and an overflow of the sums leaves an infinity), and tiny values are flagged by a
// scan of A and B before the GEMM (tiny_scan.cuh, the flags in the workspace after split-K's).
#pragma once

#include "common.cuh"
#include "cp_async.cuh"
#include "mma_epilogue.cuh"
#include "special_values.cuh"
#include "splitk.cuh"
#include "staged_tile.cuh"
#include "tf32_split.cuh"
#include "tf32x3_rules.h"
#include "tiny_scan.cuh"  // WATCH 2's scan of A and B, launched before the GEMM

namespace gemmtune {

// Blocks per SM to ask the register allocator for: where a thread's accumulators and split
// fragments fit in 128 registers, two 256-thread blocks (or four of 128) may share an SM;
// otherwise a thread gets the registers it needs.
__host__ __device__ constexpr int tf32x3_min_blocks(int threads, int accumulators, int fragment_registers) {
  return accumulators + fragment_registers + 32 <= 128 && threads <= 512 ? 512 / threads : 1;
}

template <int BM, int BN, int BK, int WM, int WN, int STAGES, int SPLITK, int WATCH, Layout L, int ALIGN>
__global__ void __launch_bounds__(tf32x3_threads(BM, BN, WM, WN),
                                  tf32x3_min_blocks(tf32x3_threads(BM, BN, WM, WN), WM * WN / 32, WM / 2 + WN / 2))
    tf32x3_sgemm(GemmParams params) {
  // blockIdx.z: the split-K slice when SPLITK > 1 (the host refuses batched calls then), else the
  // batch entry.
  const GemmParams p = SPLITK == 1 ? batch_entry(params, blockIdx.z) : params;
  constexpr int WARPS_N = BN / WN;
  constexpr int THREADS = tf32x3_threads(BM, BN, WM, WN);
  constexpr int MMA_M = WM / 16;  // MMA tiles of a warp tile, down and across
  constexpr int MMA_N = WN / 8;
  using ATile = StagedTile<BM, BK, !a_is_transposed(L)>;
  using BTile = StagedTile<BN, BK, b_is_transposed(L)>;
  constexpr int STAGE_FLOATS = ATile::FLOATS + BTile::FLOATS;
  constexpr long long SMEM_BYTES = tf32x3_smem_bytes(BM, BN, BK, STAGES, L);
  GEMMTUNE_TF32X3_RULES(GEMMTUNE_STATIC_ASSERT_RULE, "tf32x3")
  static_assert(SMEM_BYTES == 4LL * STAGES * STAGE_FLOATS, "tf32x3: the host's shared memory is the stages' layout");

  extern __shared__ __align__(16) float smem[];
  const int tid = threadIdx.x;
  const int warp = tid / 32;
  const int lane = tid % 32;
  const int group = lane / 4;  // the MMA fragments' row (A) or column (B) within a tile
  const int quad = lane % 4;   // ... and their k
  const int warp_m0 = warp / WARPS_N * WM;
  const int warp_n0 = warp % WARPS_N * WN;
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
      BTile::template load<THREADS, ALIGN, false>(bs, p.B, p.ldb, n0, p.N, k0, k_end, tid);
    } else {
      ATile::template load<THREADS, ALIGN, true>(as, p.A, p.lda, m0, p.M, k0, k_end, tid);
      BTile::template load<THREADS, ALIGN, true>(bs, p.B, p.ldb, n0, p.N, k0, k_end, tid);
    }
  };

  // Accumulator (i, j, e) is output (m_first + 16 i + e / 2 * 8, n_first + 8 j + e % 2).
  const int m_first = m0 + warp_m0 + group;
  const int n_first = n0 + warp_n0 + 2 * quad;
  if (SPLITK == 1 && k_tiles <= kMmaPrefetchCTiles) prefetch_c_tile<BM, BN, THREADS>(p, m0, n0, tid);

  float acc[MMA_M][MMA_N][4] = {};
  SplitHazardScan hazards;  // what this thread splits (special_values.cuh)
#pragma unroll
  for (int s = 0; s < STAGES - 1; ++s) {
    if (s < k_tiles) load_stage(s);
    cp_async_commit();  // empty groups too, so that the wait below counts the same everywhere
  }
  for (int t = 0; t < k_tiles; ++t) {
    cp_async_wait<STAGES - 2>();  // tile t has landed (for this thread's copies)...
    __syncthreads();              // ...and everyone's; and everyone is done with tile t - 1's stage
    if (t + STAGES - 1 < k_tiles) load_stage(t + STAGES - 1);  // into the stage tile t - 1 used
    cp_async_commit();

    const float* as = smem + t % STAGES * STAGE_FLOATS;
    const float* a_lane = as + ATile::at(warp_m0 + group, quad);
    const float* b_lane = as + ATile::FLOATS + BTile::at(warp_n0 + group, quad);
    // One k step at a time: unrolled over the tile, ptxas holds several steps' fragments and
    // partial sums at once, and every warp tile of 64 x 32 and up spills.
#pragma unroll 1
    for (int k = 0; k < BK; k += 8) {
      // A's fragments are split once for the whole warp tile; B's one MMA column at a time, so
      // that only 4 of its registers are live (all of them made 64 x 64 warp tiles spill).
      unsigned a_big[MMA_M][4], a_small[MMA_M][4];
#pragma unroll
      for (int i = 0; i < MMA_M; ++i) {
#pragma unroll
        for (int e = 0; e < 4; ++e) {
          const float a = a_lane[ATile::at(16 * i + e % 2 * 8, k + e / 2 * 4)];
          if (WATCH == kWatchInLoop) hazards.see(a);
          split_tf32(a, a_big[i][e], a_small[i][e]);
        }
      }
#pragma unroll
      for (int j = 0; j < MMA_N; ++j) {
        unsigned b_big[2], b_small[2];
#pragma unroll
        for (int e = 0; e < 2; ++e) {
          const float b = b_lane[BTile::at(8 * j, k + e * 4)];
          if (WATCH == kWatchInLoop) hazards.see(b);
          split_tf32(b, b_big[e], b_small[e]);
        }
        // The tensor cores sum this k step from zero (the small terms first), and the FP32 pipe
        // adds it to the running sum, rounding to nearest. The MMA's own accumulation truncates:
        // with the running sum kept in the MMA, the error against FP64 grew in proportion to K
        // (4.6e-4 normwise at K = 65536 on the H200, 100x FFMA's); here each truncation is relative
        // to one k step's partial sum, whose signs vary, so the errors no longer add up.
#pragma unroll
        for (int i = 0; i < MMA_M; ++i) {
          float step[4] = {};
          mma_tf32(step, a_small[i], b_big);
          mma_tf32(step, a_big[i], b_small);
          mma_tf32(step, a_big[i], b_big);
#pragma unroll
          for (int e = 0; e < 4; ++e) acc[i][j][e] += step[e];
        }
      }
    }
  }
  cp_async_wait<0>();
  // The warps' fragments cover both tiles: if any thread split an infinity, a NaN or an extreme
  // magnitude (WATCH 1), or if any sum is not finite or the scan flagged the block's rows and k
  // range (WATCH 2), the block's slice of K again with FFMA (special_values.cuh).
  bool hazard = hazards.found();
  if constexpr (WATCH == kWatchByScan) {
    const long long tiles = static_cast<long long>(gridDim.x) * gridDim.y;
    const unsigned* flags =
        reinterpret_cast<const unsigned*>(params.workspace + tf32x3_tiny_flags_offset(tiles, SPLITK, params.M, params.N)) +
        (SPLITK == 1 ? blockIdx.z : 0) * tiny_flags_an_entry(p.M, p.N, p.K);
    hazard = !all_finite(reinterpret_cast<const float(&)[MMA_M * MMA_N][4]>(acc)) ||
             rows_touch_tiny(flags, m0, BM, p.M, n0, BN, p.N, k_begin, k_end, p.K, tid, THREADS);
  }
  if (__syncthreads_or(hazard) && p.alpha != 0.0f) {
    ffma_mma_fragments<L>(p, acc, m_first, n_first, k_begin, k_end);
  }

  store_mma_tiles<MMA_M, MMA_N, BM, BN, THREADS, SPLITK, ALIGN>(p, acc, m_first, n_first, m0, n0, tid);
}

}  // namespace gemmtune