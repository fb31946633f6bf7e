// Warp tiling with a multi-stage cp.async pipeline and optional split-K.
//
// Block tile BM x BN, split into warp tiles WM x WN; the 32 lanes of a warp form a
// (WM / TM) x (WN / TN) grid and each lane computes a TM x TN thread tile, taken in 4-wide chunks
// interleaved across the lanes so that the inner loop's 128-bit shared loads are conflict-free
// (lanes either read the same address or consecutive 16-byte chunks).
//
// STAGES shared-memory buffers are filled ahead of use: while the block computes on k tile t,
// tiles t+1 .. t+STAGES-1 are in flight. Shared memory holds both tiles K-major (As[k][m],
// Bs[k][n]), each row padded by 4 floats. An operand stored m- or n-contiguous (a transposed A, a
// plain B) is copied by cp.async; a K-contiguous one (a row-major A, a transposed B) is loaded 16
// bytes at a time into registers and written transposed after the compute of the tile before.
// Edge tiles are zero-filled by the copies themselves, so the inner loop never checks bounds.
//
// SPLITK > 1 cuts K into SPLITK slices (grid z) whose partial sums are added deterministically
// (splitk.cuh): for problems whose M x N tiles cannot fill the GPU while K is long.
//
// COPY 2 serves a call whose rows do not start on 16 bytes (ALIGN 1 or 2) from aligned copies of
// A and B that the staged-copy kernel of the same cubin makes first (staged_copy.cuh; the host's
// operand_staging): the kernel then reads its operands 16 bytes at a time, as at ALIGN 4, and
// only C is accessed at the call's ALIGN. The copies cost a read and a write of A and B; at ALIGN
// 1 every load is otherwise a 4-byte one (4x the load instructions) and the steady loop is off.
#pragma once

#include "common.cuh"
#include "cp_async.cuh"
#include "splitk.cuh"
#include "staged_copy.cuh"  // the aligned copies a COPY 2 configuration reads
#include "warptile_rules.h"

namespace gemmtune {

// A ROWS x BK tile of a K-contiguous operand (row r at base + r * ld, k along the row: a
// row-major A or a transposed B) on its way to shared memory, where it is kept K-major. Each
// thread loads 4 consecutive k of one row (16-byte loads where ALIGN allows) into registers, and
// writes them out transposed once the stage they go to is free: 4-byte copies from global memory
// would cost 4x the load instructions and read each 32-byte sector in four pieces.
template <int ROWS, int BK, int THREADS, int ALIGN>
struct KContiguousTile {
  static constexpr int VECTORS = ROWS * BK / 4;
  static constexpr int PER_THREAD = (VECTORS + THREADS - 1) / THREADS;
  float4 v[PER_THREAD];

  // Rows at or past rows_left and k at or past k_end read as zero. CHECKED false: the caller
  // knows the whole tile is inside the matrix (no bounds arithmetic on the hot path).
  template <bool CHECKED>
  __device__ __forceinline__ void load(const float* base, int ld, int rows_left, int k0, int k_end, int tid) {
#pragma unroll
    for (int i = 0; i < PER_THREAD; ++i) {
      const int chunk = i * THREADS + tid;
      if (VECTORS % THREADS != 0 && chunk >= VECTORS) break;
      const int r = chunk / (BK / 4);
      const int k = chunk % (BK / 4) * 4;
      const float* src = base + static_cast<long long>(r) * ld + k0 + k;
      if (!CHECKED) {
        v[i] = load_float4<ALIGN>(src, 4);
      } else {
        const int valid = r < rows_left ? min(max(k_end - k0 - k, 0), 4) : 0;
        v[i] = valid > 0 ? load_float4<ALIGN>(src, valid) : make_float4(0.0f, 0.0f, 0.0f, 0.0f);
      }
    }
  }

