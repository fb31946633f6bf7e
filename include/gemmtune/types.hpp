// The values of gemmtune's public dispatch API: a call's arguments, the status every function
// returns, the options of a Runtime, and the account of which kernel serves a call and why.
// Plain C++17: no CUDA, no internal header.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "gemmtune/precision.hpp"

namespace gemmtune {

// How the caller stores every matrix of a call (as CBLAS's CblasRowMajor / CblasColMajor).
enum class Order { RowMajor, ColMajor };

// Whether an operand is used as stored or transposed (op(X) = X or X^T).
enum class Transpose { No, Yes };

// What every function of the API returns; the message of the last failure on the calling
// thread is gemmtune::last_error(). Nothing is launched unless the status is Success or
// ExecutionFailed.
enum class Status {
  Success = 0,
  NotInitialized,    // the Runtime is empty: default-constructed, moved from, or its open failed
  InvalidValue,      // an argument is invalid (null pointer, M, N or K < 1, leading dimension
                     // below its minimum, an Order or Transpose out of range)
  NotSupported,      // the arguments are valid but no kernel can serve them (grid limits);
                     // nothing launched
  NoDevice,          // open: no usable CUDA device, or RuntimeOptions::device is not one
  DatabaseNotFound,  // open: the database file does not exist (and allow_untuned is false)
  DatabaseError,     // open: the file is not a readable gemmtune database of a known schema
  UntunedGpu,        // open: the database has no tuned problem for this GPU (and allow_untuned
                     // is false); the message lists the GPUs it has
  KernelError,       // the chosen kernel could not be loaded or compiled, or refused to launch
                     // (e.g. too many registers a thread for its block size)
  ExecutionFailed,   // the launch failed (a CUDA or cuBLAS error)
  InternalError,     // anything else, e.g. out of host memory
};

// "success", "invalid_value", ... (the enumerator in snake case).
const char* to_string(Status status) noexcept;

// One SGEMM: C = alpha op(A) op(B) + beta C, C M x N, op(A) M x K, op(B) K x N, every matrix
// stored in `order` with its leading dimension (in elements). beta == 0: C is only written.
// The pointers are device pointers; plan() reads nothing through them, only their alignment.
struct SgemmCall {
  Order order = Order::RowMajor;
  Transpose trans_a = Transpose::No;
  Transpose trans_b = Transpose::No;
  int M = 0;
  int N = 0;
  int K = 0;
  float alpha = 1.0f;
  const float* A = nullptr;
  std::int64_t lda = 0;
  const float* B = nullptr;
  std::int64_t ldb = 0;
  float beta = 0.0f;
  float* C = nullptr;
  std::int64_t ldc = 0;
  // The precision class this call accepts; nullopt: the Runtime's (RuntimeOptions::precision).
  std::optional<Precision> precision = std::nullopt;  // initialized: {order, ..., ldc} stays warning-free
  // Batched calls (Runtime::sgemm_strided_batched, sgemm_batched): `batch` products of the one
  // shape above. Entry i is A + i * stride_a, B + i * stride_b, C + i * stride_c (elements; A and
  // B's may be 0: one matrix for every entry; C's entries must not overlap), or, when A_array is
  // set, A_array[i], B_array[i], C_array[i]: device-resident arrays of device pointers, as
  // cublasSgemmBatched takes them (A, B and C are then unused). batch 1 without arrays: sgemm.
  int batch = 1;
  std::int64_t stride_a = 0;
  std::int64_t stride_b = 0;
  std::int64_t stride_c = 0;
  const float* const* A_array = nullptr;
  const float* const* B_array = nullptr;
  float* const* C_array = nullptr;
};

// A GEMM as the kernels and the tuning database see it: row-major C (M x N) = op(A) op(B),
// layout "nn", "nt", "tn" or "tt" (A's letter, then B's; 't': stored transposed).
struct ProblemShape {
  std::string layout;
  int M = 0;
  int N = 0;
  int K = 0;
  int batch = 1;  // products of a batched call; 1 for sgemm
};
// Written out rather than defaulted: the public headers are C++17, for users not on C++20.
inline bool operator==(const ProblemShape& a, const ProblemShape& b) {
  return a.layout == b.layout && a.M == b.M && a.N == b.N && a.K == b.K && a.batch == b.batch;
}
inline bool operator!=(const ProblemShape& a, const ProblemShape& b) { return !(a == b); }

// "nn:4096x4096x4096" ("nn:128x128x128:b64" for a batch), as the tuner and tunedb write problems.
std::string to_string(const ProblemShape& shape);

struct RuntimeOptions {
  int device = 0;  // the CUDA device the Runtime serves; call sgemm with it current
  // Run on default kernels instead of failing open with DatabaseNotFound (missing file, or an
  // empty path) or UntunedGpu (no tuned problem for this GPU): for machines not tuned yet.
  bool allow_untuned = false;
  // Launch cuBLAS (in the compute type the tuner timed: pedantic FP32 for strict and fp32,
  // FAST_TF32 for tf32) for calls whose tuned problem (exact or nearest) recorded cuBLAS faster
  // than the tuned winner.
  bool prefer_cublas = false;
  // The precision class calls accept unless they say otherwise (SgemmCall::precision): a kernel
  // of a class it does not admit is never launched (Strict: FFMA kernels only).
  Precision precision = Precision::Fp32;
};

// Why a kernel serves a call.
enum class Reason {
  Measured,  // the winner of this very problem (same GPU, layout, M, N, K)
  Nearest,   // the winner of a near tuned problem of the same layout, the best for the call's
             // shape by the cost model among the nearest winners and the families' defaults
  Default,   // a family's default configuration, ranked best (or no tuned problem could serve)
};
const char* to_string(Reason reason) noexcept;  // "measured", "nearest", "default"

enum class Backend {
  Kernel,  // one of gemmtune's kernels
  Cublas,  // cuBLAS (RuntimeOptions::prefer_cublas)
};

// Which kernel serves a call and why (Runtime::plan, Runtime::last_selection).
struct Selection {
  Backend backend = Backend::Kernel;
  // "gemmtune_sgemm_vectorized_nn_bm128_bn128_bk8_tm8_tn8_align4", or "cublas".
  std::string kernel;
  Reason reason = Reason::Default;
  ProblemShape problem;  // the call as the kernels see it (column-major calls are swapped)
  int call_align = 1;    // floats (1, 2, 4) that every pointer and leading dimension allows
  // Measured and Nearest: the tuned problem whose winner this is, and the log-space distance
  // to it (sqrt of the summed squared log2 ratios of M, N, K; 0 for Measured).
  std::optional<ProblemShape> tuned_problem;
  double distance = 0.0;
  // What else was considered, in words: an alignment narrowed, a tuned winner that could not
  // serve the call, cuBLAS measured faster. Empty when there is nothing to say.
  std::string note;
  // The class the call asked for, and the class of what serves it (the kernel's family; cuBLAS:
  // Strict for pedantic FP32, Tf32 for FAST_TF32), which the requested class always admits.
  Precision requested = Precision::Fp32;
  Precision precision = Precision::Strict;
};

// One line: "<kernel> (nearest: nn:1024x1024x1024 at distance 0.58) for nn:1000x1000x1000 ...".
std::string describe(const Selection& selection);

// What the Runtime has done since it was opened.
struct RuntimeStats {
  std::uint64_t kernels_from_database = 0;  // kernels loaded from the database's cubins
  std::uint64_t kernels_compiled = 0;       // kernels compiled with NVRTC (no cubin stored)
  std::uint64_t routes = 0;                 // distinct (layout, M, N, K, alignment) served
};

}  // namespace gemmtune
