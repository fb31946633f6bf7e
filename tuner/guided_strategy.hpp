// Model-guided local search. Ranks the whole space with the cost model (cost_model.hpp), measures
// the model's favourites, then climbs best-first: the unmeasured neighbours (search_space.hpp,
// plus the same tiles in the other families) of the fastest measured configuration not yet
// expanded are handed out, the model's favourite first, and as soon as a faster one is measured
// its neighbours go ahead of the rest; configurations within kWidenWithin of the best are
// expanded in turn, and the search stops when none is left to expand, when the best has stopped
// improving (kStallWindow), or when the budget is spent.
// While results are out (a parallel driver) it hands out what the results so far say, rather than
// waiting for the rest. The model only has to put the right region near the top; measurements
// decide within it.
#pragma once

#include <optional>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "strategy.hpp"

namespace gemmtune::tuner {

class GuidedStrategy final : public Strategy {
 public:
  // The share of the space measured when the budget sets no candidate count.
  static constexpr double kDefaultSpaceShare = 0.25;
  // ... and at most this many: a quarter of the warp-tiled family's thousands of configurations
  // would take most of an hour a problem; this keeps a default run to about a minute a problem
  // on an H200. --budget overrides both.
  static constexpr std::size_t kDefaultMaxCandidates = 300;
  // The share of the candidate count spent on the model's favourites before local search, and
  // the least number of them.
  static constexpr double kModelShare = 0.10;
  static constexpr std::size_t kMinModelPicks = 3;
  // Local search expands the fastest measured configuration not yet expanded, then the next, as
  // long as it is within this factor of the best time: one unlucky neighbourhood does not end the
  // search at a local optimum, and regions far slower than the best are left alone. Chosen by
  // replaying recorded H200 measurements (tests/tuner/test_guided_replay.cpp): 1.1 missed the
  // skinny problem's best, 1.2 and above found all three.
  static constexpr double kWidenWithin = 1.25;
  // The search also ends when its last kStallWindow results bettered the best by less than
  // kStallGain: the FFMA families' landscapes are flat (on an H100, 13-67 of warptile's
  // configurations within 5% of the best of a large problem, 90-380 within 1.25x), so widening
  // alone ran to the 300-candidate cap, about 25 s a problem, to gain the last 1-2%. Chosen on
  // the strict class's H100 measurements in the order they were taken (docs/performance.md):
  // 60 and 1% measured 39% of the candidates, the winners on average 0.4% and at worst 1.8%
  // slower; 40 lost up to 6.5%.
  static constexpr std::size_t kStallWindow = 60;
  static constexpr double kStallGain = 0.01;

  explicit GuidedStrategy(const SearchSetup& setup);
  std::string_view name() const override { return "guided"; }

  // How many of the model's favourites are measured before local search starts.
  std::size_t model_picks() const { return model_picks_; }

 private:
  std::optional<std::size_t> propose() override;
  void on_result(std::size_t index, const CandidateResult& result) override;
  // The fastest measured configuration not yet expanded, if within kWidenWithin of the best.
  std::optional<std::size_t> next_centre() const;
  void expand(std::size_t centre);
  // Whether the last kStallWindow results left the best (there is one) within kStallGain.
  bool stalled() const;

  std::vector<double> predicted_ms_;           // by space index
  std::vector<std::size_t> ranking_;           // space indices, predicted fastest first
  std::size_t ranking_cursor_ = 0;
  std::size_t model_picks_ = 0;
  std::optional<std::size_t> first_round_;     // candidates handed out before local search began
  // Neighbours of expanded configurations not yet handed out, a min-heap: those of the fastest
  // centre first, and of one centre the model's favourite first.
  struct FrontierEntry {
    double centre_ms;
    double predicted_ms;
    std::size_t index;
    auto operator<=>(const FrontierEntry&) const = default;
  };
  std::vector<FrontierEntry> frontier_;
  std::unordered_map<std::size_t, double> measured_ms_;  // ok results by space index
  std::vector<bool> expanded_;                 // by space index
  // Space indices by tiling (parameters, layout, alignment), across families: the configurations
  // of other families with the same tiles are neighbours too.
  std::unordered_map<std::string, std::vector<std::size_t>> siblings_;
  std::vector<std::pair<double, std::size_t>> successes_;  // (ms, index), fastest first
  std::vector<double> best_after_;  // the best time after each result, in the order they came (inf: none yet)
};

}  // namespace gemmtune::tuner
