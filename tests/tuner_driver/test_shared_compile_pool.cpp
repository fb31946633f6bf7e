// The compile pool of a run on several GPUs: each owner (a GPU's thread) gets the outcomes it
// asked for and no other, a configuration compiling for one owner is joined by another rather
// than compiled twice, an owner keeps to its share of the workers until the others leave, a
// compile submitted after another owner took the idle worker waits for the next, and owners
// collecting from threads of their own each get theirs.
#include <catch2/catch.hpp>

#include <algorithm>
#include <set>
#include <thread>

#include "family_registry.hpp"
#include "kernel_name.hpp"
#include "shared_compile_pool.hpp"

namespace gemmtune::tuner {
namespace {

[[maybe_unused]] const bool reports_kept = (keep_ptxas_reports(), true);

// reg2d with a thread tile TM the family refuses: a distinct name for each TM, and an outcome
// (refused, before NVRTC) within moments.
KernelConfig refused(int tm) {
  KernelConfig config = find_family("reg2d").default_config();
  config.set("TM", tm);
  return config;
}

// Collects `owner`'s outcomes until it waits for none, by kernel name.
std::multiset<std::string> collect_all(SharedCompilePool& pool, std::size_t owner, std::vector<bool>* joined = nullptr) {
  std::multiset<std::string> names;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  while (pool.in_flight(owner) > 0 && std::chrono::steady_clock::now() < deadline) {
    for (const CompileOutcome& outcome : pool.collect(owner, std::chrono::seconds(5))) {
      names.insert(kernel_name(outcome.config));
      if (joined) joined->push_back(outcome.joined);
    }
  }
  return names;
}

}  // namespace

TEST_CASE("the shared compile pool gives each owner its own outcomes and compiles a shared one once",
          "[workers][nvrtc]") {
  SharedCompilePool pool(4, "sm_90", 2);
  CHECK(pool.share(0) == 2);
  pool.submit(0, refused(3));
  pool.submit(0, refused(5));
  pool.submit(1, refused(5));  // compiling for owner 0 already: joined
  pool.submit(1, refused(6));
  CHECK(pool.in_flight(0) == 2);
  CHECK(pool.in_flight(1) == 2);

  std::vector<bool> joined_by_1;
  const std::multiset<std::string> got_1 = collect_all(pool, 1, &joined_by_1);
  const std::multiset<std::string> got_0 = collect_all(pool, 0);
  CHECK(got_0 == std::multiset<std::string>{kernel_name(refused(3)), kernel_name(refused(5))});
  CHECK(got_1 == std::multiset<std::string>{kernel_name(refused(5)), kernel_name(refused(6))});
  CHECK(std::count(joined_by_1.begin(), joined_by_1.end(), true) == 1);
  CHECK(pool.compiled_count() == 3);
  CHECK(pool.in_flight(0) == 0);
  CHECK(pool.in_flight(1) == 0);
}

TEST_CASE("an owner of the shared compile pool keeps to its share until the other owners leave", "[workers][nvrtc]") {
  SharedCompilePool pool(3, "sm_90", 2);
  CHECK(pool.share(0) == 2);  // 3 workers for 2 owners, rounded up
  pool.submit(0, refused(3));
  pool.submit(0, refused(5));
  CHECK_FALSE(pool.has_idle_worker(0));  // at its share, with a worker idle
  CHECK(pool.has_idle_worker(1));
  pool.leave(1);
  CHECK(pool.share(0) == 3);
  CHECK(pool.has_idle_worker(0));
  pool.submit(0, refused(6));
  CHECK_FALSE(pool.has_idle_worker(0));  // every worker busy
  CHECK(collect_all(pool, 0).size() == 3);
  CHECK(pool.has_idle_worker(0));
  // Waiting for nothing, with room to submit, returns at once.
  const auto started = std::chrono::steady_clock::now();
  CHECK(pool.collect(0, std::chrono::seconds(10)).empty());
  CHECK(std::chrono::steady_clock::now() - started < std::chrono::seconds(2));
}

// Two owners' threads each see the one idle worker, then both submit: the second compile waits
// for the worker (it once threw "CompilePool::submit with no idle worker" and aborted CI).
TEST_CASE("an owner whose idle worker another owner took first still gets its compile", "[workers][nvrtc]") {
  SharedCompilePool pool(1, "sm_90", 2);
  REQUIRE(pool.has_idle_worker(0));
  REQUIRE(pool.has_idle_worker(1));
  pool.submit(0, refused(3));
  REQUIRE_NOTHROW(pool.submit(1, refused(5)));
  CHECK(pool.in_flight(1) == 1);
  CHECK(collect_all(pool, 1) == std::multiset<std::string>{kernel_name(refused(5))});
  CHECK(collect_all(pool, 0) == std::multiset<std::string>{kernel_name(refused(3))});
  CHECK(pool.compiled_count() == 2);
}

TEST_CASE("owners of the shared compile pool submit and collect from threads of their own", "[workers][nvrtc]") {
  constexpr std::size_t kOwners = 3;
  SharedCompilePool pool(2, "sm_90", kOwners);
  // Each owner compiles 8 configurations, half of them the same for every owner (joined or
  // compiled again, as the timing falls); one of them a real compile, so that owners wait.
  std::vector<std::multiset<std::string>> asked(kOwners), got(kOwners);
  std::vector<std::thread> threads;
  for (std::size_t owner = 0; owner < kOwners; ++owner) {
    std::vector<KernelConfig> configs{find_family("reg2d").default_config()};
    for (int tm : {3, 5, 6}) configs.push_back(refused(tm));
    for (int tm : {7, 9, 10, 11}) configs.push_back(refused(tm + 10 * static_cast<int>(owner + 1)));
    for (const KernelConfig& config : configs) asked[owner].insert(kernel_name(config));
    threads.emplace_back([&pool, &got, owner, configs] {
      std::size_t next = 0;
      const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(120);
      while ((next < configs.size() || pool.in_flight(owner) > 0) && std::chrono::steady_clock::now() < deadline) {
        while (next < configs.size() && pool.has_idle_worker(owner)) pool.submit(owner, configs[next++]);
        for (const CompileOutcome& outcome : pool.collect(owner, std::chrono::milliseconds(200))) {
          got[owner].insert(kernel_name(outcome.config));
        }
      }
      pool.leave(owner);
    });
  }
  for (std::thread& thread : threads) thread.join();
  for (std::size_t owner = 0; owner < kOwners; ++owner) {
    INFO("owner " << owner);
    CHECK(got[owner] == asked[owner]);
  }
}

}  // namespace gemmtune::tuner
