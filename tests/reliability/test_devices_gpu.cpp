// tune --devices on a GPU host: naming the first GPU measures what the default measures, an
// index the host has no GPU for is refused before anything runs, and a run with two measuring
// processes (two GPUs, or GPU 0 twice through the test hook on a host with one) tunes each
// problem on one of them and measures what one process measures.
#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <map>
#include <optional>
#include <set>

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

namespace {

// Four problems of four layouts, so that none seeds another's search with its winner and the
// candidates each measures (exhaustive search, its first 40) do not depend on which process
// tuned which problem first: the set one process measures.
std::vector<std::string> four_layouts_args(const ScratchDir& dir, const std::string& db) {
  write_bytes(dir.file("four.txt"), "256 256 256\n200 136 72 tn\n384 384 128 nt\n96 320 64 tt\n");
  return {"--gpu", "any", "--shapes", dir.file("four.txt"), "--db", db, "--families", "reg2d,vectorized",
          "--strategy", "exhaustive", "--budget", "40", "-q"};
}


// Sets an environment variable for the test's lifetime (tune inherits it).
class EnvironmentVariable {
 public:
  EnvironmentVariable(const char* name, const char* value) : name_(name) { ::setenv(name, value, 1); }
  ~EnvironmentVariable() { ::unsetenv(name_); }
  EnvironmentVariable(const EnvironmentVariable&) = delete;
  EnvironmentVariable& operator=(const EnvironmentVariable&) = delete;

 private:
  const char* name_;
};

}  // namespace

TEST_CASE("reliability: tune with two measuring processes tunes each problem on one, both some, and measures what one does",
          "[gpu][reliability]") {
  if (!gemmtune::testing::gpu_or_skip()) return;
  // Two GPUs where the host has them; else both processes on GPU 0, which only the test hook
  // (GEMMTUNE_TEST_DEVICES_MAY_REPEAT=1) lets through.
  const bool two_gpus = gemmtune::visible_devices().size() >= 2;
  const std::string devices = two_gpus ? "0,1" : "0,0";
  std::optional<EnvironmentVariable> hook;
  if (!two_gpus) hook.emplace("GEMMTUNE_TEST_DEVICES_MAY_REPEAT", "1");
  std::cout << "measuring processes on GPUs " << devices << std::endl;

  ScratchDir dir;
  const std::string one_db = dir.file("one.db");
  const TuneResult one = run_tune(four_layouts_args(dir, one_db), dir.path());
  INFO(one.describe());
  REQUIRE(one.exit_code == 0);
  CHECK(one.out.find("per GPU:") == std::string::npos);  // one GPU's report as it always was

  const std::string two_db = dir.file("two.db");
  std::vector<std::string> args = four_layouts_args(dir, two_db);
  args.insert(args.end(), {"--devices", devices, "--format", "json"});
  const TuneResult two = run_tune(args, dir.path());
  INFO(two.describe());
  REQUIRE(two.exit_code == 0);
  const nlohmann::json report = nlohmann::json::parse(two.out);

  // Both processes tuned some problem, and the four problems between them.
  REQUIRE(report.at("devices").size() == 2);
  std::size_t problems = 0;
  for (std::size_t slot = 0; slot < 2; ++slot) {
    const nlohmann::json& share = report["devices"][slot];
    CHECK(share.at("index").get<int>() == (two_gpus ? static_cast<int>(slot) : 0));
    CHECK(share.at("problems").get<std::size_t>() >= 1);
    problems += share.at("problems").get<std::size_t>();
  }
  CHECK(problems == 4);

  // Every problem has a winner, and all its measurements name one device: the one the report says.
  std::map<std::string, int> reported_device;
  for (const nlohmann::json& problem : report.at("problems")) {
    CHECK_FALSE(problem.at("winner").is_null());
    reported_device[problem.at("problem").get<std::string>()] = problem.at("device").get<int>();
  }
  REQUIRE(reported_device.size() == 4);
  const DatabaseProbe probe(two_db, DatabaseProbe::Use::Inspect);
  const auto per_problem = probe.query(
      "SELECT layout || ':' || m || 'x' || n || 'x' || k, COUNT(DISTINCT device_index), COUNT(*) - COUNT(device_index),"
      " MIN(device_index) FROM v_measurements GROUP BY problem_id");
  REQUIRE(per_problem.size() == 4);
  std::set<int> devices_used;
  for (const auto& row : per_problem) {
    INFO(row[0]);
    CHECK(row[1] == "1");  // one device
    CHECK(row[2] == "0");  // none without one
    CHECK(std::stoi(row[3]) == reported_device.at(row[0]));
    devices_used.insert(std::stoi(row[3]));
  }
  if (two_gpus) CHECK(devices_used == std::set<int>{0, 1});
  CHECK(probe.query("SELECT COUNT(*) FROM v_winners WHERE precision = 'fp32'").at(0).at(0) == "4");

  // The one-process run recorded its device too, and the two measured the same candidates (each
  // once), whatever the times.
  const DatabaseProbe one_probe(one_db, DatabaseProbe::Use::Inspect);
  CHECK(one_probe.query("SELECT COUNT(*) FROM measurements WHERE device_index IS NOT 0").at(0).at(0) == "0");
  CHECK(measured_candidates(two_db) == measured_candidates(one_db));
  std::cout << "GPU " << report["devices"][0]["index"] << ": " << report["devices"][0]["problems"] << " problem(s), GPU "
            << report["devices"][1]["index"] << ": " << report["devices"][1]["problems"] << "; " << two.seconds
            << " s against " << one.seconds << " s for one process" << std::endl;
}
