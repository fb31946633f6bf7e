// tune's progress where standard error is not a terminal: a line at least every 15 s, and an ETA
// from the rate this run has shown, never "0s" before it has one; on several GPUs, each GPU's
// lines named, and the terminal's line with a part a GPU.
#include <catch2/catch.hpp>

#include <algorithm>
#include <optional>
#include <vector>

#include "progress_printer.hpp"

using gemmtune::ProgressLines;
using gemmtune::tuner::Progress;

namespace {

Progress progress(std::size_t done, std::size_t planned, double seconds, std::size_t resumed = 0) {
  return Progress{0, 1, "all problems", done, planned, resumed, seconds, done ? "gemmtune_sgemm_x: compiled" : ""};
}

}  // namespace

TEST_CASE("tools: the first progress line of a long run has no ETA of 0s but says it is not known yet", "[tools]") {
  ProgressLines lines;
  const auto start = ProgressLines::Clock::now();
  // The dry run of the issue: 38,993 candidates, the first done 0.3 s in.
  const auto first = lines.line(progress(0, 38993, 0.0), start);
  REQUIRE(first);
  CHECK(*first == "[1/1] all problems: 0/38993 candidates, ETA not known yet");
  const auto next = lines.line(progress(1, 38993, 0.3), start + std::chrono::seconds(16));
  REQUIRE(next);
  CHECK(*next == "[1/1] all problems: 1/38993 candidates, ETA 3h14m (3.33 candidates/s)");
}

TEST_CASE("tools: without a terminal a progress line comes at least every 15 s, and at each tenth", "[tools]") {
  ProgressLines lines;
  const auto start = ProgressLines::Clock::now();
  std::vector<double> said_at;
  // One candidate a second, 1,000 planned: a tenth is 100 s, so the 15 s rule decides.
  for (int second = 0; second <= 120; ++second) {
    const auto now = start + std::chrono::seconds(second);
    if (lines.line(progress(second, 1000, second), now)) said_at.push_back(second);
  }
  REQUIRE(said_at.size() >= 8);
  CHECK(said_at.front() == 0);
  for (std::size_t i = 1; i < said_at.size(); ++i) CHECK(said_at[i] - said_at[i - 1] <= 15);
  CHECK(std::find(said_at.begin(), said_at.end(), 100.0) != said_at.end());  // the first tenth
  // Nothing between: calls while no time has passed and no tenth is crossed say nothing.
  CHECK_FALSE(lines.line(progress(120, 1000, 120), start + std::chrono::seconds(120)));
}

TEST_CASE("tools: the ETA leaves out candidates found in the database and counts what is left", "[tools]") {
  // 900 of 1,000 were stored already; 10 compiled in 5 s: 2 a second, 90 left: 45 s.
  CHECK(gemmtune::eta_text(progress(910, 1000, 5.0, 900)) == "ETA 45s (2.00 candidates/s)");
  // Only stored ones so far: no rate yet.
  CHECK(gemmtune::eta_text(progress(900, 1000, 0.2, 900)) == "ETA not known yet");
}

TEST_CASE("tools: durations read as seconds, minutes and seconds, or hours and minutes", "[tools]") {
  CHECK(gemmtune::format_duration(0.4) == "0s");
  CHECK(gemmtune::format_duration(59.4) == "59s");
  CHECK(gemmtune::format_duration(119.7) == "2m00s");  // not "1m60s"
  CHECK(gemmtune::format_duration(3600 * 3 + 60 * 12 + 5) == "3h12m");
}

TEST_CASE("tools: on several GPUs each GPU's progress lines say which GPU, and come as its own would", "[tools]") {
  // One ProgressLines a measuring process: GPU 1's lines do not depend on GPU 0's calls.
  ProgressLines gpu0, gpu1;
  const auto start = ProgressLines::Clock::now();
  const Progress on_gpu0{0, 4, "nn:256x256x256", 0, 40, 0, 0.0, "", 0, 0, 2};
  const Progress on_gpu1{1, 4, "tn:200x136x72", 0, 40, 0, 0.0, "", 1, 1, 2};
  CHECK(gpu0.line(on_gpu0, start) == "GPU 0: [1/4] nn:256x256x256: 0/40 candidates, ETA not known yet");
  CHECK(gpu1.line(on_gpu1, start) == "GPU 1: [2/4] tn:200x136x72: 0/40 candidates, ETA not known yet");
  CHECK_FALSE(gpu0.line(on_gpu0, start + std::chrono::seconds(1)));  // nothing new on GPU 0
  // One GPU: no GPU named, as before --devices took several.
  CHECK(ProgressLines().line(progress(0, 10, 0), start) == "[1/1] all problems: 0/10 candidates, ETA not known yet");
}

TEST_CASE("tools: the terminal line of a run on several GPUs has a part a GPU that has sent progress", "[tools]") {
  std::vector<std::optional<Progress>> latest(3);
  CHECK(gemmtune::devices_status(latest).empty());
  latest[0] = Progress{1, 9, "nn:4096x4096x4096", 12, 300, 0, 5.0, "", 0, 0, 3};
  latest[2] = Progress{2, 9, "tn:64x64x64", 40, 60, 0, 5.0, "", 3, 2, 3};
  CHECK(gemmtune::devices_status(latest) == "GPU 0 [2/9] nn:4096x4096x4096 12/300 | GPU 3 [3/9] tn:64x64x64 40/60");
}
