#include "operand_staging.hpp"

#include <algorithm>
#include <string>

#include "error.hpp"
#include "staged_copy.h"

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

// The copy's shape: the source's, or its transposition's.
StoredShape copied_shape(StoredShape source, bool transposed) {
  return transposed ? StoredShape{source.cols, source.rows} : source;
}

StagedCopy staged_copy(const float* from, long long from_ld, float* to, long long to_ld, StoredShape source,
                       bool transposed) {
  return StagedCopy{from, to, from_ld, to_ld, source.rows, source.cols, transposed ? 1 : 0};
}

// The staging kernel's work items for one operand (staged_copy.h): blocks of chunks of the copy,
// or tiles of a transposed copy's source.
long long work_items(const StagedCopy& copy) {
  if (copy.transposed) {
    return ((copy.rows + kStagedCopyTile - 1) / kStagedCopyTile) * ((copy.cols + kStagedCopyTile - 1) / kStagedCopyTile);
  }
  return (copy.rows * (copy.to_ld / 4) + kStagedCopyThreads - 1) / kStagedCopyThreads;
}

}  // namespace

StagedOperandLayout staged_operand_layout(Layout layout, int M, int N, int K, std::size_t kernel_floats,
                                          StagingRequest request) {
  const StoredShape a = copied_shape(stored_a(layout, M, K), request.transpose_a);
  const StoredShape b = stored_b(layout, N, K);
  StagedOperandLayout staging{};
  staging.transpose_a = request.transpose_a;
  staging.copy_b = request.align_rows;
  staging.a_offset = round_up(static_cast<long long>(kernel_floats), kStagingAlignFloats);
  staging.lda = round_up(a.cols, 4);
  staging.end = staging.a_offset + a.rows * staging.lda;
  if (staging.copy_b) {
    staging.b_offset = round_up(staging.end, kStagingAlignFloats);
    staging.ldb = round_up(b.cols, 4);
    staging.end = staging.b_offset + b.rows * staging.ldb;
  }
  return staging;
}

void stage_operands(const StagedOperandLayout& staging, cudaKernel_t staging_kernel, Layout layout, GemmParams& params,
                    cudaStream_t stream) {
  float* a_copy = params.workspace + staging.a_offset;
  float* b_copy = staging.copy_b ? params.workspace + staging.b_offset : nullptr;
  StagedCopyParams copies{};
  copies.operand[0] = staged_copy(params.A, params.lda, a_copy, staging.lda, stored_a(layout, params.M, params.K),
                                  staging.transpose_a);
  if (staging.copy_b) {
    copies.operand[1] = staged_copy(params.B, params.ldb, b_copy, staging.ldb, stored_b(layout, params.N, params.K), false);
  }
  copies.first_items = work_items(copies.operand[0]);
  copies.total_items = copies.first_items + (staging.copy_b ? work_items(copies.operand[1]) : 0);
  // A block an item, up to a grid the kernel then walks in strides (2^20 blocks is far more than
  // any GPU holds at once).
  const long long blocks = std::min<long long>(copies.total_items, 1 << 20);
  void* arguments[] = {&copies};
  cudaError_t status = cudaLaunchKernel(reinterpret_cast<const void*>(staging_kernel),
                                        dim3(static_cast<unsigned>(blocks)), dim3(kStagedCopyThreads), arguments, 0, stream);
  if (status == cudaSuccess) status = cudaGetLastError();
  if (status != cudaSuccess) {
    check_cuda(status, "cudaLaunchKernel",
               std::string("copying ") + (staging.copy_b ? "A and B" : "A") + " to " +
                   (staging.transpose_a ? "a transposed copy" : "aligned copies") + " (" + kStagedCopyKernelName +
                   ") for " + std::to_string(params.M) + "x" + std::to_string(params.N) + "x" + std::to_string(params.K));
  }
  params.A = a_copy;
  params.lda = staging.lda;
  if (staging.copy_b) {
    params.B = b_copy;
    params.ldb = staging.ldb;
  }
}

}  // namespace gemmtune
