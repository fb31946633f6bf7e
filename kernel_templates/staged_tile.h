// The size of an operand tile staged in shared memory as it is stored (staged_tile.cuh: tf32x3
// and wgmma stage their operands so), for the kernels and the host's shared-memory sums alike.
// ROWS rows of op(A) (m) or columns of op(B) (n) by BK k: a K-contiguous tile (a row-major A, a
// transposed B) keeps rows of BK + 4 floats, the other kind BK rows of ROWS + 8; the paddings
// put the 32 lanes' MMA fragment loads in 32 different banks.
#pragma once

#include "gemm_params.h"

namespace gemmtune {

GEMMTUNE_HOST_DEVICE constexpr int staged_tile_ld(int rows, int bk, bool k_contiguous) {
  return k_contiguous ? bk + 4 : rows + 8;
}

GEMMTUNE_HOST_DEVICE constexpr int staged_tile_floats(int rows, int bk, bool k_contiguous) {
  return k_contiguous ? rows * staged_tile_ld(rows, bk, k_contiguous) : bk * staged_tile_ld(rows, bk, k_contiguous);
}

// One pipeline stage: the BM x BK tile of op(A) and the BN x BK tile of op(B), as stored.
GEMMTUNE_HOST_DEVICE constexpr int staged_stage_floats(int BM, int BN, int BK, Layout L) {
  return staged_tile_floats(BM, BK, !a_is_transposed(L)) + staged_tile_floats(BN, BK, b_is_transposed(L));
}

}  // namespace gemmtune
