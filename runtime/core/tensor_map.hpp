// Tensor maps for the Tensor Memory Accelerator: the driver's description of a matrix in global
// memory and of the box (tile) one copy brings to shared memory. Encoded on the host by the
// driver's cuTensorMapEncodeTiled, looked up through the runtime at first use, so that binaries
// still start, and CPU tests still pass, where there is no driver.
#pragma once

#include "tma_params.h"

namespace gemmtune {

// `batch` row-major matrices of rows x cols floats as stored: row r of entry e at
// base + e * batch_stride + r * ld. A plain call is a batch of one.
struct MatrixView {
  const float* base;
  long long rows;
  long long cols;
  long long ld;
  char name;  // 'A' or 'B', for messages
  long long batch = 1;
  long long batch_stride = 0;  // floats between entries; unused for a batch of one
};

// `matrix` read in boxes of box_cols x box_rows floats of one entry (box_cols * 4 = 128 bytes
// selects the 128-byte swizzle), elements outside the matrix read as zeros: a map of three
// dimensions (column, row, entry). base must be 16-byte aligned, ld and batch_stride multiples of
// 4, and the entries must not overlap (batch_stride >= rows * ld). Throws Error naming the matrix,
// its shape and the box when the driver refuses it or cannot be reached; builds no string
// otherwise (it runs on every launch).
TensorMap encode_matrix_tensor_map(const MatrixView& matrix, int box_rows, int box_cols);

}  // namespace gemmtune
