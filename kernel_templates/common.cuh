// Device helpers shared by every kernel family: operand access for the four layouts, tile copies
// from global to shared memory with zero fill at the matrix edges, and the alpha/beta epilogue.
#pragma once

#include "gemm_params.h"

namespace gemmtune {

// The GemmParams of batch entry `entry` (0 <= entry < p.batch): the same shape and scalars, with
// A, B and C moved to that entry (gemm_params.h). A kernel that serves batched calls takes its
// entry from its batch grid dimension at its start and is otherwise the plain kernel.
__device__ __forceinline__ GemmParams batch_entry(const GemmParams& p, int entry) {
  GemmParams e = p;
  if (p.A_array != nullptr) {
    e.A = p.A_array[entry];
    e.B = p.B_array[entry];
    e.C = p.C_array[entry];
  } else {
    e.A = p.A + entry * p.stride_a;
    e.B = p.B + entry * p.stride_b;
    e.C = p.C + entry * p.stride_c;
  }
  return e;
}

// Element (m, k) of op(A) and (k, n) of op(B); no bounds check.
template <Layout L>
__device__ __forceinline__ float load_a(const GemmParams& p, int m, int k) {
  return a_is_transposed(L) ? p.A[static_cast<long long>(k) * p.lda + m]
                            : p.A[static_cast<long long>(m) * p.lda + k];
}
template <Layout L>
__device__ __forceinline__ float load_b(const GemmParams& p, int k, int n) {
  return b_is_transposed(L) ? p.B[static_cast<long long>(n) * p.ldb + k]
                            : p.B[static_cast<long long>(k) * p.ldb + n];
}

// alpha * acc, where alpha == 0 means, as in BLAS, that A and B take no part in the result: they
// may hold infinities or NaNs, which 0 * acc would carry into C.
__device__ __forceinline__ float alpha_times(const GemmParams& p, float acc) {
  return p.alpha == 0.0f ? 0.0f : p.alpha * acc;
}

// C(m, n) = alpha * acc + beta * C(m, n). With beta == 0, C is not read: it may hold NaN.
__device__ __forceinline__ void store_c(const GemmParams& p, int m, int n, float acc) {
  float* c = p.C + static_cast<long long>(m) * p.ldc + n;
  *c = p.beta == 0.0f ? alpha_times(p, acc) : alpha_times(p, acc) + p.beta * *c;
}

// Asks L2 for the line holding `address` (a hint: nothing waits for it).
__device__ __forceinline__ void prefetch_l2(const float* address) {
  asm volatile("prefetch.global.L2 [%0];\n" ::"l"(address));
}

// Asks L2 for the ROWS x COLS tile of C at (m0, n0), one request per 8 floats (a 32-byte sector;
// consecutive threads take consecutive sectors of a row). For kernels whose main loop is short:
// the epilogue's reads of C then wait for L2, not for DRAM, and the wait overlaps the main loop.
// Nothing is asked where beta == 0 (C is not read).
template <int ROWS, int COLS, int THREADS>
__device__ __forceinline__ void prefetch_c_tile(const GemmParams& p, int m0, int n0, int tid) {
  if (p.beta == 0.0f) return;
  constexpr int SECTORS_PER_ROW = (COLS + 7) / 8;
  for (int e = tid; e < ROWS * SECTORS_PER_ROW; e += THREADS) {
    const int m = m0 + e / SECTORS_PER_ROW;
    const int n = n0 + e % SECTORS_PER_ROW * 8;
    if (m < p.M && n < p.N) prefetch_l2(p.C + static_cast<long long>(m) * p.ldc + n);
  }
}

// Copies the BM x BK tile of op(A) at (m0, k0) to shared memory, zero outside the matrix.
// Consecutive threads read consecutive addresses of A as stored, whatever its layout.
// TRANSPOSE_IN_SMEM: stored as smem[k * BM + m] (for reads along m) instead of smem[m * BK + k].
template <int BM, int BK, int THREADS, Layout L, bool TRANSPOSE_IN_SMEM>
__device__ __forceinline__ void load_a_tile(float* smem, const GemmParams& p, int m0, int k0,
                                            int tid) {
#pragma unroll
  for (int i = 0; i < (BM * BK + THREADS - 1) / THREADS; ++i) {
    const int e = i * THREADS + tid;
    if ((BM * BK) % THREADS != 0 && e >= BM * BK) break;
    const int m = a_is_transposed(L) ? e % BM : e / BK;
    const int k = a_is_transposed(L) ? e / BM : e % BK;
    const float value = (m0 + m < p.M && k0 + k < p.K) ? load_a<L>(p, m0 + m, k0 + k) : 0.0f;
    smem[TRANSPOSE_IN_SMEM ? k * BM + m : m * BK + k] = value;
  }
}

// Copies the BK x BN tile of op(B) at (k0, n0) to smem[k * BN + n], zero outside the matrix.
template <int BK, int BN, int THREADS, Layout L>
__device__ __forceinline__ void load_b_tile(float* smem, const GemmParams& p, int k0, int n0,
                                            int tid) {
#pragma unroll
  for (int i = 0; i < (BK * BN + THREADS - 1) / THREADS; ++i) {
    const int e = i * THREADS + tid;
    if ((BK * BN) % THREADS != 0 && e >= BK * BN) break;
    const int k = b_is_transposed(L) ? e % BK : e / BN;
    const int n = b_is_transposed(L) ? e / BK : e % BN;
    const float value = (k0 + k < p.K && n0 + n < p.N) ? load_b<L>(p, k0 + k, n0 + n) : 0.0f;
    smem[k * BN + n] = value;
  }
}

// dst[0..3] = the four floats at src, one 128-bit load (src 16-byte aligned, in shared memory):
// how the inner loops fill their register fragments.
__device__ __forceinline__ void load_fragment4(float* dst, const float* src) {
  const float4 v = *reinterpret_cast<const float4*>(src);
  dst[0] = v.x;
  dst[1] = v.y;
  dst[2] = v.z;
  dst[3] = v.w;
}

// Four consecutive floats from ptr; elements at index >= valid read as 0 and are not touched.
// ALIGN (in floats) is what the caller guarantees for ptr: 4 allows one 128-bit load, 2 two
// 64-bit loads; otherwise the elements are read one by one.
template <int ALIGN>
__device__ __forceinline__ float4 load_float4(const float* ptr, int valid) {
  if (valid >= 4) {
    if (ALIGN == 4) return *reinterpret_cast<const float4*>(ptr);
    if (ALIGN == 2) {
      const float2 lo = reinterpret_cast<const float2*>(ptr)[0];
      const float2 hi = reinterpret_cast<const float2*>(ptr)[1];
      return make_float4(lo.x, lo.y, hi.x, hi.y);
    }
  }
  return make_float4(valid > 0 ? ptr[0] : 0.0f, valid > 1 ? ptr[1] : 0.0f,
                     valid > 2 ? ptr[2] : 0.0f, valid > 3 ? ptr[3] : 0.0f);
}

// WIDTH (2 or 4) consecutive floats at ptr into out; elements at index >= valid read as 0 and
// are not touched. ALIGN as for load_float4.
template <int WIDTH, int ALIGN>
__device__ __forceinline__ void load_run(const float* ptr, int valid, float (&out)[WIDTH]) {
  static_assert(WIDTH == 2 || WIDTH == 4, "runs are 2 or 4 floats");
  if constexpr (WIDTH == 4) {
    const float4 v = load_float4<ALIGN>(ptr, valid);
    out[0] = v.x, out[1] = v.y, out[2] = v.z, out[3] = v.w;
  } else if (valid >= 2 && ALIGN >= 2) {
    const float2 v = *reinterpret_cast<const float2*>(ptr);
    out[0] = v.x, out[1] = v.y;
  } else {
    out[0] = valid > 0 ? ptr[0] : 0.0f, out[1] = valid > 1 ? ptr[1] : 0.0f;
  }
}

// Writes the first `valid` of WIDTH (2 or 4) floats to ptr: whole runs as one vector access where
// ALIGN allows it, as 64-bit halves where only 2 does, else one by one.
template <int WIDTH, int ALIGN>
__device__ __forceinline__ void store_run(float* ptr, const float (&run)[WIDTH], int valid) {
  static_assert(WIDTH == 2 || WIDTH == 4, "runs are 2 or 4 floats");
  if (valid >= WIDTH && ALIGN >= WIDTH) {
    if constexpr (WIDTH == 4) *reinterpret_cast<float4*>(ptr) = make_float4(run[0], run[1], run[2], run[3]);
    else *reinterpret_cast<float2*>(ptr) = make_float2(run[0], run[1]);
  } else if (valid >= WIDTH && ALIGN == 2) {
#pragma unroll
    for (int e = 0; e < WIDTH; e += 2) reinterpret_cast<float2*>(ptr)[e / 2] = make_float2(run[e], run[e + 1]);
  } else {
#pragma unroll
    for (int e = 0; e < WIDTH; ++e) {
      if (valid > e) ptr[e] = run[e];
    }
  }
}

// Applies the epilogue to WIDTH (2 or 4) consecutive outputs of row m starting at column n;
// only the first `valid` are written. ALIGN as for load_float4, for the address of C(m, n).
template <int WIDTH, int ALIGN>
__device__ __forceinline__ void store_c_run(const GemmParams& p, int m, int n, const float (&acc)[WIDTH], int valid) {
  float* c = p.C + static_cast<long long>(m) * p.ldc + n;
  float out[WIDTH];
#pragma unroll
  for (int e = 0; e < WIDTH; ++e) out[e] = alpha_times(p, acc[e]);
  if (p.beta != 0.0f) {
    float old[WIDTH];
    load_run<WIDTH, ALIGN>(c, valid, old);
#pragma unroll
    for (int e = 0; e < WIDTH; ++e) out[e] += p.beta * old[e];
  }
  store_run<WIDTH, ALIGN>(c, out, valid);
}

// store_c_run for four outputs held in a float4.
template <int ALIGN>
__device__ __forceinline__ void store_c4(const GemmParams& p, int m, int n, float4 acc, int valid) {
  const float run[4] = {acc.x, acc.y, acc.z, acc.w};
  store_c_run<4, ALIGN>(p, m, n, run, valid);
}

// The epilogue of RUNS runs of 4 consecutive outputs of one thread: run r starts at C(m[r], n[r])
// and its first valid[r] outputs exist (0 or less: none, and nothing is read or written there).
// Every run's C is loaded before any run is stored. Run after run (store_c4 in a loop), the
// compiler must keep each load of C behind the store before it, since it cannot tell their
// addresses apart, and the thread waits a round trip to L2 or DRAM a run: 16 in a row for a 4 x 16
// thread tile. Here the loads are in flight together and the thread waits about once. The
// arithmetic is store_c_run's: the same bits.
template <int ALIGN, int RUNS>
__device__ __forceinline__ void store_c_runs4(const GemmParams& p, const int (&m)[RUNS], const int (&n)[RUNS],
                                              const int (&valid)[RUNS], const float (&acc)[RUNS][4]) {
  auto address = [&](int r) { return p.C + static_cast<long long>(m[r]) * p.ldc + n[r]; };
  float out[RUNS][4];
#pragma unroll
  for (int r = 0; r < RUNS; ++r)
#pragma unroll
    for (int e = 0; e < 4; ++e) out[r][e] = alpha_times(p, acc[r][e]);
  if (p.beta != 0.0f) {
    float old[RUNS][4];
#pragma unroll
    for (int r = 0; r < RUNS; ++r) load_run<4, ALIGN>(address(r), valid[r], old[r]);
#pragma unroll
    for (int r = 0; r < RUNS; ++r)
#pragma unroll
      for (int e = 0; e < 4; ++e) out[r][e] += p.beta * old[r][e];
  }
#pragma unroll
  for (int r = 0; r < RUNS; ++r) {
    if (valid[r] > 0) store_run<4, ALIGN>(address(r), out[r], valid[r]);
  }
}

// How many of a TM x TN thread tile's runs of 4 outputs store_c_runs4 takes at a time: WANTED, or
// all of them where there are fewer. Run r is row r / (TN / 4), columns 4 (r % (TN / 4)) on.
template <int TM, int TN, int WANTED>
__device__ constexpr int epilogue_runs() {
  constexpr int total = TM * TN / 4;
  constexpr int runs = WANTED < total ? WANTED : total;
  static_assert(TN % 4 == 0 && total % runs == 0, "the epilogue takes whole runs of 4 and whole batches of runs");
  return runs;
}

}  // namespace gemmtune
