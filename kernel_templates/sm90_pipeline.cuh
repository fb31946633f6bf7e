// Hopper's building blocks for a warp-specialized pipeline (sm_90; setmaxnreg needs sm_90a):
// mbarriers with transaction counts, tensor copies by the Tensor Memory Accelerator (TMA) that
// complete on them, named barriers for a subset of the block's warps, and the register
// reallocation between warpgroups.
//
// An mbarrier counts arrivals (and, for TMA, bytes) towards the completion of its current
// phase; a waiter names the parity of the phase it waits for. A stage of a pipeline has a "full"
// barrier (the copy has landed) and an "empty" one (its readers are done with it), and each side
// flips the parity it waits for every time it wraps around the stages.
#pragma once

namespace gemmtune {

__device__ __forceinline__ unsigned shared_address(const void* pointer) {
  return static_cast<unsigned>(__cvta_generic_to_shared(pointer));
}

// An mbarrier whose phases complete after `arrivals` arrivals (and the bytes they announce).
__device__ __forceinline__ void mbarrier_init(unsigned long long* barrier, unsigned arrivals) {
  asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;\n" ::"r"(shared_address(barrier)), "r"(arrivals) : "memory");
}

// Makes this thread's mbarrier initialisations visible to the other threads and to the copy
// engine (followed by a barrier of the whole block).
__device__ __forceinline__ void fence_mbarrier_init() {
  asm volatile("fence.mbarrier_init.release.cluster;\n" ::: "memory");
}

// One arrival that also announces `bytes` the copy engine will deliver before the phase completes.
__device__ __forceinline__ void mbarrier_arrive_expect_bytes(unsigned long long* barrier, unsigned bytes) {
  asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;\n" ::"r"(shared_address(barrier)),
               "r"(bytes)
               : "memory");
}

__device__ __forceinline__ void mbarrier_arrive(unsigned long long* barrier) {
  asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];\n" ::"r"(shared_address(barrier)) : "memory");
}

// Waits until the phase of parity `parity` has completed. A barrier just initialised is in phase
// 0, and counts phase "1" (the one before) as complete: a producer waiting for an empty stage
// starts at parity 1 and passes at once.
__device__ __forceinline__ void mbarrier_wait(unsigned long long* barrier, unsigned parity) {
  asm volatile(
      "{\n"
      ".reg .pred done;\n"
      "wait_again:\n"
      "mbarrier.try_wait.parity.shared::cta.b64 done, [%0], %1;\n"
      "@!done bra wait_again;\n"
      "}\n" ::"r"(shared_address(barrier)),
      "r"(parity)
      : "memory");
}

// Asks the copy engine for the box of `map` at coordinates (c0 innermost, c1, c2: the matrix's
// column, row and batch entry; tensor_map.hpp); it lands at `dst` (shared memory, 128-byte
// aligned, 1024 for 128-byte swizzled boxes) and completes `barrier`'s phase with its bytes.
// Out-of-range elements arrive as zeros.
__device__ __forceinline__ void tma_load_3d(float* dst, const void* map, int c0, int c1, int c2,
                                            unsigned long long* barrier) {
  asm volatile(
      "cp.async.bulk.tensor.3d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3, %4}], "
      "[%5];\n" ::"r"(shared_address(dst)),
      "l"(map), "r"(c0), "r"(c1), "r"(c2), "r"(shared_address(barrier))
      : "memory");
}

// tma_load_3d for a thread-block cluster: the box lands at `dst` in the shared memory of every
// block of the cluster named in `cta_mask` (bit i: rank i), and completes the mbarrier at
// `barrier`'s offset in each of them with its bytes. One read of L2 feeds several blocks.
__device__ __forceinline__ void tma_load_3d_multicast(float* dst, const void* map, int c0, int c1, int c2,
                                                      unsigned long long* barrier, unsigned short cta_mask) {
  asm volatile(
      "cp.async.bulk.tensor.3d.shared::cluster.global.tile.mbarrier::complete_tx::bytes.multicast::cluster "
      "[%0], [%1, {%2, %3, %4}], [%5], %6;\n" ::"r"(shared_address(dst)),
      "l"(map), "r"(c0), "r"(c1), "r"(c2), "r"(shared_address(barrier)), "h"(cta_mask)
      : "memory");
}

// This block's rank in its cluster.
__device__ __forceinline__ unsigned cluster_rank() {
  unsigned rank;
  asm volatile("mov.u32 %0, %%cluster_ctarank;\n" : "=r"(rank));
  return rank;
}

// A barrier of every thread of every block in the cluster; what was written before it (the
// mbarriers' initialisation, in particular) is visible to all of them after it.
__device__ __forceinline__ void cluster_sync() {
  asm volatile("barrier.cluster.arrive.release.aligned;\nbarrier.cluster.wait.acquire.aligned;\n" ::: "memory");
}

