#include "cost_model.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>

#include "family_registry.hpp"

namespace gemmtune::tuner {
namespace {

struct FamilyTraits {
  std::string_view name;
  // The fraction of cuBLAS the family's default configuration reached in the seed chapter's
  // measurements; the calibration below pins the model to it (see calibration()).
  double measured_fraction;
  bool tiles_in_smem;  // stages A and B tiles in shared memory
  bool vector_access;  // global loads as wide as the call's alignment allows
  // The family's arithmetic ceiling in the same units as measured_fraction (the model treats
  // them as fractions of the FP32 FMA peak): 1 for FFMA families, above for tensor-core ones.
  double peak_factor = 1.0;
};

constexpr FamilyTraits kKnownFamilies[] = {
    {"naive", 0.013, false, false},
    {"coalesced", 0.085, false, false},
    {"smem", 0.128, true, false},
    {"reg1d", 0.365, true, false},
    {"reg2d", 0.687, true, false},
    {"vectorized", 0.784, true, true},
    // Three TF32 MMAs a product. Its default reached 1.08x cuBLAS at 4096^3 on the H200
    // (bench/results/2026-12-01-h200-tf32x3-probe.md). mma.sync reaches about half the H200's 495
    // TF32 TFLOPS (wgmma gets the rest): about 82 TFLOPS of FP32 products, 1.6x cuBLAS's 50.
    {"tf32x3", 1.08, true, true, 1.6},
    // The same three products on wgmma, which reaches the tensor cores' full TF32 rate: a ceiling
    // of ~165 TFLOPS, 2.4x the FP32 FMA peak. Its default reached 1.46x cuBLAS at 4096^3
    // (bench/results/2026-12-01-h200-wgmma-probe.md).
    {"wgmma", 1.46, true, true, 2.4},
};

std::optional<int> param(const KernelConfig& config, std::string_view name) {
  for (const auto& [param_name, value] : config.params) {
    if (param_name == name) return value;
  }
  return std::nullopt;
}

// Families newer than the seed chapter are assumed as good as its best (the last) at their
// default configuration.
FamilyTraits traits_of(const KernelConfig& config) {
  for (const FamilyTraits& traits : kKnownFamilies) {
    if (traits.name == config.family) return traits;
  }
  const FamilyTraits& best_seed = kKnownFamilies[std::size(kKnownFamilies) - 1];
  return {config.family, best_seed.measured_fraction, param(config, "BK").has_value(), true};
}

struct Tile {
  int bm, bn, bk, tm, tn, stages;
  int split_k = 1;           // K is cut into this many slices, one block each
  int extra_registers = 0;   // a thread's registers beyond its accumulators and fragments
};

// One output per thread over a TILE x TILE block is a TILE x TILE x TILE tile with a 1 x 1
// register tile. The skinny family's block is MT rows by 4 * NT columns, each thread MT x 4. A
// tensor-core warp tile (WM and WN, no TM) gives each lane WM * WN / 32 accumulators, written as a
// (WM / 4) x (WN / 8) tile, and the split halves of A's fragments (WM / 2 registers) beside them.
Tile tile_of(const KernelConfig& config) {
  if (auto tile = param(config, "TILE")) return {*tile, *tile, *tile, 1, 1, 1};
  const int split_k = param(config, "SPLITK").value_or(1);
  if (auto rows = param(config, "MT")) {
    return {*rows, 4 * param(config, "NT").value_or(32), param(config, "KC").value_or(128), *rows, 4, 1, split_k};
  }
  Tile tile{param(config, "BM").value_or(1), param(config, "BN").value_or(1), param(config, "BK").value_or(8),
            param(config, "TM").value_or(1), param(config, "TN").value_or(1), param(config, "STAGES").value_or(1),
            split_k};
  if (config.family == "wgmma") {
    // A warpgroup's 64 x BN tile: BN / 2 accumulators a thread (written 8 x BN / 16), as many
    // for the tile's own sum, and BK / 8 k steps of split A fragments (8 registers each).
    tile.tm = 8;
    tile.tn = tile.bn / 16;
    tile.extra_registers = tile.bn / 2 + tile.bk + 32;
  } else if (auto wm = param(config, "WM"); wm && !param(config, "TM")) {
    tile.tm = *wm / 4;
    tile.tn = param(config, "WN").value_or(8) / 8;
    tile.extra_registers = *wm / 2 + 32;  // ptxas's counts for tf32x3's warp tiles were within ~10 of this
  }
  return tile;
}

long long ceil_div(long long a, long long b) { return (a + b - 1) / b; }

// Registers a thread wants: the TM x TN accumulators, the TM + TN fragments, and ~24 for
// addresses and loop state; allocated in units of 8. Above 255 the rest spills (the allocation
// below is capped at 255, and the spill factor charges the difference).
int wanted_registers(const Tile& tile) {
  const int needed = 24 + tile.tm * tile.tn + tile.tm + tile.tn + tile.extra_registers;
  return std::max(32, static_cast<int>(ceil_div(needed, 8) * 8));
}

// Issue slots, in FMAs, that staging one element of a tile costs a thread: the global load, the
// shared store and their address arithmetic. Wide loads share that among 4 (or 2) elements.
double element_staging_cost(const KernelConfig& config, const FamilyTraits& traits) {
  constexpr double kScalarCost = 8.0;
  return traits.vector_access ? kScalarCost / std::min(config.align, 4) : kScalarCost;
}

// Issue slots, in FMAs, of the two barriers around each BK step.
constexpr double kBarrierCost = 64.0;

// What the model derives from a configuration on a problem before calibration.
struct Analysis {
  Tile tile;
  FamilyTraits traits;
  long long blocks = 0;
  int threads = 0;
  int resident = 0;
  long long blocks_on_busiest_sm = 0;
  double efficiency = 0.0;  // of the SM's peak, up to the family's calibration factor
};

Analysis analyse(const KernelConfig& config, const Problem& problem, const DeviceModel& device) {
  Analysis analysis{tile_of(config), traits_of(config)};
  const Tile& tile = analysis.tile;
  const LaunchShape launch = find_family(config.family).launch_shape(config, problem.M, problem.N);
  analysis.blocks = static_cast<long long>(launch.grid[0]) * launch.grid[1] * launch.grid[2];
  analysis.threads = std::max(1, static_cast<int>(launch.block[0] * launch.block[1] * launch.block[2]));
  const int threads = analysis.threads;

  // Occupancy. __launch_bounds__ makes ptxas fit one block in the register file, spilling what
  // does not fit; spills cost in proportion.
  // The family's own figure where it has one (padding, wgmma's split buffers), else the tiles'.
  const long long smem_bytes =
      !analysis.traits.tiles_in_smem ? 0
      : launch.dynamic_smem_bytes > 0 ? static_cast<long long>(launch.dynamic_smem_bytes)
                                      : 4LL * (tile.bm + tile.bn) * tile.bk * tile.stages;
  const int registers = std::min({wanted_registers(tile), 255, device.regs_per_sm / threads / 8 * 8});
  const double spill_factor = static_cast<double>(registers) / wanted_registers(tile);
  long long resident = std::min(device.max_blocks_per_sm, device.max_threads_per_sm / threads);
  if (smem_bytes > 0) resident = std::min<long long>(resident, device.max_smem_per_sm / smem_bytes);
  resident = std::min<long long>(resident, device.regs_per_sm / (registers * threads));
  analysis.resident = static_cast<int>(resident);
  if (resident == 0) return analysis;

  analysis.blocks_on_busiest_sm = ceil_div(analysis.blocks, device.sm_count);
  const long long active_warps = std::min(resident, analysis.blocks_on_busiest_sm) * ceil_div(threads, 32);
  // 4 schedulers keeping ~8 FMAs in flight each: 32 independent warp-instructions hide latency.
  const double latency_hiding = std::min(1.0, active_warps * std::min(tile.tm * tile.tn, 8) / 32.0);
  // TM * TN FMAs per TM + TN shared loads: the gain saturates once loads stop limiting.
  const double register_reuse = static_cast<double>(tile.tm) * tile.tn / (tile.tm + tile.tn);
  const double smem_feed = analysis.traits.tiles_in_smem ? register_reuse / (register_reuse + 1.0) : 1.0;
  // Staging tiles and waiting at barriers take issue slots from the FMAs: less so for large
  // block tiles (fewer elements staged per FMA) and deep BK steps with large register tiles.
  const double staging_overhead =
      analysis.traits.tiles_in_smem
          ? element_staging_cost(config, analysis.traits) * (tile.bm + tile.bn) / (static_cast<double>(tile.bm) * tile.bn) +
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
  return traits_of(config).measured_fraction / analysis.efficiency;
}

}  // namespace

CostEstimate estimate_cost(const KernelConfig& config, const Problem& problem, const DeviceModel& device) {
  const Analysis analysis = analyse(config, problem, device);
  const Tile& tile = analysis.tile;

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
  const double efficiency = std::min(analysis.traits.peak_factor, calibration(config, device) * analysis.efficiency);
  estimate.compute_ms = analysis.blocks_on_busiest_sm * block_flops / (sm_flops_per_ms * efficiency);

  // Memory: every block reads its A and B panels through L2; C is written once.
  const double tile_traffic = analysis.blocks * 4.0 * (tile.bm + tile.bn) * k_padded + 4.0 * problem.M * problem.N;
  const double operand_bytes = problem.min_bytes() - 4.0 * problem.M * problem.N;
  const double l2_miss = operand_bytes <= device.l2_bytes ? 0.0 : 1.0 - device.l2_bytes / operand_bytes;
  const double dram_bytes = problem.min_bytes() + std::max(0.0, tile_traffic - problem.min_bytes()) * l2_miss;
  estimate.memory_ms = std::max(dram_bytes / (device.dram_bandwidth_gbs * 1e6),
                                tile_traffic / (device.l2_bandwidth_gbs * 1e6));

  estimate.ms = std::max(estimate.compute_ms, estimate.memory_ms) + device.launch_overhead_ms;
  return estimate;
}

}  // namespace gemmtune::tuner
