// Asynchronous global-to-shared copies (cp.async, sm_80 and later): the copy engine fills the
// next pipeline stages while the threads compute on the current one. Out-of-range elements are
// zero-filled by giving a source size below the copy size.
#pragma once

namespace gemmtune {

// Copies BYTES (4, 8 or 16) from global `src` to shared `dst`; only the first `src_bytes` are
// read, the rest of the destination is zero-filled. With src_bytes == 0 nothing is read, but
// `src` must still be a valid global address.
template <int BYTES>
__device__ __forceinline__ void cp_async_zfill(float* dst, const float* src, int src_bytes) {
  static_assert(BYTES == 4 || BYTES == 8 || BYTES == 16, "cp.async copies 4, 8 or 16 bytes");
  const unsigned shared = static_cast<unsigned>(__cvta_generic_to_shared(dst));
  if (BYTES == 16) {  // .cg: cache in L2 only, the data is staged in shared memory anyway
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(shared), "l"(src), "r"(src_bytes));
  } else {
    asm volatile("cp.async.ca.shared.global [%0], [%1], %2, %3;\n" ::"r"(shared), "l"(src), "n"(BYTES),
                 "r"(src_bytes));
  }
}

// Copies COUNT floats (1, 2 or 4) from global `src` to shared `dst`, of which only the first
// `valid` exist; the rest of `dst` gets zeros. A partial vector goes one float at a time (a
// missing float is a zero-filled 4-byte copy from `src` itself, a valid address), so nothing past
// the last valid float is ever addressed: compute-sanitizer's memcheck counts a 16-byte cp.async
// as a 16-byte read whatever its source size, and a matrix may end right after its last element.
// (Storing the zeros directly instead made ptxas spill in warptile's tn default.)
template <int COUNT>
__device__ __forceinline__ void cp_async_floats(float* dst, const float* src, int valid) {
  if (valid >= COUNT) {
    cp_async_zfill<4 * COUNT>(dst, src, 4 * COUNT);
    return;
  }
#pragma unroll
  for (int e = 0; e < COUNT; ++e) cp_async_zfill<4>(dst + e, src + (e < valid ? e : 0), e < valid ? 4 : 0);
}

__device__ __forceinline__ void cp_async_commit() { asm volatile("cp.async.commit_group;\n" ::); }

// Waits until at most PENDING committed groups are still in flight.
template <int PENDING>
__device__ __forceinline__ void cp_async_wait() {
  asm volatile("cp.async.wait_group %0;\n" ::"n"(PENDING));
}

}  // namespace gemmtune
