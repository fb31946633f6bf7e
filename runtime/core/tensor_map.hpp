// Tensor maps for the Tensor Memory Accelerator: the driver's description of a matrix in global
// memory and of the box (tile) one copy brings to shared memory. Encoded on the host by the
// driver's cuTensorMapEncodeTiled, looked up through the runtime at first use, so that binaries
// still start, and CPU tests still pass, where there is no driver.
#pragma once

#include <string>

#include "tma_params.h"

namespace gemmtune {

// A row-major matrix of `rows` x `cols` floats (row r at base + r * ld), read in boxes of
// box_cols x box_rows floats (box_cols * 4 = 128 bytes: the 128-byte swizzle, which box_cols must
// then be 32 for), elements outside the matrix read as zeros. base must be 16-byte aligned and
// ld a multiple of 4. Throws Error naming `what` (the operand and the call) when the driver
// refuses it or cannot be reached.
TensorMap encode_matrix_tensor_map(const float* base, long long rows, long long cols, long long ld, int box_rows,
                                   int box_cols, const std::string& what);

}  // namespace gemmtune
