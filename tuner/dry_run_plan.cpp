#include "dry_run_plan.hpp"

#include <cmath>

#include "make_strategy.hpp"

namespace gemmtune::tuner {

std::vector<KernelConfig> predicted_candidates(Strategy& strategy, const PredictedResult& predict) {
  std::vector<KernelConfig> order;
  // In batches, as a driver with many compile workers takes them: a strategy that needs results
  // before proposing more returns nullopt with candidates pending, and the batch is answered.
  while (true) {
    std::vector<KernelConfig> batch;
    while (std::optional<KernelConfig> config = strategy.next()) batch.push_back(std::move(*config));
    if (batch.empty()) return order;
    for (KernelConfig& config : batch) {
      strategy.report(config, predict(config));
      order.push_back(std::move(config));
    }
  }
}

CandidateResult predicted_result(const KernelConfig& config, const Problem& problem, const DeviceModel& device) {
  const double ms = estimate_cost(config, problem, device).ms;
  return std::isfinite(ms) && ms > 0 ? CandidateResult::measured(ms) : CandidateResult::failed();
}

std::vector<KernelConfig> plan_problem(const std::string& strategy_name, SearchSetup setup) {
  setup.budget.max_seconds.reset();
  const Problem problem = setup.problem;
  const DeviceModel device = setup.device;
  std::unique_ptr<Strategy> strategy = make_strategy(strategy_name, setup);
  return predicted_candidates(*strategy,
                              [&](const KernelConfig& config) { return predicted_result(config, problem, device); });
}

}  // namespace gemmtune::tuner