// One arrival on the mbarrier at `barrier`'s offset in the shared memory of the cluster's block
// of rank `cta`. It releases at the default, block scope: what it orders is this block's reads of
// a stage (already complete: the wgmmas were waited for) before a copy refills it, as the
// mbarriers of one block do. (At cluster scope ptxas puts a GPU-wide fence before every arrival.)
__device__ __forceinline__ void mbarrier_arrive_cluster(unsigned long long* barrier, unsigned cta) {
  asm volatile(
      "{\n"
      ".reg .b32 remote;\n"
      "mapa.shared::cluster.u32 remote, %0, %1;\n"
      "mbarrier.arrive.shared::cluster.b64 _, [remote];\n"
      "}\n" ::"r"(shared_address(barrier)),
      "r"(cta)
      : "memory");
}

// mbarrier_arrive_cluster with release semantics at cluster scope: this thread's writes (and reads)
// before it are ordered before what the waiter on the barrier does after an acquiring wait
// (mbarrier_wait_cluster). For data handed from one block to another of the cluster.
__device__ __forceinline__ void mbarrier_arrive_release_cluster(unsigned long long* barrier, unsigned cta) {
  asm volatile(
      "{\n"
      ".reg .b32 remote;\n"
      "mapa.shared::cluster.u32 remote, %0, %1;\n"
      "mbarrier.arrive.release.cluster.shared::cluster.b64 _, [remote];\n"
      "}\n" ::"r"(shared_address(barrier)),
      "r"(cta)
      : "memory");
}

// mbarrier_wait acquiring at cluster scope: what the arrivals of other blocks released
// (mbarrier_arrive_release_cluster) is visible after it.
__device__ __forceinline__ void mbarrier_wait_cluster(unsigned long long* barrier, unsigned parity) {
  asm volatile(
      "{\n"
      ".reg .pred done;\n"
      "wait_again:\n"
      "mbarrier.try_wait.parity.acquire.cluster.shared::cta.b64 done, [%0], %1;\n"
      "@!done bra wait_again;\n"
      "}\n" ::"r"(shared_address(barrier)),
      "r"(parity)
      : "memory");
}

// The float4 at `local`'s offset in the shared memory of the cluster's block of rank `cta`
// (distributed shared memory).
__device__ __forceinline__ float4 load_shared_cluster(const float4* local, unsigned cta) {
  float4 v;
  asm volatile(
      "{\n"
      ".reg .b32 remote;\n"
      "mapa.shared::cluster.u32 remote, %4, %5;\n"
      "ld.shared::cluster.v4.f32 {%0, %1, %2, %3}, [remote];\n"
      "}\n"
      : "=f"(v.x), "=f"(v.y), "=f"(v.z), "=f"(v.w)
      : "r"(shared_address(local)), "r"(cta)
      : "memory");
  return v;
}

// Brings a tensor map (a kernel argument) into the copy engine's cache ahead of the first copy.
__device__ __forceinline__ void prefetch_tensor_map(const void* map) {
  asm volatile("prefetch.tensormap [%0];\n" ::"l"(map) : "memory");
}

// A barrier among `threads` threads (whole warps) of the block, apart from __syncthreads (id 0).
__device__ __forceinline__ void named_barrier_sync(int id, int threads) {
  asm volatile("bar.sync %0, %1;\n" ::"r"(id), "r"(threads) : "memory");
}

// named_barrier_sync that also returns whether `predicate` holds on any of the threads.
__device__ __forceinline__ bool named_barrier_any(int id, int threads, bool predicate) {
  unsigned any;
  asm volatile(
      "{\n"
      ".reg .pred p, q;\n"
      "setp.ne.u32 p, %1, 0;\n"
      "bar.red.or.pred q, %2, %3, p;\n"
      "selp.u32 %0, 1, 0, q;\n"
      "}\n"
      : "=r"(any)
      : "r"(static_cast<unsigned>(predicate)), "r"(id), "r"(threads)
      : "memory");
  return any != 0;
}

// Hands registers back (dec) or takes more (inc), for a whole warpgroup at once: a copy warpgroup
// needs few, the MMA warpgroups many. REGISTERS is a multiple of 8 in 24..256.
template <int REGISTERS>
__device__ __forceinline__ void warpgroup_release_registers() {
  asm volatile("setmaxnreg.dec.sync.aligned.u32 %0;\n" ::"n"(REGISTERS));
}
template <int REGISTERS>
__device__ __forceinline__ void warpgroup_claim_registers() {
  asm volatile("setmaxnreg.inc.sync.aligned.u32 %0;\n" ::"n"(REGISTERS));
}

}  // namespace gemmtune
