#include "guided_strategy.hpp"

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <numeric>

#include "search_space.hpp"

namespace gemmtune::tuner {
namespace {

SearchSetup with_default_budget(SearchSetup setup) {
  if (!setup.budget.max_candidates) {
    const double share = GuidedStrategy::kDefaultSpaceShare * static_cast<double>(setup.space.size());
    setup.budget.max_candidates =
        std::clamp<std::size_t>(static_cast<std::size_t>(std::ceil(share)), 1, GuidedStrategy::kDefaultMaxCandidates);
  }
  return setup;
}

// The tiling of a configuration without its family: families that share parameter names (reg2d
// and vectorized) then meet, and local search can cross from one to the other.
std::string tiling_key(const KernelConfig& config) {
  std::string key = std::string(layout_name(config.layout)) + "/" + std::to_string(config.align);
  for (const auto& [name, value] : config.params) key += "/" + name + "=" + std::to_string(value);
  return key;
}

}  // namespace

GuidedStrategy::GuidedStrategy(const SearchSetup& setup)
    : Strategy(with_default_budget(setup)),
      predicted_ms_(space().size()),
      ranking_(space().size()),
      expanded_(space().size(), false) {
  for (std::size_t i = 0; i < space().size(); ++i) {
    predicted_ms_[i] = estimate_cost(space()[i], setup.problem, setup.device).ms;
  }
  for (std::size_t i = 0; i < space().size(); ++i) siblings_[tiling_key(space()[i])].push_back(i);
  std::iota(ranking_.begin(), ranking_.end(), std::size_t{0});
  std::stable_sort(ranking_.begin(), ranking_.end(),
                   [&](std::size_t a, std::size_t b) { return predicted_ms_[a] < predicted_ms_[b]; });
  const std::size_t candidates = *budget().max_candidates;
  const auto share = static_cast<std::size_t>(std::ceil(kModelShare * static_cast<double>(candidates)));
  model_picks_ = std::min(candidates, std::max(kMinModelPicks, share));
}

std::optional<std::size_t> GuidedStrategy::propose() {
  if (stalled()) return std::nullopt;
  if (ranking_cursor_ < std::min(model_picks_, ranking_.size())) return ranking_[ranking_cursor_++];
  if (!first_round_) first_round_ = proposed_count();  // the seeds and the model's favourites
  while (true) {
    // The climb waits for the first round (the seeds and the model's favourites) to be all in:
    // climbing from whichever of it came back first spends the budget on the wrong
    // neighbourhoods.
    if (reported_count() < *first_round_) return std::nullopt;
    // A measured configuration faster than the one whose neighbours are being handed out is
    // expanded first: its neighbours go ahead of the rest.
    const std::optional<std::size_t> centre = next_centre();
    if (centre && (frontier_.empty() || measured_ms_.at(*centre) < frontier_.front().centre_ms)) {
      expand(*centre);
      continue;
    }
    if (!frontier_.empty()) {
      const std::size_t index = frontier_.front().index;
      std::pop_heap(frontier_.begin(), frontier_.end(), std::greater<>{});
      frontier_.pop_back();
      if (!was_proposed(index)) return index;
      continue;
    }
    if (pending_count() > 0) return std::nullopt;  // nothing to climb from until results come
    if (successes_.empty()) {
      // Everything measured so far failed: no place to climb from; keep to the model's order.
      if (ranking_cursor_ < ranking_.size()) return ranking_[ranking_cursor_++];
      return std::nullopt;
    }
    return std::nullopt;  // converged: every fast enough configuration is expanded
  }
}

std::optional<std::size_t> GuidedStrategy::next_centre() const {
  // Fastest first; a configuration much slower than the best is not worth a neighbourhood.
  for (const auto& [ms, index] : successes_) {
    if (ms > kWidenWithin * successes_.front().first) break;
    if (!expanded_[index]) return index;
  }
  return std::nullopt;
}

void GuidedStrategy::expand(std::size_t centre) {
  expanded_[centre] = true;
  const double centre_ms = measured_ms_.at(centre);
  auto add = [&](std::size_t index) {
    if (was_proposed(index)) return;
    frontier_.push_back({centre_ms, predicted_ms_[index], index});
    std::push_heap(frontier_.begin(), frontier_.end(), std::greater<>{});
  };
  for (const KernelConfig& neighbour : neighbours(space()[centre])) {
    if (const std::optional<std::size_t> index = index_of(neighbour)) add(*index);
  }
  for (const std::size_t sibling : siblings_.at(tiling_key(space()[centre]))) add(sibling);
}

bool GuidedStrategy::stalled() const {
  const std::size_t results = best_after_.size();
  if (results <= kStallWindow || !std::isfinite(best_after_.back())) return false;
  return best_after_.back() >= (1.0 - kStallGain) * best_after_[results - 1 - kStallWindow];
}

void GuidedStrategy::on_result(std::size_t index, const CandidateResult& result) {
  best_after_.push_back(best() ? best()->ms : std::numeric_limits<double>::infinity());  // (report set best())
  if (!result.ok) return;
  measured_ms_[index] = result.ms;
  const std::pair<double, std::size_t> entry{result.ms, index};
  successes_.insert(std::upper_bound(successes_.begin(), successes_.end(), entry), entry);
}

}  // namespace gemmtune::tuner
