#include "fp64_reference.hpp"

#include <cstddef>

#include "cuda_handles.hpp"
#include "error.hpp"
#include "gemm_call.hpp"

namespace gemmtune {
namespace {

// Elements a row-major matrix of `rows` x `columns` with leading dimension `ld` spans.
std::size_t span_of(int rows, int columns, long long ld) {
  return static_cast<std::size_t>(rows - 1) * static_cast<std::size_t>(ld) + static_cast<std::size_t>(columns);
}

// A copy of `count` floats of device memory, widened to double on the host (one matrix at a
// time: the host holds at most one matrix in both widths).
DeviceBuffer<double> widened(const float* device, std::size_t count, cudaStream_t stream) {
  std::vector<float> narrow(count);
  GT_CUDA(cudaMemcpyAsync(narrow.data(), device, count * sizeof(float), cudaMemcpyDeviceToHost, stream));
  GT_CUDA(cudaStreamSynchronize(stream));
  DeviceBuffer<double> wide(count);
  wide.upload(std::vector<double>(narrow.begin(), narrow.end()), stream);
  return wide;
}

}  // namespace

std::vector<double> fp64_reference(cublasHandle_t handle, Layout layout, const GemmParams& p, cudaStream_t stream) {
  if (auto reason = validate_call(p, layout)) throw Error("FP64 reference: " + *reason);
  const std::string context = "cuBLAS DGEMM (FP64 reference) " + describe_call(p, layout);
  const bool a_t = a_is_transposed(layout), b_t = b_is_transposed(layout);
  DeviceBuffer<double> a = widened(p.A, a_t ? span_of(p.K, p.M, p.lda) : span_of(p.M, p.K, p.lda), stream);
  DeviceBuffer<double> b = widened(p.B, b_t ? span_of(p.N, p.K, p.ldb) : span_of(p.K, p.N, p.ldb), stream);
  DeviceBuffer<double> c = widened(p.C, span_of(p.M, p.N, p.ldc), stream);
  const double alpha = p.alpha, beta = p.beta;
  GT_CUBLAS(cublasSetStream(handle, stream), context);
  // Column-major C^T = op(B)^T op(A)^T, as cublas_sgemm does it (cublas_gemm.cpp).
  GT_CUBLAS(cublasDgemm(handle, b_t ? CUBLAS_OP_T : CUBLAS_OP_N, a_t ? CUBLAS_OP_T : CUBLAS_OP_N, p.N, p.M, p.K,
                        &alpha, b.data(), static_cast<int>(p.ldb), a.data(), static_cast<int>(p.lda), &beta, c.data(),
                        static_cast<int>(p.ldc)),
            context);
  return c.download(stream);
}

}  // namespace gemmtune
