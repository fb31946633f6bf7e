// The strategies against a synthetic cost function with a known optimum: a smooth bowl in the
// log2 of the parameters, a factor per family and alignment, and some configurations that fail.
#include <catch2/catch.hpp>
#include <cmath>
#include <map>
#include <set>

#include "cost_model.hpp"
#include "family_registry.hpp"
#include "guided_strategy.hpp"
#include "kernel_name.hpp"
#include "make_strategy.hpp"
#include "search_space.hpp"

using namespace gemmtune;
using namespace gemmtune::tuner;

namespace {

const Problem kProblem{Layout::NN, 4096, 4096, 4096};

// Legal for vectorized at ALIGN 4 and inside every parameter's search list.
const std::map<std::string, int> kTarget = {{"BM", 128}, {"BN", 128}, {"BK", 16}, {"TM", 8}, {"TN", 4}, {"TILE", 16}};

// Simulates a candidate that does not compile or crashes: big register tiles with BK 32.
bool fails(const KernelConfig& config) {
  for (const auto& [name, value] : config.params) {
    if (name == "BK" && value == 32) return config.get("TM") * config.get("TN") >= 64;
  }
  return false;
}

double synthetic_ms(const KernelConfig& config) {
  static const std::map<std::string, double> kFamilyFactor = {{"naive", 40.0}, {"coalesced", 12.0},
                                                              {"smem", 6.0},   {"reg1d", 2.5},
                                                              {"reg2d", 1.4},  {"vectorized", 1.0}};
  double distance = 0.0;
  for (const auto& [name, value] : config.params) {
    const double off = std::log2(value) - std::log2(kTarget.at(name));
    distance += off * off;
  }
  const double align_factor = config.align == 4 ? 1.0 : config.align == 2 ? 1.08 : 1.15;
  return kFamilyFactor.at(config.family) * align_factor * (1.0 + 0.2 * distance);
}

CandidateResult measure(const KernelConfig& config) {
  return fails(config) ? CandidateResult::failed() : CandidateResult::measured(synthetic_ms(config));
}

const std::vector<KernelConfig>& full_space() {
  // The seed families: the synthetic cost above knows them (newer families would only grow the
  // space, not change what the strategies are tested for).
  static const std::vector<KernelConfig> space =
      enumerate_all(Layout::NN, 4, {"naive", "coalesced", "smem", "reg1d", "reg2d", "vectorized"});
  return space;
}

double optimum_ms() {
  static const double best = [] {
    double fastest = std::numeric_limits<double>::infinity();
    for (const KernelConfig& config : full_space()) {
      if (!fails(config)) fastest = std::min(fastest, synthetic_ms(config));
    }
    return fastest;
  }();
  return best;
}

SearchSetup setup_with(Budget budget = {}, std::vector<KernelConfig> seeds = {}) {
  SearchSetup setup;
  setup.space = full_space();
  setup.problem = kProblem;
  setup.budget = budget;
  setup.seeds = std::move(seeds);
  return setup;
}

// Runs the sequential protocol to the end; returns what was handed out, in order.
std::vector<KernelConfig> run(Strategy& strategy, const std::function<void()>& after_each = [] {}) {
  std::vector<KernelConfig> order;
  while (std::optional<KernelConfig> config = strategy.next()) {
    order.push_back(*config);
    strategy.report(*config, measure(*config));
    after_each();
  }
  CHECK(strategy.pending_count() == 0);
  return order;
}

std::set<std::string> names_of(const std::vector<KernelConfig>& configs) {
  std::set<std::string> names;
  for (const KernelConfig& config : configs) names.insert(kernel_name(config));
  return names;
}

KernelConfig vectorized(int bm, int bn, int bk, int tm, int tn, int align) {
  KernelConfig config = find_family("vectorized").default_config(Layout::NN, align);
  config.params = {{"BM", bm}, {"BN", bn}, {"BK", bk}, {"TM", tm}, {"TN", tn}};
  return config;
}

}  // namespace

