#include "dispatch_error.hpp"

#include <exception>
#include <new>

#include "row_major_call.hpp"

namespace gemmtune::dispatch {
namespace {

thread_local std::string t_last_error;

}  // namespace

Status fail(Status status, std::string_view message) noexcept {
  try {
    t_last_error = message;
  } catch (...) {
    t_last_error.clear();  // out of memory: the status still says what happened
  }
  return status;
}

Status fail_from_current_exception(std::string_view api, const SgemmCall* call) noexcept {
  try {
    const std::string prefix = std::string(api) + (call != nullptr ? describe_call(*call) : "") + ": ";
    try {
      throw;
    } catch (const DispatchError& error) {
      return fail(error.status(), prefix + error.what());
    } catch (const NvrtcError& error) {
      return fail(Status::KernelError, prefix + error.what());
    } catch (const CudaError& error) {
      return fail(Status::ExecutionFailed, prefix + error.what());
    } catch (const CublasError& error) {
      return fail(Status::ExecutionFailed, prefix + error.what());
    } catch (const Error& error) {  // a kernel refusing its launch, e.g. too many registers for its block
      return fail(Status::KernelError, prefix + error.what());
    } catch (const std::bad_alloc&) {
      return fail(Status::InternalError, prefix + "out of host memory");
    } catch (const std::exception& error) {
      return fail(Status::InternalError, prefix + error.what());
    }
  } catch (...) {  // an unknown exception, or no memory left for the message
    return fail(Status::InternalError, api);
  }
}

const std::string& thread_last_error() noexcept { return t_last_error; }

}  // namespace gemmtune::dispatch
