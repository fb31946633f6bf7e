// Measures every configuration of the space, in the space's order (after the seeds): the
// reference the other strategies are judged against.
#pragma once

#include "strategy.hpp"

namespace gemmtune::tuner {

class ExhaustiveStrategy final : public Strategy {
 public:
  explicit ExhaustiveStrategy(const SearchSetup& setup) : Strategy(setup) {}
  std::string_view name() const override { return "exhaustive"; }

 private:
  std::optional<std::size_t> propose() override;

  std::size_t cursor_ = 0;
};

}  // namespace gemmtune::tuner
