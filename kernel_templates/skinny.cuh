// A bandwidth-bound kernel for problems with few rows (M from 1 to about 32): C = op(A) op(B)
// reads B (K x N) once, so the time is B's bytes over memory bandwidth, not FLOPs.
//
// A block owns 4 * NT columns of C and MT rows; its NT x KG threads stream B's rows: thread
// (tn, tk) reads columns n .. n+3 (one 128-bit load where ALIGN allows) of every KG-th row of the
// block's K slice, U rows in flight at a time (PREFETCH 2: the next U requested before these U are
// used, so that their latency hides behind this step's FFMAs), multiplies them with the MT values of A for that
// row (staged in shared memory KC rows at a time, read as broadcasts) and keeps MT x 4 sums in
// registers. Memory-bound code needs many loads in flight (U) and few barriers (large KC). The KG partial sums of each output are
// then added in a fixed order through shared memory, and the SPLITK slices of K (grid y) are
// added deterministically (splitk.cuh). Rows beyond MT are further blocks (grid z),
// which read B again: correct for any M, fast only for small M. For a transposed B (stored
// N x K) the loads are scalar and strided: correct, not fast.
#pragma once

#include "common.cuh"
#include "skinny_rules.h"
#include "splitk.cuh"

namespace gemmtune {

// Rows kc .. kc + k_count - 1 of the block's MT rows of op(A) into As[k][m] (zeros past M and
// k_count). Where A's rows are K-contiguous (nn, nt) a thread reads 4 consecutive k of one row (16
// bytes where ALIGN allows; kc is a multiple of 4) and a warp's threads take the rows first: its
// loads fill whole 32-byte sectors, and its shared stores meet at most 4 to a bank. Read one value
// at a time with m fastest, every thread of a warp touched a different row, 16-32 sectors a load.
template <int NT, int KG, int MT, int KC, Layout L, int ALIGN>
__device__ __forceinline__ void stage_a_chunk(const GemmParams& p, float* As, int m0, int kc, int k_count) {
  constexpr int THREADS = skinny_threads(NT, KG);
  const int tid = threadIdx.x;
  if constexpr (!a_is_transposed(L) && KC % 4 == 0) {
    for (int e = tid; e < MT * (KC / 4); e += THREADS) {
      const int m = e % MT, k = 4 * (e / MT);
      const float4 v = m0 + m < p.M ? load_float4<ALIGN>(p.A + static_cast<long long>(m0 + m) * p.lda + kc + k, k_count - k)
                                    : make_float4(0.0f, 0.0f, 0.0f, 0.0f);
      if (MT == 1) {
        *reinterpret_cast<float4*>(As + k) = v;
      } else {
        As[(k + 0) * MT + m] = v.x;
        As[(k + 1) * MT + m] = v.y;
        As[(k + 2) * MT + m] = v.z;
        As[(k + 3) * MT + m] = v.w;
      }
    }
  } else {
    for (int e = tid; e < KC * MT; e += THREADS) {
      const int k = e / MT, m = e % MT;
      As[e] = k < k_count && m0 + m < p.M ? load_a<L>(p, m0 + m, kc + k) : 0.0f;
    }
  }
}

template <int NT, int KG, int MT, int KC, int U, int SPLITK, int PREFETCH, Layout L, int ALIGN>
__global__ void __launch_bounds__(skinny_threads(NT, KG)) skinny_sgemm(GemmParams p) {
  constexpr int THREADS = skinny_threads(NT, KG);
  constexpr int BN = 4 * NT;
  constexpr long long SMEM_BYTES = skinny_smem_bytes(NT, KG, MT, KC);
  GEMMTUNE_SKINNY_RULES(GEMMTUNE_STATIC_ASSERT_RULE, "skinny")

  extern __shared__ __align__(16) float smem[];  // A's chunk As[k][m], later the KG partial sums
  const int tid = threadIdx.x;
  const int tn = tid % NT;
  const int tk = tid / NT;
  const int n0 = blockIdx.x * BN;
  const int m0 = blockIdx.z * MT;
  const int n = n0 + 4 * tn;
  // Slices start at a multiple of 4 rows, so that A's K-contiguous rows are read 16 bytes at a time.
  const int k_per_slice = ((p.K + SPLITK - 1) / SPLITK + 3) / 4 * 4;
  const int k_begin = min(p.K, static_cast<int>(blockIdx.y) * k_per_slice);
  const int k_end = min(p.K, k_begin + k_per_slice);

  float acc[MT][4] = {};
  const bool has_columns = n < p.N;
  for (int kc = k_begin; kc < k_end; kc += KC) {
    const int k_count = min(KC, k_end - kc);
    // Row kc + k of B at columns n .. n+3 (zeros past N).
    auto load_b_row = [&](int k) {
      if (!b_is_transposed(L)) return load_float4<ALIGN>(p.B + static_cast<long long>(kc + k) * p.ldb + n, p.N - n);
      const int valid = p.N - n;
      return make_float4(load_b<L>(p, kc + k, n), valid > 1 ? load_b<L>(p, kc + k, n + 1) : 0.0f,
                         valid > 2 ? load_b<L>(p, kc + k, n + 2) : 0.0f, valid > 3 ? load_b<L>(p, kc + k, n + 3) : 0.0f);
    };
    auto accumulate = [&](int k, const float4& b) {
#pragma unroll
      for (int m = 0; m < MT; ++m) {
        const float a = smem[k * MT + m];
        acc[m][0] += a * b.x;
        acc[m][1] += a * b.y;
        acc[m][2] += a * b.z;
        acc[m][3] += a * b.w;
      }
    };
    __syncthreads();  // the previous chunk is consumed
    stage_a_chunk<NT, KG, MT, KC, L, ALIGN>(p, smem, m0, kc, k_count);
    // The thread's rows of B go U at a time, all U loads issued before the first is used; the
    // first U are requested before the barrier, so their latency overlaps A's. Each U-row step
    // checks the bound once: an unrolled loop that checks it row by row keeps every load behind
    // the previous row's exit test, and only one is in flight (the SASS showed it so). Rows are
    // added in order, k = tk, tk + KG, ...
    int k = tk;
    float4 rows[U];
    auto load_step = [&] {
#pragma unroll
      for (int u = 0; u < U; ++u) rows[u] = load_b_row(k + u * KG);
    };
    auto accumulate_step = [&] {
#pragma unroll
      for (int u = 0; u < U; ++u) accumulate(k + u * KG, rows[u]);
    };
    const bool first_step = has_columns && k + (U - 1) * KG < k_count;
    if (first_step) load_step();
    __syncthreads();
    if (PREFETCH == 1) {
      if (first_step) {
        accumulate_step();
        k += U * KG;
      }
      if (has_columns) {
        for (; k + (U - 1) * KG < k_count; k += U * KG) {
          load_step();
          accumulate_step();
        }
      }
    } else if (first_step) {
      // rows holds the step at k; the next step's rows are requested before these are used. The
      // copy into rows waits for them, after this step's FFMAs.
      for (;;) {
        const int k_next = k + U * KG;
        const bool next_full = k_next + (U - 1) * KG < k_count;
        float4 next[U];
        if (next_full) {
#pragma unroll
          for (int u = 0; u < U; ++u) next[u] = load_b_row(k_next + u * KG);
        }
        accumulate_step();
        k = k_next;
        if (!next_full) break;
#pragma unroll
        for (int u = 0; u < U; ++u) rows[u] = next[u];
      }
    }
    if (has_columns) {
      for (; k < k_count; k += KG) accumulate(k, load_b_row(k));
    }
  }
  // Add the KG partial sums of each output in the order tk = 0, 1, ...
  __syncthreads();
  float* partial = smem;  // partial[tk][m][c], c = column within the block
#pragma unroll
  for (int m = 0; m < MT; ++m)
#pragma unroll
    for (int j = 0; j < 4; ++j) partial[(tk * MT + m) * BN + 4 * tn + j] = acc[m][j];
  __syncthreads();
  const long long tiles = static_cast<long long>(gridDim.x) * gridDim.z;
  const long long tile = static_cast<long long>(blockIdx.z) * gridDim.x + blockIdx.x;
  for (int e = tid; e < MT * BN; e += THREADS) {
    const int m = m0 + e / BN;
    const int col = n0 + e % BN;
    if (m >= p.M || col >= p.N) continue;
    float sum = 0.0f;
#pragma unroll
    for (int g = 0; g < KG; ++g) sum += partial[g * MT * BN + e];
    if (SPLITK == 1) {
      store_c(p, m, col, sum);
    } else {
      *splitk_partial<SPLITK>(p, tiles, blockIdx.y, m, col) = sum;
    }
  }
  if (SPLITK > 1) splitk_finish_tile<MT, BN, THREADS, SPLITK, ALIGN>(p, tile, tiles, blockIdx.y, m0, n0, tid);
}

}  // namespace gemmtune
