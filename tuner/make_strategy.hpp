// Builds a search strategy by the name a user gives on the command line.
#pragma once

#include <memory>
#include <string_view>
#include <vector>

#include "strategy.hpp"

namespace gemmtune::tuner {

// "exhaustive", "random", "guided".
const std::vector<std::string_view>& strategy_names();

// Throws std::invalid_argument listing the known names for an unknown one, and whatever the
// strategy's constructor throws (a space listing a configuration twice).
std::unique_ptr<Strategy> make_strategy(std::string_view name, const SearchSetup& setup);

}  // namespace gemmtune::tuner
