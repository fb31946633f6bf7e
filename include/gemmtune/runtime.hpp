// gemmtune's dispatch runtime: open the tuning database once, then call sgemm() as you would
// cublasSgemm / cblas_sgemm. Each call runs the kernel tuned for its shape on this GPU, or the
// winner of the nearest tuned shape, or a sound default, and can say which and why.
//
//   gemmtune::Runtime runtime;
//   if (gemmtune::Runtime::open(runtime, "tuned.db") != gemmtune::Status::Success) {
//     std::cerr << gemmtune::last_error() << "\n";
//   }
//   runtime.sgemm(gemmtune::Order::RowMajor, gemmtune::Transpose::No, gemmtune::Transpose::No,
//                 M, N, K, 1.0f, A, K, B, N, 0.0f, C, N, stream);
//
// Errors are status codes, never exceptions: every function is noexcept. See docs/api.md.
#pragma once

#include <cuda_runtime_api.h>  // cudaStream_t

#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "gemmtune/types.hpp"

namespace gemmtune {

class Runtime {
 public:
  class Impl;  // defined by the library

  // An empty Runtime: every call returns NotInitialized until open() fills it.
  Runtime() noexcept;
  // For the library itself (Impl is opaque outside it).
  explicit Runtime(std::unique_ptr<Impl> impl) noexcept;
  Runtime(Runtime&&) noexcept;
  Runtime& operator=(Runtime&&) noexcept;
  ~Runtime();

  // Opens `db_path` read-only for the GPU options.device and puts the result in `runtime`
  // (left as it was on failure). Fails with NoDevice, DatabaseNotFound, DatabaseError or
  // UntunedGpu; an empty path means no database (allowed with options.allow_untuned only).
  static Status open(Runtime& runtime, const std::string& db_path,
                     const RuntimeOptions& options = {}) noexcept;

  // Opens the ahead-of-time export in `dir` (written by `tunedb export-kernels --out DIR`) for
  // the GPU options.device: calls are served from its cubins, with no database and no NVRTC at
  // run time (a kernel the export lacks is KernelError, never compiled). Fails with NoDevice,
  // DatabaseNotFound (no DIR/manifest.json), DatabaseError (not a readable export) or UntunedGpu
  // (exported for another arch; for another GPU unless options.allow_untuned).
  static Status open_manifest(Runtime& runtime, const std::string& dir, const RuntimeOptions& options = {}) noexcept;

  bool is_open() const noexcept { return impl_ != nullptr; }

  // C = alpha op(A) op(B) + beta C on `stream` (asynchronous, as cuBLAS). Safe to call from
  // many threads at once. A shape seen before costs one shared lock and one hash lookup on top
  // of the kernel launch (split-K kernels: one more brief lock for their stream's workspace); a
  // new one selects its kernel and, the first time that kernel is needed, loads it from the
  // database (or compiles it when the database has no cubin).
  Status sgemm(Order order, Transpose trans_a, Transpose trans_b, int M, int N, int K, float alpha,
               const float* A, std::int64_t lda, const float* B, std::int64_t ldb, float beta,
               float* C, std::int64_t ldc, cudaStream_t stream = nullptr) const noexcept;
  Status sgemm(const SgemmCall& call, cudaStream_t stream = nullptr) const noexcept;

  // `batch` GEMMs of one shape in one launch, as cublasSgemmStridedBatched: entry i computes
  // C + i * stride_c = alpha op(A + i * stride_a) op(B + i * stride_b) + beta C + i * stride_c
  // (strides in elements; A's and B's may be 0, C's entries must not overlap). Batched
  // problems are tuned apart (shapes file `M N K [layout] bBATCH`); only the families that serve
  // a batch run it (docs/api.md), or cuBLAS's batched call when the Runtime prefers cuBLAS.
  Status sgemm_strided_batched(Order order, Transpose trans_a, Transpose trans_b, int M, int N, int K, float alpha,
                               const float* A, std::int64_t lda, std::int64_t stride_a, const float* B,
                               std::int64_t ldb, std::int64_t stride_b, float beta, float* C, std::int64_t ldc,
                               std::int64_t stride_c, int batch, cudaStream_t stream = nullptr) const noexcept;
  // The same with the entries given as arrays of `batch` pointers, as cublasSgemmBatched: the
  // arrays are in device memory (the kernels read them) and hold device pointers.
  Status sgemm_batched(Order order, Transpose trans_a, Transpose trans_b, int M, int N, int K, float alpha,
                       const float* const* A_array, std::int64_t lda, const float* const* B_array, std::int64_t ldb,
                       float beta, float* const* C_array, std::int64_t ldc, int batch,
                       cudaStream_t stream = nullptr) const noexcept;

  // Which kernel sgemm(call) would run and why, without loading or launching anything. The same
  // checks as sgemm: an invalid call gets the same status and message.
  Status plan(const SgemmCall& call, Selection& selection) const noexcept;

  // The selection of the last sgemm() this thread made on this Runtime (successful or not,
  // once its arguments were valid); nullopt before the first.
  std::optional<Selection> last_selection() const noexcept;

  RuntimeStats stats() const noexcept;

  // "NVIDIA H200 (sm_90, 132 SMs), 24 tuned problems from tuned.db".
  std::string describe() const noexcept;

 private:
  std::unique_ptr<Impl> impl_;
};

// The message of the last call that failed on this thread (any Runtime), with its context:
// the call in the caller's terms, the kernel, the CUDA error. Not cleared by a success.
std::string last_error() noexcept;

}  // namespace gemmtune
