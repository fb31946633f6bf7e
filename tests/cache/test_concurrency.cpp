// Concurrent tuners: connections writing from two threads never fail with "database is locked".
#include <catch2/catch.hpp>

#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
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
  CHECK(db.winner(db.gpus()[0].id, *problem, "fp32")->median_ms == 1.0);
}

TEST_CASE("cache: eight processes opening one new file at once all get it in WAL mode", "[cache]") {
  // Each open switches a new file to WAL; found on the H200 machine, where two tune processes
  // met "PRAGMA journal_mode = WAL: database is locked". Processes, not threads: SQLite's file
  // locks are per process. Many rounds, to meet the race often.
  TempDir dir;
  constexpr int kProcesses = 8;
  constexpr int kRounds = 20;
  for (int round = 0; round < kRounds; ++round) {
    const std::string path = dir.file("round" + std::to_string(round) + ".db");
    std::vector<pid_t> children;
    for (int p = 0; p < kProcesses; ++p) {
      const pid_t child = ::fork();
      REQUIRE(child >= 0);
      if (child == 0) {
        int code = 0;
        try {
          Database db = Database::open(path, OpenMode::ReadWrite);
          db.upsert_gpu(h200());
        } catch (const std::exception& e) {
          std::fprintf(stderr, "round %d: %s\n", round, e.what());
          code = 1;
        }
        ::_exit(code);
      }
      children.push_back(child);
    }
    for (const pid_t child : children) {
      int status = 0;
      REQUIRE(::waitpid(child, &status, 0) == child);
      CHECK(WIFEXITED(status));
      CHECK(WEXITSTATUS(status) == 0);
    }
    const Database db = Database::open(path, OpenMode::ReadOnly);
    CHECK(db.gpus().size() == 1);
  }
}