TEST_CASE("strategies: the synthetic optimum is unique, legal and does not fail", "[strategy]") {
  const KernelConfig target = vectorized(128, 128, 16, 8, 4, 4);
  REQUIRE_FALSE(find_family("vectorized").check(target));
  REQUIRE(names_of(full_space()).count(kernel_name(target)) == 1);
  std::size_t at_optimum = 0, failing = 0;
  for (const KernelConfig& config : full_space()) {
    at_optimum += synthetic_ms(config) == optimum_ms();
    failing += fails(config);
  }
  CHECK(at_optimum == 1);
  CHECK(optimum_ms() == synthetic_ms(target));
  CHECK(failing > 10);
}

TEST_CASE("strategies: exhaustive measures the whole space once and finds the optimum", "[strategy]") {
  const std::unique_ptr<Strategy> strategy = make_strategy("exhaustive", setup_with());
  const std::vector<KernelConfig> order = run(*strategy);
  CHECK(order.size() == full_space().size());
  CHECK(names_of(order) == names_of(full_space()));
  REQUIRE(strategy->best());
  CHECK(kernel_name(strategy->best()->config) == kernel_name(vectorized(128, 128, 16, 8, 4, 4)));
  CHECK(strategy->best()->ms == optimum_ms());
}

TEST_CASE("strategies: random keeps to its budget and never repeats", "[strategy]") {
  const std::unique_ptr<Strategy> strategy = make_strategy("random", setup_with({.max_candidates = 40}));
  CHECK(strategy->planned_count() == 40);
  const std::vector<KernelConfig> order = run(*strategy);
  CHECK(order.size() == 40);
  const std::set<std::string> names = names_of(order);
  CHECK(names.size() == 40);
  for (const std::string& name : names) CHECK(names_of(full_space()).count(name) == 1);
}

TEST_CASE("strategies: random without a budget visits the whole space in a seeded order", "[strategy]") {
  SearchSetup setup = setup_with();
  const std::vector<KernelConfig> first = run(*make_strategy("random", setup));
  CHECK(names_of(first) == names_of(full_space()));
  CHECK(first.size() == full_space().size());
  CHECK(first != full_space());  // shuffled
  const std::vector<KernelConfig> again = run(*make_strategy("random", setup));
  CHECK(again == first);
  setup.random_seed = 2;
  const std::vector<KernelConfig> other = run(*make_strategy("random", setup));
  CHECK(other != first);
}

TEST_CASE("strategies: guided gets within 3% of the optimum measuring at most a quarter of the space", "[strategy]") {
  const std::unique_ptr<Strategy> strategy = make_strategy("guided", setup_with());
  const std::size_t quarter = (full_space().size() + 3) / 4;
  CHECK(strategy->planned_count() == quarter);
  const std::vector<KernelConfig> order = run(*strategy);
  INFO("measured " << order.size() << " of " << full_space().size());
  CHECK(order.size() <= quarter);
  CHECK(names_of(order).size() == order.size());
  REQUIRE(strategy->best());
  CHECK(strategy->best()->ms <= 1.03 * optimum_ms());
}

TEST_CASE("strategies: guided measures the model's favourites first", "[strategy]") {
  const SearchSetup setup = setup_with();
  GuidedStrategy strategy(setup);
  // 10% of a quarter of the space.
  CHECK(strategy.model_picks() == static_cast<std::size_t>(std::ceil(0.1 * strategy.planned_count())));
  std::vector<double> predictions;
  for (const KernelConfig& config : full_space()) predictions.push_back(estimate_cost(config, kProblem).ms);
  std::sort(predictions.begin(), predictions.end());
  for (std::size_t i = 0; i < strategy.model_picks(); ++i) {
    const std::optional<KernelConfig> config = strategy.next();
    REQUIRE(config);
    CHECK(estimate_cost(*config, kProblem).ms == predictions[i]);
  }
}

