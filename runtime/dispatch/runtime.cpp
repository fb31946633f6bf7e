// The public Runtime: every method is noexcept and turns the Impl's exceptions into a Status.
#include "gemmtune/runtime.hpp"

#include "dispatch_error.hpp"
#include "runtime_impl.hpp"

namespace gemmtune {
namespace {

constexpr std::string_view kNotOpen = "the Runtime is not open (default-constructed, moved from, or its open failed)";

// The device `index`, or DispatchError(NoDevice) saying why there is none.
DeviceInfo probe_device(int index) {
  std::string why_none;
  std::vector<DeviceInfo> devices;
  try {
    devices = visible_devices(&why_none);
  } catch (const CudaError& error) {
    why_none = error.what();
  }
  if (devices.empty()) throw dispatch::DispatchError(Status::NoDevice, "no usable CUDA device: " + why_none);
  if (index < 0 || static_cast<std::size_t>(index) >= devices.size()) {
    throw dispatch::DispatchError(Status::NoDevice, "RuntimeOptions::device " + std::to_string(index) +
                                                        " does not exist; " + std::to_string(devices.size()) +
                                                        " devices are visible");
  }
  return devices[static_cast<std::size_t>(index)];
}

}  // namespace

Runtime::Runtime() noexcept = default;
Runtime::Runtime(std::unique_ptr<Impl> impl) noexcept : impl_(std::move(impl)) {}
Runtime::Runtime(Runtime&&) noexcept = default;
Runtime& Runtime::operator=(Runtime&&) noexcept = default;
Runtime::~Runtime() = default;

Status Runtime::open(Runtime& runtime, const std::string& db_path, const RuntimeOptions& options) noexcept {
  try {
    runtime = dispatch::open_on_device(probe_device(options.device), db_path, options);
    return Status::Success;
  } catch (...) {
    return dispatch::fail_from_current_exception("Runtime::open");
  }
}

Status Runtime::open_manifest(Runtime& runtime, const std::string& dir, const RuntimeOptions& options) noexcept {
  try {
    runtime = dispatch::open_manifest_on_device(probe_device(options.device), dir, options);
    return Status::Success;
  } catch (...) {
    return dispatch::fail_from_current_exception("Runtime::open_manifest");
  }
}

Status Runtime::sgemm(Order order, Transpose trans_a, Transpose trans_b, int M, int N, int K, float alpha,
                      const float* A, std::int64_t lda, const float* B, std::int64_t ldb, float beta, float* C,
                      std::int64_t ldc, cudaStream_t stream) const noexcept {
  return sgemm(SgemmCall{order, trans_a, trans_b, M, N, K, alpha, A, lda, B, ldb, beta, C, ldc}, stream);
}

Status Runtime::sgemm_strided_batched(Order order, Transpose trans_a, Transpose trans_b, int M, int N, int K,
                                      float alpha, const float* A, std::int64_t lda, std::int64_t stride_a,
                                      const float* B, std::int64_t ldb, std::int64_t stride_b, float beta, float* C,
                                      std::int64_t ldc, std::int64_t stride_c, int batch,
                                      cudaStream_t stream) const noexcept {
  SgemmCall call{order, trans_a, trans_b, M, N, K, alpha, A, lda, B, ldb, beta, C, ldc};
  call.batch = batch;
  call.stride_a = stride_a;
  call.stride_b = stride_b;
  call.stride_c = stride_c;
  return sgemm(call, stream);
}

Status Runtime::sgemm_batched(Order order, Transpose trans_a, Transpose trans_b, int M, int N, int K, float alpha,
                              const float* const* A_array, std::int64_t lda, const float* const* B_array,
                              std::int64_t ldb, float beta, float* const* C_array, std::int64_t ldc, int batch,
                              cudaStream_t stream) const noexcept {
  SgemmCall call{order, trans_a, trans_b, M, N, K, alpha, nullptr, lda, nullptr, ldb, beta, nullptr, ldc};
  call.batch = batch;
  call.A_array = A_array;
  call.B_array = B_array;
  call.C_array = C_array;
  return sgemm(call, stream);
}

Status Runtime::sgemm(const SgemmCall& call, cudaStream_t stream) const noexcept {
  if (!impl_) return dispatch::fail(Status::NotInitialized, kNotOpen);
  try {
    impl_->sgemm(call, stream);
    return Status::Success;
  } catch (...) {
    return dispatch::fail_from_current_exception("Runtime::sgemm", &call);
  }
}

Status Runtime::plan(const SgemmCall& call, Selection& selection) const noexcept {
  if (!impl_) return dispatch::fail(Status::NotInitialized, kNotOpen);
  try {
    selection = impl_->plan(call);
    return Status::Success;
  } catch (...) {
    return dispatch::fail_from_current_exception("Runtime::plan", &call);
  }
}

std::optional<Selection> Runtime::last_selection() const noexcept {
  if (!impl_) return std::nullopt;
  try {
    return impl_->last_selection();
  } catch (...) {  // no memory for the copy
    return std::nullopt;
  }
}

RuntimeStats Runtime::stats() const noexcept {
  try {
    return impl_ ? impl_->stats() : RuntimeStats{};
  } catch (...) {  // std::system_error from the mutex
    return {};
  }
}

std::string Runtime::describe() const noexcept {
  try {
    return impl_ ? impl_->describe() : std::string(kNotOpen);
  } catch (...) {
    return {};
  }
}

std::string last_error() noexcept {
  try {
    return dispatch::thread_last_error();
  } catch (...) {
    return {};
  }
}

}  // namespace gemmtune
