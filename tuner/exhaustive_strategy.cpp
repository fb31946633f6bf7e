#include "exhaustive_strategy.hpp"

namespace gemmtune::tuner {

std::optional<std::size_t> ExhaustiveStrategy::propose() {
  if (cursor_ == space().size()) return std::nullopt;
  return cursor_++;
}

}  // namespace gemmtune::tuner