TEST_CASE("strategies: guided stops early when no neighbour improves", "[strategy]") {
  // A budget of the whole space: only convergence can stop it before.
  const std::unique_ptr<Strategy> strategy =
      make_strategy("guided", setup_with({.max_candidates = full_space().size()}));
  const std::vector<KernelConfig> order = run(*strategy);
  CHECK(order.size() < full_space().size() / 4);
  REQUIRE(strategy->best());
  CHECK(strategy->best()->ms == optimum_ms());
}

TEST_CASE("strategies: guided stops once its last results stop bettering the best", "[strategy]") {
  // Every configuration within 1.25x of the best, as the FFMA families' large problems nearly
  // are: widening alone would run to the budget.
  const std::size_t budget = full_space().size();
  const std::unique_ptr<Strategy> flat = make_strategy("guided", setup_with({.max_candidates = budget}));
  std::size_t measured = 0;
  while (std::optional<KernelConfig> config = flat->next()) {
    ++measured;
    // Times within 0.06% of each other: whatever the order, no gain the stall rule counts.
    flat->report(*config, CandidateResult::measured(1.0 + 1e-4 * static_cast<double>(measured % 7)));
  }
  INFO(measured << " measured of " << budget);
  CHECK(measured == GuidedStrategy::kStallWindow + 1);
  // A search whose best keeps improving by more than the gain runs on past the window.
  const std::unique_ptr<Strategy> improving = make_strategy("guided", setup_with({.max_candidates = budget}));
  measured = 0;
  while (std::optional<KernelConfig> config = improving->next()) {
    ++measured;
    improving->report(*config, CandidateResult::measured(std::pow(0.999, static_cast<double>(measured))));
    if (measured > 3 * GuidedStrategy::kStallWindow) break;
  }
  CHECK(measured > 3 * GuidedStrategy::kStallWindow);
}

TEST_CASE("strategies: guided searches on when the model's favourites all fail", "[strategy]") {
  const std::unique_ptr<Strategy> strategy = make_strategy("guided", setup_with());
  std::size_t measured = 0;
  while (std::optional<KernelConfig> config = strategy->next()) {
    ++measured;
    strategy->report(*config, config->family == "vectorized" ? CandidateResult::failed() : measure(*config));
  }
  REQUIRE(strategy->best());
  CHECK(strategy->best()->config.family == "reg2d");
  CHECK(measured > static_cast<GuidedStrategy&>(*strategy).model_picks());
}

TEST_CASE("strategies: a batch driver gets the same guarantees", "[strategy]") {
  for (std::string_view name : strategy_names()) {
    INFO(name);
    const std::unique_ptr<Strategy> strategy = make_strategy(name, setup_with({.max_candidates = 120}));
    std::set<std::string> seen;
    while (true) {
      std::vector<KernelConfig> batch;
      while (batch.size() < 8) {
        std::optional<KernelConfig> config = strategy->next();
        if (!config) break;
        batch.push_back(*config);
      }
      CHECK(strategy->pending_count() == batch.size());
      if (batch.empty()) break;
      for (const KernelConfig& config : batch) {
        CHECK(seen.insert(kernel_name(config)).second);
        strategy->report(config, measure(config));
      }
    }
    CHECK(seen.size() <= 120);
    REQUIRE(strategy->best());
    if (name == "guided") CHECK(strategy->best()->ms <= 1.03 * optimum_ms());
  }
}

TEST_CASE("strategies: warm-start seeds are measured first, in order, by every strategy", "[strategy]") {
  const KernelConfig seed_a = vectorized(64, 64, 16, 4, 4, 2);
  const KernelConfig seed_b = find_family("reg1d").default_config();
  KernelConfig not_in_space = seed_b;
  not_in_space.set("BK", 12);
  for (std::string_view name : strategy_names()) {
    INFO(name);
    const std::unique_ptr<Strategy> strategy =
        make_strategy(name, setup_with({}, {seed_a, not_in_space, seed_b, seed_a}));
    const std::vector<KernelConfig> order = run(*strategy);
    REQUIRE(order.size() >= 2);
    CHECK(order[0] == seed_a);
    CHECK(order[1] == seed_b);
    CHECK(names_of(order).size() == order.size());
    CHECK(names_of(order).count(kernel_name(not_in_space)) == 0);
  }
}

