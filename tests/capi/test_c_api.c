/* The C API (include/gemmtune/gemmtune.h) from a C program that links libgemmtune.so, as a C
 * user or an FFI sees it.
 *
 *   test_c_api cpu   argument errors and the path without a GPU (any machine)
 *   test_c_api gpu   [gpu] sgemm against cuBLAS on the same data, on a stream of the program's own
 *                    CUDA runtime (prints SKIPPED: without a GPU)
 *
 * Prints each failed check and "N passed, N failed"; exit 0 when none failed. */
#include <gemmtune/gemmtune.h>

#include <cublas_v2.h>
#include <cuda_runtime_api.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int passed, failed;

#define CHECK(condition)                                                         \
  do {                                                                           \
    if (condition) {                                                             \
      ++passed;                                                                  \
    } else {                                                                     \
      ++failed;                                                                  \
      printf("%s:%d: check failed: %s\n", __FILE__, __LINE__, #condition);       \
      printf("  gemmtune_last_error(): %s\n", gemmtune_last_error());            \
    }                                                                            \
  } while (0)

static int contains(const char* text, const char* part) { return text != NULL && strstr(text, part) != NULL; }

static int has_gpu(void) {
  int count = 0;
  return cudaGetDeviceCount(&count) == cudaSuccess && count > 0;
}

static void* fail_on_another_thread(void* unused) {
  (void)unused;
  gemmtune_sgemm(NULL, GEMMTUNE_ROW_MAJOR, GEMMTUNE_NO_TRANS, GEMMTUNE_NO_TRANS, 1, 1, 1, 1.0f, NULL, 1, NULL, 1,
                 0.0f, NULL, 1, NULL);
  return NULL;
}

static void cpu_checks(void) {
  CHECK(strcmp(gemmtune_last_error(), "") == 0); /* nothing failed yet */
  CHECK(strcmp(gemmtune_status_name(GEMMTUNE_STATUS_SUCCESS), "success") == 0);
  CHECK(strcmp(gemmtune_status_name(GEMMTUNE_STATUS_INVALID_VALUE), "invalid_value") == 0);
  CHECK(strcmp(gemmtune_status_name(GEMMTUNE_STATUS_INTERNAL_ERROR), "internal_error") == 0);
  CHECK(strcmp(gemmtune_status_name((gemmtune_status)99), "unknown") == 0);

  CHECK(gemmtune_runtime_open(NULL, "tuned.db", NULL) == GEMMTUNE_STATUS_INVALID_VALUE);
  CHECK(contains(gemmtune_last_error(), "gemmtune_runtime_open: the runtime pointer is NULL"));

  /* Without a GPU: NO_DEVICE saying why, and the runtime left as it was. With one, a missing
   * database is DATABASE_NOT_FOUND. */
  gemmtune_runtime* runtime = NULL;
  const gemmtune_status opened = gemmtune_runtime_open(&runtime, "/nonexistent/tuned.db", NULL);
  if (has_gpu()) {
    CHECK(opened == GEMMTUNE_STATUS_DATABASE_NOT_FOUND);
  } else {
    CHECK(opened == GEMMTUNE_STATUS_NO_DEVICE);
    CHECK(contains(gemmtune_last_error(), "no usable CUDA device"));
  }
  CHECK(runtime == NULL);
  gemmtune_runtime_options options = {0, 1, 0};
  if (!has_gpu()) CHECK(gemmtune_runtime_open(&runtime, NULL, &options) == GEMMTUNE_STATUS_NO_DEVICE);
  const gemmtune_status exported = gemmtune_runtime_open_manifest(&runtime, "/nonexistent/kernels", NULL);
  CHECK(exported == (has_gpu() ? GEMMTUNE_STATUS_DATABASE_NOT_FOUND : GEMMTUNE_STATUS_NO_DEVICE));
  CHECK(contains(gemmtune_last_error(), "Runtime::open_manifest"));
  CHECK(runtime == NULL);
  CHECK(gemmtune_runtime_open_manifest(NULL, "kernels", NULL) == GEMMTUNE_STATUS_INVALID_VALUE);
  CHECK(contains(gemmtune_last_error(), "gemmtune_runtime_open_manifest: the runtime pointer is NULL"));

  float dummy[4];
  CHECK(gemmtune_sgemm(NULL, GEMMTUNE_ROW_MAJOR, GEMMTUNE_NO_TRANS, GEMMTUNE_NO_TRANS, 2, 2, 2, 1.0f, dummy, 2, dummy,
                       2, 0.0f, dummy, 2, NULL) == GEMMTUNE_STATUS_NOT_INITIALIZED);
  CHECK(contains(gemmtune_last_error(), "the runtime is NULL"));
  CHECK(gemmtune_sgemm_strided_batched(NULL, GEMMTUNE_ROW_MAJOR, GEMMTUNE_NO_TRANS, GEMMTUNE_NO_TRANS, 2, 2, 2, 1.0f,
                                       dummy, 2, 0, dummy, 2, 0, 0.0f, dummy, 2, 4, 1, NULL) ==
        GEMMTUNE_STATUS_NOT_INITIALIZED);
  CHECK(contains(gemmtune_last_error(), "the runtime is NULL"));
  const float* const arrays[1] = {dummy};
  float* const outputs[1] = {dummy};
  CHECK(gemmtune_sgemm_batched(NULL, GEMMTUNE_ROW_MAJOR, GEMMTUNE_NO_TRANS, GEMMTUNE_NO_TRANS, 2, 2, 2, 1.0f, arrays, 2,
                               arrays, 2, 0.0f, outputs, 2, 1, NULL) == GEMMTUNE_STATUS_NOT_INITIALIZED);
  CHECK(contains(gemmtune_last_error(), "the runtime is NULL"));
  char text[64];
  CHECK(gemmtune_plan(NULL, GEMMTUNE_ROW_MAJOR, GEMMTUNE_NO_TRANS, GEMMTUNE_NO_TRANS, 2, 2, 2, dummy, 2, dummy, 2,
                      dummy, 2, text, sizeof text) == GEMMTUNE_STATUS_NOT_INITIALIZED);
  gemmtune_runtime_close(NULL); /* a no-op */

  /* The message is kept per thread: a failure elsewhere leaves this thread's alone. */
  CHECK(gemmtune_runtime_open(NULL, "mine.db", NULL) == GEMMTUNE_STATUS_INVALID_VALUE);
  pthread_t thread;
  CHECK(pthread_create(&thread, NULL, fail_on_another_thread, NULL) == 0);
  pthread_join(thread, NULL);
  CHECK(contains(gemmtune_last_error(), "the runtime pointer is NULL"));
}

/* Fills with values in [-1, 1) from a fixed seed. */
static void fill(float* values, size_t count, unsigned seed) {
  for (size_t i = 0; i < count; ++i) {
    seed = seed * 1664525u + 1013904223u;
    values[i] = (float)((seed >> 8) & 0xffff) / 32768.0f - 1.0f;
  }
}

/* The largest |x - y| over the largest |y|. */
static double relative_difference(const float* x, const float* y, size_t count) {
  double difference = 0, largest = 1e-30;
  for (size_t i = 0; i < count; ++i) {
    difference = fmax(difference, fabs((double)x[i] - y[i]));
    largest = fmax(largest, fabs((double)y[i]));
  }
  return difference / largest;
}

/* Column-major C = A^T B with gemmtune and with cuBLAS on the same inputs, on a stream; then
 * row-major C = A B, which cuBLAS computes as column-major C^T = B^T A^T. */
static void gpu_checks(void) {
  if (!has_gpu()) {
    printf("SKIPPED: no usable CUDA device\n");
    return;
  }
  gemmtune_runtime_options options = {0, 1, 0}; /* untuned: default kernels */
  gemmtune_runtime* runtime = NULL;
  CHECK(gemmtune_runtime_open(&runtime, "", &options) == GEMMTUNE_STATUS_SUCCESS);
  if (runtime == NULL) return;
  enum { M = 100, N = 70, K = 50 };
  const size_t a_count = (size_t)M * K, b_count = (size_t)K * N, c_count = (size_t)M * N;
  float *host_a = malloc(a_count * 4), *host_b = malloc(b_count * 4);
  float *ours = malloc(c_count * 4), *theirs = malloc(c_count * 4);
  fill(host_a, a_count, 1);
  fill(host_b, b_count, 2);
  float *a, *b, *c_ours, *c_theirs;
  CHECK(cudaMalloc((void**)&a, a_count * 4) == cudaSuccess);
  CHECK(cudaMalloc((void**)&b, b_count * 4) == cudaSuccess);
  CHECK(cudaMalloc((void**)&c_ours, c_count * 4) == cudaSuccess);
  CHECK(cudaMalloc((void**)&c_theirs, c_count * 4) == cudaSuccess);
  CHECK(cudaMemcpy(a, host_a, a_count * 4, cudaMemcpyHostToDevice) == cudaSuccess);
  CHECK(cudaMemcpy(b, host_b, b_count * 4, cudaMemcpyHostToDevice) == cudaSuccess);
  cudaStream_t stream;
  CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking) == cudaSuccess);
  cublasHandle_t cublas;
  CHECK(cublasCreate(&cublas) == CUBLAS_STATUS_SUCCESS);
  CHECK(cublasSetStream(cublas, stream) == CUBLAS_STATUS_SUCCESS);
  CHECK(cublasSetMathMode(cublas, CUBLAS_PEDANTIC_MATH) == CUBLAS_STATUS_SUCCESS);
  const float alpha = 1.5f, beta = 0.0f;

  /* Column-major, A stored K x M (lda K) and used transposed. */
  CHECK(gemmtune_sgemm(runtime, GEMMTUNE_COL_MAJOR, GEMMTUNE_TRANS, GEMMTUNE_NO_TRANS, M, N, K, alpha, a, K, b, K,
                       beta, c_ours, M, stream) == GEMMTUNE_STATUS_SUCCESS);
  CHECK(cublasSgemm(cublas, CUBLAS_OP_T, CUBLAS_OP_N, M, N, K, &alpha, a, K, b, K, &beta, c_theirs, M) ==
        CUBLAS_STATUS_SUCCESS);
  CHECK(cudaStreamSynchronize(stream) == cudaSuccess);
  CHECK(cudaMemcpy(ours, c_ours, c_count * 4, cudaMemcpyDeviceToHost) == cudaSuccess);
  CHECK(cudaMemcpy(theirs, c_theirs, c_count * 4, cudaMemcpyDeviceToHost) == cudaSuccess);
  double difference = relative_difference(ours, theirs, c_count);
  printf("col-major A^T B, %dx%dx%d: relative difference to cuBLAS %.3g\n", M, N, K, difference);
  CHECK(difference < 1e-5);

  /* Row-major C (M x N) = A (M x K, lda K) B (K x N, ldb N). */
  CHECK(gemmtune_sgemm(runtime, GEMMTUNE_ROW_MAJOR, GEMMTUNE_NO_TRANS, GEMMTUNE_NO_TRANS, M, N, K, alpha, a, K, b, N,
                       beta, c_ours, N, stream) == GEMMTUNE_STATUS_SUCCESS);
  CHECK(cublasSgemm(cublas, CUBLAS_OP_N, CUBLAS_OP_N, N, M, K, &alpha, b, N, a, K, &beta, c_theirs, N) ==
        CUBLAS_STATUS_SUCCESS);
  CHECK(cudaStreamSynchronize(stream) == cudaSuccess);
  CHECK(cudaMemcpy(ours, c_ours, c_count * 4, cudaMemcpyDeviceToHost) == cudaSuccess);
  CHECK(cudaMemcpy(theirs, c_theirs, c_count * 4, cudaMemcpyDeviceToHost) == cudaSuccess);
  difference = relative_difference(ours, theirs, c_count);
  printf("row-major A B, %dx%dx%d: relative difference to cuBLAS %.3g\n", M, N, K, difference);
  CHECK(difference < 1e-5);

  /* Argument errors with an open runtime: named in the message, nothing launched. */
  CHECK(gemmtune_sgemm(runtime, GEMMTUNE_ROW_MAJOR, GEMMTUNE_NO_TRANS, GEMMTUNE_NO_TRANS, M, N, K, alpha, a, K - 1,
                       b, N, beta, c_ours, N, stream) == GEMMTUNE_STATUS_INVALID_VALUE);
  CHECK(contains(gemmtune_last_error(), "lda 49 is below its minimum 50"));
  CHECK(gemmtune_sgemm(runtime, (gemmtune_order)7, GEMMTUNE_NO_TRANS, GEMMTUNE_NO_TRANS, M, N, K, alpha, a, K, b, N,
                       beta, c_ours, N, stream) == GEMMTUNE_STATUS_INVALID_VALUE);
  CHECK(gemmtune_sgemm(runtime, GEMMTUNE_ROW_MAJOR, GEMMTUNE_NO_TRANS, GEMMTUNE_NO_TRANS, M, N, K, alpha, NULL, K, b,
                       N, beta, c_ours, N, stream) == GEMMTUNE_STATUS_INVALID_VALUE);
  /* Batched calls' own errors: the batch, overlapping entries of C, pointer arrays missing. */
  CHECK(gemmtune_sgemm_strided_batched(runtime, GEMMTUNE_ROW_MAJOR, GEMMTUNE_NO_TRANS, GEMMTUNE_NO_TRANS, M, N, K,
                                       alpha, a, K, 0, b, N, 0, beta, c_ours, N, M * N, 0, stream) ==
        GEMMTUNE_STATUS_INVALID_VALUE);
  CHECK(contains(gemmtune_last_error(), "batch 0 is outside 1..65535"));
  CHECK(gemmtune_sgemm_strided_batched(runtime, GEMMTUNE_ROW_MAJOR, GEMMTUNE_NO_TRANS, GEMMTUNE_NO_TRANS, M, N, K,
                                       alpha, a, K, 0, b, N, 0, beta, c_ours, N, N, 2, stream) ==
        GEMMTUNE_STATUS_INVALID_VALUE);
  CHECK(contains(gemmtune_last_error(), "stride_c 70 is below 7000, one entry of C: the entries would overlap"));
  CHECK(gemmtune_sgemm_batched(runtime, GEMMTUNE_ROW_MAJOR, GEMMTUNE_NO_TRANS, GEMMTUNE_NO_TRANS, M, N, K, alpha,
                               NULL, K, NULL, N, beta, NULL, N, 2, stream) == GEMMTUNE_STATUS_INVALID_VALUE);
  CHECK(contains(gemmtune_last_error(), "A is null"));
  char text[256];
  CHECK(gemmtune_plan(runtime, GEMMTUNE_ROW_MAJOR, GEMMTUNE_NO_TRANS, GEMMTUNE_NO_TRANS, M, N, K, a, K, b, N, c_ours,
                      N, text, sizeof text) == GEMMTUNE_STATUS_SUCCESS);
  printf("plan: %s\n", text);
  CHECK(contains(text, "gemmtune_sgemm_") && contains(text, "nn:100x70x50"));
  char small[8];
  CHECK(gemmtune_plan(runtime, GEMMTUNE_ROW_MAJOR, GEMMTUNE_NO_TRANS, GEMMTUNE_NO_TRANS, M, N, K, a, K, b, N, c_ours,
                      N, small, sizeof small) == GEMMTUNE_STATUS_SUCCESS);
  CHECK(strlen(small) == sizeof small - 1 && strncmp(small, text, sizeof small - 1) == 0);

  cublasDestroy(cublas);
  cudaStreamDestroy(stream);
  cudaFree(a);
  cudaFree(b);
  cudaFree(c_ours);
  cudaFree(c_theirs);
  free(host_a);
  free(host_b);
  free(ours);
  free(theirs);
  gemmtune_runtime_close(runtime);
}

int main(int argc, char** argv) {
  if (argc != 2 || (strcmp(argv[1], "cpu") != 0 && strcmp(argv[1], "gpu") != 0)) {
    printf("usage: test_c_api cpu|gpu\n");
    return argc == 2 && (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) ? 0 : 2;
  }
  if (strcmp(argv[1], "cpu") == 0) cpu_checks();
  else gpu_checks();
  printf("%d passed, %d failed\n", passed, failed);
  return failed == 0 ? 0 : 1;
}
