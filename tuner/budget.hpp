// How much a search may measure, and the clock a time budget is read from.
#pragma once

#include <cstddef>
#include <functional>
#include <optional>

namespace gemmtune::tuner {

// Seconds on a monotonic clock, from any fixed origin. Injectable so that tests can run a time
// budget without waiting.
using Clock = std::function<double()>;

// std::chrono::steady_clock, in seconds.
double monotonic_seconds();

// Unset limits do not limit. A search stops proposing once either is reached.
struct Budget {
  // Candidates handed out for measurement, failed ones included.
  std::optional<std::size_t> max_candidates = std::nullopt;
  // Seconds since the search asked for its first candidate. Checked before each candidate, so a
  // search overruns by at most the candidates already handed out.
  std::optional<double> max_seconds = std::nullopt;
};

}  // namespace gemmtune::tuner
