// The argument block of the kernel that makes the aligned copies of A and B a TMA kernel reads when
// the call's own rows do not start on 16 bytes (staged_copy.cuh; the host side is
// runtime/core/operand_staging). Plain C++, shared by host code and NVRTC-compiled kernels.
#pragma once

namespace gemmtune {

// One operand: `rows` stored rows of `cols` floats, row r at from + r * from_ld, copied to
// to + r * to_ld. to_ld is a multiple of 4 and `to` lies on 16 bytes, so each row of the copy is
// whole 16-byte chunks (the columns past `cols` are written as zeros).
struct StagedCopy {
  const float* from;
  float* to;
  long long from_ld;
  long long to_ld;
  long long rows;
  long long cols;
};

// Both operands in one launch: chunks of 4 floats, the first `first_chunks` A's, the rest B's.
struct StagedCopyParams {
  StagedCopy operand[2];
  long long first_chunks;
  long long total_chunks;
};

// The kernel's symbol in every cubin of a family that stages its operands (extern "C": no
// mangling, so the host finds it by this name beside the GEMM kernel's lowered name).
#define GEMMTUNE_STAGED_COPY_KERNEL gemmtune_stage_operands
inline constexpr const char* kStagedCopyKernelName = "gemmtune_stage_operands";
inline constexpr int kStagedCopyThreads = 256;

}  // namespace gemmtune
