// Measures the space in a random order fixed by the seed, each configuration at most once, until
// the budget is spent: the baseline a smarter strategy has to beat.
#pragma once

#include <vector>

#include "strategy.hpp"

namespace gemmtune::tuner {

class RandomStrategy final : public Strategy {
 public:
  explicit RandomStrategy(const SearchSetup& setup);
  std::string_view name() const override { return "random"; }

 private:
  std::optional<std::size_t> propose() override;

  std::vector<std::size_t> order_;  // a permutation of the space's indices
  std::size_t cursor_ = 0;
};

}  // namespace gemmtune::tuner
