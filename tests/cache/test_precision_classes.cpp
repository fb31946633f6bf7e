// Precision classes in the store: configurations carry their family's class, measurements their
// FP64 error, winners are kept per (GPU, problem, class), and version 1 migrates to them.
#include <catch2/catch.hpp>

#include "cache_test_support.hpp"
#include "sample_databases.hpp"
#include "schema_migrations.hpp"
#include "tuning_db_merge.hpp"
#include "winner_diff.hpp"

using namespace gemmtune::cache;
using namespace gemmtune::cache::test;

namespace {

const std::string kWgmma = "gemmtune_sgemm_wgmma_nn_bm128_bn128_bk32_stages4_splitk1_align1";
const std::string kTmatf32 = "gemmtune_sgemm_tmatf32_nn_bm128_bn256_stages4_schedule0_splitk1_align4";

struct Seeded {
  Database db = Database::open(":memory:", OpenMode::ReadWrite);
  std::int64_t gpu = db.upsert_gpu(h200());
  std::int64_t problem = db.upsert_problem({"nn", 1024, 1024, 1024});
  std::int64_t ffma = add_reg2d_config(db, 128);
  std::int64_t tensor = db.upsert_config(kWgmma, "wgmma", R"({"BM":128})", "fp32");
  std::int64_t tf32 = db.upsert_config(kTmatf32, "tmatf32", R"({"BM":128})", "tf32");
};

Measurement with_error(Measurement measurement, double fp64_error) {
  measurement.fp64_error = fp64_error;
  return measurement;
}

}  // namespace

TEST_CASE("cache: a class name that is not strict, fp32 or tf32 is refused", "[cache]") {
  Seeded s;
  CHECK_THROWS_WITH(s.db.upsert_config("k", "reg2d", "{}", "fp16"), Catch::Contains("unknown precision class 'fp16'"));
  CHECK_THROWS_AS(s.db.record_measurement(ok_measurement(s.gpu, s.problem, s.ffma, 1.0), WinnerUpdate{1.0, {}, "FP32"}),
                  std::invalid_argument);
  CHECK(count_rows(s.db, "measurements") == 0);  // the measurement went back with its winner
  CHECK_THROWS_AS(s.db.offer_stored_winner(s.gpu, s.problem, {"strict'); DROP TABLE winners; --"}, WinnerUpdate{}),
                  std::invalid_argument);
}

TEST_CASE("cache: measurements carry their configuration's class and their FP64 error", "[cache]") {
  Seeded s;
  s.db.record_measurement(with_error(ok_measurement(s.gpu, s.problem, s.tensor, 0.5), 2.5e-7));
  s.db.record_measurement(ok_measurement(s.gpu, s.problem, s.ffma, 1.0));
  const auto rows = s.db.measurements_for(s.gpu, s.problem);
  REQUIRE(rows.size() == 2);
  CHECK(rows[0].kernel_name == kWgmma);
  CHECK(rows[0].precision == "fp32");
  CHECK(rows[0].fp64_error == 2.5e-7);
  CHECK(rows[1].precision == "strict");
  CHECK_FALSE(rows[1].fp64_error);
}

TEST_CASE("cache: each class has its own winner of a problem", "[cache]") {
  Seeded s;
  s.db.record_measurement(with_error(ok_measurement(s.gpu, s.problem, s.ffma, 1.0), 3e-7),
                          WinnerUpdate{1.2, WinnerPolicy::IfFaster, "strict"});
  s.db.record_measurement(ok_measurement(s.gpu, s.problem, s.tensor, 0.5), WinnerUpdate{1.2, {}, "fp32"});
  s.db.record_measurement(ok_measurement(s.gpu, s.problem, s.tf32, 0.2), WinnerUpdate{0.4, {}, "tf32"});
  // A slower fp32 candidate changes no winner, a faster strict one only the strict winner's.
  s.db.record_measurement(ok_measurement(s.gpu, s.problem, s.tensor, 0.7), WinnerUpdate{1.2, {}, "fp32"});

  const auto strict = s.db.winner(s.gpu, s.problem, "strict");
  REQUIRE(strict);
  CHECK(strict->kernel_name == reg2d_name(128));
  CHECK(strict->precision == "strict");
  CHECK(strict->kernel_precision == "strict");
  CHECK(strict->fp64_error == 3e-7);
  CHECK(s.db.winner(s.gpu, s.problem, "fp32")->median_ms == 0.5);
  CHECK(s.db.winner(s.gpu, s.problem, "tf32")->cublas_ms == 0.4);
  CHECK(s.db.winner(s.gpu, s.problem, "tf32")->kernel_precision == "tf32");

  const auto all = s.db.all_winners();
  REQUIRE(all.size() == 3);
  CHECK(all[0].winner.precision == "strict");  // the classes' order, not the alphabet's
  CHECK(all[1].winner.precision == "fp32");
  CHECK(all[2].winner.precision == "tf32");
  const auto summaries = s.db.problem_summaries();
  REQUIRE(summaries.size() == 3);
  CHECK(summaries[1].winner->kernel_name == kWgmma);
  CHECK(summaries[2].measured == 3);
}

