// The dry run's plan: each strategy driven by the cost model in place of measurements hands out
// what it would on a GPU, within the budget.
#include <catch2/catch.hpp>

#include <set>

#include "dry_run_plan.hpp"
#include "family_registry.hpp"
#include "kernel_name.hpp"
#include "search_setup.hpp"

using namespace gemmtune;
using namespace gemmtune::tuner;

namespace {

SearchSetup setup_for(const Problem& problem, std::optional<std::size_t> budget) {
  SearchSetup setup;
  setup.problem = problem;
  setup.space = candidate_space(problem, natural_alignment(problem), {"reg2d", "vectorized", "warptile"},
                                Precision::Fp32, setup.device.sm_count, "sm_90");
  setup.seeds = family_defaults(setup.space);
  setup.budget.max_candidates = budget;
  return setup;
}

std::set<std::string> names(const std::vector<KernelConfig>& configs) {
  std::set<std::string> found;
  for (const KernelConfig& config : configs) found.insert(kernel_name(config));
  return found;
}

}  // namespace

TEST_CASE("dry-run plan: guided hands out the defaults first, then the model's picks, within the budget", "[tuner]") {
  const Problem problem{Layout::NN, 1000, 1000, 1000};
  const SearchSetup setup = setup_for(problem, 20);
  const std::vector<KernelConfig> plan = plan_problem("guided", setup);
  REQUIRE(plan.size() == 20);
  CHECK(names(plan).size() == plan.size());
  for (std::size_t i = 0; i < setup.seeds.size(); ++i) CHECK(kernel_name(plan[i]) == kernel_name(setup.seeds[i]));
  // The model's favourite of the whole space is among them.
  const KernelConfig* favourite = &setup.space.front();
  for (const KernelConfig& config : setup.space) {
    if (estimate_cost(config, problem).ms < estimate_cost(*favourite, problem).ms) favourite = &config;
  }
  CHECK(names(plan).count(kernel_name(*favourite)) == 1);
}

TEST_CASE("dry-run plan: without a budget guided stops where local search on the model converges", "[tuner]") {
  const SearchSetup setup = setup_for({Layout::NN, 4096, 4096, 4096}, std::nullopt);
  const std::vector<KernelConfig> plan = plan_problem("guided", setup);
  CHECK(plan.size() > setup.seeds.size());
  CHECK(plan.size() < setup.space.size() / 4 + 1);  // the guided default: at most a quarter
}

TEST_CASE("dry-run plan: exhaustive is the whole space, random the budget's draws", "[tuner]") {
  const SearchSetup all = setup_for({Layout::TN, 64, 3000, 800}, std::nullopt);
  CHECK(names(plan_problem("exhaustive", all)) == names(all.space));
  const SearchSetup budgeted = setup_for({Layout::TN, 64, 3000, 800}, 30);
  const std::vector<KernelConfig> drawn = plan_problem("random", budgeted);
  CHECK(drawn.size() == 30);
  CHECK(names(drawn).size() == 30);
}

TEST_CASE("dry-run plan: a time budget is left to the compiling", "[tuner]") {
  SearchSetup setup = setup_for({Layout::NN, 1000, 1000, 1000}, 20);
  setup.budget.max_seconds = 1e-9;  // spent at once if it were simulated
  CHECK(plan_problem("guided", setup).size() == 20);
}

TEST_CASE("dry-run plan: a candidate that cannot launch on the model's GPU stands in as a failure",
          "[tuner]") {
  const Problem problem{Layout::NN, 1000, 1000, 1000};
  const SearchSetup setup = setup_for(problem, 20);
  KernelConfig config = setup.space.front();
  CHECK(predicted_result(config, problem, setup.device).ok);
  DeviceModel no_room = setup.device;
  no_room.max_smem_per_sm = 1;  // no tile in shared memory fits
  CHECK_FALSE(predicted_result(config, problem, no_room).ok);
}

TEST_CASE("dry-run plan: a family's search seeds follow its default where the problem's space holds them", "[tuner]") {
  const SearchSetup large = setup_for(Problem{Layout::NN, 4096, 4096, 4096}, 20);
  const std::set<std::string> seeds = names(large.seeds);
  // warptile's: 256x128x16 with 64x64 warp tiles of 16x8 threads and double-buffered fragments.
  CHECK(seeds.count("gemmtune_sgemm_warptile_nn_bm256_bn128_bk16_wm64_wn64_tm16_tn8_stages3_splitk1_fragbuf2_align4") == 1);
  CHECK(seeds.count(kernel_name(find_family("warptile").default_config(Layout::NN, 4))) == 1);
  for (const KernelConfig& seed : large.seeds) {
    INFO(kernel_name(seed));
    CHECK(names(large.space).count(kernel_name(seed)) == 1);  // never one outside the space
  }
  // Handed out right after the defaults, within the budget.
  const std::vector<KernelConfig> plan = plan_problem("guided", large);
  CHECK(names(std::vector<KernelConfig>(plan.begin(), plan.begin() + large.seeds.size())) == seeds);
}
