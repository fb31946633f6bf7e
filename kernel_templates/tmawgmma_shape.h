// The shape of a tmawgmma block (tmawgmma.cuh) as a function of its configuration, shared by the
// kernel and the host (launch shape, shared memory, legality). Plain C++ (CUDA qualifiers only
// under NVRTC/nvcc), no includes but gemm_params.h.
#pragma once

#include "gemm_params.h"

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
