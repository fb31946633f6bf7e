// On a GPU: two shards of a shapes file tuned one after the other (--shard 1/2, then 2/2), each
// into a copy of the same database, and merged, give the winners one run gives from that state;
// and a shard killed with SIGKILL and run again resumes, measuring only what it had not stored.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <csignal>
#include <filesystem>
#include <iostream>
#include <map>

#include "database_probe.hpp"
#include "support/gpu_or_skip.hpp"
#include "tune_process.hpp"

using namespace gemmtune::reliability;

namespace {

// Four problems of four layouts (so none seeds another's search with its winner: a shard's
// problems are searched as in one run), two a shard (1/2: nn and tn; 2/2: nt and tt); exhaustive
// search cut to the first 40 candidates of each (the seeds first: the winners of tuned problems
// of its layout, then the families' defaults): a set fixed by the database state a run starts from.
std::vector<std::string> tune_args(const ScratchDir& dir, const std::string& db, const std::string& shard = "") {
  write_bytes(dir.file("shapes.txt"), "256 256 256\n200 136 72 tn\n# the second shard's\n384 384 128 nt\n96 320 64 tt\n");
  std::vector<std::string> args{"--gpu", "any", "--shapes", dir.file("shapes.txt"), "--db", db, "--families",
                                "reg2d,vectorized", "--strategy", "exhaustive", "--budget", "40", "-v"};
  if (!shard.empty()) args.insert(args.end(), {"--shard", shard});
  return args;
}

struct StoredWinner {
  std::string kernel;
  double ms = 0;
};

// Each problem's fp32 winner, keyed "nn:256x256x256".
std::map<std::string, StoredWinner> winners(const std::string& db) {
  std::map<std::string, StoredWinner> result;
  const DatabaseProbe probe(db, DatabaseProbe::Use::Inspect);
  for (const auto& row : probe.query("SELECT layout || ':' || m || 'x' || n || 'x' || k, kernel_name, ms FROM v_winners"
                                     " WHERE precision = 'fp32'")) {
    result[row[0]] = {row[1], std::stod(row[2])};
  }
  return result;
}


// A database already holding one tuned problem: the state every run below starts from.
std::string tuned_state(const ScratchDir& dir) {
  const std::string db = dir.file("state.db");
  write_bytes(dir.file("before.txt"), "512 512 512\n");
  const TuneResult before = run_tune({"--gpu", "any", "--shapes", dir.file("before.txt"), "--db", db, "--families",
                                      "reg2d", "--strategy", "exhaustive", "--budget", "20", "-q"},
                                     dir.path());
  INFO(before.describe());
  REQUIRE(before.exit_code == 0);
  return db;
}

std::string copy_of(const std::string& db, const std::string& to) {
  std::filesystem::copy_file(db, to, std::filesystem::copy_options::overwrite_existing);
  return to;
}

}  // namespace

TEST_CASE("reliability: two shards tuned one after the other and merged give the winners of one run",
          "[gpu][reliability]") {
  if (!gemmtune::testing::gpu_or_skip()) return;
  ScratchDir dir;
  const std::string state = tuned_state(dir);
  const std::string one = copy_of(state, dir.file("one.db"));
  const TuneResult whole = run_tune(tune_args(dir, one), dir.path());
  INFO(whole.describe());
  REQUIRE(whole.exit_code == 0);

  std::vector<std::string> merge_args{"merge", "--create", dir.file("merged.db")};
  for (const std::string shard : {"1/2", "2/2"}) {
    const std::string db = copy_of(state, dir.file("shard-" + shard.substr(0, 1) + ".db"));
    const TuneResult run = run_tune(tune_args(dir, db, shard), dir.path());
    INFO(run.describe());
    REQUIRE(run.exit_code == 0);
    merge_args.push_back(db);
  }
  const TuneResult merge = run_tune(merge_args, dir.path(), RunAs::CurrentUser, std::chrono::seconds(120), Program::Tunedb);
  INFO(merge.describe());
  REQUIRE(merge.exit_code == 0);

  // The same candidates measured (each once: the state's rows are in both shards, merged once).
  CHECK(measured_candidates(dir.file("merged.db")) == measured_candidates(one));
  const std::map<std::string, StoredWinner> expected = winners(one);
  const std::map<std::string, StoredWinner> merged = winners(dir.file("merged.db"));
  REQUIRE(expected.size() == 5);  // the state's problem and the four of the shapes file
  REQUIRE(merged.size() == expected.size());
  for (const auto& [problem, winner] : expected) {
    INFO(problem << ": one run " << winner.kernel << " " << winner.ms << " ms, merged shards "
                 << merged.at(problem).kernel << " " << merged.at(problem).ms << " ms");
    // The same kernel, or one as fast within measurement noise (the p10-p90 spread of repetitions
    // averages 1.3% of the median on the H200).
    CHECK((merged.at(problem).kernel == winner.kernel || std::abs(merged.at(problem).ms / winner.ms - 1) < 0.03));
    std::cout << problem << ": " << winner.kernel << " " << winner.ms << " ms; shards: " << merged.at(problem).kernel
              << " " << merged.at(problem).ms << " ms" << std::endl;
  }
}

TEST_CASE("reliability: a shard killed with SIGKILL and run again resumes", "[gpu][reliability]") {
  if (!gemmtune::testing::gpu_or_skip()) return;
  ScratchDir dir;
  const std::string reference = dir.file("uninterrupted.db");
  const TuneResult uninterrupted = run_tune(tune_args(dir, reference, "1/2"), dir.path());
  INFO(uninterrupted.describe());
  REQUIRE(uninterrupted.exit_code == 0);
  const std::multiset<std::string> expected = measured_candidates(reference);
  REQUIRE(expected.size() == 80);  // two problems, 40 candidates each

  const std::string db = dir.file("killed.db");
  TuneProcess tune(tune_args(dir, db, "1/2"), dir.path());
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::minutes(3);
  while (candidates_reported_measured(tune.log_so_far()).size() < 10) {
    if (const std::optional<TuneResult> ended = tune.wait_for(std::chrono::milliseconds(5))) {
      FAIL("the shard ended before it measured 10 candidates: " << ended->describe());
    }
    REQUIRE(std::chrono::steady_clock::now() < deadline);
  }
  tune.kill_hard();
  const std::optional<TuneResult> killed = tune.wait_for(std::chrono::seconds(10));
  REQUIRE(killed);
  REQUIRE(killed->signal == SIGKILL);
  CHECK(wait_until_none_mention(db, std::chrono::seconds(10)).empty());
  const std::multiset<std::string> stored = measured_candidates(db);
  CHECK(stored.size() >= 10);
  CHECK(stored.size() < expected.size());

  const TuneResult resumed = run_tune(tune_args(dir, db, "1/2"), dir.path());
  INFO(resumed.describe());
  REQUIRE(resumed.exit_code == 0);
  // It measured only what the killed run had not stored, and ends with the uninterrupted set.
  for (const std::string& candidate : candidates_reported_measured(resumed.err)) CHECK(stored.count(candidate) == 0);
  CHECK(measured_candidates(db) == expected);
  CHECK(winners(db).size() == 2);
  std::cout << "killed after " << stored.size() << " of " << expected.size() << " measurements; resumed, "
            << candidates_reported_measured(resumed.err).size() << " measured" << std::endl;
}
