// The legality of a wgmma configuration, for wgmma.cuh's static_asserts and the host's check alike
// (family_rules.h says how), and the sizes both derive from it. Rules read BM BN BK STAGES SPLITK,
// ALIGN and SMEM_BYTES.
#pragma once

#include "family_rules.h"
#include "splitk_workspace.h"
#include "staged_tile.h"

namespace gemmtune {

GEMMTUNE_HOST_DEVICE constexpr long long wgmma_threads(int BM) { return 2LL * BM; }  // a warpgroup (128) per 64 rows

// The split halves (big, small) of B's BN x BK tile, as wgmma reads them.
GEMMTUNE_HOST_DEVICE constexpr int wgmma_split_b_floats(int BN, int BK) { return BN * BK; }

// The pipeline's STAGES copies of A and B as stored (as tf32x3's), then two buffers of B's split
// halves.
GEMMTUNE_HOST_DEVICE constexpr long long wgmma_smem_bytes(int BM, int BN, int BK, int STAGES, Layout L) {
  return 4LL * (STAGES * staged_stage_floats(BM, BN, BK, L) + 4LL * wgmma_split_b_floats(BN, BK));
}

}  // namespace gemmtune

// The error bound (wgmma_family.cpp) counts on at most 12 truncating accumulations a tile: BK <= 32.
#define GEMMTUNE_WGMMA_RULES(RULE, FAMILY)                                                         \
  RULE(FAMILY, BM % 64 == 0 && BM <= 256, "BM must be 64, 128, 192 or 256 (64 rows a warpgroup)")  \
  RULE(FAMILY, BN == 64 || BN == 128, "BN must be 64 or 128 (the wgmma's N)")                      \
  RULE(FAMILY, BK % 8 == 0, "BK must be a multiple of 8 (the wgmma's k)")                          \
  RULE(FAMILY, BK <= 32, "BK must be at most 32 (the accuracy bound assumes it)")                  \
  RULE(FAMILY, STAGES >= 2, "STAGES must be at least 2 (one stage computes while the next loads)") \
  RULE(FAMILY, ALIGN == 1 || ALIGN == 2 || ALIGN == 4, "ALIGN must be 1, 2 or 4")                  \
  RULE(FAMILY, SMEM_BYTES <= 227 * 1024, "shared memory must fit in 227 KB")                       \
  RULE(FAMILY, splitk_slices_legal(SPLITK), "SPLITK above 16 must be a multiple of 16")
