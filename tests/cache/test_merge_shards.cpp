// tune --shard writes each shard's problems into a database of its own; tunedb merge gathers them.
// The merged database must hold what one database holding all the work holds, row for row by
// content (ids differ), whatever order the shards come in, and merging again adds nothing.
#include <catch2/catch.hpp>

#include "cache_test_support.hpp"
#include "support/database_content.hpp"
#include "tuning_db_merge.hpp"

using namespace gemmtune::cache;
using namespace gemmtune::cache::test;
using gemmtune::testing::database_content;
using gemmtune::testing::rows_of;

namespace {

const std::vector<Problem> kProblems{{"nn", 512, 512, 512}, {"tn", 64, 64, 4096}, {"nn", 1024, 256, 128}};

// What tuning kProblems[index] on `gpu` leaves: two ok measurements and a failed one, the winner,
// a cubin every problem shares (each shard compiles it) and one of its own, with their compile
// outcomes.
void write_problem_work(Database& db, const GpuInfo& gpu, std::size_t index) {
  const auto gpu_id = db.upsert_gpu(gpu);
  const auto problem = db.upsert_problem(kProblems[index]);
  const int own_bm = 8 << index;  // 8, 16, 32: never the shared 64
  const std::string day = "2024-05-0" + std::to_string(index + 1) + "T00:00:0";
  db.record_measurement(ok_measurement(gpu_id, problem, add_reg2d_config(db, 64), 1.0 + index, day + "1.000Z"),
                        WinnerUpdate{2.0});
  db.record_measurement(ok_measurement(gpu_id, problem, add_reg2d_config(db, own_bm), 0.5 + index, day + "2.000Z"),
                        WinnerUpdate{2.0});
  Measurement failed = failed_measurement(gpu_id, problem, add_reg2d_config(db, 256), Status::ResourceLimit, "smem");
  failed.measured_at = day + "3.000Z";
  db.record_measurement(failed);
  for (const int bm : {64, own_bm}) {
    const BinaryKey key{reg2d_name(bm), "h", "", "sm_90", "13.0"};
    db.store_binary({key, "lowered", {'c', static_cast<char>(bm)}, 64, 0, "", ""});
    CompileOutcomeRecord outcome;
    outcome.key = key;
    outcome.compiled = true;
    outcome.registers = 64;
    outcome.compile_seconds = 1.5 + index;  // differs between shards: not compared
    db.store_compile_outcome(outcome);
  }
}

std::vector<std::string> content_of(const Database& db) {
  return database_content([&db](const std::string& sql) {
    std::vector<std::string> rows;
    Statement statement = db.connection().prepare(sql);
    while (statement.step()) rows.push_back(statement.column<std::string>(0));
    return rows;
  });
}

MergeCounts merge(Database& into, const std::vector<std::string>& sources) { return merge_databases(into, sources); }

}  // namespace

TEST_CASE("cache: shard databases merged hold what one database of all their work holds", "[cache]") {
  TempDir dir;
  const std::string one_path = dir.file("one.db");
  {
    Database one = Database::open(one_path, OpenMode::ReadWrite);
    for (std::size_t i = 0; i < kProblems.size(); ++i) write_problem_work(one, h200(), i);
  }
  std::vector<std::string> shards;
  for (std::size_t i = 0; i < kProblems.size(); ++i) {
    shards.push_back(dir.file("shard-" + std::to_string(i + 1) + ".db"));
    Database shard = Database::open(shards.back(), OpenMode::ReadWrite);
    write_problem_work(shard, h200(), i);
  }
  const std::vector<std::string> expected = content_of(Database::open(one_path, OpenMode::ReadOnly));
  REQUIRE(rows_of(expected, "measurements").size() == 9);
  REQUIRE(rows_of(expected, "winners").size() == 3);
  REQUIRE(rows_of(expected, "binaries").size() == 4);  // the shared cubin once
  REQUIRE(rows_of(expected, "compile_outcomes").size() == 4);

  Database merged = Database::open(dir.file("merged.db"), OpenMode::ReadWrite);
  const MergeCounts added = merge(merged, shards);
  CHECK(added.gpus == 1);
  CHECK(added.problems == 3);
  CHECK(added.measurements == 9);
  CHECK(added.winners == 3);
  CHECK(added.binaries == 4);
  CHECK(added.compile_outcomes == 4);
  CHECK(content_of(merged) == expected);

  SECTION("merging the shards again adds nothing") {
    const MergeCounts again = merge(merged, shards);
    CHECK(again.gpus + again.problems + again.configs + again.measurements + again.binaries +
              again.compile_outcomes + again.winners ==
          0);
    CHECK(content_of(merged) == expected);
  }
  SECTION("the shards merged one at a time and in another order give the same") {
    Database reversed = Database::open(dir.file("reversed.db"), OpenMode::ReadWrite);
    for (auto shard = shards.rbegin(); shard != shards.rend(); ++shard) merge(reversed, {*shard});
    CHECK(content_of(reversed) == expected);
  }
  SECTION("merging the one database into the merged one adds nothing either") {
    const MergeCounts again = merge(merged, {one_path});
    CHECK(again.measurements == 0);
    CHECK(again.winners == 0);
    CHECK(content_of(merged) == expected);
  }
}

TEST_CASE("cache: shards from nodes with another driver or another GPU model merge without losing a row",
          "[cache]") {
  TempDir dir;
  GpuInfo newer_driver = h200();
  newer_driver.driver_version = "580.1";
  const std::vector<std::pair<GpuInfo, std::size_t>> shards_work{{h200(), 0}, {newer_driver, 1}, {a100(), 2}};
  std::vector<std::string> shards;
  for (const auto& [gpu, problem] : shards_work) {
    shards.push_back(dir.file("shard-" + std::to_string(problem + 1) + ".db"));
    Database shard = Database::open(shards.back(), OpenMode::ReadWrite);
    write_problem_work(shard, gpu, problem);
  }
  Database merged = Database::open(dir.file("merged.db"), OpenMode::ReadWrite);
  merge(merged, shards);
  // One H200 row (the GPU's identity is name, compute capability and SM count; the first
  // shard's versions are kept), one A100 row; every measurement and winner is there.
  CHECK(count_rows(merged, "gpus") == 2);
  CHECK(merged.find_gpu(h200().key).has_value());
  CHECK(merged.find_gpu(a100().key).has_value());
  CHECK(count_rows(merged, "measurements") == 9);
  const auto h200_id = merged.find_gpu(h200().key)->id;
  const auto a100_id = merged.find_gpu(a100().key)->id;
  CHECK(merged.winner(h200_id, *merged.find_problem(kProblems[0]), "fp32").has_value());
  CHECK(merged.winner(h200_id, *merged.find_problem(kProblems[1]), "fp32").has_value());
  CHECK(merged.winner(a100_id, *merged.find_problem(kProblems[2]), "fp32").has_value());
  CHECK_FALSE(merged.winner(h200_id, *merged.find_problem(kProblems[2]), "fp32").has_value());
}
