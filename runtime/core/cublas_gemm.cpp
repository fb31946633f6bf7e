#include "cublas_gemm.hpp"

#include "error.hpp"
#include "gemm_call.hpp"

namespace gemmtune {

cublasComputeType_t cublas_compute_type(Precision precision) {
  return precision == Precision::Tf32 ? CUBLAS_COMPUTE_32F_FAST_TF32 : CUBLAS_COMPUTE_32F_PEDANTIC;
}

const char* cublas_compute_name(Precision precision) {
  return precision == Precision::Tf32 ? "CUBLAS_COMPUTE_32F_FAST_TF32" : "CUBLAS_COMPUTE_32F_PEDANTIC";
}

void cublas_sgemm(cublasHandle_t handle, Layout layout, const GemmParams& p, cudaStream_t stream, Precision precision) {
  if (auto reason = validate_call(p, layout)) throw Error("cuBLAS reference: " + *reason);
  const std::string context = std::string("cuBLAS (") + cublas_compute_name(precision) + ") " + describe_call(p, layout);
  GT_CUBLAS(cublasSetStream(handle, stream), context);
  // cuBLAS is column-major: a row-major C (M x N) is a column-major C^T (N x M), and
  // C^T = op(B)^T op(A)^T. A row-major operand stored as given reads, column-major, as its own
  // transpose, so an 'n' operand needs no cuBLAS transpose and a 't' operand needs one.
  const cublasOperation_t op_b = b_is_transposed(layout) ? CUBLAS_OP_T : CUBLAS_OP_N;
  const cublasOperation_t op_a = a_is_transposed(layout) ? CUBLAS_OP_T : CUBLAS_OP_N;
  const int ldb = static_cast<int>(p.ldb), lda = static_cast<int>(p.lda), ldc = static_cast<int>(p.ldc);
  const cublasComputeType_t compute = cublas_compute_type(precision);
  if (p.A_array != nullptr) {  // as cublasSgemmBatched, in the class's compute type
    GT_CUBLAS(cublasGemmBatchedEx(handle, op_b, op_a, p.N, p.M, p.K, &p.alpha,
                                  reinterpret_cast<const void* const*>(p.B_array), CUDA_R_32F, ldb,
                                  reinterpret_cast<const void* const*>(p.A_array), CUDA_R_32F, lda, &p.beta,
                                  reinterpret_cast<void* const*>(p.C_array), CUDA_R_32F, ldc, p.batch, compute,
                                  CUBLAS_GEMM_DEFAULT),
              context);
  } else if (p.batch > 1) {  // as cublasSgemmStridedBatched, in the class's compute type
    GT_CUBLAS(cublasGemmStridedBatchedEx(handle, op_b, op_a, p.N, p.M, p.K, &p.alpha, p.B, CUDA_R_32F, ldb, p.stride_b,
                                         p.A, CUDA_R_32F, lda, p.stride_a, &p.beta, p.C, CUDA_R_32F, ldc, p.stride_c,
                                         p.batch, compute, CUBLAS_GEMM_DEFAULT),
              context);
  } else {
    GT_CUBLAS(cublasGemmEx(handle, op_b, op_a, p.N, p.M, p.K, &p.alpha, p.B, CUDA_R_32F, ldb, p.A, CUDA_R_32F, lda,
                           &p.beta, p.C, CUDA_R_32F, ldc, compute, CUBLAS_GEMM_DEFAULT),
              context);
  }
}

}  // namespace gemmtune
