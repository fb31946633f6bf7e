#include <catch2/catch.hpp>
#include <cmath>

#include "cost_model.hpp"
#include "family_registry.hpp"
#include "kernel_name.hpp"
#include "search_space.hpp"

using namespace gemmtune;
using namespace gemmtune::tuner;

namespace {

KernelConfig reg2d(int bm, int bn, int bk, int tm, int tn) {
  KernelConfig config = find_family("reg2d").default_config();
  config.set("BM", bm);
  config.set("BN", bn);
  config.set("BK", bk);
  config.set("TM", tm);
  config.set("TN", tn);
  return config;
}

// The configuration of `space` the model predicts fastest on `problem`.
KernelConfig predicted_best(const std::vector<KernelConfig>& space, const Problem& problem) {
  const KernelConfig* best = &space.front();
  for (const KernelConfig& config : space) {
    if (estimate_cost(config, problem).ms < estimate_cost(*best, problem).ms) best = &config;
  }
  return *best;
}

}  // namespace

TEST_CASE("cost model: the seed families rank in the seed chapter's order on a large square problem", "[cost]") {
  const Problem problem{Layout::NN, 4096, 4096, 4096};
  double slower = std::numeric_limits<double>::infinity();
  for (const char* name : {"naive", "coalesced", "smem", "reg1d", "reg2d", "vectorized"}) {
    const KernelFamily& family = find_family(name);
    const double ms = estimate_cost(family.default_config(Layout::NN, family.alignments().front()), problem).ms;
    INFO(name << ": " << ms << " ms");
    CHECK(ms < slower);
    slower = ms;
  }
  // The best FFMA kernel is predicted within a factor of two of the device's FP32 peak; the
  // tensor cores' (tf32x3) may pass that peak, but not by more than their own (below 1.5x).
  const std::vector<KernelConfig> ffma_space =
      enumerate_all(Layout::NN, 4, {"naive", "coalesced", "smem", "reg1d", "reg2d", "vectorized", "warptile", "skinny"});
  const double best_ms = estimate_cost(predicted_best(ffma_space, problem), problem).ms;
  const double peak_ms = problem.flops() / (DeviceModel{}.peak_fp32_tflops * 1e9);
  CHECK(best_ms > peak_ms);
  CHECK(best_ms < 2 * peak_ms);
  const double tensor_ms = estimate_cost(predicted_best(enumerate_all(Layout::NN, 4, {"tf32x3"}), problem), problem).ms;
  CHECK(tensor_ms > peak_ms / 1.5);
}

TEST_CASE("cost model: every legal configuration gets a positive finite estimate", "[cost]") {
  const std::vector<KernelConfig> space = enumerate_all(Layout::NN, 4);
  for (const Problem& problem : {Problem{Layout::NN, 1, 1, 1}, Problem{Layout::NN, 4096, 4096, 4096},
                                 Problem{Layout::NN, 1048576, 1024, 2047}, Problem{Layout::NN, 7, 3000, 1}}) {
    for (const KernelConfig& config : space) {
      const CostEstimate estimate = estimate_cost(config, problem);
      INFO(kernel_name(config) << " on " << to_string(problem));
      CHECK(std::isfinite(estimate.ms));
      CHECK(estimate.ms > 0);
      CHECK(estimate.resident_blocks_per_sm >= 1);
      CHECK(estimate.occupancy > 0);
      CHECK(estimate.occupancy <= 1);
    }
  }
}

TEST_CASE("cost model: one block more than the SMs hold costs a second wave", "[cost]") {
  const KernelConfig config = reg2d(128, 128, 8, 8, 8);
  const CostEstimate one_wave = estimate_cost(config, {Layout::NN, 12 * 128, 11 * 128, 4096});
  const CostEstimate two_waves = estimate_cost(config, {Layout::NN, 12 * 128, 11 * 128 + 1, 4096});
  CHECK(one_wave.blocks == 132);
  CHECK(two_waves.blocks == 144);
  CHECK(two_waves.compute_ms == Approx(2 * one_wave.compute_ms));
}

