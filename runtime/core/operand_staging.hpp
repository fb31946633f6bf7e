// Aligned copies of a call's A and B in a workspace, for kernels whose loads need more alignment
// than a call has: TMA reads rows that start on 16 bytes, so a call with an odd leading dimension
// or a pointer off by a float is served from copies whose rows are padded to 4 floats. The copies
// cost one read and one write of A and B (cudaMemcpy2DAsync on the call's stream), which is small
// beside the GEMM for all but the thinnest problems; the tuner times them with the kernel.
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

// Enqueues the copies of params.A and params.B into params.workspace as `staging` places them, and
// points params at them. The workspace must hold staging.end floats. Throws CudaError naming the
// operand and the call's shape when a copy cannot be enqueued (no string is built otherwise).
void stage_operands(const StagedOperandLayout& staging, Layout layout, GemmParams& params, cudaStream_t stream);

}  // namespace gemmtune
