// The argument block of the kernels whose operands are copied by the Tensor Memory Accelerator
// (tmawgmma.cuh): the plain GEMM arguments, then the two tensor maps that describe the operands'
// tiles to the copy engine. The maps are encoded on the host (cuTensorMapEncodeTiled) for each
// call's pointers and leading dimensions, and read by the kernel from its parameter space
// (a __grid_constant__ argument), as the copy instructions require. Plain C++, shared by host code
// and NVRTC-compiled kernels, so its layout is defined once.
#pragma once

#include "gemm_params.h"

namespace gemmtune {

// The driver's CUtensorMap: 128 opaque bytes, 128-byte aligned as in cuda.h (the copy instructions need 64) (the host checks that the two agree).
struct alignas(128) TensorMap {
  unsigned long long opaque[16];
};

struct TmaGemmParams {
  GemmParams gemm;
  TensorMap x;  // the operand whose fragments the MMA reads from registers ("X", rows R)
  TensorMap y;  // the operand the MMA reads from shared memory ("Y", rows S)
};

}  // namespace gemmtune
