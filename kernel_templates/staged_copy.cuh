// The copies of A and B that a TMA kernel reads in place of the call's own (staged_copy.h): for a
// call whose rows do not start on 16 bytes, and A transposed for a tn call run as nn. One launch
// for both operands: two cudaMemcpy2DAsync calls did the aligned copies in two launches of the
// driver's own copy, which cost more than the GEMM itself on problems like 1000x999x777
// (docs/performance.md).
//
// A plain copy: a 16-byte store a thread and chunk; the loads are 4 bytes each, since the source
// rows have no alignment to speak of; consecutive threads read consecutive chunks of a row, so a
// warp's four loads touch the same sectors. A transposed copy goes through a shared-memory tile
// so that both its reads and its writes are whole rows of 32 floats a warp.
#pragma once

#include "staged_copy.h"

namespace gemmtune {

// Block-wide: chunk `item` * blockDim + threadIdx of the copy (chunks of 4 floats of its rows).
__device__ __forceinline__ void staged_copy_chunk(const StagedCopy& c, long long item) {
  const long long chunk = item * kStagedCopyThreads + threadIdx.x;
  const long long chunks_a_row = c.to_ld / 4;
  const long long row = chunk / chunks_a_row;
  if (row >= c.rows) return;
  const long long col = (chunk - row * chunks_a_row) * 4;
  const float* from = c.from + row * c.from_ld + col;
  const long long left = c.cols - col;  // columns of the source left in this chunk
  float4 v;
  v.x = left > 0 ? from[0] : 0.0f;
  v.y = left > 1 ? from[1] : 0.0f;
  v.z = left > 2 ? from[2] : 0.0f;
  v.w = left > 3 ? from[3] : 0.0f;
  *reinterpret_cast<float4*>(c.to + row * c.to_ld + col) = v;
}

// Block-wide: source tile `item` (row-major over the source's tiles) written transposed. A warp
// reads 32 consecutive floats of a source row and writes 32 of a copy row; the tile's padding
// column keeps the column reads free of bank conflicts. The copy's columns past the source's rows
// are not written: the kernel's tensor map ends at the source's row count.
__device__ __forceinline__ void staged_copy_transposed_tile(const StagedCopy& c, long long item,
                                                            float (&tile)[kStagedCopyTile][kStagedCopyTile + 1]) {
  constexpr int T = kStagedCopyTile;
  constexpr int ROWS_A_PASS = kStagedCopyThreads / T;
  const long long tiles_a_row = (c.cols + T - 1) / T;
  const long long r0 = item / tiles_a_row * T;
  const long long c0 = item % tiles_a_row * T;
  const int tx = threadIdx.x % T, ty = threadIdx.x / T;
  __syncthreads();  // the previous item's reads of the tile are done
#pragma unroll
  for (int i = ty; i < T; i += ROWS_A_PASS) {
    const long long r = r0 + i, col = c0 + tx;
    tile[i][tx] = r < c.rows && col < c.cols ? c.from[r * c.from_ld + col] : 0.0f;
  }
  __syncthreads();
#pragma unroll
  for (int i = ty; i < T; i += ROWS_A_PASS) {
    const long long to_row = c0 + i, to_col = r0 + tx;
    if (to_row < c.cols && to_col < c.rows) c.to[to_row * c.to_ld + to_col] = tile[tx][i];
  }
}

}  // namespace gemmtune

// Each block takes work items in strides of the grid; an item is a block's, so the tile's
// __syncthreads are reached by every thread of the block or by none.
extern "C" __global__ void __launch_bounds__(gemmtune::kStagedCopyThreads)
    GEMMTUNE_STAGED_COPY_KERNEL(const gemmtune::StagedCopyParams p) {
  __shared__ float tile[gemmtune::kStagedCopyTile][gemmtune::kStagedCopyTile + 1];
  for (long long item = blockIdx.x; item < p.total_items; item += gridDim.x) {
    const bool second = item >= p.first_items;
    const gemmtune::StagedCopy c = second ? p.operand[1] : p.operand[0];  // selects, not indexed parameters
    const long long j = second ? item - p.first_items : item;
    if (c.transposed) {
      gemmtune::staged_copy_transposed_tile(c, j, tile);
    } else {
      gemmtune::staged_copy_chunk(c, j);
    }
  }
}
