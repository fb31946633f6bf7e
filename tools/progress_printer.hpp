// tune's progress, on standard error (standard output holds the results table alone): a bar
// redrawn in place on a terminal; elsewhere (a log file, CI) plain log lines, one as a problem
// starts, one at each tenth of it and one at least every 15 s, so that a long run still shows
// it is moving (a line only at each tenth left a 38,993-candidate dry run silent for 18 minutes).
// A run on several GPUs (--devices) shows each GPU's problem: on a terminal one line with a
// part a GPU, elsewhere the lines of each GPU, each saying which.
#pragma once

#include <chrono>
#include <optional>
#include <string>
#include <vector>

#include "tuning_run.hpp"

namespace gemmtune {

// "42s", "12m05s", "3h12m".
std::string format_duration(double seconds);

// "ETA 3m05s (2.4 candidates/s)", from the rate of this run: the candidates it found already in
// the database took no work and are left out. Before this run has done one, "ETA not known yet"
// (never a made-up 0s).
std::string eta_text(const tuner::Progress& p);

// When a plain progress line is due, and what it says.
class ProgressLines {
 public:
  using Clock = std::chrono::steady_clock;
  static constexpr std::chrono::seconds kAtLeastEvery{15};

  // The line for `p` at `now` ("[1/3] nn:4096x4096x4096: 12/300 candidates, ETA ..."; "GPU 1: "
  // first where the run has several), or nullopt when none is due: the first of a problem, a
  // tenth of it crossed, the last candidate done, or kAtLeastEvery since the last line. One
  // ProgressLines follows one measuring process.
  std::optional<std::string> line(const tuner::Progress& p, Clock::time_point now);

 private:
  std::string problem_;
  int tenth_ = -1;
  Clock::time_point last_line_;
};

// The terminal's line for a run on several GPUs, from the latest progress of each measuring
// process (none yet: left out): "GPU 0 [2/9] nn:4096x4096x4096 12/300 | GPU 1 [3/9] tn:64x64x64 40/60".
std::string devices_status(const std::vector<std::optional<tuner::Progress>>& latest);

class ProgressPrinter {
 public:
  explicit ProgressPrinter(bool quiet);

  void operator()(const tuner::Progress& p);
  // Ends the bar's line, if one is open, so that what is printed next starts a line of its own.
  void finish();

 private:
  void draw_bar(const tuner::Progress& p);      // one GPU: its problem's bar, redrawn in place
  void draw_devices(const tuner::Progress& p);  // several: devices_status, redrawn in place

  bool terminal_;
  bool quiet_;
  bool mid_line_ = false;  // a bar is drawn and its line not ended
  std::string problem_;
  std::string last_message_;  // what the bar shows while no candidate ends
  ProgressLines::Clock::time_point last_drawn_;
  std::vector<ProgressLines> lines_;                 // one a measuring process
  std::vector<std::optional<tuner::Progress>> latest_;  // a run on several GPUs: each one's last
};

}  // namespace gemmtune
