// IEEE special values in the 3xTF32 families (tf32x3, wgmma, tmawgmma). Splitting x into TF32
// parts cannot carry every float: an infinity's small part is inf - inf = NaN, a zero small part
// times an infinite big part is NaN where IEEE arithmetic gives an infinity, rounding a value of
// 2^127 or more to TF32 can overflow, and a nonzero value below 2^-103 has a small part (or is
// itself) subnormal, which the tensor cores may flush to zero. So every thread watches the values
// it splits, and a block that met any of them computes its outputs again with FFMA, in IEEE FP32
// as cuBLAS pedantic would: the cost falls on the tiles that touch such values. (tmawgmma lets its
// outputs tell instead: all_finite below, and tmawgmma.cuh's header.)
#pragma once

#include "common.cuh"

namespace gemmtune {

constexpr unsigned kSplitHugeBits = 254u << 23;  // |x| >= 2^127, and infinities and NaNs above
constexpr unsigned kSplitTinyBits = 24u << 23;   // nonzero |x| < 2^-103

// The largest and smallest nonzero magnitudes seen, as bits (two instructions a value).
struct SplitHazardScan {
  unsigned largest = 0;
  unsigned smallest_minus_one = 0xffffffffu;  // zeros wrap around to the top: they are no hazard

  __device__ __forceinline__ void see(float x) {
    const unsigned magnitude = __float_as_uint(x) & 0x7fffffffu;
    largest = max(largest, magnitude);
    smallest_minus_one = min(smallest_minus_one, magnitude - 1u);
  }
  __device__ __forceinline__ bool found() const {
    return largest >= kSplitHugeBits || smallest_minus_one < kSplitTinyBits - 1u;
  }
};

// Whether a nonzero magnitude below kSplitTinyBits was seen: tmawgmma's 3xTF32 watch, which lets
// its outputs tell of infinities and NaNs (all_finite) but cannot see a small part truncated away.
// 2 |x|bits - 2 drops the sign and sends zeros to the top: two instructions a value.
struct TinyValueScan {
  unsigned smallest = 0xffffffffu;

  __device__ __forceinline__ void see(float x) { smallest = min(smallest, __float_as_uint(x) * 2u - 2u); }
  __device__ __forceinline__ bool found() const { return smallest < kSplitTinyBits * 2u - 2u; }
};

// Whether every value of a thread's sums is finite: the test of the families that let the outputs
// tell (tmawgmma): no infinity or NaN among the inputs, and no overflow, leaves every sum finite.
// Two instructions a value, once a work unit.
template <int J>
__device__ __forceinline__ bool all_finite(const float (&sums)[J][4]) {
  unsigned largest = 0;
#pragma unroll
  for (int j = 0; j < J; ++j) {
#pragma unroll
    for (int e = 0; e < 4; ++e) largest = max(largest, __float_as_uint(sums[j][e]) & 0x7fffffffu);
  }
  return largest < 0x7f800000u;  // the exponent of infinities and NaNs
}

// acc[i][j][e] = the sum over k in [k_begin, k_end) of op(A)(m, k) op(B)(k, n) by FFMA, k in order,
// for the mma.sync/wgmma accumulator layout: element e of tile (i, j) is output
// (m_first + 16 i + e / 2 * 8, n_first + 8 j + e % 2); outputs outside C are left at zero.
template <Layout L, int MMA_M, int MMA_N>
__device__ __forceinline__ void ffma_mma_fragments(const GemmParams& p, float (&acc)[MMA_M][MMA_N][4], int m_first,
                                                   int n_first, int k_begin, int k_end) {
#pragma unroll
  for (int i = 0; i < MMA_M; ++i) {
#pragma unroll
    for (int j = 0; j < MMA_N; ++j) {
#pragma unroll
      for (int e = 0; e < 4; ++e) acc[i][j][e] = 0.0f;
    }
  }
#pragma unroll 1
  for (int k = k_begin; k < k_end; ++k) {
#pragma unroll
    for (int i = 0; i < MMA_M; ++i) {
      float a[2];
#pragma unroll
      for (int h = 0; h < 2; ++h) {
        const int m = m_first + 16 * i + 8 * h;
        a[h] = m < p.M ? load_a<L>(p, m, k) : 0.0f;
      }
#pragma unroll
      for (int j = 0; j < MMA_N; ++j) {
#pragma unroll
        for (int c = 0; c < 2; ++c) {
          const int n = n_first + 8 * j + c;
          const float b = n < p.N ? load_b<L>(p, k, n) : 0.0f;
          acc[i][j][c] = fmaf(a[0], b, acc[i][j][c]);
          acc[i][j][2 + c] = fmaf(a[1], b, acc[i][j][2 + c]);
        }
      }
    }
  }
}

}  // namespace gemmtune
