// The tiny-value scan (tiny_scan.h): one block a flag, each block reading its 64 x 128 block of
// X or Y with loads that run along the operand's stored rows (consecutive threads, consecutive
// floats), watching each value as the GEMM's main loop would have (TinyValueScan), and writing its
// flag whatever it found. One read of A and B (a 4096^3 call: 128 MB, ~35 us at the H200's
// bandwidth) against two instructions a value in the MMA warpgroups' main loop, which measured
// 8-14% of a 4096^3 call on an H100 (docs/performance.md).
#pragma once

#include "special_values.cuh"
#include "tiny_scan.h"

namespace gemmtune {

// What the GEMM reads of the flags: whether the scan flagged a block of X rows [x_first, x_first +
// x_rows) or of Y rows [y_first, y_first + y_rows) (both clipped to the operands' rows_x and
// rows_y; an X range starting past rows_x has none) in k [k_first, k_stop), in one entry's
// flags. Thread `t` of the caller's `threads` reads every threads-th of them: the caller gathers
// the answers (a block-wide or).
__device__ __forceinline__ bool rows_touch_tiny(const unsigned* entry_flags, int x_first, int x_rows, int rows_x,
                                                int y_first, int y_rows, int rows_y, int k_first, int k_stop, int K,
                                                int t, int threads) {
  if (k_stop <= k_first) return false;
  const int k_block = k_first / kTinyScanK;
  const int k_blocks = (k_stop - 1) / kTinyScanK - k_block + 1;
  const int x_blocks =
      x_first < rows_x ? (min(rows_x, x_first + x_rows) - 1) / kTinyScanRows - x_first / kTinyScanRows + 1 : 0;
  const int y_blocks = (min(rows_y, y_first + y_rows) - 1) / kTinyScanRows - y_first / kTinyScanRows + 1;
  bool found = false;
  for (int i = t; i < (x_blocks + y_blocks) * k_blocks; i += threads) {
    const int b = i / k_blocks;
    const int k = k_block + i % k_blocks;
    const long long at = b < x_blocks ? tiny_flag_index(0, x_first / kTinyScanRows + b, k, rows_x, K)
                                      : tiny_flag_index(1, y_first / kTinyScanRows + b - x_blocks, k, rows_x, K);
    found |= __ldcg(entry_flags + at) != 0u;
  }
  return found;
}

}  // namespace gemmtune

// Blocks walk the flags in strides of the grid; a flag is a block's, so __syncthreads_or is
// reached by every thread of the block or by none.
extern "C" __global__ void __launch_bounds__(gemmtune::kTinyScanThreads)
    GEMMTUNE_TINY_SCAN_KERNEL(const gemmtune::TinyScanParams p) {
  using namespace gemmtune;
  const long long k_blocks = tiny_k_blocks(p.K);
  const long long x_flags = tiny_row_blocks(p.operand[0].rows) * k_blocks;
  const long long an_entry = tiny_flags_an_entry(p.operand[0].rows, p.operand[1].rows, p.K);
  for (long long flag = blockIdx.x; flag < an_entry * p.entries; flag += gridDim.x) {
    const long long entry = flag / an_entry;
    const long long in_entry = flag - entry * an_entry;
    const bool second = in_entry >= x_flags;
    const TinyScanOperand op = second ? p.operand[1] : p.operand[0];  // selects, not indexed parameters
    const long long block = second ? in_entry - x_flags : in_entry;
    const int r0 = static_cast<int>(block / k_blocks) * kTinyScanRows;
    const int k0 = static_cast<int>(block % k_blocks) * kTinyScanK;
    const float* data = op.data + entry * op.batch_stride;
    TinyValueScan tiny;
#pragma unroll 8
    for (int i = threadIdx.x; i < kTinyScanRows * kTinyScanK; i += kTinyScanThreads) {
      // Along the stored row: k for a K-contiguous operand, the operand's rows otherwise.
      const int r = r0 + (op.k_contiguous ? i / kTinyScanK : i % kTinyScanRows);
      const int k = k0 + (op.k_contiguous ? i % kTinyScanK : i / kTinyScanRows);
      if (r < op.rows && k < p.K) {
        tiny.see(data[op.k_contiguous ? r * op.ld + k : k * op.ld + r]);
      }
    }
    const int found = __syncthreads_or(tiny.found());
    if (threadIdx.x == 0) p.flags[flag] = found ? 1u : 0u;
  }
}
