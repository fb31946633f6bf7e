/* gemmtune's C API: the dispatch runtime of <gemmtune/runtime.hpp> for C and for any FFI
 * (Python's ctypes, Rust, Julia...), in libgemmtune.so. Open the tuning database once, then call
 * gemmtune_sgemm() as you would cublasSgemm or cblas_sgemm: each call runs the kernel tuned for
 * its shape on this GPU, or the winner of the nearest tuned shape, or a sound default.
 *
 *   gemmtune_runtime* runtime = NULL;
 *   if (gemmtune_runtime_open(&runtime, "tuned.db", NULL) != GEMMTUNE_STATUS_SUCCESS)
 *     fprintf(stderr, "%s\n", gemmtune_last_error());
 *   gemmtune_sgemm(runtime, GEMMTUNE_ROW_MAJOR, GEMMTUNE_NO_TRANS, GEMMTUNE_NO_TRANS,
 *                  M, N, K, 1.0f, A, K, B, N, 0.0f, C, N, stream);
 *   gemmtune_runtime_close(runtime);
 *
 * Every function returns a status and never lets a C++ exception out; on anything but success,
 * gemmtune_last_error() says why. C99; includes only <stddef.h> and <stdint.h>. See docs/api.md. */
#ifndef GEMMTUNE_GEMMTUNE_H
#define GEMMTUNE_GEMMTUNE_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The values of gemmtune::Status, in the same order (docs/api.md: when each is returned). */
typedef enum gemmtune_status {
  GEMMTUNE_STATUS_SUCCESS = 0,
  GEMMTUNE_STATUS_NOT_INITIALIZED = 1,    /* a NULL runtime */
  GEMMTUNE_STATUS_INVALID_VALUE = 2,      /* an argument is invalid; nothing launched */
  GEMMTUNE_STATUS_NOT_SUPPORTED = 3,      /* valid arguments no kernel can serve */
  GEMMTUNE_STATUS_NO_DEVICE = 4,          /* open: no usable CUDA device */
  GEMMTUNE_STATUS_DATABASE_NOT_FOUND = 5, /* open: no such database file */
  GEMMTUNE_STATUS_DATABASE_ERROR = 6,     /* open: not a readable gemmtune database */
  GEMMTUNE_STATUS_UNTUNED_GPU = 7,        /* open: nothing tuned for this GPU */
  GEMMTUNE_STATUS_KERNEL_ERROR = 8,       /* the kernel could not be loaded, compiled or launched */
  GEMMTUNE_STATUS_EXECUTION_FAILED = 9,   /* the launch failed (a CUDA or cuBLAS error) */
  GEMMTUNE_STATUS_INTERNAL_ERROR = 10,    /* anything else, e.g. out of host memory */
  GEMMTUNE_STATUS_MAX_ENUM = 0x7fffffff   /* not a status: makes the enum an int's width */
} gemmtune_status;

/* How every matrix of a call is stored (CBLAS's CblasRowMajor / CblasColMajor). */
/* (Each enum ends in a *_MAX_ENUM that is not a value, as Vulkan's do: an out-of-range value
 * that reaches the library is then still a value of the type, which the library refuses with
 * INVALID_VALUE.) */
typedef enum gemmtune_order {
  GEMMTUNE_ROW_MAJOR = 0,
  GEMMTUNE_COL_MAJOR = 1,
  GEMMTUNE_ORDER_MAX_ENUM = 0x7fffffff
} gemmtune_order;

/* Whether an operand is used as stored or transposed. */
typedef enum gemmtune_transpose {
  GEMMTUNE_NO_TRANS = 0,
  GEMMTUNE_TRANS = 1,
  GEMMTUNE_TRANSPOSE_MAX_ENUM = 0x7fffffff
} gemmtune_transpose;

/* An open Runtime: one database, one device. Safe to use from many threads at once. */
typedef struct gemmtune_runtime gemmtune_runtime;

/* gemmtune::RuntimeOptions; gemmtune_runtime_open(..., NULL) takes the defaults (all 0). */
typedef struct gemmtune_runtime_options {
  int device;        /* the CUDA device the runtime serves; call with it current */
  int allow_untuned; /* nonzero: default kernels instead of DATABASE_NOT_FOUND / UNTUNED_GPU */
  int prefer_cublas; /* nonzero: cuBLAS where the tuner measured it faster than the winner */
} gemmtune_runtime_options;

