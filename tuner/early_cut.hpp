// How long a candidate is timed, given the best time of its problem so far. The first
// repetitions after the warm-up (a probe of TimingOptions::min_repetitions) decide:
//
// - cut: the fastest probe repetition is more than kReach times the best median so far. Then the
//   candidate cannot be the winner unless every one of its probe repetitions ran more than
//   kReach - 1 (10%) slower than its own median. After a warm-up, with the clocks up and the
//   inputs rotated, the p10-p90 spread of a kernel's repetitions averages 1.3% of its median in
//   the recorded H200 measurements (tests/tuner/data; at most 18%), so a cut candidate is, but
//   for rare noise, slower than the best by about 10% less its spread. It is stored with the
//   probe's times and repetitions.
// - extend: the probe's median is within kClose of the best: a close contender, timed kExtend
//   times the planned repetitions, so that the winner between close ones is decided on more
//   samples.
// - otherwise the planned repetitions.
//
// Without a best so far (the first candidate of a problem) every candidate is timed in full.
#pragma once

#include <optional>
#include <vector>

namespace gemmtune::tuner {

struct EarlyCut {
  static constexpr double kReach = 1.10;
  static constexpr double kClose = 1.03;
  static constexpr int kExtend = 2;
};

// The repetitions to time after the probe: 0 to cut, `planned` (those the timing protocol would
// time after the probe), or kExtend * planned for a close contender. `probe_ms` is not empty.
int further_repetitions(const std::vector<double>& probe_ms, int planned, std::optional<double> best_ms);

}  // namespace gemmtune::tuner
