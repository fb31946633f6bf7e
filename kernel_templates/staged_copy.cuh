// The aligned copies of A and B for a call whose rows do not start on 16 bytes (staged_copy.h).
// One launch for both operands, a 16-byte store a thread and chunk: two cudaMemcpy2DAsync calls
// did the same in two launches of the driver's own copy, which cost more than the GEMM itself on
// problems like 1000x999x777 (docs/performance.md). The loads are 4 bytes each, since the source
// rows have no alignment to speak of; consecutive threads read consecutive chunks of a row, so a
// warp's four loads touch the same sectors.
#pragma once

#include "staged_copy.h"

extern "C" __global__ void __launch_bounds__(gemmtune::kStagedCopyThreads)
    GEMMTUNE_STAGED_COPY_KERNEL(const gemmtune::StagedCopyParams p) {
  const long long stride = static_cast<long long>(gridDim.x) * blockDim.x;
  for (long long chunk = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x; chunk < p.total_chunks;
       chunk += stride) {
    const bool second = chunk >= p.first_chunks;
    const gemmtune::StagedCopy c = second ? p.operand[1] : p.operand[0];  // selects, not indexed parameters
    const long long j = second ? chunk - p.first_chunks : chunk;
    const long long chunks_a_row = c.to_ld / 4;
    const long long row = j / chunks_a_row;
    const long long col = (j - row * chunks_a_row) * 4;
    const float* from = c.from + row * c.from_ld + col;
    const long long left = c.cols - col;  // columns of the source left in this chunk
    float4 v;
    v.x = left > 0 ? from[0] : 0.0f;
    v.y = left > 1 ? from[1] : 0.0f;
    v.z = left > 2 ? from[2] : 0.0f;
    v.w = left > 3 ? from[3] : 0.0f;
    *reinterpret_cast<float4*>(c.to + row * c.to_ld + col) = v;
  }
}
