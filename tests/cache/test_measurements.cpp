// GPUs, problems, configurations, measurements, resume and winners.
#include <catch2/catch.hpp>

#include <cmath>

#include "cache_test_support.hpp"

using namespace gemmtune::cache;
using namespace gemmtune::cache::test;

namespace {

struct Seeded {
  Database db = Database::open(":memory:", OpenMode::ReadWrite);
  std::int64_t gpu = db.upsert_gpu(h200());
  std::int64_t problem = db.upsert_problem({"nn", 1024, 2048, 512});
  std::int64_t fast = add_reg2d_config(db, 128);
  std::int64_t slow = add_reg2d_config(db, 64);
  std::int64_t broken = add_reg2d_config(db, 256);
};

constexpr double kFlops = 2.0 * 1024 * 2048 * 512;

double tflops(double ms) { return kFlops / (ms * 1e9); }

}  // namespace

TEST_CASE("cache: upserts give one id per natural key and update recorded versions", "[cache]") {
  Seeded s;
  GpuInfo newer = h200();
  newer.driver_version = "580.1";
  CHECK(s.db.upsert_gpu(newer) == s.gpu);
  CHECK(s.db.find_gpu(h200().key)->info == newer);
  CHECK(s.db.upsert_gpu(a100()) != s.gpu);
  CHECK_FALSE(s.db.find_gpu({"NVIDIA H200", 9, 0, 114}));  // another SM count, another GPU
  CHECK(s.db.gpus("h200").size() == 1);
  CHECK(s.db.gpus().size() == 2);

  CHECK(s.db.upsert_problem({"nn", 1024, 2048, 512}) == s.problem);
  CHECK(s.db.upsert_problem({"nt", 1024, 2048, 512}) != s.problem);
  CHECK(s.db.find_problem({"nn", 1024, 2048, 512}) == s.problem);
  CHECK_FALSE(s.db.find_problem({"tt", 1, 1, 1}));
  CHECK(add_reg2d_config(s.db, 128) == s.fast);
}

TEST_CASE("cache: the schema refuses values that make no sense", "[cache]") {
  Seeded s;
  CHECK_THROWS_WITH(s.db.upsert_problem({"xx", 1, 1, 1}), Catch::Contains("CHECK constraint"));
  CHECK_THROWS_AS(s.db.upsert_problem({"nn", 0, 1, 1}), Error);
  CHECK_THROWS_AS(s.db.upsert_config("k", "reg2d", "[1, 2]", "strict"), Error);
  CHECK_THROWS_AS(s.db.upsert_config("k", "reg2d", "{not json", "strict"), Error);
  CHECK_THROWS_WITH(s.db.record_measurement(ok_measurement(s.gpu, s.problem, 999, 1.0)),
                    Catch::Contains("FOREIGN KEY"));
}

TEST_CASE("cache: a measurement has a timing exactly when it is ok", "[cache]") {
  Seeded s;
  Measurement no_time = ok_measurement(s.gpu, s.problem, s.fast, 1.0);
  no_time.timing.reset();
  CHECK_THROWS_AS(s.db.record_measurement(no_time), std::invalid_argument);
  Measurement failed_with_time = ok_measurement(s.gpu, s.problem, s.fast, 1.0);
  failed_with_time.status = Status::Crash;
  CHECK_THROWS_AS(s.db.record_measurement(failed_with_time), std::invalid_argument);
  CHECK_THROWS_WITH(
      s.db.record_measurement(failed_measurement(s.gpu, s.problem, s.fast, Status::Timeout, "t"),
                              WinnerUpdate{}),
      Catch::Contains("cannot become a winner"));
  CHECK(count_rows(s.db, "measurements") == 0);
}

TEST_CASE("cache: measured_kernels returns what was recorded, failures included, for resume",
          "[cache]") {
  Seeded s;
  CHECK(s.db.measured_kernels(s.gpu, s.problem).empty());
  s.db.record_measurement(ok_measurement(s.gpu, s.problem, s.fast, 1.0));
  s.db.record_measurement(
      failed_measurement(s.gpu, s.problem, s.broken, Status::CompileError, "static_assert"));
  const auto other_problem = s.db.upsert_problem({"nn", 1, 1, 1});
  s.db.record_measurement(ok_measurement(s.gpu, other_problem, s.slow, 1.0));
  CHECK(s.db.measured_kernels(s.gpu, s.problem) ==
        std::set<std::string>{reg2d_name(128), reg2d_name(256)});
  CHECK(s.db.measured_kernels(s.gpu, other_problem) == std::set<std::string>{reg2d_name(64)});
}