/* The same type as CUDA's cudaStream_t (and CUstream), without CUDA's headers; NULL is the
 * legacy default stream. */
struct CUstream_st;
typedef struct CUstream_st* gemmtune_stream;

/* Opens `db_path` read-only for options->device and stores a new runtime in *runtime (left as it
 * was on failure). db_path NULL or "" means no database (needs allow_untuned). */
gemmtune_status gemmtune_runtime_open(gemmtune_runtime** runtime, const char* db_path,
                                      const gemmtune_runtime_options* options);

/* Opens the ahead-of-time export in `dir` (tunedb export-kernels --out DIR) instead of a
 * database: calls are served from its cubins without SQLite or NVRTC (Runtime::open_manifest). */
gemmtune_status gemmtune_runtime_open_manifest(gemmtune_runtime** runtime, const char* dir,
                                               const gemmtune_runtime_options* options);

/* Frees a runtime (NULL is fine). Its kernels and workspaces go with it: call it only after the
 * work it launched is done or no longer needed. */
void gemmtune_runtime_close(gemmtune_runtime* runtime);

/* C = alpha op(A) op(B) + beta C on `stream`, asynchronously, as cublasSgemm: C is M x N, op(A)
 * M x K, op(B) K x N, every matrix stored in `order` with its leading dimension in elements.
 * A, B, C are device pointers; beta == 0: C is only written. */
gemmtune_status gemmtune_sgemm(const gemmtune_runtime* runtime, gemmtune_order order, gemmtune_transpose trans_a,
                               gemmtune_transpose trans_b, int M, int N, int K, float alpha, const float* A,
                               int64_t lda, const float* B, int64_t ldb, float beta, float* C, int64_t ldc,
                               gemmtune_stream stream);

/* `batch` GEMMs of one shape, as cublasSgemmStridedBatched: entry i reads A + i * stride_a and
 * B + i * stride_b and writes C + i * stride_c (strides in elements; A's and B's may be 0, C's
 * entries must not overlap). Runtime::sgemm_strided_batched. */
gemmtune_status gemmtune_sgemm_strided_batched(const gemmtune_runtime* runtime, gemmtune_order order,
                                               gemmtune_transpose trans_a, gemmtune_transpose trans_b, int M, int N,
                                               int K, float alpha, const float* A, int64_t lda, int64_t stride_a,
                                               const float* B, int64_t ldb, int64_t stride_b, float beta, float* C,
                                               int64_t ldc, int64_t stride_c, int batch, gemmtune_stream stream);

/* The same with arrays of `batch` device pointers, themselves in device memory, as
 * cublasSgemmBatched. Runtime::sgemm_batched. */
gemmtune_status gemmtune_sgemm_batched(const gemmtune_runtime* runtime, gemmtune_order order,
                                       gemmtune_transpose trans_a, gemmtune_transpose trans_b, int M, int N, int K,
                                       float alpha, const float* const* A_array, int64_t lda,
                                       const float* const* B_array, int64_t ldb, float beta, float* const* C_array,
                                       int64_t ldc, int batch, gemmtune_stream stream);

/* Which kernel gemmtune_sgemm with these arguments would run and why, in one line, without
 * launching anything (Runtime::plan and describe()): copied into `text` (cut to `capacity`
 * bytes, always NUL-terminated). */
gemmtune_status gemmtune_plan(const gemmtune_runtime* runtime, gemmtune_order order, gemmtune_transpose trans_a,
                              gemmtune_transpose trans_b, int M, int N, int K, const float* A, int64_t lda,
                              const float* B, int64_t ldb, const float* C, int64_t ldc, char* text,
                              size_t capacity);

/* The message of the last call that failed on this thread; valid until the next gemmtune call on
 * this thread fails. Never NULL ("" before any failure). */
const char* gemmtune_last_error(void);

/* "success", "invalid_value", ...; "unknown" for a value outside the enum. */
const char* gemmtune_status_name(gemmtune_status status);

#ifdef __cplusplus
}
#endif

#endif /* GEMMTUNE_GEMMTUNE_H */
