// tune --dry-run in three shards (--shard I/3, each into its own database, as the tasks of a Slurm
// job array run), gathered by tunedb merge, holds what one dry run of the whole shapes file holds:
// the same rows by content (binaries, compile outcomes and anything else in the file), each cubin
// once though two shards compiled it; and merging the shards again adds nothing.
#include <catch2/catch.hpp>

#include <filesystem>
#include <iostream>
#include <numeric>

#include "database_probe.hpp"
#include "support/database_content.hpp"
#include "tune_process.hpp"

using namespace gemmtune::reliability;
using gemmtune::testing::database_content;
using gemmtune::testing::rows_of;

namespace {

// Three problems, two of them with the same layout and alignment, so that their shards compile
// the same candidates; the first 10 of the exhaustive order of one family a problem: a few
// seconds of compiling on two cores.
std::vector<std::string> dry_run_args(const ScratchDir& dir, const std::string& db) {
  write_bytes(dir.file("shapes.txt"), "128 128 128\n# a comment\n\n100 100 100 nt\n256 256 256\n");
  return {"--dry-run", "--arch", "sm_90", "--shapes", dir.file("shapes.txt"), "--db", db, "--families", "reg1d",
          "--strategy", "exhaustive", "--budget", "10", "--jobs", "2", "-q"};
}

std::vector<std::string> content_of(const std::string& path) {
  const DatabaseProbe probe(path, DatabaseProbe::Use::Inspect);
  return database_content([&probe](const std::string& sql) {
    std::vector<std::string> rows;
    for (std::vector<std::string>& row : probe.query(sql)) rows.push_back(std::move(row.at(0)));
    return rows;
  });
}

TuneResult run_tunedb(const std::vector<std::string>& args, const ScratchDir& dir) {
  return run_tune(args, dir.path(), RunAs::CurrentUser, std::chrono::seconds(120), Program::Tunedb);
}

}  // namespace

TEST_CASE("reliability: a dry run in three shards merged holds what one dry run holds and merging again adds nothing",
          "[reliability]") {
  ScratchDir dir;
  const std::string one = dir.file("one.db");
  const TuneResult whole = run_tune(dry_run_args(dir, one), dir.path());
  INFO(whole.describe());
  REQUIRE(whole.exit_code == 0);
  const std::vector<std::string> expected = content_of(one);
  REQUIRE_FALSE(rows_of(expected, "binaries").empty());
  REQUIRE(rows_of(expected, "compile_outcomes").size() >= rows_of(expected, "binaries").size());

  std::vector<std::string> shards;
  std::size_t shard_binaries = 0;
  for (int index = 1; index <= 3; ++index) {
    shards.push_back(dir.file("shard-" + std::to_string(index) + ".db"));
    std::vector<std::string> args = dry_run_args(dir, shards.back());
    args.insert(args.end(), {"--shard", std::to_string(index) + "/3"});
    const TuneResult shard = run_tune(args, dir.path());
    INFO(shard.describe());
    REQUIRE(shard.exit_code == 0);
    shard_binaries += rows_of(content_of(shards.back()), "binaries").size();
  }
  // The two nn problems' shards compiled the same cubins: the merge must keep each once.
  CHECK(shard_binaries > rows_of(expected, "binaries").size());

  const std::string merged = dir.file("merged.db");
  std::vector<std::string> merge_args{"merge", "--create", merged};
  merge_args.insert(merge_args.end(), shards.begin(), shards.end());
  const TuneResult merge = run_tunedb(merge_args, dir);
  INFO(merge.describe());
  REQUIRE(merge.exit_code == 0);
  CHECK(content_of(merged) == expected);
  std::cout << "one dry run: " << rows_of(expected, "binaries").size() << " cubins; three shards: " << shard_binaries
            << ", merged: " << rows_of(content_of(merged), "binaries").size() << std::endl;

  const TuneResult again = run_tunedb(merge_args, dir);
  INFO(again.describe());
  REQUIRE(again.exit_code == 0);
  CHECK_THAT(again.out, Catch::Contains("added 0 GPUs, 0 problems, 0 configs, 0 measurements, 0 binaries, "
                                        "0 compile outcomes; 0 winners added or replaced"));
  CHECK(content_of(merged) == expected);
}
