// tune --devices on a GPU host: naming the first GPU measures what the default measures, and an
// index the host has no GPU for is refused before anything runs.
#include <catch2/catch.hpp>

#include <cmath>
#include <filesystem>

#include "database_probe.hpp"
#include "support/gpu_or_skip.hpp"
#include "tune_process.hpp"

using namespace gemmtune::reliability;

namespace {

std::vector<std::string> tune_args(const ScratchDir& dir, const std::string& db) {
  write_bytes(dir.file("shapes.txt"), "256 256 256\n");
  return {"--gpu", "any", "--shapes", dir.file("shapes.txt"), "--db", db, "--families", "reg2d",
          "--strategy", "exhaustive", "--budget", "30", "-q"};
}

// Every measured kernel, and the winner's kernel and time.
struct Stored {
  std::set<std::string> measured;
  std::string winner;
  double winner_ms = 0;
};

Stored stored(const std::string& db) {
  const DatabaseProbe probe(db, DatabaseProbe::Use::Inspect);
  Stored result;
  for (const auto& row : probe.query("SELECT kernel_name FROM v_measurements")) result.measured.insert(row[0]);
  const auto winners = probe.query("SELECT kernel_name, ms FROM v_winners WHERE precision = 'fp32'");
  REQUIRE(winners.size() == 1);
  result.winner = winners[0][0];
  result.winner_ms = std::stod(winners[0][1]);
  return result;
}

}  // namespace

TEST_CASE("reliability: tune --devices 0 measures what tune without --devices measures", "[gpu][reliability]") {
  if (!gemmtune::testing::gpu_or_skip()) return;
  ScratchDir dir;
  const TuneResult plain = run_tune(tune_args(dir, dir.file("default.db")), dir.path());
  INFO(plain.describe());
  REQUIRE(plain.exit_code == 0);
  std::vector<std::string> args = tune_args(dir, dir.file("device0.db"));
  args.insert(args.end(), {"--devices", "0"});
  const TuneResult device0 = run_tune(args, dir.path());
  INFO(device0.describe());
  REQUIRE(device0.exit_code == 0);
  const Stored a = stored(dir.file("default.db"));
  const Stored b = stored(dir.file("device0.db"));
  CHECK(a.measured.size() == 30);
  CHECK(b.measured == a.measured);
  INFO("default: " << a.winner << " " << a.winner_ms << " ms; --devices 0: " << b.winner << " " << b.winner_ms << " ms");
  CHECK((b.winner == a.winner || std::abs(b.winner_ms / a.winner_ms - 1) < 0.03));
}

TEST_CASE("reliability: tune --devices with an index the host has no GPU for exits 2 before anything runs",
          "[gpu][reliability]") {
  if (!gemmtune::testing::gpu_or_skip()) return;
  const std::size_t count = gemmtune::visible_devices().size();
  ScratchDir dir;
  const std::string db = dir.file("never.db");
  std::vector<std::string> args = tune_args(dir, db);
  args.insert(args.end(), {"--devices", std::to_string(count)});
  const TuneResult refused = run_tune(args, dir.path());
  INFO(refused.describe());
  CHECK(refused.exit_code == 2);
  CHECK_THAT(refused.err, Catch::Contains("tune: --devices " + std::to_string(count) + ": there is no GPU " +
                                          std::to_string(count) + " on this host (visible: 0: "));
  CHECK_FALSE(std::filesystem::exists(db));
}
