// FP32 GEMM on Hopper's tensor cores with the operands copied by the Tensor Memory Accelerator:
// 3xTF32 on the warpgroup MMA (sm_90a), a warp-specialized mbarrier pipeline, and a persistent
// tile scheduler (data-parallel, split-K or stream-K, tile_schedule.h).
//
// Roles (one block an SM, 128 threads of copies and transforms, 64 output rows a MMA warpgroup):
// - warp 0, one lane: the copy engine's client. For every k tile of every work unit it waits
//   until a stage is free, then asks TMA for the stage's two operand tiles.
// - warps 1-3, the transform: once a stage has landed, they write the small part of the
//   shared-memory operand beside it (3xTF32) and its transposed big part (tn). Single-pass TF32
//   in the other layouts has nothing to transform: these warps leave at once, and the MMA
//   warpgroups wait for the copies alone.
// - the MMA warpgroups (1 or 2): each splits its 64 rows of the register operand into big and
//   small parts as it loads them, issues the tile's 3 * BK / 8 wgmmas into a sum started from
//   zero, releases the stage, and adds the sum to its accumulators in FP32 (the tensor cores
//   truncate as they accumulate; docs/performance.md). Then each unit's epilogue.
//   With PINGPONG 2 there are two MMA warpgroups and a tile has 64 X rows: each warpgroup takes
//   every other unit of the block's walk and lets the other's k tiles pass through the stages,
//   so one warpgroup's epilogue (C's traffic) runs while the other's wgmmas do. The copy lane
//   fills the stages in unit order, which keeps the two taking turns.
//
// Operands. wgmma reads a .tf32 operand from shared memory only K-major (each row's k
// contiguous), so one operand that is K-major as stored goes there untouched: "Y", S rows. The
// other, "X" (R rows), goes through registers, where its orientation costs nothing:
//   nt: X = A (stored M x K), Y = B (stored N x K)      C = X Y^T
//   tt: X = A (stored K x M), Y = B (stored N x K)
//   nn: X = B^T (B stored K x N), Y = A (stored M x K)  C^T = X Y^T: the epilogue transposes
//   tn: X = A (stored K x M), Y = B stored K x N: no operand is K-major, so the transform also
//       writes Y's big part transposed. Or (ACOPY 2, tmawgmma_rules.h) the host has the
//       staged-copy kernel write A transposed (M x K) first, and the body runs as nn.
// Tiles are rows of BK = 32 floats (128 bytes) in the 128-byte swizzle that both TMA and wgmma
// know (16-byte chunk c of row r at chunk c ^ r % 8), which keeps the fragment loads and the
// wgmma reads free of bank conflicts; a tile stored K-contiguous is one box, one stored the
// other way is boxes of 32 x 32.
//
// The split. The tensor cores read a .tf32 operand's top 19 bits and ignore the low 13, so the
// raw value serves as its own big part (truncated, not rounded: an x near FLT_MAX cannot
// overflow), and only the small part x - big is computed, rounded to nearest TF32 on its way.
// a * b is then a_small b_big + a_big b_small + a_big b_big: at most about 2^-20 |a b| from the
// exact product, and the sum of a tile's products stays below FP32's own accumulation error
// (tests/runtime/test_gpu_accuracy.cpp).
//
// Special values. The split cannot represent infinities (an infinity's small part is inf - inf =
// NaN), and the tensor cores' sums need not overflow where FP32's would, or the other way round.
// For these the outputs tell: an infinity or a NaN among a unit's inputs leaves an infinity or a
// NaN in every output of its row or column (inf x nonzero is inf, inf x 0 and the split's inf -
// inf are NaN, and both survive every sum), so a unit whose sums hold one is computed again with
// FFMA from global memory (special_values.cuh): IEEE FP32 results, at a cost paid only by the
// units that meet such values, or overflow. Watching every value for these as it was loaded cost
// the main loop a third of its ALU issue and, for single-pass TF32, a second read of Y from
// shared memory (docs/performance.md). Tiny values leave no trace in the outputs: the tensor
// cores keep subnormal operands (measured), but a TF32 operand keeps the top 10 bits of FP32's
// fraction field, so a subnormal loses significant bits (an absolute error up to 2^-136), and
// the small part of a value below about 2^-112 is such a subnormal. So 3xTF32 watches for
// nonzero magnitudes below 2^-103 (TinyValueScan, two instructions a value: X as it is split,
// Y in the transform warps) and sends such units to the FFMA pass too. Single-pass TF32 does
// not: its class promises TF32's rounding, which for a subnormal is that absolute error, as
// cuBLAS's TF32 compute type rounds it (tests/runtime/test_gpu_special_values.cpp).
//
// Partial tiles (split-K, stream-K) go to the workspace in the accumulators' register order; the
// last piece of a tile to arrive adds all pieces in k order, in two levels when there are many
// (tile_schedule.h). Workspace layout (floats): [arrival counters: counter_words()][partial
// slots: BR * BS each]. With CSPLIT, a cluster's blocks share each split-K unit's k tiles and
// rank 0 adds the others' sums from their shared memory (gather_k_shares) before any of that.
//
// Batches. A strided batched call's entries are the third dimension of both tensor maps (the host
// encodes them with the call's strides; plain calls are a batch of one), and the tile schedule
// spans the tiles of every entry, so one launch serves the whole batch with any schedule.
#pragma once

#include "common.cuh"
#include "sm90_pipeline.cuh"
#include "special_values.cuh"
#include "staged_copy.cuh"  // the aligned copies an ALIGN 1 call is served from
#include "tile_schedule.h"
#include "tiny_scan.cuh"  // WATCH 2's scan of A and B, launched before the GEMM
#include "tma_params.h"
#include "tmawgmma_rules.h"
#include "wgmma_instructions.cuh"  // Wgmma<N> (A from registers, B by descriptor), wgmma_fence/commit/wait, pin

