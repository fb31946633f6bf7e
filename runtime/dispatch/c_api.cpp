// The C API (include/gemmtune/gemmtune.h) over the C++ Runtime: each function maps its
// arguments, calls the noexcept C++ method and returns its status as the C enum. Nothing here can
// throw across the boundary: the C++ API is noexcept, and the little this file allocates itself
// (a runtime, a description) is caught.
#include "gemmtune/gemmtune.h"

#include <cstring>
#include <new>
#include <string>

#include "dispatch_error.hpp"
#include "gemmtune/runtime.hpp"

struct gemmtune_runtime {
  gemmtune::Runtime runtime;
};

namespace {

using gemmtune::Status;

// The enums are declared in the same order, so a value converts as its number.
static_assert(static_cast<int>(Status::InternalError) == GEMMTUNE_STATUS_INTERNAL_ERROR);
static_assert(static_cast<int>(gemmtune::Order::ColMajor) == GEMMTUNE_COL_MAJOR);
static_assert(static_cast<int>(gemmtune::Transpose::Yes) == GEMMTUNE_TRANS);

gemmtune_status to_c(Status status) { return static_cast<gemmtune_status>(status); }

// A call as the C++ API takes it. Out-of-range enum values pass through as numbers, and the C++
// checks refuse them (InvalidValue) with the message they give for any bad argument.
gemmtune::SgemmCall make_call(gemmtune_order order, gemmtune_transpose trans_a, gemmtune_transpose trans_b, int M,
                              int N, int K, float alpha, const float* A, int64_t lda, const float* B, int64_t ldb,
                              float beta, float* C, int64_t ldc) {
  return gemmtune::SgemmCall{static_cast<gemmtune::Order>(order),
                             static_cast<gemmtune::Transpose>(trans_a),
                             static_cast<gemmtune::Transpose>(trans_b),
                             M, N, K, alpha, A, lda, B, ldb, beta, C, ldc};
}

// Both opens: `open` is Runtime::open or Runtime::open_manifest, `path` its database or folder
// (NULL: "").
using OpenFunction = Status (*)(gemmtune::Runtime&, const std::string&, const gemmtune::RuntimeOptions&) noexcept;

gemmtune_status open_with(OpenFunction open, const char* api, gemmtune_runtime** runtime, const char* path,
                          const gemmtune_runtime_options* options) {
  if (runtime == nullptr) {
    return to_c(gemmtune::dispatch::fail(Status::InvalidValue, std::string(api) + ": the runtime pointer is NULL"));
  }
  try {
    gemmtune::RuntimeOptions cpp_options;
    if (options != nullptr) {
      cpp_options.device = options->device;
      cpp_options.allow_untuned = options->allow_untuned != 0;
      cpp_options.prefer_cublas = options->prefer_cublas != 0;
    }
    gemmtune::Runtime opened;
    const Status status = open(opened, path != nullptr ? path : "", cpp_options);
    if (status != Status::Success) return to_c(status);
    *runtime = new gemmtune_runtime{std::move(opened)};
    return GEMMTUNE_STATUS_SUCCESS;
  } catch (...) {  // no memory for the path, the options or the runtime
    return to_c(gemmtune::dispatch::fail_from_current_exception(api));
  }
}

constexpr const char* kNullRuntime = "the runtime is NULL (gemmtune_runtime_open failed or was not called)";

}  // namespace