TEST_CASE("cost model: small problems prefer small tiles, large ones large tiles", "[cost]") {
  const std::vector<KernelConfig> space = enumerate_all(Layout::NN, 1, {"reg2d"});
  const KernelConfig small = predicted_best(space, {Layout::NN, 64, 64, 4096});
  CHECK(small.get("BM") * small.get("BN") <= 64 * 64);
  const KernelConfig large = predicted_best(space, {Layout::NN, 8192, 8192, 8192});
  CHECK(large.get("BM") * large.get("BN") >= 128 * 128);
  // A 256 x 256 tile on a 16 x 16 problem computes 256 times the useful work.
  const Problem tiny{Layout::NN, 16, 16, 4096};
  CHECK(estimate_cost(reg2d(256, 256, 8, 8, 8), tiny).ms > 4 * estimate_cost(reg2d(32, 32, 8, 4, 4), tiny).ms);
}

TEST_CASE("cost model: tile intensity and occupancy follow the tile", "[cost]") {
  const Problem problem{Layout::NN, 4096, 4096, 4096};
  // 2 * 128 * 128 * BK FLOPs for 4 * (128 + 128) * BK bytes.
  CHECK(estimate_cost(reg2d(128, 128, 8, 8, 8), problem).tile_intensity == Approx(32.0));
  CHECK(estimate_cost(reg2d(64, 32, 8, 4, 4), problem).tile_intensity == Approx(2.0 * 64 * 32 / (4.0 * 96)));
  // 1024 threads a block: two fill an SM's 2048.
  const CostEstimate naive = estimate_cost(find_family("naive").default_config(), problem);
  CHECK(naive.threads_per_block == 1024);
  CHECK(naive.resident_blocks_per_sm == 2);
  CHECK(naive.occupancy == 1.0);
  // 256 x 256 x 16 tiles take 32 KB of shared memory: at most 7 fit in 228 KB.
  const CostEstimate big = estimate_cost(reg2d(256, 256, 16, 8, 8), problem);
  CHECK(big.resident_blocks_per_sm <= 7);
}

TEST_CASE("cost model: a problem with tiny K is memory bound", "[cost]") {
  const Problem flat{Layout::NN, 8192, 8192, 8};
  const CostEstimate estimate = estimate_cost(find_family("vectorized").default_config(Layout::NN, 4), flat);
  CHECK(estimate.memory_ms > estimate.compute_ms);
  // C alone is 256 MiB: at least its write time at DRAM bandwidth.
  CHECK(estimate.ms >= 4.0 * 8192 * 8192 / (DeviceModel{}.dram_bandwidth_gbs * 1e6));
}

TEST_CASE("cost model: a faster device predicts less time", "[cost]") {
  const Problem problem{Layout::NN, 2048, 2048, 2048};
  const KernelConfig config = reg2d(128, 128, 8, 8, 8);
  DeviceModel half = {};
  half.sm_count /= 2;
  half.peak_fp32_tflops /= 2;
  CHECK(estimate_cost(config, problem, half).ms > estimate_cost(config, problem).ms);
}

TEST_CASE("cost model: a batch multiplies a batch-capable kernel's blocks, and costs more than one entry", "[cost]") {
  const KernelFamily& warptile = find_family("warptile");
  const KernelConfig config = warptile.default_config(Layout::NN, 4);
  REQUIRE(config.get("SPLITK") == 1);
  const CostEstimate one = estimate_cost(config, Problem{Layout::NN, 128, 128, 128});
  const CostEstimate batch = estimate_cost(config, Problem{Layout::NN, 128, 128, 128, 64});
  CHECK(batch.blocks == 64 * one.blocks);
  CHECK(batch.ms >= one.ms);  // 64 blocks are one wave, as one is
  CHECK(estimate_cost(config, Problem{Layout::NN, 128, 128, 128, 1024}).ms > 4 * one.ms);  // eight waves
  // 64 small products fill the GPU as one product of their total size nearly does.
  const CostEstimate large = estimate_cost(config, Problem{Layout::NN, 1024, 1024, 128});
  CHECK(batch.blocks == large.blocks);
  CHECK(batch.ms == Approx(large.ms).epsilon(0.5));
}

