// kill -9 of tune while it compiles: the database stays sound, no stored cubin is lost, no worker
// outlives its parent, and a re-run compiles exactly what is missing.
#include <catch2/catch.hpp>

#include <csignal>
#include <filesystem>
#include <iostream>
#include <random>

#include "database_probe.hpp"
#include "tune_process.hpp"

using namespace gemmtune::reliability;

namespace {

// Two problems of different layouts and one family: 80 candidates, about ten seconds of compiling
// on two cores.
std::vector<std::string> dry_run_args(const ScratchDir& dir, const std::string& db) {
  write_bytes(dir.file("shapes.txt"), "128 128 128\n100 100 100 nt\n");
  return {"--dry-run", "--arch", "sm_90", "--shapes", dir.file("shapes.txt"), "--db", db,
          "--families", "reg1d", "--strategy", "exhaustive", "--jobs", "2", "-v"};
}

}  // namespace

TEST_CASE("reliability: tune --dry-run killed with SIGKILL twelve times loses no stored cubin and resumes",
          "[reliability]") {
  ScratchDir dir;
  const std::string reference_db = dir.file("uninterrupted.db");
  const TuneResult reference = run_tune(dry_run_args(dir, reference_db), dir.path());
  INFO(reference.describe());
  REQUIRE(reference.exit_code == 0);
  const std::optional<DryRunCounts> reference_counts = dry_run_counts(reference.out);
  REQUIRE(reference_counts);
  REQUIRE(reference_counts->reused == 0);
  const std::size_t total = reference_counts->compiled;
  const DatabaseProbe reference_probe(reference_db, DatabaseProbe::Use::Inspect);
  const std::set<std::string> reference_keys = reference_probe.binary_keys();
  REQUIRE(reference_keys.size() == total);
  // The log (standard error) names each cubin as it is stored, and only the log: the checks of
  // the killed runs below read it.
  CHECK(kernels_reported_stored(reference.err) == reference_probe.binary_kernel_names());
  CHECK(kernels_reported_stored(reference.out).empty());

  // Kill moments drawn with a fixed seed, as fractions of the uninterrupted run's time, so that a
  // slower machine stretches them too: early ones land before the first commit (while the workers
  // start or the file is created), later ones between and during commits.
  const std::string db = dir.file("killed.db");
  std::mt19937 random(20261129u);
  std::uniform_real_distribution<double> moment(0.01, 0.06);
  constexpr int kKills = 12;
  std::size_t stored = 0;
  for (int kill = 1; kill <= kKills; ++kill) {
    const auto delay = std::chrono::milliseconds(static_cast<long long>(1000 * moment(random) * reference.seconds));
    TuneProcess tune(dry_run_args(dir, db), dir.path());
    const std::optional<TuneResult> early = tune.wait_for(delay);
    INFO("kill " << kill << " after " << delay.count() << " ms");
    REQUIRE_FALSE(early);  // still compiling when the kill comes (else the moments are too late)
    tune.kill_hard();
    const std::optional<TuneResult> killed = tune.wait_for(std::chrono::seconds(10));
    REQUIRE(killed);
    INFO(killed->describe());
    REQUIRE(killed->signal == SIGKILL);

    // Workers die with their parent (PR_SET_PDEATHSIG); give the kernel a moment to deliver it.
    CHECK(wait_until_none_mention(db, std::chrono::seconds(5)).empty());

    std::size_t now_stored = 0;
    if (std::filesystem::exists(db)) {  // a kill before the open leaves no file
      const DatabaseProbe probe(db, DatabaseProbe::Use::Inspect);
      CHECK(probe.integrity_check() == "ok");
      if (probe.has_table("binaries")) {
        const std::set<std::string> keys = probe.binary_keys();
        now_stored = keys.size();
        CHECK(static_cast<std::size_t>(probe.count_rows("binaries")) == keys.size());
        for (const std::string& key : keys) CHECK(reference_keys.count(key) == 1);
        // Every cubin the run said it stored (it says so after the commit) is there.
        const std::set<std::string> names = probe.binary_kernel_names();
        for (const std::string& name : kernels_reported_stored(killed->err)) CHECK(names.count(name) == 1);
      }
    }
    CHECK(now_stored >= stored);  // no committed cubin lost
    std::cout << "kill " << kill << " after " << delay.count() << " ms: " << now_stored << " of " << total
              << " cubins stored (" << kernels_reported_stored(killed->err).size() << " reported by this run)"
              << std::endl;
    stored = now_stored;
  }

  const TuneResult resumed = run_tune(dry_run_args(dir, db), dir.path());
  INFO(resumed.describe());
  REQUIRE(resumed.exit_code == 0);
  const std::optional<DryRunCounts> counts = dry_run_counts(resumed.out);
  REQUIRE(counts);
  CHECK(counts->compiled + counts->reused == total);
  CHECK(counts->reused == stored);  // compiles only what the killed runs had not stored
  const DatabaseProbe probe(db, DatabaseProbe::Use::Inspect);
  CHECK(probe.integrity_check() == "ok");
  CHECK(probe.binary_keys() == reference_keys);
  CHECK(probe.count_rows("binaries") == static_cast<std::int64_t>(total));
  std::cout << "resumed: " << counts->compiled << " compiled, " << counts->reused << " already stored, of " << total
            << std::endl;
}
