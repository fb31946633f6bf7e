// Concurrent tuners: connections writing from two threads never fail with "database is locked".
#include <catch2/catch.hpp>

#include <algorithm>
#include <exception>
#include <thread>
#include <vector>

#include "cache_test_support.hpp"

using namespace gemmtune::cache;
using namespace gemmtune::cache::test;

TEST_CASE("cache: two connections open a new file and write at once without lock errors", "[cache]") {
  TempDir dir;
  const std::string path = dir.file("tuned.db");
  constexpr int kThreads = 2;
  constexpr int kPerThread = 150;
  std::vector<std::exception_ptr> errors(kThreads);

  auto tuner = [&](int thread) {
    try {
      // Both open (and so migrate) the fresh file at the same time, then write.
      Database db = Database::open(path, OpenMode::ReadWrite);
      const auto gpu = db.upsert_gpu(h200());
      const auto problem = db.upsert_problem({"nn", 256, 256, 256});
      for (int i = 0; i < kPerThread; ++i) {
        const auto config = add_reg2d_config(db, 1000 * thread + i);
        const double ms = 1.0 + (thread * kPerThread + i) % 97;
        db.record_measurement(ok_measurement(gpu, problem, config, ms), WinnerUpdate{});
        db.measured_kernels(gpu, problem);  // a read between the writes
      }
    } catch (...) {
      errors[thread] = std::current_exception();
    }
  };
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) threads.emplace_back(tuner, t);
  for (auto& thread : threads) thread.join();

  for (const auto& error : errors) {
    if (error) {
      try {
        std::rethrow_exception(error);
      } catch (const std::exception& e) {
        FAIL("a writer failed: " << e.what());
      }
    }
  }
  const Database db = Database::open(path, OpenMode::ReadOnly);
  CHECK(count_rows(db, "measurements") == kThreads * kPerThread);
  CHECK(db.gpus().size() == 1);
  const auto problem = db.find_problem({"nn", 256, 256, 256});
  REQUIRE(problem);
  CHECK(db.measured_kernels(db.gpus()[0].id, *problem).size() == kThreads * kPerThread);
  // IfFaster across both writers keeps the fastest of all.
  CHECK(db.winner(db.gpus()[0].id, *problem)->median_ms == 1.0);
}
