// kill -9 of tune while it measures on the GPU: the database stays sound, no committed measurement
// is lost, neither the measuring process nor a compile worker outlives tune (nor holds the GPU),
// and a re-run measures exactly what is missing and ends with a winner for every problem.
#include <catch2/catch.hpp>

#include <algorithm>
#include <csignal>
#include <cstdio>
#include <iostream>
#include <random>
#include <thread>

#include "database_probe.hpp"
#include "support/gpu_or_skip.hpp"
#include "tune_process.hpp"

using namespace gemmtune::reliability;

namespace {

const std::vector<std::string> kProblems{"nn:256x256x256", "tn:200x136x72"};
constexpr std::size_t kCandidates = 100;  // --budget 50 for each problem

// Two problems of different layouts (so neither seeds the other's search from its winner), the
// first 50 candidates of the exhaustive order each: a fixed set, whatever was measured before.
std::vector<std::string> tune_args(const ScratchDir& dir, const std::string& db) {
  write_bytes(dir.file("shapes.txt"), "256 256 256\n200 136 72 tn\n");
  return {"--gpu", "any", "--shapes", dir.file("shapes.txt"), "--db", db, "--families", "reg2d,vectorized",
          "--strategy", "exhaustive", "--budget", "50", "-v"};
}


// The process ids nvidia-smi lists as holding a GPU context; nullopt without nvidia-smi. (In a
// container with its own process ids the list may not show this container's processes at all.)
std::optional<std::vector<pid_t>> gpu_processes() {
  FILE* pipe = ::popen("nvidia-smi --query-compute-apps=pid --format=csv,noheader 2>/dev/null", "r");
  if (!pipe) return std::nullopt;
  std::vector<pid_t> pids;
  char line[64];
  while (std::fgets(line, sizeof line, pipe)) {
    try {
      pids.push_back(static_cast<pid_t>(std::stol(line)));
    } catch (const std::exception&) {
      // "No running processes found" or a message
    }
  }
  return ::pclose(pipe) == 0 ? std::optional(pids) : std::nullopt;
}

// Those of `pids` that nvidia-smi still lists as holding a GPU context after up to `limit`; none
// where there is no nvidia-smi.
std::vector<pid_t> holding_gpu(const std::vector<pid_t>& pids, std::chrono::milliseconds limit) {
  const auto deadline = std::chrono::steady_clock::now() + limit;
  while (true) {
    std::vector<pid_t> holding;
    if (const std::optional<std::vector<pid_t>> on_gpu = gpu_processes()) {
      for (pid_t pid : pids) {
        if (std::count(on_gpu->begin(), on_gpu->end(), pid) > 0) holding.push_back(pid);
      }
    }
    if (holding.empty() || std::chrono::steady_clock::now() >= deadline) return holding;
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
  }
}

}  // namespace

