// Model-guided local search. Ranks the whole space with the cost model (cost_model.hpp), measures
// the model's favourites, then hill-climbs: measures the unmeasured neighbours (search_space.hpp)
// of the fastest measured configurations, moves to any that beats them, and stops when the best
// few have no better neighbour or the budget is spent. The model only has to put the right region
// near the top; measurements decide within it.
#pragma once

#include <deque>
#include <utility>
#include <vector>

#include "strategy.hpp"

namespace gemmtune::tuner {

class GuidedStrategy final : public Strategy {
 public:
  // The share of the space measured when the budget sets no candidate count.
  static constexpr double kDefaultSpaceShare = 0.25;
  // The share of the candidate count spent on the model's favourites before local search, and
  // the least number of them (enough to fill the beam).
  static constexpr double kModelShare = 0.10;
  static constexpr std::size_t kMinModelPicks = 3;
  // Local search expands the best few measured configurations, not only the best, so that one
  // unlucky neighbourhood does not end the search at a local optimum.
  static constexpr std::size_t kBeamWidth = 3;

  explicit GuidedStrategy(const SearchSetup& setup);
  std::string_view name() const override { return "guided"; }

  // How many of the model's favourites are measured before local search starts.
  std::size_t model_picks() const { return model_picks_; }

 private:
  std::optional<std::size_t> propose() override;
  void on_result(std::size_t index, const CandidateResult& result) override;
  // The best measured configuration among the kBeamWidth fastest not yet expanded, if any.
  std::optional<std::size_t> next_centre() const;
  void expand(std::size_t centre);

  std::vector<double> predicted_ms_;           // by space index
  std::vector<std::size_t> ranking_;           // space indices, predicted fastest first
  std::size_t ranking_cursor_ = 0;
  std::size_t model_picks_ = 0;
  std::deque<std::size_t> neighbour_queue_;    // the current centre's neighbours, to measure
  std::vector<bool> expanded_;                 // by space index
  std::vector<std::pair<double, std::size_t>> successes_;  // (ms, index), fastest first
};

}  // namespace gemmtune::tuner
