// The legality of a tmawgmma or tmatf32 configuration (tmawgmma.cuh), for the templates'
// static_asserts and the host's check alike (family_rules.h says how), and the shape of a block
// both derive from it. Rules read BM BN STAGES SCHEDULE SPLITK, ALIGN and SMEM_BYTES.
#pragma once

#include "family_rules.h"

namespace gemmtune {

constexpr int kTmaTileK = 32;          // k of a tile: one 128-byte swizzle row of floats
constexpr int kTmaCopyThreads = 128;   // the copy warpgroup: one copy lane, three transform warps
constexpr int kTmaTransformThreads = 96;

// Rows of the register operand X in a BM x BN tile: it is op(B)^T for nn (the MMA computes C^T).
GEMMTUNE_HOST_DEVICE constexpr int tmawgmma_rows_x(int bm, int bn, Layout layout) {
  return layout == Layout::NN ? bn : bm;
}
GEMMTUNE_HOST_DEVICE constexpr int tmawgmma_threads(int bm, int bn, Layout layout) {
  return kTmaCopyThreads + 2 * tmawgmma_rows_x(bm, bn, layout);  // a warpgroup per 64 rows of X
}
// Shared memory of one stage in floats: X's tile, Y's tile as copied, Y's small part (3xTF32
// only: `products` is 3, or 1 for single-pass TF32), and for tn Y's transposed big part.
GEMMTUNE_HOST_DEVICE constexpr int tmawgmma_stage_floats(int bm, int bn, Layout layout, int products) {
  return kTmaTileK * (tmawgmma_rows_x(bm, bn, layout) + ((layout == Layout::TN ? 2 : 1) + (products == 3 ? 1 : 0)) *
                                                           (bm + bn - tmawgmma_rows_x(bm, bn, layout)));
}
// The dynamic shared memory a block asks for: the stages plus the slack that aligns them to the
// 1024 bytes a 128-byte-swizzled tile needs.
GEMMTUNE_HOST_DEVICE constexpr long long tmawgmma_smem_bytes(int bm, int bn, int stages, Layout layout, int products) {
  return 4LL * stages * tmawgmma_stage_floats(bm, bn, layout, products) + 1024;
}

}  // namespace gemmtune

#define GEMMTUNE_TMAWGMMA_RULES(RULE, FAMILY)                                                          \
  RULE(FAMILY, BM == 64 || BM == 128, "BM must be 64 or 128")                                          \
  RULE(FAMILY, BN == 64 || BN == 128, "BN must be 64 or 128")                                          \
  RULE(FAMILY, STAGES >= 2, "STAGES must be at least 2 (one stage computes while the next loads)")    \
  RULE(FAMILY, SCHEDULE >= 1 && SCHEDULE <= 3,                                                         \
       "SCHEDULE must be 1 (data-parallel), 2 (split-K) or 3 (stream-K)")                              \
  RULE(FAMILY, SCHEDULE == 2 || SPLITK == 1, "SPLITK must be 1 unless SCHEDULE is 2 (split-K)")        \
  RULE(FAMILY, ALIGN == 4 || ALIGN == 1,                                                               \
       "ALIGN must be 4, or 1 (TMA reads 16-byte rows: ALIGN 1 reads aligned copies of A and B)")      \
  RULE(FAMILY, SMEM_BYTES <= 227 * 1024, "shared memory must fit in 227 KB")
