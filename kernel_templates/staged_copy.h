// The argument block of the kernel that makes the copies of A and B a TMA kernel reads in place of
// the call's own: aligned copies when the call's rows do not start on 16 bytes, and a transposed
// copy of A for a tn call run as nn (staged_copy.cuh; the host side is runtime/core/operand_staging).
// Plain C++, shared by host code and NVRTC-compiled kernels.
#pragma once

namespace gemmtune {

// One operand: `rows` stored rows of `cols` floats, row r at from + r * from_ld. Copied as it is
// (row r at to + r * to_ld), or transposed (column c of the source becomes row c of the copy, at
// to + c * to_ld). to_ld is a multiple of 4 and `to` lies on 16 bytes. An operand with no rows is
// not copied.
struct StagedCopy {
  const float* from;
  float* to;
  long long from_ld;
  long long to_ld;
  long long rows;
  long long cols;
  int transposed;
};

// Both operands in one launch, as work items a block each: a plain copy's items are
// kStagedCopyThreads chunks of 4 floats of the copy, a transposed copy's are kStagedCopyTile-square
// tiles of the source. Items [0, first_items) are operand[0]'s, the rest up to total_items
// operand[1]'s.
struct StagedCopyParams {
  StagedCopy operand[2];
  long long first_items;
  long long total_items;
};

// The kernel's symbol in every cubin of a family that stages its operands (extern "C": no
// mangling, so the host finds it by this name beside the GEMM kernel's lowered name).
#define GEMMTUNE_STAGED_COPY_KERNEL gemmtune_stage_operands
inline constexpr const char* kStagedCopyKernelName = "gemmtune_stage_operands";
inline constexpr int kStagedCopyThreads = 256;
inline constexpr int kStagedCopyTile = 32;  // a transposed copy's tile side: 8 rows of it a pass of 256 threads

}  // namespace gemmtune
