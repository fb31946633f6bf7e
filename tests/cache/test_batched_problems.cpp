// Batched problems in the store: schema version 4 (the batch column), a version-3 database
// migrated to it without losing a row or an id, and a batch as part of a problem's key.
#include <catch2/catch.hpp>

#include <sqlite3.h>

#include "cache_test_support.hpp"
#include "sample_databases.hpp"
#include "tuning_db_merge.hpp"

using namespace gemmtune::cache;
using namespace gemmtune::cache::test;

namespace {

const Problem kBatched64{"nn", 256, 256, 256, 64};

}  // namespace

TEST_CASE("cache: a version-3 database migrates to batched problems keeping every row and id", "[cache]") {
  TempDir dir;
  const std::string path = dir.file("v3.db");
  write_version3(path);
  {
    const Connection v3(path, path, SQLITE_OPEN_READONLY);
    REQUIRE(read_user_version(v3) == 3);
  }
  CHECK_THROWS_WITH(Database::open(path, OpenMode::ReadOnly), Catch::Contains("is older"));

  const Database db = Database::open(path, OpenMode::ReadWrite);
  CHECK(read_user_version(db.connection()) == latest_schema_version());
  CHECK(count_rows(db, "gpus") == 1);
  CHECK(count_rows(db, "problems") == 2);
  CHECK(count_rows(db, "configs") == 2);
  CHECK(count_rows(db, "measurements") == 3);
  CHECK(count_rows(db, "winners") == 2);
  CHECK(count_rows(db, "compile_outcomes") == 1);
  CHECK(db.find_problem(kV3Won) == 4);
  CHECK(db.find_problem(kV3Measured) == 9);
  CHECK(db.connection().prepare("SELECT COUNT(*) FROM problems WHERE batch = 1").single_value<int>() == 2);
  // The rebuild ran with foreign keys off; they are on again, and every reference is whole.
  CHECK(db.connection().prepare("PRAGMA foreign_keys").single_value<int>() == 1);
  CHECK_FALSE(db.connection().prepare("PRAGMA foreign_key_check").step());

  const auto gpu = db.find_gpu(h200().key)->id;
  const auto winner = db.winner(gpu, 4, "strict");
  REQUIRE(winner);
  CHECK(winner->median_ms == 1.0);
  CHECK(winner->cublas_ms == 1.5);
  const auto rows = db.measurements_for(gpu, 4);
  REQUIRE(rows.size() == 2);
  CHECK(rows[0].problem == kV3Won);
  CHECK(rows[0].problem.batch == 1);
  CHECK(rows[1].status == Status::WrongResult);
  CHECK(db.measurements_for(gpu, 9).at(0).problem == kV3Measured);
  CHECK(db.problem_summaries().size() == 3);  // two winners of problem 4, problem 9 unwon
}

TEST_CASE("cache: the batch is part of a problem's key, and its TFLOPS count the whole batch", "[cache]") {
  Database db = Database::open(":memory:", OpenMode::ReadWrite);
  const auto gpu = db.upsert_gpu(h200());
  const auto plain = db.upsert_problem(kV3Won);
  const auto batched = db.upsert_problem(kBatched64);
  CHECK(plain != batched);
  CHECK(db.upsert_problem(kBatched64) == batched);
  CHECK(db.find_problem(kBatched64) == batched);
  CHECK_FALSE(db.find_problem(Problem{"nn", 256, 256, 256, 32}));
  CHECK(to_string(kBatched64) == "nn:256x256x256:b64");
  CHECK(to_string(kV3Won) == "nn:256x256x256");

  db.record_measurement(ok_measurement(gpu, batched, add_reg2d_config(db, 64), 1.0, "2026-01-01T00:00:00.000Z"),
                        WinnerUpdate{2.0});
  const auto rows = db.measurements_for(gpu, batched);
  REQUIRE(rows.size() == 1);
  CHECK(rows[0].problem == kBatched64);
  const double batch_flops = 2.0 * 256 * 256 * 256 * 64;
  CHECK(*rows[0].tflops == Approx(batch_flops / 1e9));  // 1 ms
  CHECK(db.winner(gpu, batched, "fp32")->tflops == Approx(batch_flops / 1e9));
  CHECK(*db.winner(gpu, batched, "fp32")->cublas_tflops == Approx(batch_flops / 2e9));
  CHECK(db.all_winners().at(0).problem == kBatched64);

  CHECK_THROWS_WITH(db.connection().exec("INSERT INTO problems (layout, m, n, k, batch) VALUES ('nn', 1, 1, 1, 0)"),
                    Catch::Contains("CHECK constraint failed"));
}

TEST_CASE("cache: merge keeps batches of the same shape apart", "[cache]") {
  TempDir dir;
  const std::string from = dir.file("from.db");
  {
    Database source = Database::open(from, OpenMode::ReadWrite);
    const auto gpu = source.upsert_gpu(h200());
    const auto config = add_reg2d_config(source, 64);
    source.record_measurement(ok_measurement(gpu, source.upsert_problem(kV3Won), config, 1.0, "2026-01-01T00:00:00.000Z"));
    source.record_measurement(
        ok_measurement(gpu, source.upsert_problem(kBatched64), config, 3.0, "2026-01-01T00:00:01.000Z"));
  }
  Database into = Database::open(dir.file("into.db"), OpenMode::ReadWrite);
  const std::vector<std::string> sources = {from};
  CHECK(merge_databases(into, sources).problems == 2);
  const auto gpu = into.find_gpu(h200().key)->id;
  CHECK(into.measurements_for(gpu, *into.find_problem(kBatched64)).at(0).timing->median_ms == 3.0);
  CHECK(into.measurements_for(gpu, *into.find_problem(kV3Won)).at(0).timing->median_ms == 1.0);
}