  // Writes the tile to dst[k * LD + r]. Lanes with consecutive chunks write one row apart or
  // 4 k apart, which the caller's row padding (LD = ROWS + 4) puts in different banks for BK 8.
  template <int LD>
  __device__ __forceinline__ void store(float* dst, int tid) const {
#pragma unroll
    for (int i = 0; i < PER_THREAD; ++i) {
      const int chunk = i * THREADS + tid;
      if (VECTORS % THREADS != 0 && chunk >= VECTORS) break;
      const int r = chunk / (BK / 4);
      const int k = chunk % (BK / 4) * 4;
      dst[k * LD + r] = v[i].x;
      dst[(k + 1) * LD + r] = v[i].y;
      dst[(k + 2) * LD + r] = v[i].z;
      dst[(k + 3) * LD + r] = v[i].w;
    }
  }
};

// Copies the BK x ROWS tile at (k0, r0) of an operand stored with its ROWS dimension contiguous
// (a transposed A: K x M, a plain B: K x N; row k at src + k * ld) to dst[k * LD + r] by cp.async,
// ALIGN floats at a time; r at or past `rows` and k at or past k_end read as zero. CHECKED false:
// the caller knows the whole tile is inside the matrix.
template <int ROWS, int BK, int LD, int THREADS, int ALIGN, bool CHECKED>
__device__ __forceinline__ void copy_k_major_tile(float* dst, const float* src, long long ld, int r0, int rows, int k0,
                                                  int k_end, int tid) {
#pragma unroll
  for (int i = 0; i < BK * ROWS / ALIGN / THREADS; ++i) {
    const int chunk = i * THREADS + tid;
    const int k = chunk / (ROWS / ALIGN);
    const int r = chunk % (ROWS / ALIGN) * ALIGN;
    const long long offset = static_cast<long long>(k0 + k) * ld + r0 + r;
    if (!CHECKED) {
      cp_async_floats<ALIGN>(&dst[k * LD + r], src + offset, ALIGN);
    } else {
      const int valid = k0 + k < k_end ? min(max(rows - r0 - r, 0), ALIGN) : 0;
      cp_async_floats<ALIGN>(&dst[k * LD + r], src + (valid > 0 ? offset : 0), valid);
    }
  }
}

// Fills one pipeline stage: As[k * A_LD + m] with the BK x BM tile of op(A) at (m0, k0) and
// Bs[k * B_LD + n] with the BK x BN tile of op(B) at (k0, n0); k at or past k_end, m past M, n
// past N read as zero. An operand stored with m (or n) contiguous goes by cp.async, ALIGN floats
// at a time; a K-contiguous one through registers (KContiguousTile): start() issues every load
// of the stage, finish() writes the register-held part once the stage is free.
template <int BM, int BN, int BK, int THREADS, Layout L, int ALIGN>
struct WarptileLoader {
  static constexpr int A_LD = BM + 4;
  static constexpr int B_LD = BN + 4;
  static constexpr bool A_K_CONTIGUOUS = !a_is_transposed(L);
  static constexpr bool B_K_CONTIGUOUS = b_is_transposed(L);

  KContiguousTile<BM, BK, THREADS, ALIGN> a_regs;
  KContiguousTile<BN, BK, THREADS, ALIGN> b_regs;

  // CHECKED false: the caller knows the whole stage lies inside the matrix.
  template <bool CHECKED>
  __device__ __forceinline__ void start(float* As, float* Bs, const GemmParams& p, int m0, int n0, int k0,
                                        int k_end, int tid) {
    if (A_K_CONTIGUOUS) {
      a_regs.template load<CHECKED>(p.A + static_cast<long long>(m0) * p.lda, p.lda, p.M - m0, k0, k_end, tid);
    } else {  // A stored K x M
      copy_k_major_tile<BM, BK, A_LD, THREADS, ALIGN, CHECKED>(As, p.A, p.lda, m0, p.M, k0, k_end, tid);
    }
    if (B_K_CONTIGUOUS) {
      b_regs.template load<CHECKED>(p.B + static_cast<long long>(n0) * p.ldb, p.ldb, p.N - n0, k0, k_end, tid);
    } else {  // B stored K x N
      copy_k_major_tile<BN, BK, B_LD, THREADS, ALIGN, CHECKED>(Bs, p.B, p.ldb, n0, p.N, k0, k_end, tid);
    }
  }

