// Inside the dispatch runtime, failures are exceptions; at the public API's boundary each one
// becomes a Status and a message that last_error() returns on the failing thread.
#pragma once

#include <string>
#include <string_view>

#include "error.hpp"
#include "gemmtune/types.hpp"

namespace gemmtune::dispatch {

// A failure whose Status is known where it is thrown (InvalidValue, UntunedGpu, ...).
class DispatchError : public Error {
 public:
  DispatchError(Status status, const std::string& message) : Error(message), status_(status) {}
  Status status() const noexcept { return status_; }

 private:
  Status status_;
};

// Records `message` as this thread's last error and returns `status`.
Status fail(Status status, std::string_view message) noexcept;

// Call inside a catch block: maps the exception in flight to its Status (DispatchError: its
// own; NvrtcError, and any other gemmtune::Error (a kernel refusing its launch): KernelError;
// CudaError, CublasError: ExecutionFailed; anything else: InternalError) and records its message
// after `api` ("Runtime::sgemm") and, when given, the call in the caller's terms:
// "Runtime::sgemm(row-major, A, B^T, M=5, N=7, K=3): ...".
Status fail_from_current_exception(std::string_view api, const SgemmCall* call = nullptr) noexcept;

// This thread's last error message.
const std::string& thread_last_error() noexcept;

}  // namespace gemmtune::dispatch