TEST_CASE("strategies: the time budget stops every strategy, read from the injected clock", "[strategy]") {
  for (std::string_view name : strategy_names()) {
    INFO(name);
    double now = 1000.0;  // seconds; each measurement takes 1.5 of them
    SearchSetup setup = setup_with({.max_seconds = 10.0});
    setup.clock = [&now] { return now; };
    const std::unique_ptr<Strategy> strategy = make_strategy(name, setup);
    now += 500.0;  // the budget starts at the first request, not at construction
    const std::vector<KernelConfig> order = run(*strategy, [&now] { now += 1.5; });
    // Candidates start at 0, 1.5, ..., 9.0 seconds: seven of them.
    CHECK(order.size() == 7);
  }
}

TEST_CASE("strategies: report refuses results that were not asked for", "[strategy]") {
  const std::unique_ptr<Strategy> strategy = make_strategy("exhaustive", setup_with());
  const KernelConfig first = *strategy->next();
  const KernelConfig second = *strategy->next();
  CHECK_THROWS_AS(strategy->report(full_space()[5], CandidateResult::measured(1.0)), std::logic_error);
  KernelConfig outside = first;
  outside.align = 3;
  CHECK_THROWS_WITH(strategy->report(outside, CandidateResult::measured(1.0)),
                    "exhaustive search: result for " + kernel_name(outside) + ", which is not in the search space");
  CHECK_THROWS_AS(strategy->report(first, CandidateResult::measured(0.0)), std::invalid_argument);
  CHECK_THROWS_AS(strategy->report(first, CandidateResult::measured(std::nan(""))), std::invalid_argument);
  strategy->report(first, CandidateResult::measured(2.0));
  CHECK_THROWS_WITH(strategy->report(first, CandidateResult::measured(2.0)),
                    "exhaustive search: result for " + kernel_name(first) + ", which was already reported");
  strategy->report(second, CandidateResult::failed());
  CHECK(strategy->best()->ms == 2.0);
  CHECK(strategy->reported_count() == 2);
}

TEST_CASE("strategies: failed candidates never become the best", "[strategy]") {
  const std::unique_ptr<Strategy> strategy = make_strategy("exhaustive", setup_with());
  while (std::optional<KernelConfig> config = strategy->next()) {
    // Every configuration better than 2x the optimum fails.
    const bool fast = synthetic_ms(*config) < 2 * optimum_ms();
    strategy->report(*config, fast ? CandidateResult::failed() : CandidateResult::measured(synthetic_ms(*config)));
  }
  REQUIRE(strategy->best());
  CHECK(strategy->best()->ms >= 2 * optimum_ms());
}

TEST_CASE("strategies: make_strategy names the known strategies for an unknown one", "[strategy]") {
  CHECK(strategy_names() == std::vector<std::string_view>{"exhaustive", "random", "guided"});
  CHECK_THROWS_WITH(make_strategy("anneal", setup_with()),
                    "unknown search strategy 'anneal' (known: exhaustive, random, guided)");
}

TEST_CASE("strategies: a space listing a configuration twice is refused", "[strategy]") {
  SearchSetup setup = setup_with();
  setup.space.push_back(setup.space.front());
  CHECK_THROWS_WITH(make_strategy("random", setup),
                    "search space lists " + kernel_name(setup.space.front()) + " twice");
}

TEST_CASE("strategies: an empty space ends at once", "[strategy]") {
  SearchSetup setup = setup_with();
  setup.space.clear();
  for (std::string_view name : strategy_names()) {
    const std::unique_ptr<Strategy> strategy = make_strategy(name, setup);
    CHECK_FALSE(strategy->next());
    CHECK_FALSE(strategy->best());
  }
}
