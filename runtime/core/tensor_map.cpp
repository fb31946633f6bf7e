#include "tensor_map.hpp"

#include <cuda.h>
#include <cudaTypedefs.h>
#include <cuda_runtime_api.h>

#include <mutex>
#include <string>

#include "error.hpp"

namespace gemmtune {
namespace {

static_assert(sizeof(TensorMap) == sizeof(CUtensorMap) && alignof(TensorMap) == alignof(CUtensorMap),
              "TensorMap must have CUtensorMap's size and alignment");

// The driver's encoder, found once through the runtime (linking the driver library directly
// would stop every binary from starting where there is no driver).
PFN_cuTensorMapEncodeTiled_v12000 encoder() {
  static std::once_flag once;
  static PFN_cuTensorMapEncodeTiled_v12000 function = nullptr;
  static cudaError_t error = cudaSuccess;
  static cudaDriverEntryPointQueryResult found = cudaDriverEntryPointSuccess;
  std::call_once(once, [] {
    void* pointer = nullptr;
    error = cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &pointer, 12000, cudaEnableDefault, &found);
    function = reinterpret_cast<PFN_cuTensorMapEncodeTiled_v12000>(pointer);
  });
  GT_CUDA(error, "looking up the driver's cuTensorMapEncodeTiled");
  if (found != cudaDriverEntryPointSuccess || function == nullptr) {
    throw Error("the CUDA driver has no cuTensorMapEncodeTiled (CUDA 12.0 or later is needed for TMA kernels)");
  }
  return function;
}

}  // namespace

TensorMap encode_matrix_tensor_map(const MatrixView& matrix, int box_rows, int box_cols) {
  // A plain matrix's entry stride is its own extent: what the driver expects of a third dimension.
  const long long entry_stride = matrix.batch > 1 ? matrix.batch_stride : matrix.rows * matrix.ld;
  const cuuint64_t dims[3] = {static_cast<cuuint64_t>(matrix.cols), static_cast<cuuint64_t>(matrix.rows),
                              static_cast<cuuint64_t>(matrix.batch)};
  const cuuint64_t strides[2] = {static_cast<cuuint64_t>(matrix.ld) * sizeof(float),  // bytes between rows
                                 static_cast<cuuint64_t>(entry_stride) * sizeof(float)};  // ... and entries
  const cuuint32_t box[3] = {static_cast<cuuint32_t>(box_cols), static_cast<cuuint32_t>(box_rows), 1};
  const cuuint32_t element_strides[3] = {1, 1, 1};
  const CUtensorMapSwizzle swizzle =
      box_cols * sizeof(float) == 128 ? CU_TENSOR_MAP_SWIZZLE_128B : CU_TENSOR_MAP_SWIZZLE_NONE;
  TensorMap map{};
  const CUresult result = encoder()(reinterpret_cast<CUtensorMap*>(&map), CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 3,
                                    const_cast<float*>(matrix.base), dims, strides, box, element_strides,
                                    CU_TENSOR_MAP_INTERLEAVE_NONE, swizzle, CU_TENSOR_MAP_L2_PROMOTION_L2_256B,
                                    CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  if (result != CUDA_SUCCESS) {
    throw Error("cuTensorMapEncodeTiled failed with CUresult " + std::to_string(static_cast<int>(result)) + " for " +
                std::string(1, matrix.name) + " (" + std::to_string(matrix.rows) + " x " + std::to_string(matrix.cols) +
                " as stored, ld " + std::to_string(matrix.ld) + ", batch " + std::to_string(matrix.batch) +
                ", entry stride " + std::to_string(entry_stride) + ", box " + std::to_string(box_rows) + " x " +
                std::to_string(box_cols) + ")");
  }
  return map;
}

}  // namespace gemmtune
