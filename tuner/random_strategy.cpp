#include "random_strategy.hpp"

#include <numeric>
#include <random>

namespace gemmtune::tuner {
namespace {

// A uniform draw from 0..bound-1 by rejection. Hand-written rather than std::shuffle and
// std::uniform_int_distribution, whose algorithms differ between standard libraries: the same
// seed must give the same search everywhere (mt19937_64's raw output is fixed by the standard).
std::size_t draw_below(std::mt19937_64& engine, std::size_t bound) {
  const std::uint64_t range = bound;
  const std::uint64_t limit = std::mt19937_64::max() - std::mt19937_64::max() % range;
  std::uint64_t value = engine();
  while (value >= limit) value = engine();
  return static_cast<std::size_t>(value % range);
}

}  // namespace

RandomStrategy::RandomStrategy(const SearchSetup& setup)
    : Strategy(setup), order_(setup.space.size()) {
  std::iota(order_.begin(), order_.end(), std::size_t{0});
  std::mt19937_64 engine(setup.random_seed);
  for (std::size_t i = order_.size(); i > 1; --i) std::swap(order_[i - 1], order_[draw_below(engine, i)]);
}

std::optional<std::size_t> RandomStrategy::propose() {
  if (cursor_ == order_.size()) return std::nullopt;
  return order_[cursor_++];
}

}  // namespace gemmtune::tuner