extern "C" {

gemmtune_status gemmtune_runtime_open(gemmtune_runtime** runtime, const char* db_path,
                                      const gemmtune_runtime_options* options) {
  return open_with(gemmtune::Runtime::open, "gemmtune_runtime_open", runtime, db_path, options);
}

gemmtune_status gemmtune_runtime_open_manifest(gemmtune_runtime** runtime, const char* dir,
                                               const gemmtune_runtime_options* options) {
  return open_with(gemmtune::Runtime::open_manifest, "gemmtune_runtime_open_manifest", runtime, dir, options);
}

void gemmtune_runtime_close(gemmtune_runtime* runtime) { delete runtime; }

gemmtune_status gemmtune_sgemm(const gemmtune_runtime* runtime, gemmtune_order order, gemmtune_transpose trans_a,
                               gemmtune_transpose trans_b, int M, int N, int K, float alpha, const float* A,
                               int64_t lda, const float* B, int64_t ldb, float beta, float* C, int64_t ldc,
                               gemmtune_stream stream) {
  if (runtime == nullptr) return to_c(gemmtune::dispatch::fail(Status::NotInitialized, kNullRuntime));
  return to_c(runtime->runtime.sgemm(make_call(order, trans_a, trans_b, M, N, K, alpha, A, lda, B, ldb, beta, C, ldc),
                                     stream));
}

gemmtune_status gemmtune_sgemm_strided_batched(const gemmtune_runtime* runtime, gemmtune_order order,
                                               gemmtune_transpose trans_a, gemmtune_transpose trans_b, int M, int N,
                                               int K, float alpha, const float* A, int64_t lda, int64_t stride_a,
                                               const float* B, int64_t ldb, int64_t stride_b, float beta, float* C,
                                               int64_t ldc, int64_t stride_c, int batch, gemmtune_stream stream) {
  if (runtime == nullptr) return to_c(gemmtune::dispatch::fail(Status::NotInitialized, kNullRuntime));
  gemmtune::SgemmCall call = make_call(order, trans_a, trans_b, M, N, K, alpha, A, lda, B, ldb, beta, C, ldc);
  call.batch = batch;
  call.stride_a = stride_a;
  call.stride_b = stride_b;
  call.stride_c = stride_c;
  return to_c(runtime->runtime.sgemm(call, stream));
}

gemmtune_status gemmtune_sgemm_batched(const gemmtune_runtime* runtime, gemmtune_order order,
                                       gemmtune_transpose trans_a, gemmtune_transpose trans_b, int M, int N, int K,
                                       float alpha, const float* const* A_array, int64_t lda,
                                       const float* const* B_array, int64_t ldb, float beta, float* const* C_array,
                                       int64_t ldc, int batch, gemmtune_stream stream) {
  if (runtime == nullptr) return to_c(gemmtune::dispatch::fail(Status::NotInitialized, kNullRuntime));
  gemmtune::SgemmCall call = make_call(order, trans_a, trans_b, M, N, K, alpha, nullptr, lda, nullptr, ldb, beta,
                                       nullptr, ldc);
  call.batch = batch;
  call.A_array = A_array;
  call.B_array = B_array;
  call.C_array = C_array;
  return to_c(runtime->runtime.sgemm(call, stream));
}

gemmtune_status gemmtune_plan(const gemmtune_runtime* runtime, gemmtune_order order, gemmtune_transpose trans_a,
                              gemmtune_transpose trans_b, int M, int N, int K, const float* A, int64_t lda,
                              const float* B, int64_t ldb, const float* C, int64_t ldc, char* text,
                              size_t capacity) {
  if (runtime == nullptr) return to_c(gemmtune::dispatch::fail(Status::NotInitialized, kNullRuntime));
  if (text == nullptr || capacity == 0) {
    return to_c(gemmtune::dispatch::fail(Status::InvalidValue, "gemmtune_plan: no room for the text (NULL or capacity 0)"));
  }
  try {
    gemmtune::Selection selection;
    // plan() reads only the pointers' alignment, so C may be const here.
    const Status status = runtime->runtime.plan(
        make_call(order, trans_a, trans_b, M, N, K, 1.0f, A, lda, B, ldb, 0.0f, const_cast<float*>(C), ldc), selection);
    if (status != Status::Success) return to_c(status);
    const std::string line = gemmtune::describe(selection);
    const std::size_t length = line.size() < capacity - 1 ? line.size() : capacity - 1;
    std::memcpy(text, line.data(), length);
    text[length] = '\0';
    return GEMMTUNE_STATUS_SUCCESS;
  } catch (...) {
    return to_c(gemmtune::dispatch::fail_from_current_exception("gemmtune_plan"));
  }
}

const char* gemmtune_last_error(void) { return gemmtune::dispatch::thread_last_error().c_str(); }

const char* gemmtune_status_name(gemmtune_status status) {
  if (status < GEMMTUNE_STATUS_SUCCESS || status > GEMMTUNE_STATUS_INTERNAL_ERROR) return "unknown";
  return gemmtune::to_string(static_cast<Status>(status));
}

}  // extern "C"