TEST_CASE("reliability: tune killed with SIGKILL while it measures, twelve times, loses no measurement and resumes",
          "[gpu][reliability]") {
  if (!gemmtune::testing::gpu_or_skip()) return;
  ScratchDir dir;
  const std::string reference_db = dir.file("uninterrupted.db");
  const TuneResult reference = run_tune(tune_args(dir, reference_db), dir.path());
  INFO(reference.describe());
  REQUIRE(reference.exit_code == 0);
  const std::multiset<std::string> expected = measured_candidates(reference_db);
  REQUIRE(expected.size() == kCandidates);
  REQUIRE(std::set<std::string>(expected.begin(), expected.end()).size() == kCandidates);
  // The log (standard error) names each measurement as it is committed, and only the log: the
  // kills below are timed by it and checked against it.
  CHECK(candidates_reported_measured(reference.err) == std::set<std::string>(expected.begin(), expected.end()));
  CHECK(candidates_reported_measured(reference.out).empty());
  std::cout << "uninterrupted: " << kCandidates << " candidates in " << reference.seconds << " s" << std::endl;

  // Each kill comes once the run has committed a few measurements of its own (1 to 4, drawn with
  // a fixed seed), so it is measuring, then 0 to 150 ms later, so that it lands anywhere in a
  // measurement: while the kernel runs, while it is checked, while its row is committed, or while
  // the next one is compiled. A candidate takes at least 70 ms (10 ms warm-up, 60 ms timed), so a
  // run gets at most 4 + 1 + 2 further measurements in: 12 * 7 < 100, work is left for the last.
  const std::string db = dir.file("killed.db");
  std::mt19937 random(20261130u);
  std::uniform_int_distribution<int> measurements_before_kill(1, 4);
  std::uniform_int_distribution<int> extra_ms(0, 150);
  constexpr int kKills = 12;
  std::multiset<std::string> stored;
  for (int kill = 1; kill <= kKills; ++kill) {
    const std::size_t wanted = static_cast<std::size_t>(measurements_before_kill(random));
    const auto delay = std::chrono::milliseconds(extra_ms(random));
    INFO("kill " << kill << ": after " << wanted << " measurement(s) and " << delay.count() << " ms");
    TuneProcess tune(tune_args(dir, db), dir.path());
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::minutes(3);
    while (candidates_reported_measured(tune.log_so_far()).size() < wanted) {
      if (const std::optional<TuneResult> ended = tune.wait_for(std::chrono::milliseconds(5))) {
        FAIL("tune ended before it measured " << wanted << " candidate(s): " << ended->describe());
      }
      REQUIRE(std::chrono::steady_clock::now() < deadline);
    }
    // tune, its compile workers and its measuring process (forks: they carry its command line).
    const std::vector<pid_t> run_processes = processes_mentioning(db);
    CHECK(run_processes.size() >= 2);
    if (const std::optional<TuneResult> ended = tune.wait_for(delay)) {
      FAIL("tune ended before the kill (no work left for it): " << ended->describe());
    }
    tune.kill_hard();
    const std::optional<TuneResult> killed = tune.wait_for(std::chrono::seconds(10));
    REQUIRE(killed);
    INFO(killed->describe());
    REQUIRE(killed->signal == SIGKILL);

    // The workers die with tune (PR_SET_PDEATHSIG); give the kernel a moment to deliver it.
    const std::vector<pid_t> left = wait_until_none_mention(db, std::chrono::seconds(5));
    CHECK(left.empty());
    // A process that held a CUDA context can take a while to finish exiting after its command
    // line is gone (the driver tears the context down): wait for the end, within 10 s.
    const auto exit_deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
    auto any_alive = [&] {
      return std::any_of(run_processes.begin(), run_processes.end(), [](pid_t pid) { return process_alive(pid); });
    };
    while (any_alive() && std::chrono::steady_clock::now() < exit_deadline) {
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    for (pid_t pid : run_processes) CHECK_FALSE(process_alive(pid));
    const std::vector<pid_t> on_gpu = holding_gpu(run_processes, std::chrono::seconds(5));
    CHECK(on_gpu.empty());

    const DatabaseProbe probe(db, DatabaseProbe::Use::Inspect);
    CHECK(probe.integrity_check() == "ok");
    const std::multiset<std::string> now = probe.measured_candidates();
    CHECK(std::set<std::string>(now.begin(), now.end()).size() == now.size());  // none measured twice
    for (const std::string& candidate : now) CHECK(expected.count(candidate) == 1);
    // Every measurement the killed run logged (it logs after the commit) is there.
    const std::set<std::string> reported = candidates_reported_measured(killed->err);
    for (const std::string& candidate : reported) CHECK(now.count(candidate) == 1);
    // Nothing committed before was lost.
    CHECK(std::includes(now.begin(), now.end(), stored.begin(), stored.end()));
    std::cout << "kill " << kill << " after " << reported.size() << " measurement(s) of its own and " << delay.count()
              << " ms: " << now.size() << " of " << kCandidates << " measurements stored; " << run_processes.size()
              << " process(es) of the run, " << left.size() << " left, " << on_gpu.size() << " listed by nvidia-smi"
              << std::endl;
    stored = now;
  }

  const TuneResult resumed = run_tune(tune_args(dir, db), dir.path());
  INFO(resumed.describe());
  REQUIRE(resumed.exit_code == 0);
  std::size_t resumed_total = 0;
  for (const std::string& problem : kProblems) {
    const std::optional<std::vector<std::string>> row = report_row(resumed.out, problem);
    REQUIRE(row);
    CHECK(row->at(1).rfind("gemmtune_sgemm_", 0) == 0);  // a winner
    const std::optional<CandidateCounts> counts = candidate_counts(*row);
    REQUIRE(counts);
    resumed_total += counts->resumed;
  }
  CHECK(resumed_total == stored.size());  // it measured only what the killed runs had not stored
  const DatabaseProbe probe(db, DatabaseProbe::Use::Inspect);
  CHECK(probe.integrity_check() == "ok");
  CHECK(probe.measured_candidates() == expected);
  CHECK(probe.count_rows("winners") == 2);
  std::cout << "resumed: " << kCandidates - resumed_total << " measured, " << resumed_total << " already stored, of "
            << kCandidates << "; "
            << resumed.seconds << " s" << std::endl;
}
