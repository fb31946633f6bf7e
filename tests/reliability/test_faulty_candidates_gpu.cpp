// Candidates that fail while they are measured, through the real tune (tune_with_faults, with the
// faulty family of faulty/faulty.cuh): an illegal address and a trap lose the measuring process's
// CUDA context, an endless loop runs into the timeout, a wrong result fails the check. Each is
// stored with its status and error text, the measuring process is replaced, and the correct
// candidate still wins.
#include <catch2/catch.hpp>

#include <iostream>
#include <map>
#include <regex>

#include "database_probe.hpp"
#include "support/gpu_or_skip.hpp"
#include "tune_process.hpp"

using namespace gemmtune::reliability;

namespace {

// MODE of a faulty kernel's name, "gemmtune_sgemm_faulty_nn_mode3_align1" -> 3.
int mode_of(const std::string& kernel) {
  static const std::regex mode(R"(_mode([0-9]+)_)");
  std::smatch match;
  if (!std::regex_search(kernel, match, mode)) throw std::runtime_error("no MODE in " + kernel);
  return std::stoi(match[1]);
}

std::string first_line(const std::string& text) { return text.substr(0, text.find('\n')); }

const char* const kProblemColumn = "p.layout || ':' || p.m || 'x' || p.n || 'x' || p.k";

}  // namespace

TEST_CASE("reliability: faulty candidates (illegal address, trap, endless loop, wrong result) are stored as "
          "failures, the measuring process is replaced and the correct one wins",
          "[gpu][reliability]") {
  if (!gemmtune::testing::gpu_or_skip()) return;
  ScratchDir dir;
  write_bytes(dir.file("shapes.txt"), "64 64 64\n37 45 29 tn\n");
  const std::string db = dir.file("faults.db");
  // Every mode of both problems, in order (the correct default first); a hung candidate is killed
  // after the 2 s floor.
  const std::vector<std::string> args{"--gpu", "any", "--shapes", dir.file("shapes.txt"), "--db", db,
                                      "--families", "faulty", "--strategy", "exhaustive",
                                      "--timeout-floor", "2", "--jobs", "2", "-v"};
  const TuneResult run = run_tune(args, dir.path(), RunAs::CurrentUser, std::chrono::seconds(300),
                                  Program::TuneWithFaults);
  INFO(run.describe());
  REQUIRE(run.exit_code == 0);
  std::cout << "faulty run: " << run.seconds << " s" << std::endl;
  // Modes 1, 2 and 3 cost the measuring process on each of the two problems; it died with none left.
  CHECK_THAT(run.out, Catch::Contains(" 6 measuring-process restart(s)"));
  CHECK(wait_until_none_mention(db, std::chrono::seconds(5)).empty());
  for (const std::string problem : {"nn:64x64x64", "tn:37x45x29"}) {
    const std::optional<std::vector<std::string>> row = report_row(run.out, problem);
    REQUIRE(row);
    CHECK(row->at(1) == "gemmtune_sgemm_faulty_" + problem.substr(0, 2) + "_mode5_align1");
    const std::optional<CandidateCounts> counts = candidate_counts(*row);
    REQUIRE(counts);
    CHECK(counts->measured == 5);
    CHECK(counts->resumed == 0);
    CHECK(counts->failed == 4);
    CHECK(counts->space == 5);
  }

  {
    const DatabaseProbe probe(db, DatabaseProbe::Use::Inspect);
    CHECK(probe.integrity_check() == "ok");
    const auto rows = probe.query(std::string("SELECT ") + kProblemColumn +
                                  ", c.kernel_name, m.status, m.error_text FROM measurements m"
                                  " JOIN problems p ON p.id = m.problem_id JOIN configs c ON c.id = m.config_id"
                                  " ORDER BY 1, 2");
    REQUIRE(rows.size() == 10);
    for (const auto& row : rows) {
      const std::string& kernel = row[1];
      const std::string& status = row[2];
      const std::string& error = row[3];
      const int mode = mode_of(kernel);
      INFO(row[0] << " " << kernel << ": " << status << ": " << error);
      std::cout << row[0] << " mode " << mode << ": " << status << ": " << first_line(error) << std::endl;
      switch (mode) {
        case 1:  // illegal address: the context is lost
          CHECK((status == "crash" || status == "launch_failure"));
          CHECK_THAT(error, Catch::Contains("cudaErrorIllegalAddress"));
          break;
        case 2:  // trap
          CHECK((status == "crash" || status == "launch_failure"));
          CHECK_THAT(error, Catch::Contains("cudaError"));
          break;
        case 3:  // endless loop, killed at the timeout floor
          CHECK(status == "timeout");
          CHECK_THAT(error, Catch::Contains("no result within 2000 ms"));
          break;
        case 4:
          CHECK(status == "wrong_result");
          CHECK_FALSE(error.empty());
          break;
        case 5:
          CHECK(status == "ok");
          CHECK(error.empty());
          break;
        default:
          FAIL("unexpected mode " << mode);
      }
    }
    const auto winners = probe.query(std::string("SELECT ") + kProblemColumn +
                                     ", c.kernel_name FROM winners w JOIN problems p ON p.id = w.problem_id"
                                     " JOIN configs c ON c.id = w.config_id ORDER BY 1");
    REQUIRE(winners.size() == 2);
    for (const auto& winner : winners) CHECK(mode_of(winner[1]) == 5);
  }

  // The failures are results like any other: a re-run measures nothing again.
  const TuneResult again = run_tune(args, dir.path(), RunAs::CurrentUser, std::chrono::seconds(300),
                                    Program::TuneWithFaults);
  INFO(again.describe());
  REQUIRE(again.exit_code == 0);
  CHECK_THAT(again.out, Catch::Contains(" 0 measuring-process restart(s)"));
  for (const std::string problem : {"nn:64x64x64", "tn:37x45x29"}) {
    const std::optional<std::vector<std::string>> row = report_row(again.out, problem);
    REQUIRE(row);
    const std::optional<CandidateCounts> counts = candidate_counts(*row);
    REQUIRE(counts);
    CHECK(counts->measured == 0);
    CHECK(counts->resumed == 5);
    CHECK(mode_of(row->at(1)) == 5);
  }
  const DatabaseProbe probe(db, DatabaseProbe::Use::Inspect);
  CHECK(probe.integrity_check() == "ok");
  CHECK(probe.count_rows("measurements") == 10);
}