namespace gemmtune {

// Which stored operand plays which role, per layout (see above).
template <Layout L>
struct TmaOperandRoles {
  static constexpr bool SWAP = L == Layout::NN;         // X = op(B)^T, Y = op(A): the MMA computes C^T
  static constexpr bool X_K_MAJOR = L == Layout::NT;    // X stored R x K (otherwise K x R)
  static constexpr bool Y_TRANSPOSED = L == Layout::TN; // Y stored K x S: the transform transposes it
};

// Up to this many k tiles in a unit, its C tile is requested from L2 as the unit starts.
constexpr int kTmaPrefetchCTiles = 4;

// Element (row, col) of a tile of 32-float rows in the 128-byte swizzle.
__device__ __forceinline__ constexpr int swizzled_offset(int row, int col) {
  return row * 32 + (((col >> 2) ^ (row & 7)) << 2) + (col & 3);
}

// A wgmma descriptor of a K-major operand in the 128-byte swizzle whose k step starts at `tile`
// (the tile's 1024-byte aligned base plus 32 bytes a k step): 8-row groups 1024 bytes apart (the
// stride byte offset), the leading byte offset unused (1) with this swizzle.
__device__ __forceinline__ unsigned long long wgmma_descriptor_swizzle128(const float* tile) {
  return static_cast<unsigned long long>((shared_address(tile) & 0x3ffff) >> 4) | 1ull << 16 | 64ull << 32 |
         1ull << 62;
}

// x's small part as the tensor cores should read it: x minus what they read of x (its bits with
// the low 13 cleared), an exact difference, rounded to nearest TF32 by adding half a TF32 unit to
// its bits (they truncate the rest).
__device__ __forceinline__ unsigned tf32_small_part(float x) {
  return __float_as_uint(x - __uint_as_float(__float_as_uint(x) & 0xffffe000u)) + 0x1000u;
}

// The kernel's body; PRODUCTS 3 is 3xTF32 (FP32-accurate), 1 single-pass TF32 (each operand
// truncated to TF32, the products accumulated in the tensor cores across K, as cuBLAS's
// CUBLAS_COMPUTE_32F_FAST_TF32 does): no small parts to write or split, a third of the MMAs.
// Partial tiles in the workspace: slot `slot` holds BR x BS floats in the accumulators' register
// order, a float4 a thread (index j) at a stride of the consumer threads.
template <int BR, int BS, int CONSUMER_THREADS>
__device__ __forceinline__ float4* slot_at(float* slots, long long slot, int j, int ctid) {
  return reinterpret_cast<float4*>(slots + slot * (BR * BS)) + ctid + j * CONSUMER_THREADS;
}

template <int BR, int BS, int CONSUMER_THREADS>
__device__ __forceinline__ void store_slot(float* slots, long long slot, int j, int ctid, const float (&v)[4]) {
  __stcg(slot_at<BR, BS, CONSUMER_THREADS>(slots, slot, j, ctid), make_float4(v[0], v[1], v[2], v[3]));
}

// After a piece's (or a group's) sums are in the workspace: counts this arrival at `counter` and
// says whether it was the last of `arrivals` (every consumer thread gets the answer through
// `answer`, a shared word). The fences make the slots written before visible to the last arrival.
template <int CONSUMER_THREADS>
__device__ __forceinline__ bool last_to_arrive(unsigned* counter, int arrivals, int ctid, int barrier, int& answer) {
  __threadfence();
  named_barrier_sync(barrier, CONSUMER_THREADS);
  if (ctid == 0) answer = atomicAdd(counter, 1u) == static_cast<unsigned>(arrivals - 1);
  named_barrier_sync(barrier, CONSUMER_THREADS);
  if (!answer) return false;
  __threadfence();
  return true;
}

// sum = the `count` slots first, first + stride, ... added in that order, loaded kPiecesInFlight
// at a time: each batch waits one L2 latency. As many as the registers left beside the
// accumulators and the sum hold (BS / 2 each).
template <int BR, int BS, int CONSUMER_THREADS>
__device__ __forceinline__ void sum_slots(float (&sum)[BS / 8][4], float* slots, long long first, int count, int stride,
                                          int ctid) {
  constexpr int kPiecesInFlight = BS <= 64 ? 3 : 1;
  for (int batch = 0; batch < count; batch += kPiecesInFlight) {
    float4 terms[kPiecesInFlight][BS / 8];
#pragma unroll
    for (int q = 0; q < kPiecesInFlight; ++q) {
      const int i = batch + q < count ? batch + q : count - 1;
#pragma unroll
      for (int j = 0; j < BS / 8; ++j) terms[q][j] = __ldcg(slot_at<BR, BS, CONSUMER_THREADS>(slots, first + i * stride, j, ctid));
    }
#pragma unroll
    for (int q = 0; q < kPiecesInFlight; ++q) {
      const int i = batch + q;
      if (i >= count) break;
#pragma unroll
      for (int j = 0; j < BS / 8; ++j) {
        const float4 term = terms[q][j];
        if (i == 0) {
          sum[j][0] = term.x, sum[j][1] = term.y, sum[j][2] = term.z, sum[j][3] = term.w;
        } else {
          sum[j][0] += term.x, sum[j][1] += term.y, sum[j][2] += term.z, sum[j][3] += term.w;
        }
      }
    }
  }
}

// WATCH 2: whether the tiny-value scan flagged a block of this unit's X rows [x_first, x_first +
// BR), Y rows [unit.tile_s * BS, + BS) or k tiles (tiny_scan.h). The unit's threads share out its
// flags (one load each for a 128 x 128 tile at K = 8192); the caller's named_barrier_any gathers
// the answer. A cluster's block past X's rows reads only Y's.
template <int BR, int BS, int CONSUMER_THREADS>
__device__ __forceinline__ bool unit_touches_tiny(const unsigned* flags, const WorkUnit& unit, int x_first, int rows_x,
                                                  int rows_y, int K, int ctid) {
  return rows_touch_tiny(flags + unit.entry * tiny_flags_an_entry(rows_x, rows_y, K), x_first, BR, rows_x,
                         unit.tile_s * BS, BS, rows_y, unit.k_begin * kTmaTileK, min(K, unit.k_end * kTmaTileK), K,
                         ctid, CONSUMER_THREADS);
}

// CSPLIT: the k tiles of a unit that the cluster's block of this rank computes, a share of
// [k_begin, k_end) in rank order.
template <int CSPLIT>
__device__ __forceinline__ void take_k_share(WorkUnit& unit) {
  if (CSPLIT == 1) return;
  const int rank = static_cast<int>(cluster_rank());
  const int begin = unit.k_begin;
  const int tiles = unit.k_end - unit.k_begin;
  unit.k_begin = begin + tiles * rank / CSPLIT;
  unit.k_end = begin + tiles * (rank + 1) / CSPLIT;
}

// CSPLIT: the cluster's blocks each summed a share of the unit's k tiles into `acc`. Ranks above 0
// leave theirs in their own shared memory (`share`, in the accumulators' register order) and tell
// rank 0 (`shares_in`, on rank 0); rank 0 adds them to its own in rank order (the same bits every
// run) and tells each rank that its share was read (`share_read`, on that rank), so that the next
// unit may write it. `turn` counts the units of this block's walk. Returns whether this block
// finishes the unit (rank 0). Every thread arrives for itself: an arrival releases only its own
// thread's writes and reads.
template <int BS, int CONSUMER_THREADS, int CSPLIT>
__device__ __forceinline__ bool gather_k_shares(float (&acc)[BS / 8][4], float* share, unsigned long long* shares_in,
                                                unsigned long long* share_read, int turn, int ctid) {
  float4* mine = reinterpret_cast<float4*>(share) + ctid;
  if (cluster_rank() != 0) {
    if (turn > 0) mbarrier_wait_cluster(share_read, (turn - 1) & 1);  // rank 0 read the last one
#pragma unroll
    for (int j = 0; j < BS / 8; ++j) mine[j * CONSUMER_THREADS] = make_float4(acc[j][0], acc[j][1], acc[j][2], acc[j][3]);
    mbarrier_arrive_release_cluster(shares_in, 0);
    return false;
  }
  mbarrier_wait_cluster(shares_in, turn & 1);
#pragma unroll 1
  for (unsigned rank = 1; rank < CSPLIT; ++rank) {
    float4 terms[BS / 8];
#pragma unroll
    for (int j = 0; j < BS / 8; ++j) terms[j] = load_shared_cluster(mine + j * CONSUMER_THREADS, rank);
#pragma unroll
    for (int j = 0; j < BS / 8; ++j) {
      acc[j][0] += terms[j].x, acc[j][1] += terms[j].y, acc[j][2] += terms[j].z, acc[j][3] += terms[j].w;
    }
  }
  // After all the reads: each release is a fence of the GPU's memory (MEMBAR.GPU in the SASS), and
  // back to back they cost less than one between each rank's reads.
#pragma unroll 1
  for (unsigned rank = 1; rank < CSPLIT; ++rank) mbarrier_arrive_release_cluster(share_read, rank);
  return true;
}

template <int PRODUCTS, int BM, int BN, int STAGES, int SCHEDULE, int SPLITK, int CLUSTER, int PINGPONG, int WATCH,
          int CSPLIT, Layout L, int ALIGN>
__device__ __forceinline__ void tmawgmma_body(const TmaGemmParams& args) {
  using Roles = TmaOperandRoles<L>;
  constexpr int BR = tmawgmma_rows_x(BM, BN, L);  // X rows of a tile: 64 a MMA warpgroup
  constexpr int BS = tmawgmma_rows_y(BM, BN, L);  // Y rows: the wgmma's N
  constexpr int BK = kTmaTileK;
  constexpr int CONSUMERS = BR / 64;                   // MMA warpgroups on one tile
  constexpr int CONSUMER_THREADS = 128 * CONSUMERS;
  constexpr bool TURNS = PINGPONG == kPingpongTurns;   // two MMA warpgroups, a tile each, taking turns
  constexpr int MMA_GROUPS = TURNS ? 2 : CONSUMERS;      // MMA warpgroups in the block
  constexpr int Y_SHARE = BS / CLUSTER;  // Y rows each block of a cluster copies for all of them
  // A cluster's blocks: CLUSTER sharing Y tiles, or CSPLIT sharing each unit's k tiles (the rules
  // allow one of them at most). The cluster walks the units; its blocks, one walk.
  constexpr int CLUSTER_BLOCKS = CLUSTER * CSPLIT;
  constexpr int K_STEPS = BK / 8;
  constexpr int X_FLOATS = BR * BK;
  constexpr int Y_FLOATS = BS * BK;
  constexpr int STAGE_FLOATS = tmawgmma_stage_floats(BM, BN, L, PRODUCTS);
  static_assert(PRODUCTS == 1 || PRODUCTS == 3, "tmawgmma: PRODUCTS must be 1 (TF32) or 3 (3xTF32)");
  constexpr unsigned STAGE_BYTES = 4u * (X_FLOATS + Y_FLOATS);  // what the copy engine delivers a stage
  // With two MMA warpgroups (384 threads, 168 registers each at launch), the copy warpgroup
  // hands registers to them. The MMA warpgroups can only take what it gave back (the block's
  // registers at launch; more, and setmaxnreg.inc waits for ever): 128 x (168 - 40) = 256 x
  // (232 - 168). tn's transposing transform needs 56 (then 224 for the MMA warpgroups). With
  // fewer, the transform spilled; one MMA warpgroup keeps the 255 it is launched with. Single-pass
  // TF32 outside tn has no transform: at 224 its split-K fix-ups spilled 48-56 bytes, at 232 none.
  constexpr int kLaunchRegisters = 65536 / (kTmaCopyThreads + 128 * MMA_GROUPS) / 8 * 8;
  constexpr bool kRoomyCopy = Roles::Y_TRANSPOSED;  // the transposing transform needs more
  constexpr int kCopyRegisters = kRoomyCopy ? 56 : 40;
  constexpr int kMmaRegisters = kRoomyCopy ? 224 : 232;
  static_assert(MMA_GROUPS == 1 || kTmaCopyThreads * (kLaunchRegisters - kCopyRegisters) >=
                                       128 * MMA_GROUPS * (kMmaRegisters - kLaunchRegisters),
                "tmawgmma: the MMA warpgroups cannot take more registers than the copy warpgroup gives back");
  // The rules (tmawgmma_rules.h) are asserted by the two kernels below, each in its own name.

  // Single-pass TF32 reads Y as copied, except tn's, which the transform transposes.
  constexpr bool TRANSFORM = PRODUCTS == 3 || Roles::Y_TRANSPOSED;
  __shared__ unsigned long long full[STAGES];   // the stage's copies have landed
  __shared__ unsigned long long ready[STAGES];  // ... and its transform is written (TRANSFORM)
  __shared__ unsigned long long empty[STAGES];  // its readers are done with it
  // 3xTF32: per transform warp, whether the stage's Y holds a tiny value (TinyValueScan).
  constexpr bool WATCH_IN_LOOP = PRODUCTS == 3 && WATCH == kWatchInLoop;
  __shared__ unsigned y_tiny[WATCH_IN_LOOP ? STAGES : 1][kTmaTransformThreads / 32];
  __shared__ int finishes_tile[MMA_GROUPS];  // last_to_arrive's answer, a word a tile's warpgroups
  // PINGPONG 2: warpgroup g has waited for the stage of its unit's last k tile (below).
  __shared__ unsigned long long handed_over[2];
  // CSPLIT: on rank 0, the other ranks' shares of a unit are in their shared memory; on the
  // others, rank 0 has read this block's share.
  __shared__ unsigned long long shares_in;
  __shared__ unsigned long long share_read;
  extern __shared__ float smem_unaligned[];
  // Aligned by an offset from the declared array, so that the compiler still knows these are
  // shared-memory addresses (32-bit, LDS/STS) rather than generic ones.
  float* stages = smem_unaligned + ((1024 - (shared_address(smem_unaligned) & 1023)) & 1023) / 4;
  auto x_tile = [&](int stage) { return stages + stage * STAGE_FLOATS; };
  auto y_copied = [&](int stage) { return x_tile(stage) + X_FLOATS; };
  // After Y as copied: its small part (3xTF32), then its transposed big part (tn).
  auto y_small = [&](int stage) { return y_copied(stage) + Y_FLOATS; };
  auto y_big = [&](int stage) {
    return Roles::Y_TRANSPOSED ? y_copied(stage) + (PRODUCTS == 3 ? 2 : 1) * Y_FLOATS : y_copied(stage);
  };
  float* k_share_sums = stages + STAGES * STAGE_FLOATS;  // CSPLIT: this block's share of a unit

  const GemmParams& p = args.gemm;
  // The host launched make_tile_schedule(..., sm_count / CLUSTER)'s grid of clusters; the same
  // call with that grid in place of the SM count gives the same schedule
  // (tests/runtime/test_tile_schedule.cpp). A cluster walks units of CLUSTER tiles of X rows (one a
  // block, by rank) that share their Y tile. Each role computes the schedule after its register
  // change: a value live across that change is spilled.
  auto tile_schedule = [&] {
    return make_tile_schedule(Roles::SWAP ? p.N : p.M, Roles::SWAP ? p.M : p.N, p.K, BR * CLUSTER, BS, BK,
                              static_cast<int>(gridDim.x) / CLUSTER_BLOCKS, static_cast<Schedule>(SCHEDULE), SPLITK,
                              p.batch);
  };
  auto cluster_walk = [&] { return TileWalk(tile_schedule(), static_cast<int>(blockIdx.x) / CLUSTER_BLOCKS); };
  // The first X row of this block's tile in `unit`.
  auto first_x_row = [](const WorkUnit& unit) {
    return (unit.tile_r * CLUSTER + static_cast<int>(CLUSTER == 1 ? 0u : cluster_rank())) * BR;
  };
  const int tid = threadIdx.x;
  const int warp = tid / 32;
  const int lane = tid % 32;

  if (tid == 0) {
    for (int s = 0; s < STAGES; ++s) {
      mbarrier_init(&full[s], 1);
      mbarrier_init(&ready[s], kTmaTransformThreads);
      // Every MMA thread of this block releases the stage, and in a cluster one lane a MMA warp of
      // each other block too (the copy that refills it lands in all of them).
      mbarrier_init(&empty[s], CONSUMER_THREADS + CONSUMER_THREADS / 32 * (CLUSTER - 1));
    }
    if (TURNS) mbarrier_init(&handed_over[0], 128), mbarrier_init(&handed_over[1], 128);
    if (CSPLIT > 1) mbarrier_init(&shares_in, CONSUMER_THREADS * (CSPLIT - 1)), mbarrier_init(&share_read, CONSUMER_THREADS);
    fence_mbarrier_init();
  }
  if (CLUSTER_BLOCKS == 1) {
    __syncthreads();
  } else {
    cluster_sync();  // no block copies into another's stages before its barriers exist
  }

  if (warp < kTmaCopyThreads / 32) {
    // The copy warpgroup.
    if (MMA_GROUPS == 2) warpgroup_release_registers<kCopyRegisters>();
    TileWalk walk = cluster_walk();
    WorkUnit unit;
    int stage = 0;
    unsigned phase = 0;
    if (warp == 0) {
      if (lane != 0) return;
      prefetch_tensor_map(&args.x);
      prefetch_tensor_map(&args.y);
      while (walk.next(unit)) {
        take_k_share<CSPLIT>(unit);
        const int r0 = first_x_row(unit);
        const int s0 = unit.tile_s * BS;
        for (int kt = unit.k_begin; kt < unit.k_end; ++kt) {
          mbarrier_wait(&empty[stage], phase ^ 1);
          mbarrier_arrive_expect_bytes(&full[stage], STAGE_BYTES);
          const int k0 = kt * BK;
          float* x = x_tile(stage);
          if (Roles::X_K_MAJOR) {
            tma_load_3d(x, &args.x, k0, r0, unit.entry, &full[stage]);
          } else {
#pragma unroll
            for (int j = 0; j < BR / 32; ++j) tma_load_3d(x + j * 1024, &args.x, r0 + 32 * j, k0, unit.entry, &full[stage]);
          }
          // Y: this block's share of its rows (all of them without a cluster), to every block of
          // the cluster. The Y map's boxes are Y_SHARE rows (K-major) or 32 x 32 (tn).
          float* y = y_copied(stage);
          const int share = CLUSTER == 1 ? 0 : static_cast<int>(cluster_rank());
          auto copy_y = [&](float* dst, int c0, int c1) {
            if (CLUSTER == 1) {
              tma_load_3d(dst, &args.y, c0, c1, unit.entry, &full[stage]);
            } else {
              tma_load_3d_multicast(dst, &args.y, c0, c1, unit.entry, &full[stage], (1u << CLUSTER) - 1);
            }
          };
          if (Roles::Y_TRANSPOSED) {
#pragma unroll
            for (int j = share * Y_SHARE / 32; j < (share + 1) * Y_SHARE / 32; ++j) copy_y(y + j * 1024, s0 + 32 * j, k0);
          } else {
            copy_y(y + share * Y_SHARE * 32, k0, s0 + share * Y_SHARE);
          }
          if (++stage == STAGES) stage = 0, phase ^= 1;
        }
      }
      if (CLUSTER > 1) {
        // The other blocks' MMA warps release this block's stages from afar: wait for the last
        // release of each, so that none arrives after this block has exited.
        for (int i = 0; i < STAGES; ++i) {
          mbarrier_wait(&empty[stage], phase ^ 1);
          if (++stage == STAGES) stage = 0, phase ^= 1;
        }
      }
      return;
    }
    // The transform warps.
    if (!TRANSFORM) return;
    const int ttid = tid - 32;
    while (walk.next(unit)) {
      take_k_share<CSPLIT>(unit);
      for (int kt = unit.k_begin; kt < unit.k_end; ++kt) {
        mbarrier_wait(&full[stage], phase);
        TinyValueScan tiny;
        if (Roles::Y_TRANSPOSED) {
          // 4 x 4 blocks: four k rows of 4 s as copied, written as four s rows of 4 k.
          const float* copied = y_copied(stage);
          float* big = y_big(stage);
          float* small = y_small(stage);
          for (int b = ttid; b < Y_FLOATS / 16; b += kTmaTransformThreads) {
            const int s = b % (BS / 4) * 4;
            const int k = b / (BS / 4) * 4;
            float v[4][4];  // [k][s]
#pragma unroll
            for (int kk = 0; kk < 4; ++kk) {
              const float4 q = *reinterpret_cast<const float4*>(
                  &copied[(s >> 5) * 1024 + swizzled_offset(k + kk, s & 31)]);
              v[kk][0] = q.x, v[kk][1] = q.y, v[kk][2] = q.z, v[kk][3] = q.w;
            }
#pragma unroll
            for (int ss = 0; ss < 4; ++ss) {
              const int at = swizzled_offset(s + ss, k);
              *reinterpret_cast<float4*>(&big[at]) = make_float4(v[0][ss], v[1][ss], v[2][ss], v[3][ss]);
              if (PRODUCTS == 3) {
                *reinterpret_cast<uint4*>(&small[at]) =
                    make_uint4(tf32_small_part(v[0][ss]), tf32_small_part(v[1][ss]), tf32_small_part(v[2][ss]),
                               tf32_small_part(v[3][ss]));
                if (WATCH_IN_LOOP) {
#pragma unroll
                  for (int kk = 0; kk < 4; ++kk) tiny.see(v[kk][ss]);
                }
              }
            }
          }
        } else {
          const float4* copied = reinterpret_cast<const float4*>(y_copied(stage));
          uint4* small = reinterpret_cast<uint4*>(y_small(stage));
          for (int i = ttid; i < Y_FLOATS / 4; i += kTmaTransformThreads) {
            const float4 v = copied[i];
            small[i] = make_uint4(tf32_small_part(v.x), tf32_small_part(v.y), tf32_small_part(v.z),
                                  tf32_small_part(v.w));
            if (WATCH_IN_LOOP) tiny.see(v.x), tiny.see(v.y), tiny.see(v.z), tiny.see(v.w);
          }
        }
        fence_shared_for_wgmma();  // the small (and big) parts are read by wgmma, another proxy
        if constexpr (WATCH_IN_LOOP) {
          const unsigned found = __any_sync(0xffffffffu, tiny.found());
          if (lane == 0) y_tiny[stage][warp - 1] = found;
        }
        mbarrier_arrive(&ready[stage]);
        if (++stage == STAGES) stage = 0, phase ^= 1;
      }
    }
    return;
  }

  // The MMA warpgroups.
  if (MMA_GROUPS == 2) warpgroup_claim_registers<kMmaRegisters>();
  const TileSchedule schedule = tile_schedule();
  const int rows_x = Roles::SWAP ? p.N : p.M;
  const int rows_y = Roles::SWAP ? p.M : p.N;
  // PINGPONG 2: MMA warpgroup g computes units g, g + 2, g + 4, ... of the block's walk, each on
  // its own (a tile of 64 X rows), with its own named barrier (1 + g) and answer word; otherwise
  // the warpgroups share every tile, barrier 1. g is read again where it is needed (asm volatile,
  // as this_lanes_x_row below): kept live across the main loop, it made split-K tiles spill.
  auto mma_group = [] {
    if (!TURNS) return 0;
    unsigned thread;
    asm volatile("mov.u32 %0, %%tid.x;\n" : "=r"(thread));
    return (static_cast<int>(thread) - kTmaCopyThreads) / 128;
  };
  const int ctid = tid - kTmaCopyThreads - 128 * mma_group();  // this thread among its tile's
  const int quad = lane % 4;
  // This lane's first row of X (and + 8). The epilogue reads threadIdx.x again (asm volatile, which
  // the compiler cannot merge with the first read) rather than keep the row live across the main
  // loop: kept, it was the value spilled when the MMA registers ran short.
  auto this_lanes_x_row = [] {
    unsigned thread;
    asm volatile("mov.u32 %0, %%tid.x;\n" : "=r"(thread));
    const int c = static_cast<int>(thread) - kTmaCopyThreads;
    return (TURNS ? 0 : c / 128 * 64) + c / 32 % 4 * 16 + c % 32 / 4;
  };
  const int x_row = this_lanes_x_row();
  auto x_offset = [](int r, int k) {
    return Roles::X_K_MAJOR ? swizzled_offset(r, k) : (r >> 5) * 1024 + swizzled_offset(k, r & 31);
  };
  float* counters = p.workspace;
  const long long counter_floats = schedule.counter_words();
  float* slots = p.workspace + counter_floats;

  TileWalk walk(schedule, static_cast<int>(blockIdx.x) / CLUSTER_BLOCKS);
  WorkUnit unit;
  int stage = 0;
  unsigned phase = 0;
  float acc[BS / 8][4];
  float tile_sum[BS / 8][4];
  unsigned x_big[K_STEPS][4];
  unsigned x_small[K_STEPS][4];
  int turn = 0;  // PINGPONG 2 and CSPLIT: the units this block has dealt
  while (walk.next(unit)) {
    take_k_share<CSPLIT>(unit);
    if (TURNS) {
      const int this_turn = turn++;
      const int g = mma_group();
      if ((this_turn & 1) != g) {
        // The other warpgroup's unit: its k tiles pass through the stages in order.
        const int passed = stage + unit.k_end - unit.k_begin;
        if ((passed / STAGES) & 1) phase ^= 1;
        stage = passed % STAGES;
        continue;
      }
      // A stage's full (and ready) barrier tells its phases apart by parity alone, so its waiter
      // may be at most one phase ahead of it: waiting for use n + 1 of a stage whose use n has not
      // landed returns at once. Having let the other unit's k tiles pass, this warpgroup waits
      // until the other one has waited for that unit's last k tile, and so (in order) for every
      // one of them: every stage's previous use has then landed. Handing over after the first of
      // the last STAGES k tiles (as first written) is not enough: copies land in any order, and a
      // later one of those may still be in flight when this warpgroup reaches its stage. (The
      // hand-over also keeps the two taking turns.) The other's hand-over for turn t - 1 is its
      // ((t - 2 + g) / 2)-th.
      if (this_turn > 0) mbarrier_wait(&handed_over[1 - g], ((this_turn - 2 + g) / 2) & 1);
      if (unit.k_end <= unit.k_begin) mbarrier_arrive(&handed_over[g]);  // an empty slice hands over at once
    }
#pragma unroll
    for (int j = 0; j < BS / 8; ++j) {
#pragma unroll
      for (int e = 0; e < 4; ++e) acc[j][e] = 0.0f;
    }
    // A unit of a few k tiles is over before C could come from DRAM: ask L2 for it now. (With
    // CSPLIT, rank 0 alone reads C.)
    if (unit.k_end - unit.k_begin <= kTmaPrefetchCTiles && (CSPLIT == 1 || cluster_rank() == 0)) {
      const GemmParams entry = batch_entry(p, unit.entry);
      if (Roles::SWAP) {
        prefetch_c_tile<BS, BR, CONSUMER_THREADS>(entry, unit.tile_s * BS, first_x_row(unit), ctid);
      } else {
        prefetch_c_tile<BR, BS, CONSUMER_THREADS>(entry, first_x_row(unit), unit.tile_s * BS, ctid);
      }
    }
    TinyValueScan x_tiny;     // WATCH 1: tiny values among this thread's X ...
    bool y_has_tiny = false;  // ... and among the unit's Y (the transform warps')
    for (int kt = unit.k_begin; kt < unit.k_end; ++kt) {
      mbarrier_wait(&full[stage], phase);
      if (TRANSFORM) mbarrier_wait(&ready[stage], phase);
      // PINGPONG 2: hand over once this warpgroup has waited for the unit's last k tile.
      if (TURNS && kt == unit.k_end - 1) mbarrier_arrive(&handed_over[mma_group()]);
      const float* x = x_tile(stage);
#pragma unroll
      for (int s = 0; s < K_STEPS; ++s) {
#pragma unroll
        for (int e = 0; e < 4; ++e) {
          const float v = x[x_offset(x_row + e % 2 * 8, 8 * s + quad + e / 2 * 4)];
          x_big[s][e] = __float_as_uint(v);
          if (PRODUCTS == 3) x_small[s][e] = tf32_small_part(v);
          if (WATCH_IN_LOOP) x_tiny.see(v);
        }
      }
      if constexpr (WATCH_IN_LOOP) {
#pragma unroll
        for (int w = 0; w < kTmaTransformThreads / 32; ++w) y_has_tiny |= y_tiny[stage][w] != 0;
      }
      const float* big = y_big(stage);
      const float* small = y_small(stage);
      wgmma_fence();
#pragma unroll
      for (int s = 0; s < K_STEPS; ++s) {
        const unsigned long long big_desc = wgmma_descriptor_swizzle128(big + 8 * s);
        if constexpr (PRODUCTS == 1) {  // straight into the running sum
          Wgmma<BS>::mma(acc, x_big[s], big_desc);
        } else {
          const unsigned long long small_desc = wgmma_descriptor_swizzle128(small + 8 * s);
          if (s == 0) {
            Wgmma<BS>::mma_from_zero(tile_sum, x_small[s], big_desc);
          } else {
            Wgmma<BS>::mma(tile_sum, x_small[s], big_desc);
          }
          Wgmma<BS>::mma(tile_sum, x_big[s], small_desc);
          Wgmma<BS>::mma(tile_sum, x_big[s], big_desc);
        }
      }
      wgmma_commit();
      wgmma_wait_all();
#pragma unroll
      for (int s = 0; s < K_STEPS; ++s) {
#pragma unroll
        for (int e = 0; e < 4; ++e) {
          pin(x_big[s][e]);
          if (PRODUCTS == 3) pin(x_small[s][e]);
        }
      }
      // Each thread's own release orders its reads of the stage (the fragments) before the next
      // copies and transform writes to it; one lane a warp tells the other blocks (a release of
      // the whole warp's reads only through __syncwarp, which compute-sanitizer's racecheck does
      // not follow: with that alone for this block too, it reported a race on the stage).
      mbarrier_arrive(&empty[stage]);
      if (CLUSTER > 1) {
        __syncwarp();
        if (lane == 0) {
          const unsigned own = cluster_rank();
#pragma unroll
          for (unsigned block = 0; block < CLUSTER; ++block) {
            if (block != own) mbarrier_arrive_cluster(&empty[stage], block);
          }
        }
      }
#pragma unroll
      for (int j = 0; j < BS / 8; ++j) {
#pragma unroll
        for (int e = 0; e < 4; ++e) {
          if (PRODUCTS == 3) {
            pin(tile_sum[j][e]);
            acc[j][e] += tile_sum[j][e];
          } else {
            pin(acc[j][e]);
          }
        }
      }
      if (++stage == STAGES) stage = 0, phase ^= 1;
    }

    const GemmParams entry = batch_entry(p, unit.entry);  // this unit's A, B and C
    const int r_first = first_x_row(unit) + this_lanes_x_row();
    const int s_first = unit.tile_s * BS + 2 * quad;
    // Element e of acc[j]: X row r_first + e / 2 * 8, Y row s_first + 8 j + e % 2.
    bool scan_found_tiny = false;  // WATCH 2 (with WATCH 1, x_tiny and y_has_tiny tell)
    if constexpr (PRODUCTS == 3 && WATCH == kWatchByScan) {
      const unsigned* flags = reinterpret_cast<const unsigned*>(p.workspace + tmawgmma_tiny_flags_offset(schedule, BM, BN));
      scan_found_tiny = unit_touches_tiny<BR, BS, CONSUMER_THREADS>(flags, unit, first_x_row(unit), rows_x, rows_y, p.K, ctid);
    }
    if (named_barrier_any(1 + mma_group(), CONSUMER_THREADS,
                          !all_finite(acc) || x_tiny.found() || y_has_tiny || scan_found_tiny) &&
        p.alpha != 0.0f) {
      // Infinities or NaNs in the sums: this unit's k range again, in IEEE FP32
      // (special_values.cuh). A 256-wide tile takes REDO_J column groups a pass over k: with all of
      // them in one pass the compiler hoists a k step's loads of every column, more registers than
      // the accumulators leave, and the spills it then places reach into the main loop. (128-wide
      // tiles keep one pass: two spilled 3xTF32's 128 x 128 tile more, 56 bytes against 16.)
#pragma unroll
      for (int j = 0; j < BS / 8; ++j) {
#pragma unroll
        for (int e = 0; e < 4; ++e) acc[j][e] = 0.0f;
      }
      constexpr int REDO_J = BS <= 128 ? BS / 8 : 8;
      const int k_end = min(p.K, unit.k_end * BK);
#pragma unroll
      for (int j0 = 0; j0 < BS / 8; j0 += REDO_J) {
        for (int k = unit.k_begin * BK; k < k_end; ++k) {
          float x[2];
#pragma unroll
          for (int h = 0; h < 2; ++h) {
            const int r = r_first + 8 * h;
            x[h] = r >= rows_x ? 0.0f : Roles::SWAP ? load_b<L>(entry, k, r) : load_a<L>(entry, r, k);
          }
#pragma unroll
          for (int j = j0; j < j0 + REDO_J; ++j) {
#pragma unroll
            for (int c = 0; c < 2; ++c) {
              const int s = s_first + 8 * j + c;
              const float y = s >= rows_y ? 0.0f : Roles::SWAP ? load_a<L>(entry, s, k) : load_b<L>(entry, k, s);
              acc[j][c] = fmaf(x[0], y, acc[j][c]);
              acc[j][2 + c] = fmaf(x[1], y, acc[j][2 + c]);
            }
          }
        }
      }
    }

    if constexpr (CSPLIT > 1) {
      if (!gather_k_shares<BS, CONSUMER_THREADS, CSPLIT>(acc, k_share_sums, &shares_in, &share_read, turn++, ctid)) continue;
    }
    if (SCHEDULE != static_cast<int>(Schedule::DataParallel) && unit.pieces > 1) {
      // A piece of the tile: its partial sums to the workspace; the last piece to arrive (of its
      // group, then of the tile: tile_schedule.h) adds them. A piece's own sums are read back from
      // its slot like the others', which keeps one path.
      const long long slot0 = unit.slot_base;
#pragma unroll
      for (int j = 0; j < BS / 8; ++j) store_slot<BR, BS, CONSUMER_THREADS>(slots, slot0 + unit.piece, j, ctid, acc[j]);
      unsigned* tile_counter = reinterpret_cast<unsigned*>(counters) + unit.tile;
      const int groups = TileSchedule::piece_groups(unit.pieces);
      if (groups > 0) {
        const int group = unit.piece / kPieceGroup;
        const int group_first = group * kPieceGroup;
        const int group_pieces = min(kPieceGroup, unit.pieces - group_first);
        unsigned* group_counter = reinterpret_cast<unsigned*>(counters) + schedule.tiles() +
                                  static_cast<long long>(unit.tile) * schedule.groups_a_tile() + group;
        if (!last_to_arrive<CONSUMER_THREADS>(group_counter, group_pieces, ctid, 1 + mma_group(), finishes_tile[mma_group()])) continue;
        // The group's sum replaces its first piece's, which nothing reads again.
        sum_slots<BR, BS, CONSUMER_THREADS>(tile_sum, slots, slot0 + group_first, group_pieces, 1, ctid);
#pragma unroll
        for (int j = 0; j < BS / 8; ++j) store_slot<BR, BS, CONSUMER_THREADS>(slots, slot0 + group_first, j, ctid, tile_sum[j]);
        if (ctid == 0) *group_counter = 0u;  // for the next launch
        if (!last_to_arrive<CONSUMER_THREADS>(tile_counter, groups, ctid, 1 + mma_group(), finishes_tile[mma_group()])) continue;
        sum_slots<BR, BS, CONSUMER_THREADS>(tile_sum, slots, slot0, groups, kPieceGroup, ctid);
      } else {
        if (!last_to_arrive<CONSUMER_THREADS>(tile_counter, unit.pieces, ctid, 1 + mma_group(), finishes_tile[mma_group()])) continue;
        sum_slots<BR, BS, CONSUMER_THREADS>(tile_sum, slots, slot0, unit.pieces, 1, ctid);
      }
#pragma unroll
      for (int j = 0; j < BS / 8; ++j) {
#pragma unroll
        for (int e = 0; e < 4; ++e) acc[j][e] = tile_sum[j][e];
      }
      if (ctid == 0) *tile_counter = 0u;  // for the next launch
    }

    // C = alpha acc + beta C, EPILOGUE_J of the BS / 8 column groups at a time. Every old value of
    // C in a pass is read before any output is written: interleaved, each load would wait behind
    // the stores before it, a DRAM latency an output pair. A pass's old values need 4 registers a
    // column group beside the accumulators, which a 256-wide tile cannot give all at once. Up to
    // 128 wide, one pass reads them into tile_sum, which is free here (a separate array made
    // ptxas spill 3xTF32's 128 x 128 tiles); 256 wide, passes of 8 into their own array (tile_sum's
    // elements, read pass by pass, spilled there).
    float* C = entry.C;
    auto c_at = [&](int r, int s) { return Roles::SWAP ? C + static_cast<long long>(s) * p.ldc + r
                                                       : C + static_cast<long long>(r) * p.ldc + s; };
    constexpr int EPILOGUE_J = BS <= 128 ? BS / 8 : 8;
#pragma unroll
    for (int j0 = 0; j0 < BS / 8; j0 += EPILOGUE_J) {
      float pass_old[EPILOGUE_J][4];
      auto old_c = [&](int jj, int e) -> float& { return BS <= 128 ? tile_sum[j0 + jj][e] : pass_old[jj][e]; };
      if (p.beta != 0.0f) {
#pragma unroll
        for (int jj = 0; jj < EPILOGUE_J; ++jj) {
#pragma unroll
          for (int h = 0; h < 2; ++h) {
            const int r = r_first + 8 * h;
            const int s = s_first + 8 * (j0 + jj);
            float old[2] = {0.0f, 0.0f};
            if (r < rows_x && s < rows_y) {
              if (!Roles::SWAP) {
                load_run<2, ALIGN>(c_at(r, s), rows_y - s, old);
              } else {
                old[0] = *c_at(r, s);
                if (s + 1 < rows_y) old[1] = *c_at(r, s + 1);
              }
            }
            old_c(jj, 2 * h) = old[0];
            old_c(jj, 2 * h + 1) = old[1];
          }
        }
      }
#pragma unroll
      for (int jj = 0; jj < EPILOGUE_J; ++jj) {
        const int j = j0 + jj;
#pragma unroll
        for (int h = 0; h < 2; ++h) {
          const int r = r_first + 8 * h;
          const int s = s_first + 8 * j;
          if (r >= rows_x || s >= rows_y) continue;
          float out[2];
#pragma unroll
          for (int e = 0; e < 2; ++e) {
            out[e] = alpha_times(p, acc[j][2 * h + e]);
            if (p.beta != 0.0f) out[e] += p.beta * old_c(jj, 2 * h + e);
          }
          if (!Roles::SWAP) {
            store_run<2, ALIGN>(c_at(r, s), out, rows_y - s);
          } else {
            *c_at(r, s) = out[0];
            if (s + 1 < rows_y) *c_at(r, s + 1) = out[1];
          }
        }
      }
    }
  }
  // CSPLIT: rank 0 reads this block's last share from its shared memory; the block stays until it has.
  if (CSPLIT > 1 && turn > 0 && cluster_rank() != 0) mbarrier_wait_cluster(&share_read, (turn - 1) & 1);
}

// The two kernels take the call's layout L and ACOPY; the body runs in the layout it reads the
// operands in, KL (tmawgmma_kernel_layout: nn for a tn call that reads a transposed copy of A).

// 3xTF32: FP32-accurate (the fp32 precision class).
template <int BM, int BN, int STAGES, int SCHEDULE, int SPLITK, int CLUSTER, int ACOPY, int PINGPONG, int WATCH,
          int CSPLIT, Layout L, int ALIGN>
__global__ void __launch_bounds__(tmawgmma_threads(BM, BN, tmawgmma_kernel_layout(L, ACOPY), PINGPONG), 1)
    __cluster_dims__(CLUSTER * CSPLIT, 1, 1) tmawgmma_sgemm(const __grid_constant__ TmaGemmParams args) {
  constexpr int PRODUCTS = 3;
  constexpr Layout KL = tmawgmma_kernel_layout(L, ACOPY);
  constexpr long long SMEM_BYTES = tmawgmma_smem_bytes(BM, BN, STAGES, KL, PRODUCTS, CSPLIT);
  GEMMTUNE_TMAWGMMA_RULES(GEMMTUNE_STATIC_ASSERT_RULE, "tmawgmma")
  tmawgmma_body<PRODUCTS, BM, BN, STAGES, SCHEDULE, SPLITK, CLUSTER, PINGPONG, WATCH, CSPLIT, KL, ALIGN>(args);
}

// Single-pass TF32 (the tf32 precision class).
template <int BM, int BN, int STAGES, int SCHEDULE, int SPLITK, int CLUSTER, int ACOPY, int PINGPONG, int WATCH,
          int CSPLIT, Layout L, int ALIGN>
__global__ void __launch_bounds__(tmawgmma_threads(BM, BN, tmawgmma_kernel_layout(L, ACOPY), PINGPONG), 1)
    __cluster_dims__(CLUSTER * CSPLIT, 1, 1) tmatf32_sgemm(const __grid_constant__ TmaGemmParams args) {
  constexpr int PRODUCTS = 1;
  constexpr Layout KL = tmawgmma_kernel_layout(L, ACOPY);
  constexpr long long SMEM_BYTES = tmawgmma_smem_bytes(BM, BN, STAGES, KL, PRODUCTS, CSPLIT);
  GEMMTUNE_TMAWGMMA_RULES(GEMMTUNE_STATIC_ASSERT_RULE, "tmatf32")
  tmawgmma_body<PRODUCTS, BM, BN, STAGES, SCHEDULE, SPLITK, CLUSTER, PINGPONG, WATCH, CSPLIT, KL, ALIGN>(args);
}

}  // namespace gemmtune
