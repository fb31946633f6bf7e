#include "cost_model.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>

#include "family_registry.hpp"

namespace gemmtune {
namespace {

long long ceil_div(long long a, long long b) { return (a + b - 1) / b; }

// Registers a thread wants: the TM x TN accumulators, the TM + TN fragments, and ~24 for
// addresses and loop state; allocated in units of 8. Above 255 the rest spills (the allocation
// below is capped at 255, and the spill factor charges the difference).
int wanted_registers(const CostTraits& tile) {
  const int needed = 24 + tile.tm * tile.tn + tile.tm + tile.tn + tile.extra_registers;
  return std::max(32, static_cast<int>(ceil_div(needed, 8) * 8));
}

// Issue slots, in FMAs, that staging one element of a tile costs a thread: the global load, the
// shared store and their address arithmetic. Wide loads share that among 4 (or 2) elements.
double element_staging_cost(const KernelConfig& config, const CostTraits& traits) {
  constexpr double kScalarCost = 8.0;
  const int align = traits.operand_align > 0 ? traits.operand_align : config.align;
  return traits.vector_access ? kScalarCost / std::min(align, 4) : kScalarCost;
}

// Issue slots, in FMAs, of the two barriers around each BK step.
constexpr double kBarrierCost = 64.0;

// What the model derives from a configuration on a problem before calibration.
struct Analysis {
  CostTraits tile;  // the family's traits of the configuration
  long long blocks = 0;
  int threads = 0;
  int resident = 0;
  double blocks_on_busiest_sm = 0;  // units of work (a persistent block does several)
  double efficiency = 0.0;  // of the SM's peak, up to the family's calibration factor
};

Analysis analyse(const KernelConfig& config, const Problem& problem, const DeviceModel& device) {
  const KernelFamily& family = find_family(config.family);
  Analysis analysis{family.cost_traits(config)};
  const CostTraits& tile = analysis.tile;
  const LaunchShape launch = family.launch_shape(config, problem, DeviceTraits{device.sm_count, device.arch});
  analysis.blocks = static_cast<long long>(launch.grid[0]) * launch.grid[1] * launch.grid[2];
  analysis.threads = std::max(1, static_cast<int>(launch.block[0] * launch.block[1] * launch.block[2]));
  const int threads = analysis.threads;

  // Occupancy. __launch_bounds__ makes ptxas fit one block in the register file, spilling what
  // does not fit; spills cost in proportion.
  // The family's own figure where it has one (padding, wgmma's split buffers), else the tiles'.
  const long long smem_bytes =
      !analysis.tile.tiles_in_smem ? 0
      : launch.dynamic_smem_bytes > 0 ? static_cast<long long>(launch.dynamic_smem_bytes)
                                      : 4LL * (tile.bm + tile.bn) * tile.bk * tile.stages;
  const int registers = std::min({wanted_registers(tile), 255, device.regs_per_sm / threads / 8 * 8});
  const double spill_factor = static_cast<double>(registers) / wanted_registers(tile);
  long long resident = std::min(device.max_blocks_per_sm, device.max_threads_per_sm / threads);
  if (smem_bytes > 0) resident = std::min<long long>(resident, device.max_smem_per_sm / smem_bytes);
  resident = std::min<long long>(resident, device.regs_per_sm / (registers * threads));
  analysis.resident = static_cast<int>(resident);
  if (resident == 0) return analysis;

  const DeviceTraits traits{device.sm_count, device.arch};
  const std::optional<PersistentWork> persistent = family.persistent_work(config, problem, traits);
  // Blocks resident at once: a persistent kernel keeps one an SM however many units it walks.
  long long concurrent = 0;
  if (persistent) {
    analysis.blocks_on_busiest_sm = persistent->busiest_block_units;
    analysis.blocks = static_cast<long long>(persistent->units);
    concurrent = 1;
  } else {
    analysis.blocks_on_busiest_sm = static_cast<double>(ceil_div(analysis.blocks, device.sm_count));
    concurrent = std::min<long long>(resident, ceil_div(analysis.blocks, device.sm_count));
  }
  const long long active_warps = concurrent * ceil_div(threads, 32);
  // 4 schedulers keeping ~8 FMAs in flight each: 32 independent warp-instructions hide latency.
  const double latency_hiding = std::min(1.0, active_warps * std::min(tile.tm * tile.tn, 8) / 32.0);
  // TM * TN FMAs per TM + TN shared loads: the gain saturates once loads stop limiting.
  const double register_reuse = static_cast<double>(tile.tm) * tile.tn / (tile.tm + tile.tn);
  const double smem_feed = analysis.tile.tiles_in_smem ? register_reuse / (register_reuse + 1.0) : 1.0;
  // Staging tiles and waiting at barriers take issue slots from the FMAs: less so for large
  // block tiles (fewer elements staged per FMA) and deep BK steps with large register tiles.
  const double staging_overhead =
      analysis.tile.tiles_in_smem
          ? element_staging_cost(config, analysis.tile) * (tile.bm + tile.bn) / (static_cast<double>(tile.bm) * tile.bn) +
                kBarrierCost / (static_cast<double>(tile.tm) * tile.tn * tile.bk)
          : 0.0;
  analysis.efficiency = smem_feed * latency_hiding * spill_factor / (1.0 + staging_overhead);
  return analysis;
}

// The factor that makes the family's default configuration (at its widest alignment) reach the
// seed chapter's measured fraction on a large square problem. The model's own terms then rank
// configurations within a family; the measurements place the families against each other, which
// the terms alone would not (naive's uncoalesced loads are not modelled, for one).
double calibration(const KernelConfig& config, const DeviceModel& device) {
  const KernelFamily& family = find_family(config.family);
  const KernelConfig reference = family.default_config(Layout::NN, family.alignments().front());
  const Analysis analysis = analyse(reference, {Layout::NN, 4096, 4096, 4096}, device);
  if (analysis.efficiency <= 0.0) return 1.0;  // a default that cannot launch: nothing to pin to
  return find_family(config.family).cost_traits(config).measured_fraction / analysis.efficiency;
}

// The copies a configuration makes of A (and B) before its kernel runs (KernelFamily::
// operand_staging: TMA on a misaligned call, tn run as nn): a read and a write of what is copied
// at DRAM bandwidth, and the copy kernel's launch. They do not overlap the GEMM.
double staging_ms(const KernelConfig& config, const Problem& problem, const DeviceModel& device) {
  const std::optional<StagedOperandLayout> staging =
      find_family(config.family).operand_staging(config, problem, DeviceTraits{device.sm_count, device.arch});
  if (!staging) return 0.0;
  const double copied_floats = static_cast<double>(problem.M) * problem.K +
                               (staging->copy_b ? static_cast<double>(problem.K) * problem.N : 0.0);
  return 2.0 * 4.0 * copied_floats / (device.dram_bandwidth_gbs * 1e6) + device.launch_overhead_ms;
}

// A kernel the configuration runs before its own (KernelFamily::prepass: tmawgmma's scan for
// tiny values): its reads at DRAM bandwidth, and its launch.
double prepass_ms(const KernelConfig& config, const Problem& problem, const DeviceModel& device) {
  const std::optional<Prepass> prepass =
      find_family(config.family).prepass(config, problem, DeviceTraits{device.sm_count, device.arch});
  if (!prepass) return 0.0;
  return 4.0 * prepass->floats_read / (device.dram_bandwidth_gbs * 1e6) + device.launch_overhead_ms;
}

}  // namespace

CostEstimate estimate_cost(const KernelConfig& config, const Problem& problem, const DeviceModel& device) {
  const Analysis analysis = analyse(config, problem, device);
  const CostTraits& tile = analysis.tile;

  CostEstimate estimate;
  estimate.blocks = analysis.blocks;
  estimate.threads_per_block = analysis.threads;
  estimate.resident_blocks_per_sm = analysis.resident;
  estimate.occupancy = static_cast<double>(analysis.resident) * analysis.threads / device.max_threads_per_sm;
  estimate.tile_intensity = 2.0 * tile.bm * tile.bn / (4.0 * (tile.bm + tile.bn));
  if (analysis.resident == 0) {
    estimate.ms = std::numeric_limits<double>::infinity();
    return estimate;
  }

  // Compute: the busiest SM's blocks, full tiles each, at its share of peak.
  const double k_padded = static_cast<double>(ceil_div(ceil_div(problem.K, tile.split_k), tile.bk) * tile.bk);
  const double block_flops = 2.0 * tile.bm * tile.bn * k_padded;
  const double sm_flops_per_ms = device.peak_fp32_tflops * 1e9 / device.sm_count;
  const double efficiency = std::min(analysis.tile.peak_factor, calibration(config, device) * analysis.efficiency);
  estimate.compute_ms = analysis.blocks_on_busiest_sm * block_flops / (sm_flops_per_ms * efficiency);

  // Memory: every block reads its A and B panels through L2; C (every batch entry's) is written once.
  const double c_bytes = 4.0 * problem.M * problem.N * problem.batch;
  const double tile_traffic = analysis.blocks * 4.0 * (tile.bm + tile.bn) * k_padded + c_bytes;
  const double operand_bytes = problem.min_bytes() - c_bytes;
  const double l2_miss = operand_bytes <= device.l2_bytes ? 0.0 : 1.0 - device.l2_bytes / operand_bytes;
  const double dram_bytes = problem.min_bytes() + std::max(0.0, tile_traffic - problem.min_bytes()) * l2_miss;
  estimate.memory_ms = std::max(dram_bytes / (device.dram_bandwidth_gbs * 1e6),
                                tile_traffic / (device.l2_bandwidth_gbs * 1e6));

  estimate.ms = std::max(estimate.compute_ms, estimate.memory_ms) + device.launch_overhead_ms +
                staging_ms(config, problem, device) + prepass_ms(config, problem, device);
  return estimate;
}

}  // namespace gemmtune
