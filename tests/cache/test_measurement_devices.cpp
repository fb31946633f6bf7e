// The device a measurement ran on: schema version 5 (measurements.device_index), a version-4
// database migrated to it with its rows kept and their device unknown (NULL), the index stored
// and read back, refused when negative, and carried by merge.
#include <catch2/catch.hpp>

#include <sqlite3.h>

#include "cache_test_support.hpp"
#include "sample_databases.hpp"
#include "tuning_db_merge.hpp"

using namespace gemmtune::cache;
using namespace gemmtune::cache::test;

namespace {

Measurement on_device(Measurement measurement, std::optional<int> device_index) {
  measurement.device_index = device_index;
  return measurement;
}

}  // namespace

TEST_CASE("cache: a version-4 database migrates to measurement devices keeping every row, devices unknown",
          "[cache]") {
  TempDir dir;
  const std::string path = dir.file("v4.db");
  write_version4(path);
  {
    const Connection v4(path, path, SQLITE_OPEN_READONLY);
    REQUIRE(read_user_version(v4) == 4);
  }
  CHECK_THROWS_WITH(Database::open(path, OpenMode::ReadOnly), Catch::Contains("is older"));

  Database db = Database::open(path, OpenMode::ReadWrite);
  CHECK(read_user_version(db.connection()) == 5);
  CHECK(read_user_version(db.connection()) == latest_schema_version());
  CHECK(count_rows(db, "measurements") == 2);
  CHECK(count_rows(db, "winners") == 1);
  CHECK(db.connection().prepare("SELECT COUNT(*) FROM measurements WHERE device_index IS NULL").single_value<int>() == 2);
  const auto gpu = db.find_gpu(h200().key)->id;
  const auto problem = db.find_problem(kV4Won);
  REQUIRE(problem == 3);
  const auto rows = db.measurements_for(gpu, *problem);
  REQUIRE(rows.size() == 2);
  CHECK(rows[0].timing->median_ms == 1.0);
  CHECK(rows[0].tuner_run == "v4");
  CHECK_FALSE(rows[0].device_index);
  CHECK(rows[1].status == Status::Crash);
  CHECK_FALSE(rows[1].device_index);
  CHECK(db.winner(gpu, *problem, "fp32")->median_ms == 1.0);

  // New measurements beside the old ones name their device.
  db.record_measurement(on_device(ok_measurement(gpu, *problem, 1, 0.9), 1), WinnerUpdate{1.5});
  CHECK(db.measurements_for(gpu, *problem).at(0).device_index == 1);
  CHECK(db.winner(gpu, *problem, "fp32")->median_ms == 0.9);
}

TEST_CASE("cache: a measurement keeps the device it ran on, NULL when none is given, and a negative index is refused",
          "[cache]") {
  Database db = Database::open(":memory:", OpenMode::ReadWrite);
  const auto gpu = db.upsert_gpu(h200());
  const auto problem = db.upsert_problem({"nn", 512, 512, 512});
  db.record_measurement(on_device(ok_measurement(gpu, problem, add_reg2d_config(db, 64), 1.0), 0));
  db.record_measurement(
      on_device(failed_measurement(gpu, problem, add_reg2d_config(db, 128), Status::Timeout, "hung"), 3));
  db.record_measurement(ok_measurement(gpu, problem, add_reg2d_config(db, 256), 2.0));
  const auto rows = db.measurements_for(gpu, problem);
  REQUIRE(rows.size() == 3);
  CHECK(rows[0].device_index == 0);         // 1.0 ms
  CHECK_FALSE(rows[1].device_index);        // 2.0 ms, no device given
  CHECK(rows[2].device_index == 3);         // the failure
  CHECK(db.connection().prepare("SELECT COUNT(DISTINCT device_index) FROM v_measurements").single_value<int>() == 2);

  CHECK_THROWS_WITH(db.record_measurement(on_device(ok_measurement(gpu, problem, add_reg2d_config(db, 32), 1.0), -1)),
                    Catch::Contains("CHECK constraint failed"));
  CHECK(count_rows(db, "measurements") == 3);
}

TEST_CASE("cache: merge carries each measurement's device", "[cache]") {
  TempDir dir;
  const std::string from = dir.file("gpu1.db");
  {
    Database source = Database::open(from, OpenMode::ReadWrite);
    const auto gpu = source.upsert_gpu(h200());
    const auto problem = source.upsert_problem({"nn", 512, 512, 512});
    source.record_measurement(on_device(ok_measurement(gpu, problem, add_reg2d_config(source, 64), 1.0,
                                                       "2026-01-01T00:00:00.000Z"),
                                        1),
                              WinnerUpdate{1.2});
    source.record_measurement(ok_measurement(gpu, problem, add_reg2d_config(source, 128), 2.0, "2026-01-01T00:00:01.000Z"));
  }
  Database into = Database::open(dir.file("into.db"), OpenMode::ReadWrite);
  const std::vector<std::string> sources = {from};
  CHECK(merge_databases(into, sources).measurements == 2);
  const auto gpu = into.find_gpu(h200().key)->id;
  const auto rows = into.measurements_for(gpu, *into.find_problem({"nn", 512, 512, 512}));
  REQUIRE(rows.size() == 2);
  CHECK(rows[0].device_index == 1);
  CHECK_FALSE(rows[1].device_index);
  CHECK(merge_databases(into, sources).measurements == 0);  // merging again adds nothing
}
