// A cheap analytic estimate of a configuration's time on a problem, used only to rank candidates
// (guided search measures the model's favourites first). It is a roofline with the effects that
// separate GEMM tile choices; absolute times are not meant to be accurate.
//
// Assumptions:
// - Compute: the busiest SM runs ceil(blocks / SMs) block tiles (wave quantization), each
//   computing its full BM x BN tile over K rounded up to BK (edge tiles cost as much as inner
//   ones, so tiles much larger than the problem waste work), at the SM's share of peak times an
//   efficiency made of: how well shared memory feeds the FMAs (register tile TM x TN: TM * TN
//   FMAs per TM + TN shared loads, a saturating gain); issue slots lost to staging tiles (per
//   element, fewer with wide loads the alignment allows, amortized over the block tile's
//   BM * BN / (BM + BN)) and to barriers (amortized over TM * TN * BK); latency hiding (resident
//   warps times independent FMAs per thread); register spills past what __launch_bounds__ lets
//   a block have.
// - Families: each declares what the model needs of a configuration (KernelFamily::cost_traits:
//   its block and register tile, stages, split-K, whether it stages tiles in shared memory and
//   loads wide, its arithmetic ceiling) and the fraction of cuBLAS its default configuration
//   reached on 4096^3 (the seed chapter's: naive 1.3%, coalesced 8.5%, smem 12.8%, reg1d 36.5%,
//   reg2d 68.7%, vectorized 78.4%; the tensor-core families' have their own peaks), to which one
//   factor per family pins the default; the terms above rank configurations within a family,
//   the measurements place the families against each other.
// - Occupancy: blocks an SM holds, limited by threads, shared memory (A and B tiles, times
//   stages) and registers (estimated from the register tile, as ptxas's count is not known
//   before compiling).
// - Memory: every block reads its A and B panels, (BM + BN) * K floats, through L2; DRAM sees the
//   minimum traffic while A and B fit in L2 and a growing share of the tile traffic beyond. The
//   time is the larger of compute and memory (they overlap).
// - Staged operands (KernelFamily::operand_staging): the copies made before the kernel, a read
//   and a write of each copied operand at DRAM bandwidth plus a launch, added after (no overlap).
#pragma once

#include "kernel_config.hpp"
#include "problem.hpp"

namespace gemmtune {

// What the model knows about a GPU; the defaults are an H200's.
struct DeviceModel {
  int sm_count = 132;
  double peak_fp32_tflops = 66.9;
  double dram_bandwidth_gbs = 4300.0;
  double l2_bandwidth_gbs = 5500.0;  // rough (measured Hopper L2 reads are 5-7 TB/s)
  double l2_bytes = 60.0 * 1024 * 1024;
  int max_threads_per_sm = 2048;
  int max_smem_per_sm = 228 * 1024;
  int regs_per_sm = 65536;
  int max_blocks_per_sm = 32;
  double launch_overhead_ms = 0.004;
  int arch = 90;  // compute capability as 10 * major + minor, for the families' launch shapes
};

struct CostEstimate {
  long long blocks = 0;            // thread blocks in the grid
  int threads_per_block = 0;
  int resident_blocks_per_sm = 0;  // 0: one block does not fit on an SM
  double occupancy = 0.0;          // resident threads / the SM's thread limit
  double tile_intensity = 0.0;     // FLOPs per byte of global traffic of a block tile
  double compute_ms = 0.0;
  double memory_ms = 0.0;
  double ms = 0.0;                 // max(compute, memory) + launch; infinity when it cannot launch
};

// `config` must be legal (family.check passes).
CostEstimate estimate_cost(const KernelConfig& config, const Problem& problem,
                           const DeviceModel& device = {});

}  // namespace gemmtune
