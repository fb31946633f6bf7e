// The argument block every GEMM kernel takes, shared by host code and NVRTC-compiled kernels, so
// its layout is defined once. Plain C++ (CUDA qualifiers only under NVRTC/nvcc), no includes.
#pragma once

namespace gemmtune {

// Operand layouts of a row-major problem C (M x N) = op(A) (M x K) * op(B) (K x N).
// 'n': the operand is stored row-major as used (A: M x K, lda >= K; B: K x N, ldb >= N).
// 't': it is stored transposed (A: K x M, lda >= M; B: N x K, ldb >= K).
// The first letter is A's, the second B's. Column-major calls are mapped onto these by the
// runtime (C^T = op(B)^T op(A)^T), so kernels only ever see row-major C.
enum class Layout : int { NN = 0, NT = 1, TN = 2, TT = 3 };

#if defined(__CUDACC__) || defined(__CUDACC_RTC__)
#define GEMMTUNE_HOST_DEVICE __host__ __device__
#else
#define GEMMTUNE_HOST_DEVICE
#endif

GEMMTUNE_HOST_DEVICE constexpr bool a_is_transposed(Layout layout) {
  return layout == Layout::TN || layout == Layout::TT;
}
GEMMTUNE_HOST_DEVICE constexpr bool b_is_transposed(Layout layout) {
  return layout == Layout::NT || layout == Layout::TT;
}

struct GemmParams {
  int M;
  int N;
  int K;
  float alpha;
  float beta;  // beta == 0: C is written without being read (it may hold NaN)
  const float* A;
  long long lda;
  const float* B;
  long long ldb;
  float* C;
  long long ldc;
  float* workspace;  // scratch for families that need it (split-K); null otherwise
  long long workspace_floats;
  // Batched calls: `batch` products of the one shape above. Entry i reads A + i * stride_a,
  // B + i * stride_b and writes C + i * stride_c (strided batched, as cublasSgemmStridedBatched)
  // or, when A_array is set, A_array[i], B_array[i] and C_array[i] (pointer arrays, device
  // memory, as cublasSgemmBatched; A, B and C are then unused). batch == 1 with no arrays is a
  // plain GEMM, and what the defaults give a GemmParams initialised without these fields.
  // batch_entry() (common.cuh) gives a block its entry's GemmParams.
  int batch = 1;
  long long stride_a = 0;
  long long stride_b = 0;
  long long stride_c = 0;
  const float* const* A_array = nullptr;
  const float* const* B_array = nullptr;
  float* const* C_array = nullptr;
};

}  // namespace gemmtune
