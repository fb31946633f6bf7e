// Aligned copies of a call's A and B in a workspace, for kernels whose loads need more alignment
// than a call has: TMA reads rows that start on 16 bytes, so a call with an odd leading dimension
// or a pointer off by a float is served from copies whose rows are padded to 4 floats. The copies
// cost one read and one write of A and B, made by one launch of the staging kernel that every
// cubin of such a family holds (kernel_templates/staged_copy.cuh) on the call's stream; the tuner
// times them with the kernel.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>

#include "gemm_params.h"

namespace gemmtune {

// Where the copies lie in a workspace whose first `kernel_floats` floats are the kernel's own.
struct StagedOperandLayout {
  long long a_offset;   // floats from the workspace's start; a multiple of 32 (128 bytes)
  long long lda;        // the copy's leading dimension: the stored row length rounded up to 4
  long long b_offset;
  long long ldb;
  long long end;        // floats the workspace needs in all
};

StagedOperandLayout staged_operand_layout(Layout layout, int M, int N, int K, std::size_t kernel_floats);

// Launches `staging_kernel` (the staged-copy kernel of the GEMM kernel's own cubin) to copy params.A
// and params.B into params.workspace as `staging` places them, and points params at the copies.
// The workspace must hold staging.end floats. Throws CudaError naming the call's shape when the
// launch fails (no string is built otherwise).
void stage_operands(const StagedOperandLayout& staging, cudaKernel_t staging_kernel, Layout layout, GemmParams& params,
                    cudaStream_t stream);

}  // namespace gemmtune
