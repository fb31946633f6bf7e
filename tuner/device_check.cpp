#include "device_check.hpp"

#include <algorithm>
#include <vector>

#include "error.hpp"

namespace gemmtune::tuner {
namespace {

constexpr int kThreads = 256;
constexpr int kSumsPerBlock = 4;  // diff_squares, ref_squares, max_abs_error, non_finite

// One block walks rows blockIdx.x, blockIdx.x + gridDim.x, ... of entries blockIdx.y, ... and
// writes its sums for each entry; the tree below adds the threads' sums in a fixed order, so the
// same inputs give the same bits. The rules are compare.cpp's sum_entry, output by output.
constexpr const char* kSource = R"(
template <class Reference>
__device__ void compare_rows(const float* got, const Reference* ref, int M, int N, long long ldc, int batch,
                             long long stride, double* sums) {
  __shared__ double shared[4][256];
  const double float_max = 3.40282346638528859812e+38;
  for (int entry = blockIdx.y; entry < batch; entry += gridDim.y) {
    const float* g = got + entry * stride;
    const Reference* r = ref + entry * stride;
    double diff_squares = 0, ref_squares = 0, max_abs = 0, non_finite = 0;
    for (int m = blockIdx.x; m < M; m += gridDim.x) {
      for (int n = threadIdx.x; n < N; n += blockDim.x) {
        const long long index = m * ldc + n;
        const double expected = r[index];
        const double actual = g[index];
        if (!isfinite(actual) && isfinite(expected)) {
          const bool overflows = fabs(expected) > float_max && isinf(actual) && signbit(actual) == signbit(expected);
          if (!overflows) non_finite += 1;
          continue;
        }
        const double diff = actual - expected;
        diff_squares += diff * diff;
        ref_squares += expected * expected;
        max_abs = max_abs < fabs(diff) ? fabs(diff) : max_abs;
      }
    }
    shared[0][threadIdx.x] = diff_squares;
    shared[1][threadIdx.x] = ref_squares;
    shared[2][threadIdx.x] = max_abs;
    shared[3][threadIdx.x] = non_finite;
    __syncthreads();
    for (int half = blockDim.x / 2; half > 0; half /= 2) {
      if (threadIdx.x < half) {
        shared[0][threadIdx.x] += shared[0][threadIdx.x + half];
        shared[1][threadIdx.x] += shared[1][threadIdx.x + half];
        const double other = shared[2][threadIdx.x + half];
        if (shared[2][threadIdx.x] < other) shared[2][threadIdx.x] = other;
        shared[3][threadIdx.x] += shared[3][threadIdx.x + half];
      }
      __syncthreads();
    }
    if (threadIdx.x < 4) sums[(static_cast<long long>(entry) * gridDim.x + blockIdx.x) * 4 + threadIdx.x] = shared[threadIdx.x][0];
    __syncthreads();
  }
}

extern "C" __global__ void __launch_bounds__(256) gemmtune_check_against_fp64(
    const float* got, const double* ref, int M, int N, long long ldc, int batch, long long stride, double* sums) {
  compare_rows(got, ref, M, N, ldc, batch, stride, sums);
}

extern "C" __global__ void __launch_bounds__(256) gemmtune_check_against_fp32(
    const float* got, const float* ref, int M, int N, long long ldc, int batch, long long stride, double* sums) {
  compare_rows(got, ref, M, N, ldc, batch, stride, sums);
}
)";

}  // namespace

CompiledKernel compile_device_check(const std::string& arch) {
  return compile_source(kSource, "gemmtune_device_check.cu", "gemmtune_check_against_fp64", arch);
}

DeviceCheck::DeviceCheck(const std::string& arch)
    : library_(compile_device_check(arch).cubin.data(), "loading the device check kernels") {
  against_fp64_ = library_.kernel("gemmtune_check_against_fp64", "the device check against FP64");
  against_fp32_ = library_.kernel("gemmtune_check_against_fp32", "the device check against FP32");
}

Comparison DeviceCheck::compare(const float* got, const double* ref, int M, int N, long long ldc, double tolerance,
                                int batch, long long stride, cudaStream_t stream) const {
  return run(against_fp64_, got, ref, M, N, ldc, tolerance, batch, stride, stream);
}

Comparison DeviceCheck::compare(const float* got, const float* ref, int M, int N, long long ldc, double tolerance,
                                int batch, long long stride, cudaStream_t stream) const {
  return run(against_fp32_, got, ref, M, N, ldc, tolerance, batch, stride, stream);
}

Comparison DeviceCheck::run(cudaKernel_t kernel, const float* got, const void* ref, int M, int N, long long ldc,
                            double tolerance, int batch, long long stride, cudaStream_t stream) const {
  // About 2048 blocks in all (enough to fill any GPU), at most one a row, at most 65535 entries
  // at a time (grid y: a block takes entry y, y + 65535, ...).
  const int entries_at_once = std::min(batch, 65535);
  const int row_blocks = std::clamp(2048 / entries_at_once, 1, std::clamp(M, 1, 1024));
  DeviceBuffer<double> sums(static_cast<std::size_t>(batch) * row_blocks * kSumsPerBlock);
  void* arguments[] = {&got, &ref, &M, &N, &ldc, &batch, &stride, nullptr};
  double* sums_data = sums.data();
  arguments[7] = &sums_data;
  GT_CUDA(cudaLaunchKernel(reinterpret_cast<const void*>(kernel), dim3(row_blocks, entries_at_once), dim3(kThreads),
                           arguments, 0, stream),
          "the device check of a " + std::to_string(M) + "x" + std::to_string(N) + " result");
  GT_CUDA(cudaGetLastError(), "the device check");
  const std::vector<double> partial = sums.download(stream);
  return worst_entry(batch, [&](int entry) {
    ComparisonSums total;
    for (int block = 0; block < row_blocks; ++block) {
      const double* s = &partial[(static_cast<std::size_t>(entry) * row_blocks + block) * kSumsPerBlock];
      total.diff_squares += s[0];
      total.ref_squares += s[1];
      total.max_abs_error = std::max(total.max_abs_error, s[2]);
      total.non_finite += static_cast<long long>(s[3]);
    }
    return judge(total, tolerance);
  });
}

}  // namespace gemmtune::tuner
