// The argument block and flag layout of the tiny-value scan (tiny_scan.cuh): the 3xTF32 kernels
// with WATCH 2 (tmawgmma, tf32x3) learn which of their tiles touch a tiny value from one read of A
// and B before the GEMM, instead of watching every value in their main loops. Plain C++, shared
// by host code and NVRTC-compiled kernels.
//
// A flag covers a block of an operand: kTinyScanRows of its rows as the kernel reads them (X's or
// Y's rows: M or N) by kTinyScanK of K. The scan writes every flag of the call (1: the block
// holds a nonzero magnitude below kSplitTinyBits, 0: none), so the flags need no zeroing; the
// GEMM reads those of each work unit's rows and k range.
#pragma once

#include "gemm_params.h"

namespace gemmtune {

// WATCH, a parameter of the 3xTF32 families: 1, every value watched in the main loop; 2, the scan.
constexpr int kWatchInLoop = 1;
constexpr int kWatchByScan = 2;

inline constexpr int kTinyScanRows = 64;     // the smallest tile side, so that no flag spans two tiles' rows
inline constexpr int kTinyScanK = 128;       // four of tmawgmma's k tiles
inline constexpr int kTinyScanThreads = 256;  // a block a flag: 32 floats a thread

// One operand as stored: `rows` rows of the kernel's view (M or N) by K, element (r, k) at
// data + entry * batch_stride + (k_contiguous ? r * ld + k : k * ld + r).
struct TinyScanOperand {
  const float* data;
  long long ld;
  long long batch_stride;
  int rows;
  int k_contiguous;
};

// Both operands (0: X, 1: Y, tmawgmma.cuh's roles; tf32x3: A, B), `entries` batch entries; flags[entry *
// tiny_flags_an_entry + ...] as tiny_flag_index places them.
struct TinyScanParams {
  TinyScanOperand operand[2];
  unsigned* flags;
  int K;
  int entries;
};

GEMMTUNE_HOST_DEVICE constexpr int tiny_row_blocks(int rows) { return (rows + kTinyScanRows - 1) / kTinyScanRows; }
GEMMTUNE_HOST_DEVICE constexpr int tiny_k_blocks(int K) { return (K + kTinyScanK - 1) / kTinyScanK; }
// Flags of one batch entry: X's blocks, then Y's.
GEMMTUNE_HOST_DEVICE constexpr long long tiny_flags_an_entry(int rows_x, int rows_y, int K) {
  return static_cast<long long>(tiny_row_blocks(rows_x) + tiny_row_blocks(rows_y)) * tiny_k_blocks(K);
}
// Flags of a whole M x N x K call of `batch` entries (the operands' order does not change the count).
GEMMTUNE_HOST_DEVICE constexpr long long tiny_flags_of_call(int M, int N, int K, int batch) {
  return tiny_flags_an_entry(M, N, K) * (batch < 1 ? 1 : batch);
}
// The flag of operand `operand`'s block (row_block, k_block) in one entry's flags.
GEMMTUNE_HOST_DEVICE constexpr long long tiny_flag_index(int operand, int row_block, int k_block, int rows_x, int K) {
  return (static_cast<long long>(operand == 0 ? 0 : tiny_row_blocks(rows_x)) + row_block) * tiny_k_blocks(K) + k_block;
}

// The scan kernel's symbol in every tmawgmma and tf32x3 cubin (extern "C": the host finds it by this name).
#define GEMMTUNE_TINY_SCAN_KERNEL gemmtune_scan_tiny_values
inline constexpr const char* kTinyScanKernelName = "gemmtune_scan_tiny_values";

}  // namespace gemmtune