TEST_CASE("cache: a stored measurement is offered to a class's winner only if the class admits it",
          "[cache]") {
  Seeded s;
  s.db.record_measurement(ok_measurement(s.gpu, s.problem, s.tf32, 0.2));
  s.db.record_measurement(ok_measurement(s.gpu, s.problem, s.tensor, 0.5));
  s.db.record_measurement(ok_measurement(s.gpu, s.problem, s.ffma, 1.0));
  s.db.record_measurement(failed_measurement(s.gpu, s.problem, s.ffma, Status::Crash, "xid"));

  CHECK(s.db.offer_stored_winner(s.gpu, s.problem, {"strict"}, WinnerUpdate{1.1, {}, "strict"}));
  CHECK(s.db.winner(s.gpu, s.problem, "strict")->median_ms == 1.0);
  CHECK(s.db.offer_stored_winner(s.gpu, s.problem, {"strict", "fp32"}, WinnerUpdate{1.1, {}, "fp32"}));
  CHECK(s.db.winner(s.gpu, s.problem, "fp32")->kernel_name == kWgmma);
  CHECK(s.db.winner(s.gpu, s.problem, "fp32")->cublas_ms == 1.1);
  CHECK_FALSE(s.db.winner(s.gpu, s.problem, "tf32"));

  SECTION("IfFaster keeps a faster winner") {
    s.db.record_measurement(ok_measurement(s.gpu, s.problem, s.ffma, 0.9), WinnerUpdate{1.1, {}, "strict"});
    s.db.record_measurement(failed_measurement(s.gpu, s.problem, s.ffma, Status::Crash, "xid"));
    CHECK(s.db.offer_stored_winner(s.gpu, s.problem, {"strict"}, WinnerUpdate{1.1, {}, "strict"}));
    CHECK(s.db.winner(s.gpu, s.problem, "strict")->median_ms == 0.9);
  }
  SECTION("no measurement of an admitted class") {
    const auto other = s.db.upsert_problem({"nn", 8, 8, 8});
    s.db.record_measurement(ok_measurement(s.gpu, other, s.tf32, 0.01));
    CHECK_FALSE(s.db.offer_stored_winner(s.gpu, other, {"strict", "fp32"}, WinnerUpdate{}));
    CHECK(s.db.all_winners().size() == 2);
  }
}

TEST_CASE("cache: merge and diff keep the classes' winners apart", "[cache]") {
  TempDir dir;
  const std::string a = dir.file("a.db"), b = dir.file("b.db");
  for (const std::string& path : {a, b}) {
    Database db = Database::open(path, OpenMode::ReadWrite);
    const auto gpu = db.upsert_gpu(h200());
    const auto problem = db.upsert_problem(kShared);
    const auto config = add_reg2d_config(db, 128);
    const std::string measured_at = path == a ? "2024-01-01T00:00:00.000Z" : "2024-02-01T00:00:00.000Z";
    db.record_measurement(ok_measurement(gpu, problem, config, path == a ? 1.0 : 2.0, measured_at),
                          WinnerUpdate{1.2, {}, path == a ? "strict" : "fp32"});
  }
  const auto differences = diff_winners(Database::open(a, OpenMode::ReadOnly).all_winners(),
                                        Database::open(b, OpenMode::ReadOnly).all_winners());
  REQUIRE(differences.size() == 2);
  CHECK(differences[0].precision == "strict");
  CHECK(differences[0].kind == DiffKind::OnlyInA);
  CHECK(differences[1].precision == "fp32");
  CHECK(differences[1].kind == DiffKind::OnlyInB);

  Database into = Database::open(a, OpenMode::ReadWrite);
  const std::vector<std::string> from = {b};
  merge_databases(into, from);
  const auto gpu = into.find_gpu(h200().key)->id;
  const auto problem = *into.find_problem(kShared);
  CHECK(into.winner(gpu, problem, "strict")->median_ms == 1.0);
  CHECK(into.winner(gpu, problem, "fp32")->median_ms == 2.0);
  CHECK(into.measurements_for(gpu, problem)[0].precision == "strict");
}

