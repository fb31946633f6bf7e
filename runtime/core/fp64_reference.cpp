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
  return fp64_reference_on_device(handle, layout, p, stream).download(stream);
}

DeviceBuffer<double> fp64_reference_on_device(cublasHandle_t handle, Layout layout, const GemmParams& p,
                                              cudaStream_t stream) {
  if (auto reason = validate_call(p, layout)) throw Error("FP64 reference: " + *reason);
  const std::string context = "cuBLAS DGEMM (FP64 reference) " + describe_call(p, layout);
  if (p.A_array != nullptr) throw Error(context + ": pointer arrays are not supported; give strides");
  const bool a_t = a_is_transposed(layout), b_t = b_is_transposed(layout);
  // A batch spans its last entry's offset beyond one entry.
  const auto batch_span = [&](std::size_t entry, long long stride) {
    return p.batch == 1 ? entry : static_cast<std::size_t>(p.batch - 1) * static_cast<std::size_t>(stride) + entry;
  };
  DeviceBuffer<double> a =
      widened(p.A, batch_span(a_t ? span_of(p.K, p.M, p.lda) : span_of(p.M, p.K, p.lda), p.stride_a), stream);
  DeviceBuffer<double> b =
      widened(p.B, batch_span(b_t ? span_of(p.N, p.K, p.ldb) : span_of(p.K, p.N, p.ldb), p.stride_b), stream);
  DeviceBuffer<double> c = widened(p.C, batch_span(span_of(p.M, p.N, p.ldc), p.stride_c), stream);
  const double alpha = p.alpha, beta = p.beta;
  GT_CUBLAS(cublasSetStream(handle, stream), context);
  // Column-major C^T = op(B)^T op(A)^T, as cublas_sgemm does it (cublas_gemm.cpp); a batch of 1
  // through the strided call too (its strides unused).
  GT_CUBLAS(cublasDgemmStridedBatched(handle, b_t ? CUBLAS_OP_T : CUBLAS_OP_N, a_t ? CUBLAS_OP_T : CUBLAS_OP_N, p.N,
                                      p.M, p.K, &alpha, b.data(), static_cast<int>(p.ldb), p.stride_b, a.data(),
                                      static_cast<int>(p.lda), p.stride_a, &beta, c.data(), static_cast<int>(p.ldc),
                                      p.stride_c, p.batch),
            context);
  return c;
}

}  // namespace gemmtune
