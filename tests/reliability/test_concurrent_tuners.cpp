// Two tune processes on one database at once, on the same problems and on different ones: both
// finish, neither meets "database is locked", every cubin is stored once, and on the same
// problems they share the work: each candidate is compiled by one of them (tuner/compile_claims.hpp).
#include <catch2/catch.hpp>

#include <filesystem>
#include <iostream>

#include "database_probe.hpp"
#include "tune_process.hpp"

using namespace gemmtune::reliability;

namespace {

std::vector<std::string> dry_run_args(const std::string& shapes, const std::string& db) {
  return {"--dry-run", "--arch", "sm_90", "--shapes", shapes, "--db", db, "--families", "reg1d",
          "--strategy", "exhaustive", "--jobs", "1", "-q"};
}

// Starts both runs at once on a fresh file, so that they also race to create and migrate it, and
// returns what each compiled and found stored.
std::vector<DryRunCounts> run_side_by_side(const ScratchDir& dir, const std::string& shapes_a,
                                           const std::string& shapes_b, const std::string& db) {
  TuneProcess a(dry_run_args(shapes_a, db), dir.path());
  TuneProcess b(dry_run_args(shapes_b, db), dir.path());
  std::vector<DryRunCounts> counts;
  for (TuneProcess* tune : {&a, &b}) {
    const std::optional<TuneResult> result = tune->wait_for(std::chrono::minutes(10));
    REQUIRE(result);
    INFO(result->describe());
    CHECK(result->exit_code == 0);
    CHECK(result->err.find("locked") == std::string::npos);
    CHECK(result->err.find("busy") == std::string::npos);
    const std::optional<DryRunCounts> run = dry_run_counts(result->out);
    REQUIRE(run);
    counts.push_back(*run);
    std::cout << "concurrent run: " << result->seconds << " s, " << run->compiled << " compiled, " << run->reused
              << " found stored" << std::endl;
  }
  CHECK_FALSE(std::filesystem::exists(db + "-claims"));  // the last run to end removes it
  return counts;
}

}  // namespace

TEST_CASE("reliability: two tune --dry-run processes share one database without lock errors or duplicates",
          "[reliability]") {
  ScratchDir dir;
  const std::string both = dir.file("both.txt"), square = dir.file("square.txt"), odd = dir.file("odd.txt");
  write_bytes(both, "128 128 128\n100 100 100 nt\n");
  write_bytes(square, "128 128 128\n");
  write_bytes(odd, "100 100 100 nt\n");  // another layout: other kernels

  const std::string single_db = dir.file("single.db");
  const TuneResult single = run_tune(dry_run_args(both, single_db), dir.path());
  INFO(single.describe());
  REQUIRE(single.exit_code == 0);
  const std::set<std::string> expected = DatabaseProbe(single_db, DatabaseProbe::Use::Inspect).binary_keys();
  REQUIRE(expected.size() == dry_run_counts(single.out).value().compiled);

  auto check_database = [&](const std::string& db) {
    const DatabaseProbe probe(db, DatabaseProbe::Use::Inspect);
    CHECK(probe.integrity_check() == "ok");
    // The primary key makes each key once; the count shows nothing else slipped in.
    CHECK(probe.count_rows("binaries") == static_cast<std::int64_t>(expected.size()));
    CHECK(probe.binary_keys() == expected);
  };
  {
    INFO("on the same problems");
    const std::string db = dir.file("same.db");
    const std::vector<DryRunCounts> runs = run_side_by_side(dir, both, both, db);
    check_database(db);
    // Each candidate compiled once between them, the rest found stored.
    CHECK(runs[0].compiled + runs[1].compiled == expected.size());
    for (const DryRunCounts& run : runs) CHECK(run.compiled + run.reused == expected.size());
  }
  {
    INFO("on different problems");
    const std::string db = dir.file("different.db");
    const std::vector<DryRunCounts> runs = run_side_by_side(dir, square, odd, db);
    check_database(db);
    CHECK(runs[0].compiled + runs[1].compiled == expected.size());
  }
}
