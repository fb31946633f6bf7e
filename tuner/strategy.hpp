// A search strategy decides which configurations to measure, from the configurations and their
// results only: it never sees CUDA, compile logs or timings other than the one number.
//
// The protocol. A driver that measures one candidate at a time:
//
//   while (auto config = strategy.next()) strategy.report(*config, measure(*config));
//
// A driver that compiles in parallel may take several candidates before reporting any. When the
// strategy needs results before it can propose more, next() returns nullopt while pending_count()
// is above zero; report them and ask again. The search is over when next() returns nullopt with
// nothing pending, so a driver that reports a whole batch before taking the next one stops at the
// first empty batch.
//
// Every strategy measures the warm-start seeds first (in their order, those in the space), then
// follows its own rule; no configuration is handed out twice; the budget caps both.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "budget.hpp"
#include "cost_model.hpp"
#include "kernel_config.hpp"
#include "problem.hpp"

namespace gemmtune::tuner {

// The outcome of one candidate, as far as a strategy cares.
struct CandidateResult {
  // false: it did not compile, exceeded a limit, crashed or computed a wrong result (the driver
  // stores which); the search goes on without it.
  bool ok = false;
  double ms = 0.0;  // its measured time when ok

  static CandidateResult measured(double ms) { return {true, ms}; }
  static CandidateResult failed() { return {false, 0.0}; }
};

struct Measurement {
  KernelConfig config;
  double ms = 0.0;
};

// Everything a strategy is built from (make_strategy.hpp builds one by name).
struct SearchSetup {
  std::vector<KernelConfig> space;  // the candidates (search_space.hpp), each once
  Problem problem;
  Budget budget;
  // Warm start: configurations to measure first, typically the winners of the nearest tuned
  // problems (log_distance). Those not in `space` are skipped.
  std::vector<KernelConfig> seeds;
  DeviceModel device;                // for strategies that rank with the cost model
  std::uint64_t random_seed = 1;     // fixed by default, so a rerun repeats the same search
  Clock clock = monotonic_seconds;
};

class Strategy {
 public:
  virtual ~Strategy() = default;
  Strategy(const Strategy&) = delete;
  Strategy& operator=(const Strategy&) = delete;

  virtual std::string_view name() const = 0;

  // The next configuration to measure; nullopt when the search is over or (see above) waits for
  // pending results.
  std::optional<KernelConfig> next();
  // The result of a configuration next() handed out. Throws std::logic_error for one it did not
  // hand out or that was already reported, std::invalid_argument for an ok result whose time is
  // not a positive finite number.
  void report(const KernelConfig& config, const CandidateResult& result);

  std::size_t space_size() const { return space_.size(); }
  std::size_t proposed_count() const { return proposed_count_; }
  std::size_t reported_count() const { return reported_count_; }
  std::size_t pending_count() const { return proposed_count_ - reported_count_; }
  // The most candidates this search will hand out: the space, capped by the budget's count. For
  // progress bars; a strategy may stop earlier (converged, out of time).
  std::size_t planned_count() const;
  const Budget& budget() const { return budget_; }
  // The fastest ok result so far (the first of equal times).
  const std::optional<Measurement>& best() const { return best_; }

 protected:
  explicit Strategy(const SearchSetup& setup);

  // The strategy's own rule: an index into space() to measure next, or nullopt when it has none
  // (done, or waiting for pending results). Indices already handed out are skipped by the caller,
  // which asks again, so each call must move the strategy's own cursor or queue forward.
  virtual std::optional<std::size_t> propose() = 0;
  // Called for each reported result, after best() is updated.
  virtual void on_result(std::size_t /*index*/, const CandidateResult& /*result*/) {}

  const std::vector<KernelConfig>& space() const { return space_; }
  std::optional<std::size_t> index_of(const KernelConfig& config) const;
  bool was_proposed(std::size_t index) const { return state_[index] != State::unproposed; }

 private:
  enum class State : unsigned char { unproposed, pending, reported };

  bool budget_spent() const;
  std::optional<KernelConfig> hand_out(std::size_t index);

  std::vector<KernelConfig> space_;
  std::unordered_map<std::string, std::size_t> index_by_name_;
  std::vector<State> state_;
  std::vector<std::size_t> seed_queue_;  // indices into space_, in the seeds' order
  std::size_t seed_cursor_ = 0;          // the next seed to hand out
  Budget budget_;
  Clock clock_;
  std::optional<double> start_seconds_;
  std::size_t proposed_count_ = 0;
  std::size_t reported_count_ = 0;
  std::optional<Measurement> best_;
};

}  // namespace gemmtune::tuner