  // Issues the loads of the stage at k0, without bounds arithmetic where the stage is inside
  // the matrix (`interior`: the block's rows and columns are; the k range is checked here).
  __device__ __forceinline__ void start_stage(float* As, float* Bs, const GemmParams& p, bool interior, int m0,
                                              int n0, int k0, int k_end, int tid) {
    if (interior && k0 + BK <= k_end) {
      start<false>(As, Bs, p, m0, n0, k0, k_end, tid);
    } else {
      start<true>(As, Bs, p, m0, n0, k0, k_end, tid);
    }
  }

  __device__ __forceinline__ void finish(float* As, float* Bs, int tid) const {
    if (A_K_CONTIGUOUS) a_regs.template store<A_LD>(As, tid);
    if (B_K_CONTIGUOUS) b_regs.template store<B_LD>(Bs, tid);
  }
};

// Up to this K, the kernel asks L2 for its C tile before the main loop.
constexpr int kWarptilePrefetchCK = 128;

template <int BM, int BN, int BK, int WM, int WN, int TM, int TN, int STAGES, int SPLITK, int FRAGBUF, int ORDER,
          int COPY, int REGS, Layout L, int ALIGN>
__global__ void __launch_bounds__(warptile_threads(BM, BN, WM, WN), warptile_min_blocks(warptile_threads(BM, BN, WM, WN), TM * TN, REGS))
    warptile_sgemm(GemmParams params) {
  // blockIdx.z: the split-K slice when SPLITK > 1 (the host refuses batched calls then), else the
  // batch entry.
  const GemmParams p = SPLITK == 1 ? batch_entry(params, blockIdx.z) : params;
  constexpr int WARPS_N = BN / WN;
  constexpr int THREADS = warptile_threads(BM, BN, WM, WN);
  constexpr int LANES_M = WM / TM;
  constexpr int LANES_N = WN / TN;
  // Floats the operands' rows and pointers are aligned to: 4 for the staged copies (COPY 2).
  constexpr int OPERAND_ALIGN = warptile_operand_align(COPY, ALIGN);
  using Loader = WarptileLoader<BM, BN, BK, THREADS, L, OPERAND_ALIGN>;
  constexpr int A_LD = Loader::A_LD;
  constexpr int B_LD = Loader::B_LD;
  constexpr int STAGE_FLOATS = BK * (A_LD + B_LD);
  constexpr int K_UNROLL = BK < 8 ? BK : 8;
  static_assert(K_UNROLL % 2 == 0, "warptile: the fragment buffers alternate within a piece of K_UNROLL steps");
  constexpr long long SMEM_BYTES = warptile_smem_bytes(BM, BN, BK, STAGES);
  GEMMTUNE_WARPTILE_RULES(GEMMTUNE_STATIC_ASSERT_RULE, "warptile")
  static_assert(SMEM_BYTES == 4LL * STAGES * STAGE_FLOATS, "warptile: the host's shared memory is the stages' layout");

  extern __shared__ __align__(16) float smem[];
  const int tid = threadIdx.x;
  const int warp = tid / 32;
  const int lane = tid % 32;
  const int warp_m = warp / WARPS_N;
  const int warp_n = warp % WARPS_N;
  const int lane_m = lane / LANES_N;
  const int lane_n = lane % LANES_N;
  const int m0 = blockIdx.y * BM;
  const int n0 = blockIdx.x * BN;

  const KSlice<BK> slice = k_slice<BK, SPLITK>(p.K);
  const int k_begin = slice.begin, k_end = slice.end, k_tiles = slice.tiles();

  float acc[TM][TN] = {};
  Loader loader;
  const bool interior = m0 + BM <= p.M && n0 + BN <= p.N;
  // A short main loop (8192 x 8192 x 64: 64 k) would leave the epilogue waiting a DRAM latency
  // for C; with a long one, the lines would be evicted before it reads them.
  if (SPLITK == 1 && k_end - k_begin <= kWarptilePrefetchCK) prefetch_c_tile<BM, BN, THREADS>(p, m0, n0, tid);
#pragma unroll
  for (int s = 0; s < STAGES - 1; ++s) {
    if (s < k_tiles) {
      float* stage = smem + s * STAGE_FLOATS;
      loader.start_stage(stage, stage + BK * A_LD, p, interior, m0, n0, k_begin + s * BK, k_end, tid);
      loader.finish(stage, stage + BK * A_LD, tid);
    }
    cp_async_commit();  // empty groups too, so that the wait below counts the same everywhere
  }
  // Two schedules of the main loop. FRAGBUF 1: each k step loads its own fragments, and the
  // barrier that makes a tile visible opens its iteration. FRAGBUF 2: fragments are
  // double-buffered across k steps and across tiles; the barrier moves before the tile's last k
  // step, so the first fragments of tile t + 1 load while that step's FFMAs issue instead of
  // after a barrier with nothing to overlap them. The second buffer costs TM + TN registers
  // (8x8 tiles held to 128 for 2 blocks an SM, and 16x8 ones holding 8 K-contiguous float4s
  // across the tile, spill), so which one wins is the tuner's to find.
  constexpr bool PIPELINED = FRAGBUF == 2;
  float a_frag[2][TM];
  float b_frag[2][TN];
  // The fragments of step k of a stage. This lane's first fragment is worked out where it is used,
  // as the stage pointers below are, rather than held across the loop (a register more spilled
  // 8x8 tiles held to 128 registers for sm_80); every other offset is a constant, so that the
  // shared loads take it as an immediate instead of recomputing addresses.
  auto load_fragments = [&](float* a_dst, float* b_dst, const float* stage, int k) {
    const float* a_src = stage + warp_m * WM + lane_m * 4;
    const float* b_src = stage + BK * A_LD + warp_n * WN + lane_n * 4;
#pragma unroll
    for (int i = 0; i < TM / 4; ++i) load_fragment4(&a_dst[4 * i], &a_src[k * A_LD + i * LANES_M * 4]);
#pragma unroll
    for (int j = 0; j < TN / 4; ++j) load_fragment4(&b_dst[4 * j], &b_src[k * B_LD + j * LANES_N * 4]);
  };
  // The TM x TN outer product of one k step. ptxas schedules the FFMAs in an order of its own, but
  // the order written here changes which it picks and how it allocates the registers around them:
  // ORDER 1 goes row by row (a[i] reused along the row); ORDER 2 goes down pairs of columns, rows
  // up and down by turns, as cuBLAS's loop does (a[i] reused for two FFMAs, b[j] and b[j + 1] for
  // the whole pair). Which schedule stalls less depends on the tile (docs/performance.md).
  auto multiply = [&](const float* a, const float* b) {
    if constexpr (ORDER == 1) {
#pragma unroll
      for (int i = 0; i < TM; ++i)
#pragma unroll
        for (int j = 0; j < TN; ++j) acc[i][j] += a[i] * b[j];
    } else {
#pragma unroll
      for (int j = 0; j < TN; j += 2)
#pragma unroll
        for (int r = 0; r < TM; ++r) {
          const int i = j / 2 % 2 == 0 ? r : TM - 1 - r;
          acc[i][j] += a[i] * b[j];
          acc[i][j + 1] += a[i] * b[j + 1];
        }
    }
  };
  // The barrier after which tile t + 1 may be read: it has landed, for this thread's copies and
  // everyone's, and everyone is done reading tile t - 1's stage, which the loads go to next.
  auto tile_barrier = [&] {
    cp_async_wait<STAGES - 2>();
    __syncthreads();
  };
  if (PIPELINED) {
    tile_barrier();
    if (k_tiles > 0) load_fragments(a_frag[0], b_frag[0], smem, 0);
  }
  // One k tile. `steady`: tile t + STAGES - 1 exists and lies whole inside the matrix, so that
  // nothing is checked or skipped. Called with constants, the lambda is inlined once for the
  // steady loop, whose body then has no branch but its loop's, and once for the tiles around it.
  // Each branch in the body had cut it into pieces that ptxas schedules apart: the loads of the
  // next stage and their address arithmetic, the transposed stores and the stage index arithmetic
  // could not move among the FFMAs, and their fixed latencies stood in the way as stall counts
  // (tools/sass_control.py counts them; docs/performance.md has the numbers).
  auto run_tile = [&](int t, bool steady) {
    if (!PIPELINED) tile_barrier();
    // Tile t + STAGES - 1 goes to the stage tile t - 1 used. Its register-held part is written
    // after the compute (FRAGBUF 2: before the barrier of the last k step), so the loads' latency
    // hides behind it.
    const int next = t + STAGES - 1;
    const bool loads_next = steady || next < k_tiles;
    auto next_stage = [&] { return smem + next % STAGES * STAGE_FLOATS; };
    if (steady) {
      loader.template start<false>(next_stage(), next_stage() + BK * A_LD, p, m0, n0, k_begin + next * BK, k_end, tid);
    } else if (loads_next) {
      loader.start_stage(next_stage(), next_stage() + BK * A_LD, p, interior, m0, n0, k_begin + next * BK, k_end, tid);
    }
    cp_async_commit();  // empty groups too, so that the waits count the same everywhere
    const float* stage = smem + t % STAGES * STAGE_FLOATS;
    // The k steps go K_UNROLL at a time: a fully unrolled BK 32 loop of 16 x 8 thread tiles is
    // 4096 FFMAs (64 KB of code), which the instruction cache does not hold (ncu on the H200:
    // warps stalled on "no instruction" 7x as often as cuBLAS's, whose loop is 8 k steps).
    // `last`: the tile's last piece, whose last step holds FRAGBUF 2's barrier. Called with
    // constants, the lambda is inlined once for the loop and once for the last piece, so the loop
    // carries no branch on it (with one, ptxas spilled the 16x8 BK 32 tiles). K_UNROLL is even, so
    // a step's buffer (kk % 2) is known at compile time.
    auto piece = [&](int kc, bool last) {
#pragma unroll
      for (int kk = 0; kk < K_UNROLL; ++kk) {
        if (!PIPELINED) {  // fragments of this step's own, in registers that live for the step
          float a[TM];
          float b[TN];
          load_fragments(a, b, stage, kc + kk);
          multiply(a, b);
          continue;
        }
        const int buffer = kk % 2;  // the one this step multiplies
        if (!last || kk < K_UNROLL - 1) {
          load_fragments(a_frag[buffer ^ 1], b_frag[buffer ^ 1], stage, kc + kk + 1);
        } else {
          if (loads_next) loader.finish(next_stage(), next_stage() + BK * A_LD, tid);
          tile_barrier();
          if (steady || t + 1 < k_tiles) {
            load_fragments(a_frag[buffer ^ 1], b_frag[buffer ^ 1], smem + (t + 1) % STAGES * STAGE_FLOATS, 0);
          }
        }
        multiply(a_frag[buffer], b_frag[buffer]);
      }
    };
    if (PIPELINED) {
#pragma unroll 1
      for (int kc = 0; kc < BK - K_UNROLL; kc += K_UNROLL) piece(kc, false);
      piece(BK - K_UNROLL, true);
    } else {
#pragma unroll 1
      for (int kc = 0; kc < BK; kc += K_UNROLL) piece(kc, false);
      if (loads_next) loader.finish(next_stage(), next_stage() + BK * A_LD, tid);
    }
  };
  // The steady loop: tiles t whose tile t + STAGES - 1 is whole (k0 + BK <= k_end), in a block
  // inside the matrix. Only for tiles of at most two pieces: with four (BK 32), the steady copy of
  // the loop kept more addresses live across the piece loop and spilled (0 -> 500-1500 bytes of
  // spill stores on 128 x 128 x 32 and 256 x 128 x 32 tiles), and a tile's own instructions are
  // spread over 4096 FFMAs there anyway. Nor with operands at ALIGN 1, where every vector is
  // copied a float at a time: the default's 8 x 8 tiles, held to 128 registers, spilled 8-44
  // bytes on sm_80-sm_90.
  constexpr bool STEADY_LOOP = BK <= 2 * K_UNROLL && OPERAND_ALIGN > 1;
  const int full_tiles = (k_end - k_begin) / BK;
  const int steady_tiles = STEADY_LOOP && interior ? max(full_tiles - (STAGES - 1), 0) : 0;
  int t = 0;
#pragma unroll 1
  for (; t < steady_tiles; ++t) run_tile(t, true);
#pragma unroll 1
  for (; t < k_tiles; ++t) run_tile(t, false);
  cp_async_wait<0>();

  // Thread tile element (i, j) is output (row_of(i), col_of(j)).
  auto row_of = [&](int i) { return m0 + warp_m * WM + ((i / 4) * LANES_M + lane_m) * 4 + i % 4; };
  auto col_of = [&](int j) { return n0 + warp_n * WN + ((j / 4) * LANES_N + lane_n) * 4 + j % 4; };
  if (SPLITK == 1) {
    // RUNS runs of 4 outputs at a time, their reads of C in flight together (store_c_runs4): 8,
    // but for 64 accumulators held to 128 registers (2 blocks an SM or more), where ptxas spilled
    // the 8 x 8 default's epilogue with 2 or 4 runs on sm_80 and sm_89 (40-44 bytes; with 1 in the
    // batched loop too) and not with 4 on sm_90: there 4 on sm_90, and elsewhere the loop of one
    // run at a time that came before the batches.
    constexpr int RUNS_PER_ROW = TN / 4;
    constexpr bool HELD_TO_128 = warptile_min_blocks(THREADS, TM * TN, REGS) > 1 && TM * TN >= 64;
#if __CUDA_ARCH__ >= 900
    constexpr int HELD_RUNS = 4;
#else
    constexpr int HELD_RUNS = 1;
#endif
    constexpr int RUNS = epilogue_runs<TM, TN, HELD_TO_128 ? HELD_RUNS : 8>();
    if constexpr (RUNS == 1) {
#pragma unroll
      for (int i = 0; i < TM; ++i) {
        const int m = row_of(i);
        if (m >= p.M) continue;
#pragma unroll
        for (int j = 0; j < TN; j += 4) {
          const int n = col_of(j);
          if (n < p.N) store_c4<ALIGN>(p, m, n, make_float4(acc[i][j], acc[i][j + 1], acc[i][j + 2], acc[i][j + 3]), p.N - n);
        }
      }
    } else {
#pragma unroll
      for (int r0 = 0; r0 < TM * RUNS_PER_ROW; r0 += RUNS) {
        int m[RUNS], n[RUNS], valid[RUNS];
        float runs[RUNS][4];
#pragma unroll
        for (int r = 0; r < RUNS; ++r) {
          const int i = (r0 + r) / RUNS_PER_ROW;
          const int j = (r0 + r) % RUNS_PER_ROW * 4;
          m[r] = row_of(i);
          n[r] = col_of(j);
          valid[r] = m[r] < p.M ? p.N - n[r] : 0;
#pragma unroll
          for (int e = 0; e < 4; ++e) runs[r][e] = acc[i][j + e];
        }
        store_c_runs4<ALIGN>(p, m, n, valid, runs);
      }
    }
  } else {
    const long long tiles = static_cast<long long>(gridDim.x) * gridDim.y;
    const long long tile = static_cast<long long>(blockIdx.y) * gridDim.x + blockIdx.x;
#pragma unroll
    for (int i = 0; i < TM; ++i) {
      const int m = row_of(i);
#pragma unroll
      for (int j = 0; j < TN; ++j) {
        const int n = col_of(j);
        if (m < p.M && n < p.N) *splitk_partial<SPLITK>(p, tiles, blockIdx.z, m, n) = acc[i][j];
      }
    }
    splitk_finish_tile<BM, BN, THREADS, SPLITK, ALIGN>(p, tile, tiles, blockIdx.z, m0, n0, tid);
  }
}

}  // namespace gemmtune