TEST_CASE("cache: the leaderboard ranks ok measurements by time, keeps history and failures",
          "[cache]") {
  Seeded s;
  s.db.record_measurement(ok_measurement(s.gpu, s.problem, s.slow, 2.0, "2024-01-01T00:00:00.000Z"));
  s.db.record_measurement(
      failed_measurement(s.gpu, s.problem, s.broken, Status::WrongResult, "max rel error 0.5"));
  s.db.record_measurement(ok_measurement(s.gpu, s.problem, s.fast, 1.0));
  s.db.record_measurement(ok_measurement(s.gpu, s.problem, s.slow, 1.5, "2024-02-01T00:00:00.000Z"));

  const auto rows = s.db.measurements_for(s.gpu, s.problem);
  REQUIRE(rows.size() == 4);
  CHECK(rows[0].kernel_name == reg2d_name(128));
  CHECK(rows[0].rank == 1);
  CHECK(rows[0].tflops.has_value());
  CHECK(*rows[0].tflops == Approx(tflops(1.0)));
  CHECK(rows[0].gpu == h200().key);
  CHECK(rows[0].problem == Problem{"nn", 1024, 2048, 512});
  CHECK(rows[0].family == "reg2d");
  CHECK(rows[1].timing->median_ms == 1.5);
  CHECK(rows[1].rank == 2);
  CHECK(rows[2].timing->median_ms == 2.0);  // the earlier measurement of the same kernel stays
  CHECK(rows[2].rank == 3);
  CHECK(rows[3].status == Status::WrongResult);
  CHECK(rows[3].error_text == "max rel error 0.5");
  CHECK_FALSE(rows[3].rank);
  CHECK_FALSE(rows[3].timing);
  CHECK(s.db.all_measurements().size() == 4);
}

TEST_CASE("cache: a winner lands with its measurement, with TFLOPS and cuBLAS's", "[cache]") {
  Seeded s;
  CHECK_FALSE(s.db.winner(s.gpu, s.problem, "fp32"));
  s.db.record_measurement(ok_measurement(s.gpu, s.problem, s.slow, 2.0), WinnerUpdate{2.2});
  auto winner = s.db.winner(s.gpu, s.problem, "fp32");
  REQUIRE(winner);
  CHECK(winner->kernel_name == reg2d_name(64));
  CHECK(winner->median_ms == 2.0);
  CHECK(winner->tflops == Approx(tflops(2.0)));
  CHECK(winner->cublas_ms == 2.2);
  CHECK(*winner->cublas_tflops == Approx(tflops(2.2)));

  SECTION("IfFaster ignores a slower candidate and takes a faster one") {
    s.db.record_measurement(ok_measurement(s.gpu, s.problem, s.broken, 3.0), WinnerUpdate{2.2});
    CHECK(s.db.winner(s.gpu, s.problem, "fp32")->kernel_name == reg2d_name(64));
    s.db.record_measurement(ok_measurement(s.gpu, s.problem, s.fast, 1.0), WinnerUpdate{2.2});
    CHECK(s.db.winner(s.gpu, s.problem, "fp32")->kernel_name == reg2d_name(128));
  }
  SECTION("Replace takes a slower re-measure") {
    s.db.record_measurement(ok_measurement(s.gpu, s.problem, s.slow, 2.5),
                            WinnerUpdate{2.4, WinnerPolicy::Replace});
    CHECK(s.db.winner(s.gpu, s.problem, "fp32")->median_ms == 2.5);
  }
  const auto all = s.db.all_winners("H200");
  REQUIRE(all.size() == 1);
  CHECK(all[0].gpu == h200().key);
  CHECK(all[0].winner == *s.db.winner(s.gpu, s.problem, "fp32"));
  CHECK(s.db.all_winners("A100").empty());
}

TEST_CASE("cache: a winner update that fails takes its measurement back with it", "[cache]") {
  Seeded s;
  // A negative cuBLAS time breaks a winners CHECK after the measurement row was inserted.
  CHECK_THROWS_WITH(
      s.db.record_measurement(ok_measurement(s.gpu, s.problem, s.fast, 1.0), WinnerUpdate{-1.0}),
      Catch::Contains("CHECK constraint failed"));
  CHECK(s.db.measured_kernels(s.gpu, s.problem).empty());
  CHECK_FALSE(s.db.winner(s.gpu, s.problem, "fp32"));
  CHECK(count_rows(s.db, "measurements") == 0);
}

TEST_CASE("cache: problem summaries count configurations and carry the winner", "[cache]") {
  Seeded s;
  s.db.record_measurement(ok_measurement(s.gpu, s.problem, s.fast, 1.0), WinnerUpdate{});
  s.db.record_measurement(ok_measurement(s.gpu, s.problem, s.fast, 1.1));
  s.db.record_measurement(failed_measurement(s.gpu, s.problem, s.broken, Status::Spills, "spill"));
  const auto untuned = s.db.upsert_problem({"tt", 5, 5, 5});
  s.db.record_measurement(failed_measurement(s.gpu, untuned, s.broken, Status::Crash, "xid 13"));

  const auto summaries = s.db.problem_summaries();
  REQUIRE(summaries.size() == 2);
  CHECK(summaries[0].problem == Problem{"nn", 1024, 2048, 512});
  CHECK(summaries[0].measured == 2);
  CHECK(summaries[0].ok == 1);
  CHECK(summaries[0].failed == 1);
  REQUIRE(summaries[0].winner);
  CHECK(summaries[0].winner->kernel_name == reg2d_name(128));
  CHECK(summaries[1].problem == Problem{"tt", 5, 5, 5});
  CHECK(summaries[1].failed == 1);
  CHECK_FALSE(summaries[1].winner);
  CHECK(s.db.problem_summaries("A100").empty());
}
