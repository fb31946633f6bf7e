#include "guided_strategy.hpp"

#include <algorithm>
#include <cmath>
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
  if (ranking_cursor_ < std::min(model_picks_, ranking_.size())) return ranking_[ranking_cursor_++];
  while (true) {
    if (!neighbour_queue_.empty()) {
      const std::size_t index = neighbour_queue_.front();
      neighbour_queue_.pop_front();
      return index;
    }
    // Where to climb next depends on the results still out.
    if (pending_count() > 0) return std::nullopt;
    if (successes_.empty()) {
      // Everything measured so far failed: no place to climb from; keep to the model's order.
      if (ranking_cursor_ < ranking_.size()) return ranking_[ranking_cursor_++];
      return std::nullopt;
    }
    const std::optional<std::size_t> centre = next_centre();
    if (!centre) return std::nullopt;  // converged: every fast enough configuration is expanded
    expand(*centre);
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
  std::vector<std::size_t> fresh;
  for (const KernelConfig& neighbour : neighbours(space()[centre])) {
    const std::optional<std::size_t> index = index_of(neighbour);
    if (index && !was_proposed(*index)) fresh.push_back(*index);
  }
  for (const std::size_t sibling : siblings_.at(tiling_key(space()[centre]))) {
    if (!was_proposed(sibling)) fresh.push_back(sibling);
  }
  // The model's favourite first, so a budget running out cuts the least promising.
  std::stable_sort(fresh.begin(), fresh.end(),
                   [&](std::size_t a, std::size_t b) { return predicted_ms_[a] < predicted_ms_[b]; });
  neighbour_queue_.assign(fresh.begin(), fresh.end());
}

void GuidedStrategy::on_result(std::size_t index, const CandidateResult& result) {
  if (!result.ok) return;
  const std::pair<double, std::size_t> entry{result.ms, index};
  successes_.insert(std::upper_bound(successes_.begin(), successes_.end(), entry), entry);
}

}  // namespace gemmtune::tuner
