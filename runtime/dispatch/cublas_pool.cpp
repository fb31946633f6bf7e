#include "cublas_pool.hpp"

#include "cublas_gemm.hpp"

namespace gemmtune::dispatch {

class CublasPool::Lease {
 public:
  explicit Lease(CublasPool& pool) : pool_(pool), handle_(pool.borrow()) {}
  ~Lease() { pool_.give_back(std::move(handle_)); }
  Lease(const Lease&) = delete;
  Lease& operator=(const Lease&) = delete;
  cublasHandle_t get() const { return handle_.get(); }

 private:
  CublasPool& pool_;
  CublasHandle handle_;
};

void CublasPool::sgemm(Layout layout, const GemmParams& params, cudaStream_t stream, Precision precision) {
  const Lease lease(*this);
  cublas_sgemm(lease.get(), layout, params, stream, precision);
}

CublasHandle CublasPool::borrow() {
  {
    const std::lock_guard lock(mutex_);
    if (!idle_.empty()) {
      CublasHandle handle(std::move(idle_.back()));
      idle_.pop_back();
      return handle;
    }
  }
  return CublasHandle();  // created outside the lock: cublasCreate is slow
}

void CublasPool::give_back(CublasHandle handle) noexcept {
  try {
    const std::lock_guard lock(mutex_);
    idle_.push_back(std::move(handle));
  } catch (...) {
    // No memory to keep it: the handle is destroyed here instead, which is harmless.
  }
}

}  // namespace gemmtune::dispatch
