// The legality of a tf32x3 configuration, for tf32x3.cuh's static_asserts and the host's check
// alike (family_rules.h says how), and the sizes both derive from it. Rules read BM BN BK WM WN
// STAGES SPLITK WATCH, ALIGN, THREADS and SMEM_BYTES.
#pragma once

#include "family_rules.h"
#include "splitk_workspace.h"
#include "staged_tile.h"
#include "tiny_scan.h"

namespace gemmtune {

// (BM / WM) x (BN / WN) warps. Sizes are in 64 bits, so that the host can work them out for any
// parameters before its rules refuse them.
GEMMTUNE_HOST_DEVICE constexpr long long tf32x3_threads(int BM, int BN, int WM, int WN) {
  return 32LL * (BM / WM) * (BN / WN);
}

// WATCH 2's flags (tiny_scan.h) in the workspace: from the first 128 bytes after split-K's.
GEMMTUNE_HOST_DEVICE constexpr long long tf32x3_tiny_flags_offset(long long tiles, int splitk, int M, int N) {
  return (splitk_workspace_floats(tiles, splitk, M, N) + 31) / 32 * 32;
}

// STAGES stages of both operands as stored (staged_tile.h).
GEMMTUNE_HOST_DEVICE constexpr long long tf32x3_smem_bytes(int BM, int BN, int BK, int STAGES, Layout L) {
  return 4LL * STAGES * staged_stage_floats(BM, BN, BK, L);
}

}  // namespace gemmtune

#define GEMMTUNE_TF32X3_RULES(RULE, FAMILY)                                                                      \
  RULE(FAMILY, WM % 16 == 0 && WN % 8 == 0, "WM must be a multiple of 16 and WN of 8 (the MMA tile)")            \
  RULE(FAMILY, BM % WM == 0 && BN % WN == 0, "BM and BN must be multiples of WM and WN")                         \
  RULE(FAMILY, BK % 8 == 0, "BK must be a multiple of 8 (the MMA's k)")                                          \
  RULE(FAMILY, WM * WN / 32 <= 128, "a warp tile of more than 128 accumulators a lane cannot stay in registers") \
  RULE(FAMILY, THREADS <= 1024, "32 * (BM / WM) * (BN / WN) threads must be at most 1024")                       \
  RULE(FAMILY, STAGES >= 2, "STAGES must be at least 2 (one stage computes while the next loads)")               \
  RULE(FAMILY, ALIGN == 1 || ALIGN == 2 || ALIGN == 4, "ALIGN must be 1, 2 or 4")                                \
  RULE(FAMILY, SMEM_BYTES <= 227 * 1024, "shared memory must fit in 227 KB")                                     \
  RULE(FAMILY, splitk_slices_legal(SPLITK), "SPLITK above 16 must be a multiple of 16")                        \
  RULE(FAMILY, WATCH == kWatchInLoop || WATCH == kWatchByScan,                                                   \
       "WATCH must be 1 (values watched in the main loop) or 2 (a scan of A and B before the GEMM)")