TEST_CASE("cache: a version-1 database migrates to precision classes without losing a row", "[cache]") {
  TempDir dir;
  const std::string path = dir.file("v1.db");
  write_version1(path);
  {
    const Connection v1(path, path, SQLITE_OPEN_READONLY);
    REQUIRE(read_user_version(v1) == 1);
  }
  // Read-only openers (the runtime, tunedb) refuse it until a writer has migrated it.
  CHECK_THROWS_WITH(Database::open(path, OpenMode::ReadOnly), Catch::Contains("is older"));

  const Database db = Database::open(path, OpenMode::ReadWrite);
  CHECK(read_user_version(db.connection()) == latest_schema_version());
  CHECK(count_rows(db, "gpus") == 1);
  CHECK(count_rows(db, "problems") == 3);
  CHECK(count_rows(db, "configs") == 4);
  CHECK(count_rows(db, "measurements") == 8);
  CHECK(count_rows(db, "binaries") == 1);

  const auto rows = db.all_measurements();
  for (const MeasurementRow& row : rows) {
    CHECK_FALSE(row.fp64_error);  // not measured then
    const std::string expected = row.family == "wgmma" ? "fp32" : row.family == "tmatf32" ? "tf32" : "strict";
    CHECK(row.precision == expected);
  }
  CHECK(rows[0].max_rel_error == 2e-7);  // what was stored stays

  const auto gpu = db.find_gpu(h200().key)->id;
  auto winner = [&](const Problem& problem, std::string_view precision) {
    return db.winner(gpu, *db.find_problem(problem), precision);
  };
  SECTION("a tensor-core winner stays the fp32 winner; the strict one is the fastest FFMA measured") {
    CHECK(winner(kV1WonByWgmma, "fp32")->kernel_name.find("wgmma") != std::string::npos);
    CHECK(winner(kV1WonByWgmma, "fp32")->measured_at == "2026-01-01T00:00:02.000Z");
    const auto strict = winner(kV1WonByWgmma, "strict");
    REQUIRE(strict);
    CHECK(strict->kernel_name.find("vectorized") != std::string::npos);
    CHECK(strict->median_ms == 0.8);
    CHECK(strict->cublas_ms == 0.6);  // the old winner's pedantic baseline
    CHECK_FALSE(winner(kV1WonByWgmma, "tf32"));
  }
  SECTION("an FFMA winner becomes the strict and the fp32 winner") {
    CHECK(winner(kV1WonByReg2d, "strict")->median_ms == 2.0);
    CHECK(winner(kV1WonByReg2d, "fp32")->median_ms == 2.0);
    CHECK(winner(kV1WonByReg2d, "fp32")->cublas_ms == 2.5);
    CHECK_FALSE(winner(kV1WonByReg2d, "tf32"));
  }
  SECTION("a tf32 winner is the tf32 winner only, without a TF32 baseline") {
    const auto tf32 = winner(kV1WonByTmatf32, "tf32");
    REQUIRE(tf32);
    CHECK(tf32->kernel_precision == "tf32");
    CHECK_FALSE(tf32->cublas_ms);
    CHECK(winner(kV1WonByTmatf32, "fp32")->median_ms == 0.3);
    CHECK(winner(kV1WonByTmatf32, "strict")->median_ms == 0.9);
  }
  CHECK(db.all_winners().size() == 7);
}
