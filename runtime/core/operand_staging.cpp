#include "operand_staging.hpp"

#include <string>

#include "error.hpp"

namespace gemmtune {
namespace {

constexpr long long kStagingAlignFloats = 32;  // 128 bytes: TMA asks 16, a cache line is 128

long long round_up(long long value, long long multiple) { return (value + multiple - 1) / multiple * multiple; }

struct StoredShape {
  long long rows;
  long long cols;  // contiguous
};

StoredShape stored_a(Layout layout, int M, int K) {
  return a_is_transposed(layout) ? StoredShape{K, M} : StoredShape{M, K};
}
StoredShape stored_b(Layout layout, int N, int K) {
  return b_is_transposed(layout) ? StoredShape{N, K} : StoredShape{K, N};
}

void copy_rows(float* to, long long to_ld, const float* from, long long from_ld, StoredShape shape, char operand,
               const GemmParams& params, cudaStream_t stream) {
  const cudaError_t status =
      cudaMemcpy2DAsync(to, static_cast<std::size_t>(to_ld) * sizeof(float), from,
                        static_cast<std::size_t>(from_ld) * sizeof(float), static_cast<std::size_t>(shape.cols) * sizeof(float),
                        static_cast<std::size_t>(shape.rows), cudaMemcpyDeviceToDevice, stream);
  if (status != cudaSuccess) {
    check_cuda(status, "cudaMemcpy2DAsync",
               std::string("copying ") + operand + " (" + std::to_string(shape.rows) + " x " +
                   std::to_string(shape.cols) + ", ld " + std::to_string(from_ld) + ") to an aligned copy for " +
                   std::to_string(params.M) + "x" + std::to_string(params.N) + "x" + std::to_string(params.K));
  }
}

}  // namespace

StagedOperandLayout staged_operand_layout(Layout layout, int M, int N, int K, std::size_t kernel_floats) {
  const StoredShape a = stored_a(layout, M, K);
  const StoredShape b = stored_b(layout, N, K);
  StagedOperandLayout staging{};
  staging.a_offset = round_up(static_cast<long long>(kernel_floats), kStagingAlignFloats);
  staging.lda = round_up(a.cols, 4);
  staging.b_offset = round_up(staging.a_offset + a.rows * staging.lda, kStagingAlignFloats);
  staging.ldb = round_up(b.cols, 4);
  staging.end = staging.b_offset + b.rows * staging.ldb;
  return staging;
}

void stage_operands(const StagedOperandLayout& staging, Layout layout, GemmParams& params, cudaStream_t stream) {
  float* a_copy = params.workspace + staging.a_offset;
  float* b_copy = params.workspace + staging.b_offset;
  copy_rows(a_copy, staging.lda, params.A, params.lda, stored_a(layout, params.M, params.K), 'A', params, stream);
  copy_rows(b_copy, staging.ldb, params.B, params.ldb, stored_b(layout, params.N, params.K), 'B', params, stream);
  params.A = a_copy;
  params.lda = staging.lda;
  params.B = b_copy;
  params.ldb = staging.ldb;
}

}  // namespace gemmtune
