// The legality of a warptile configuration, for warptile.cuh's static_asserts and the host's check
// alike (family_rules.h says how), and the sizes both derive from it. Rules read BM BN BK WM WN TM
// TN STAGES SPLITK FRAGBUF ORDER COPY REGS, the layout L, ALIGN, THREADS, SMEM_BYTES and OPERAND_ALIGN.
#pragma once

#include "family_rules.h"
#include "splitk_workspace.h"

namespace gemmtune {

// (BM / WM) x (BN / WN) warps. Sizes are in 64 bits, so that the host can work them out for any
// parameters before its rules refuse them.
GEMMTUNE_HOST_DEVICE constexpr long long warptile_threads(int BM, int BN, int WM, int WN) {
  return 32LL * (BM / WM) * (BN / WN);
}

// Blocks per SM to ask the register allocator for. REGS 1: thread tiles of up to 64 accumulators
// are held to 128 registers, so that 512 threads (16 warps) can share an SM; larger tiles get the
// registers they need rather than spill. REGS 2 holds no tile: ptxas may then take up to 255, and
// fewer blocks fit an SM. Which is faster is for measurement: on sm_90 the same loop allocated
// differently went from 66 FFMA register-bank conflicts a 1024 FFMAs to none, 9% of its time
// (docs/performance.md).
GEMMTUNE_HOST_DEVICE constexpr int warptile_min_blocks(long long threads, int thread_tile, int REGS) {
  return REGS == 1 && thread_tile <= 64 && threads <= 512 ? static_cast<int>(512 / threads) : 1;
}

// Floats A's and B's rows are aligned to as the kernel reads them: COPY 2 reads aligned copies.
GEMMTUNE_HOST_DEVICE constexpr int warptile_operand_align(int COPY, int ALIGN) { return COPY == 2 ? 4 : ALIGN; }

// STAGES pipeline stages of the K-major A and B tiles (As[k][m], Bs[k][n]), rows padded by 4 floats.
GEMMTUNE_HOST_DEVICE constexpr long long warptile_smem_bytes(int BM, int BN, int BK, int STAGES) {
  return 4LL * STAGES * BK * (BM + 4 + BN + 4);
}

}  // namespace gemmtune

// Tiles copied by cp.async must divide evenly; K-contiguous ones (through registers) need not.
#define GEMMTUNE_WARPTILE_RULES(RULE, FAMILY)                                                          \
  RULE(FAMILY, TM % 4 == 0 && TN % 4 == 0 && TM > 0 && TN > 0, "TM and TN must be multiples of 4")     \
  RULE(FAMILY, STAGES >= 2, "STAGES must be at least 2 (one stage computes while the next loads)")     \
  RULE(FAMILY, TM * TN <= 128, "a thread tile of more than 128 accumulators cannot stay in registers") \
  RULE(FAMILY, WM % TM == 0 && WN % TN == 0, "WM and WN must be multiples of TM and TN")               \
  RULE(FAMILY, (WM / TM) * (WN / TN) == 32, "(WM / TM) * (WN / TN) must be 32, the lanes of a warp")   \
  RULE(FAMILY, BM % WM == 0 && BN % WN == 0, "BM and BN must be multiples of WM and WN")               \
  RULE(FAMILY, THREADS <= 1024, "32 * (BM / WM) * (BN / WN) threads must be at most 1024")             \
  RULE(FAMILY, ALIGN == 1 || ALIGN == 2 || ALIGN == 4, "ALIGN must be 1, 2 or 4")                      \
  RULE(FAMILY, BK % 4 == 0, "BK must be a multiple of 4")                                              \
  RULE(FAMILY, !a_is_transposed(L) || BK * BM / OPERAND_ALIGN % THREADS == 0,                          \
       "the A tile's copies must divide evenly over the threads")                                      \
  RULE(FAMILY, b_is_transposed(L) || BK * BN / OPERAND_ALIGN % THREADS == 0,                           \
       "the B tile's copies must divide evenly over the threads")                                      \
  RULE(FAMILY, SMEM_BYTES <= 227 * 1024, "shared memory must fit in 227 KB")                           \
  RULE(FAMILY, splitk_slices_legal(SPLITK), "SPLITK above 16 must be a multiple of 16")               \
  RULE(FAMILY, FRAGBUF == 1 || FRAGBUF == 2, "FRAGBUF must be 1 or 2")                                 \
  RULE(FAMILY, ORDER == 1 || ORDER == 2, "ORDER must be 1 or 2")                                      \
  RULE(FAMILY, COPY == 1 || COPY == 2, "COPY must be 1 or 2")                                          \
  RULE(FAMILY, COPY == 1 || ALIGN < 4, "COPY 2 (aligned copies of A and B) is for ALIGN 1 or 2 only")    \
  RULE(FAMILY, REGS == 1 || REGS == 2, "REGS must be 1 or 2")                                          \
  RULE(FAMILY, REGS == 1 || warptile_min_blocks(THREADS, TM * TN, 1) > 1,                              \
       "REGS 2 frees the registers of a tile that REGS 1 holds to 128: this tile is not held")
