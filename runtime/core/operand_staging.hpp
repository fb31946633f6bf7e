// Copies of a call's A and B in a workspace, for kernels that cannot read the operands where and
// how the call has them. TMA reads rows that start on 16 bytes, so a call with an odd leading
// dimension or a pointer off by a float is served from aligned copies whose rows are padded to 4
// floats; and a tn call can be served by an nn kernel from a transposed copy of A. The copies cost
// one read and one write of what is copied, made by one launch of the staging kernel that every
// cubin of such a family holds (kernel_templates/staged_copy.cuh) on the call's stream; the tuner
// times them with the kernel.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>

#include "gemm_params.h"

namespace gemmtune {

// What is copied: both operands to rows that start on 16 bytes (align_rows), A transposed (its copy
// stored as the other transposition of A: M x K for tn), or both.
struct StagingRequest {
  bool align_rows = true;
  bool transpose_a = false;
};

// Where the copies lie in a workspace whose first `kernel_floats` floats are the kernel's own.
struct StagedOperandLayout {
  bool transpose_a = false;  // A's copy is A transposed
  bool copy_b = true;        // B is copied (else the kernel reads the call's B)
  long long a_offset = 0;    // floats from the workspace's start; a multiple of 32 (128 bytes)
  long long lda = 0;         // the copy's leading dimension: its row length rounded up to 4
  long long b_offset = 0;
  long long ldb = 0;
  long long end = 0;         // floats the workspace needs in all
};

StagedOperandLayout staged_operand_layout(Layout layout, int M, int N, int K, std::size_t kernel_floats,
                                          StagingRequest request = {});

// Launches `staging_kernel` (the staged-copy kernel of the GEMM kernel's own cubin) to copy params.A
// (and params.B, where staging copies it) into params.workspace as `staging` places them, and
// points params at the copies; `layout` is the call's. With staging.transpose_a, params then
// describe A in the other transposition (for tn, an M x K A: an nn call).
// The workspace must hold staging.end floats. Throws CudaError naming the call's shape when the
// launch fails (no string is built otherwise).
void stage_operands(const StagedOperandLayout& staging, cudaKernel_t staging_kernel, Layout layout, GemmParams& params,
                    cudaStream_t stream);

}  // namespace gemmtune