TEST_CASE("cost model: staged copies cost time: align 1's copies of A and B, ACOPY 2's transposed A", "[cost]") {
  for (const char* name : {"tmawgmma", "tmatf32"}) {
    INFO(name);
    const KernelFamily& family = find_family(name);
    // Align 1 stages A and B: more time than the same kernel reading the call's operands.
    const Problem odd{Layout::NN, 1000, 999, 777};
    CHECK(estimate_cost(family.default_config(Layout::NN, 1), odd).ms >
          estimate_cost(family.default_config(Layout::NN, 4), odd).ms);
    // tn with ACOPY 2 runs the nn kernel after copying A (4096^2 floats, written and read: 128 MiB
    // at the model's 4.3 TB/s is 0.031 ms) and launching the copy (0.004 ms).
    KernelConfig copied = family.default_config(Layout::TN, 4);
    copied.set("ACOPY", 2);
    const Problem square{Layout::TN, 4096, 4096, 4096};
    const Problem nn_square{Layout::NN, 4096, 4096, 4096};
    const double copy_ms =
        estimate_cost(copied, square).ms - estimate_cost(family.default_config(Layout::NN, 4), nn_square).ms;
    CHECK(copy_ms == Approx(2.0 * 4.0 * 4096 * 4096 / 4300e6 + 0.004).epsilon(1e-6));
  }
}

// WATCH 2 of a 3xTF32 family against WATCH 1 at 4096^3: searched; its loop faster by `gain` (the
// family's kWatchByScanGain); beside it, the scan's read of 2 x 4096^2 floats (128 MiB at the
// model's 4.3 TB/s: 0.031 ms) and its launch (0.004 ms); ranked first, the loop being long.
static void check_watch_by_scan_at_4096(const KernelFamily& family, double gain) {
  INFO(family.name());
  for (const ParamSpec& param : family.params()) {
    if (param.name == "WATCH") CHECK(param.search_values == std::vector<int>{1, 2});
  }
  KernelConfig scanned = family.default_config(Layout::NN, 4);
  scanned.set("WATCH", 2);
  const KernelConfig watched = family.default_config(Layout::NN, 4);
  const Problem square{Layout::NN, 4096, 4096, 4096};
  const CostEstimate with_watch = estimate_cost(watched, square);
  const CostEstimate with_scan = estimate_cost(scanned, square);
  REQUIRE(with_watch.compute_ms > with_watch.memory_ms);  // compute-bound: the loop's gain shows whole
  CHECK(with_scan.compute_ms == Approx(with_watch.compute_ms / gain).epsilon(1e-6));
  const double scan_ms = (with_scan.ms - with_scan.compute_ms) - (with_watch.ms - with_watch.compute_ms);
  CHECK(scan_ms == Approx(4.0 * 2 * 4096.0 * 4096 / 4300e6 + 0.004).epsilon(1e-6));
  CHECK(with_scan.ms < with_watch.ms);
}

TEST_CASE("cost model: WATCH 2's scan costs a read of A and B and a launch, its loop runs faster", "[cost]") {
  // The loop without the watch: the measured 1.072x (tmawgmma_family.cpp, kWatchByScanGain).
  const KernelFamily& family = find_family("tmawgmma");
  check_watch_by_scan_at_4096(family, 1.072);
  // WATCH 1 stays first where the scan's launch weighs more, as measured
  // (bench/results/2026-12-07-h100-watch-scan.md).
  KernelConfig scanned = family.default_config(Layout::NN, 4);
  scanned.set("WATCH", 2);
  const Problem small{Layout::NN, 1024, 1024, 1024};
  CHECK(estimate_cost(scanned, small).ms > estimate_cost(family.default_config(Layout::NN, 4), small).ms);
  // Single-pass TF32 watches nothing: WATCH 2 is not among its searched values.
  for (const ParamSpec& param : find_family("tmatf32").params()) {
    if (param.name == "WATCH") CHECK(param.search_values == std::vector<int>{1});
  }
}

TEST_CASE("cost model: tf32x3's WATCH 2 is searched, its loop faster by the measured 1.09 and its scan charged", "[cost]") {
  // (tf32x3_family.cpp, kWatchByScanGain: bench/results/2026-12-08-h100-narrow-csplit-tf32x3-watch.md)
  check_watch_by_scan_at_4096(find_family("tf32x3"), 1.09);
}
