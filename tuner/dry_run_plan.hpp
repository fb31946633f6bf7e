// What a strategy would hand out for compiling on a GPU, worked out without one: the strategy
// runs with the cost model's estimate standing in for each measurement, so that guided search spends its
// budget on the model's favourites and their neighbours, random search on the budget's first
// draws and exhaustive search on everything. `tune --dry-run` compiles this plan, `--list`
// prints it. No GPU, no compiling here.
#pragma once

#include <cstddef>
#include <functional>
#include <string>
#include <vector>

#include "strategy.hpp"

namespace gemmtune::tuner {

// A candidate's stand-in result for the plan: the cost model's estimate, or failed().
using PredictedResult = std::function<CandidateResult(const KernelConfig&)>;

// Drives `strategy` to the end of its search, answering each candidate with `predict`, and
// returns the candidates in the order it handed them out. A time budget is not simulated: the
// caller strips it from the setup and applies it to the compiling.
std::vector<KernelConfig> predicted_candidates(Strategy& strategy, const PredictedResult& predict);

// The cost model's estimate for `problem` as a CandidateResult (failed() for a configuration
// that cannot launch).
CandidateResult predicted_result(const KernelConfig& config, const Problem& problem, const DeviceModel& device);

// One problem's plan: the strategy named `strategy_name` built from `setup` (its time budget
// left out), driven by the cost model.
std::vector<KernelConfig> plan_problem(const std::string& strategy_name, SearchSetup setup);

}  // namespace gemmtune::tuner
