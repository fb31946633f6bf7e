#include "strategy.hpp"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "kernel_name.hpp"

namespace gemmtune::tuner {

Strategy::Strategy(const SearchSetup& setup)
    : space_(setup.space),
      state_(setup.space.size(), State::unproposed),
      budget_(setup.budget),
      clock_(setup.clock ? setup.clock : Clock(monotonic_seconds)) {
  for (std::size_t i = 0; i < space_.size(); ++i) {
    if (!index_by_name_.emplace(kernel_name(space_[i]), i).second) {
      throw std::invalid_argument("search space lists " + kernel_name(space_[i]) + " twice");
    }
  }
  for (const KernelConfig& seed : setup.seeds) {
    if (auto index = index_of(seed)) {
      seed_queue_.push_back(*index);
    } else {
      spdlog::debug("warm start: {} is not in the search space; skipped", kernel_name(seed));
    }
  }
}

std::size_t Strategy::planned_count() const {
  return std::min(space_.size(), budget_.max_candidates.value_or(space_.size()));
}

std::optional<std::size_t> Strategy::index_of(const KernelConfig& config) const {
  const auto found = index_by_name_.find(kernel_name(config));
  if (found == index_by_name_.end()) return std::nullopt;
  return found->second;
}

bool Strategy::budget_spent() const {
  if (budget_.max_candidates && proposed_count_ >= *budget_.max_candidates) return true;
  return budget_.max_seconds && clock_() - *start_seconds_ >= *budget_.max_seconds;
}

std::optional<KernelConfig> Strategy::hand_out(std::size_t index) {
  state_[index] = State::pending;
  ++proposed_count_;
  return space_[index];
}

std::optional<KernelConfig> Strategy::next() {
  if (!start_seconds_) start_seconds_ = clock_();
  if (budget_spent()) return std::nullopt;
  while (seed_cursor_ < seed_queue_.size()) {
    const std::size_t index = seed_queue_[seed_cursor_++];
    if (!was_proposed(index)) return hand_out(index);
  }
  while (const std::optional<std::size_t> index = propose()) {
    if (!was_proposed(*index)) return hand_out(*index);
  }
  return std::nullopt;
}

void Strategy::report(const KernelConfig& config, const CandidateResult& result) {
  const std::optional<std::size_t> index = index_of(config);
  if (!index || state_[*index] != State::pending) {
    throw std::logic_error(std::string(name()) + " search: result for " + kernel_name(config) +
                           (!index ? ", which is not in the search space"
                            : state_[*index] == State::reported ? ", which was already reported"
                                                                : ", which was not handed out"));
  }
  if (result.ok && !(std::isfinite(result.ms) && result.ms > 0.0)) {
    throw std::invalid_argument(std::string(name()) + " search: " + kernel_name(config) +
                                " reported ok with time " + std::to_string(result.ms) +
                                " ms; an ok result needs a positive finite time");
  }
  state_[*index] = State::reported;
  ++reported_count_;
  if (result.ok && (!best_ || result.ms < best_->ms)) best_ = Measurement{space_[*index], result.ms};
  on_result(*index, result);
}

}  // namespace gemmtune::tuner
