// The early cut of a candidate's timing (early_cut.hpp): a candidate that cannot come within
// reach of the best is timed by its probe alone, a close one longer, and the winner is never cut,
// shown on the recorded H200 measurements too.
#include <catch2/catch.hpp>

#include <iostream>
#include <random>

#include "early_cut.hpp"
#include "recording.hpp"

using namespace gemmtune;
using namespace gemmtune::tuner;

TEST_CASE("early cut: the first candidate of a problem is timed in full", "[tuner]") {
  CHECK(further_repetitions({5.0, 5.1, 4.9, 5.0, 5.2}, 40, std::nullopt) == 40);
}

TEST_CASE("early cut: a candidate whose fastest probe is beyond reach is cut, a close one timed longer", "[tuner]") {
  CHECK(further_repetitions({1.12, 1.15, 1.13, 1.2, 1.11}, 40, 1.0) == 0);
  // One probe repetition within reach keeps it.
  CHECK(further_repetitions({1.12, 1.15, 1.09, 1.2, 1.11}, 40, 1.0) == 40);
  CHECK(further_repetitions({1.02, 1.01, 1.03, 1.05, 1.0}, 40, 1.0) == EarlyCut::kExtend * 40);
  CHECK(further_repetitions({0.9, 0.91, 0.9, 0.92, 0.9}, 40, 1.0) == EarlyCut::kExtend * 40);  // faster: a new best
}

TEST_CASE("early cut: a candidate as fast as the best is never cut while its repetitions spread by under 10%",
          "[tuner]") {
  std::mt19937_64 engine(20);
  std::uniform_real_distribution<double> spread(-0.09, 0.09);
  for (int trial = 0; trial < 10000; ++trial) {
    const double best = 1.0;  // the candidate's own median is the best's
    std::vector<double> probe;
    for (int i = 0; i < 5; ++i) probe.push_back(best * (1.0 + spread(engine)));
    REQUIRE(further_repetitions(probe, 20, best) > 0);
  }
}

TEST_CASE("early cut on recorded H200 measurements: no problem's winner is cut, and most of the slow are",
          "[tuner]") {
  const testing::Recording recording("gemmtune-early-cut");
  const cache::Database& db = recording.db();
  const std::vector<cache::Gpu> gpus = db.gpus();
  REQUIRE(gpus.size() == 1);
  for (const cache::ProblemSummary& recorded : db.problem_summaries()) {
    const std::optional<std::int64_t> problem_id = db.find_problem(recorded.problem);
    REQUIRE(problem_id);
    std::vector<cache::MeasurementRow> rows;
    for (cache::MeasurementRow& row : db.measurements_for(gpus[0].id, *problem_id)) {
      if (row.timing) rows.push_back(std::move(row));
    }
    REQUIRE(rows.size() > 10);
    std::sort(rows.begin(), rows.end(), [](const auto& a, const auto& b) { return a.id < b.id; });  // as measured
    double winner_ms = rows.front().timing->median_ms;
    for (const cache::MeasurementRow& row : rows) winner_ms = std::min(winner_ms, row.timing->median_ms);
    // Each candidate's probe, from its recorded spread: its p10 as the fastest probe repetition.
    std::optional<double> best;
    double timed_ms = 0, saved_ms = 0;
    std::size_t cut = 0;
    for (const cache::MeasurementRow& row : rows) {
      const cache::Timing& t = *row.timing;
      const std::vector<double> probe{t.p10_ms, t.median_ms, t.median_ms, t.p90_ms, t.median_ms};
      const int planned = std::max(0, row.repetitions - 5);
      const int further = further_repetitions(probe, planned, best);
      timed_ms += row.repetitions * t.median_ms;
      if (further == 0) {
        ++cut;
        saved_ms += planned * t.median_ms;
        INFO(row.kernel_name << " cut at " << t.median_ms << " ms; the winner takes " << winner_ms << " ms");
        CHECK(t.median_ms > winner_ms * 1.05);
      }
      best = best ? std::min(*best, t.median_ms) : t.median_ms;
    }
    std::cout << recorded.problem.layout << ":" << recorded.problem.m << "x" << recorded.problem.n << "x"
              << recorded.problem.k << ": " << cut << " of " << rows.size() << " candidates cut after 5 repetitions, "
              << 100 * saved_ms / timed_ms << "% of the timed repetitions saved" << std::endl;
    CHECK(cut > rows.size() / 2);
  }
}
