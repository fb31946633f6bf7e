#include "make_strategy.hpp"

#include <stdexcept>
#include <string>

#include "exhaustive_strategy.hpp"
#include "guided_strategy.hpp"
#include "random_strategy.hpp"

namespace gemmtune::tuner {

const std::vector<std::string_view>& strategy_names() {
  static const std::vector<std::string_view> names = {"exhaustive", "random", "guided"};
  return names;
}

std::unique_ptr<Strategy> make_strategy(std::string_view name, const SearchSetup& setup) {
  if (name == "exhaustive") return std::make_unique<ExhaustiveStrategy>(setup);
  if (name == "random") return std::make_unique<RandomStrategy>(setup);
  if (name == "guided") return std::make_unique<GuidedStrategy>(setup);
  std::string known;
  for (std::string_view known_name : strategy_names()) {
    known += (known.empty() ? "" : ", ") + std::string(known_name);
  }
  throw std::invalid_argument("unknown search strategy '" + std::string(name) + "' (known: " + known + ")");
}

}  // namespace gemmtune::tuner
