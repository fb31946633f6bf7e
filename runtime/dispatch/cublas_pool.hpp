// cuBLAS handles for concurrent calls: a handle's stream is state (cublasSetStream), so two
// threads must not share one at a time. A call borrows a handle for its duration; handles are
// created on first need and kept for reuse.
#pragma once

#include <mutex>
#include <vector>

#include "cuda_handles.hpp"
#include "gemm_params.h"
#include "precision.hpp"

namespace gemmtune::dispatch {

class CublasPool {
 public:
  // C = alpha op(A) op(B) + beta C for the row-major problem, on `stream`, through a borrowed
  // handle, in the compute type the tuner timed cuBLAS with for `precision` (cublas_sgemm).
  // Throws CublasError.
  void sgemm(Layout layout, const GemmParams& params, cudaStream_t stream, Precision precision);

 private:
  class Lease;  // a borrowed handle, given back however the call ends

  CublasHandle borrow();
  void give_back(CublasHandle handle) noexcept;

  std::mutex mutex_;
  std::vector<CublasHandle> idle_;
};

}  // namespace gemmtune::dispatch
