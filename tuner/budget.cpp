#include "budget.hpp"

#include <chrono>

namespace gemmtune::tuner {

double monotonic_seconds() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

}  // namespace gemmtune::tuner
