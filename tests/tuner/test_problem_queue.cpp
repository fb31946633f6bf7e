// share_problems, the scheduler of `tune --devices`: with made-up consumers in place of GPUs,
// every problem is tuned exactly once, a slow consumer holds up only itself, and a consumer's
// failure stops the others taking more and reaches the caller.
#include <catch2/catch.hpp>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <mutex>
#include <stdexcept>
#include <thread>
#include <vector>

#include "problem_queue.hpp"

using namespace gemmtune::tuner;
using namespace std::chrono_literals;

TEST_CASE("tuner: share_problems hands every problem to exactly one of several consumers", "[tuner]") {
  constexpr std::size_t kProblems = 1000;
  constexpr std::size_t kConsumers = 4;
  std::vector<std::atomic<int>> taken(kProblems);
  std::vector<std::atomic<int>> by_consumer(kConsumers);
  std::vector<std::atomic<int>> finished(kConsumers);
  std::atomic<bool> out_of_range{false};  // Catch's assertions are for the test's own thread only
  share_problems(
      kProblems, kConsumers,
      [&](std::size_t consumer, std::size_t problem) {
        if (consumer >= kConsumers || problem >= kProblems) {
          out_of_range = true;
          return;
        }
        ++taken[problem];
        ++by_consumer[consumer];
      },
      [&](std::size_t consumer) { ++finished[consumer]; });
  CHECK_FALSE(out_of_range);
  CHECK(std::all_of(taken.begin(), taken.end(), [](const std::atomic<int>& n) { return n == 1; }));
  int total = 0;
  for (const auto& count : by_consumer) total += count;
  CHECK(total == static_cast<int>(kProblems));
  CHECK(std::all_of(finished.begin(), finished.end(), [](const std::atomic<int>& n) { return n == 1; }));
}

TEST_CASE("tuner: share_problems lets the other consumers tune the rest while one is slow on a problem",
          "[tuner]") {
  constexpr std::size_t kProblems = 30;
  constexpr std::size_t kConsumers = 3;
  std::atomic<std::size_t> done{0};
  std::atomic<bool> slow_one_taken{false};
  std::atomic<std::size_t> slow_consumer{kConsumers};
  std::atomic<bool> waited_out{false};
  std::vector<std::atomic<int>> by_consumer(kConsumers);
  share_problems(kProblems, kConsumers, [&](std::size_t consumer, std::size_t) {
    // The first consumer to get here is the slow one: its problem lasts until every other
    // problem is done, which only the other consumers can do meanwhile.
    if (!slow_one_taken.exchange(true)) {
      slow_consumer = consumer;
      const auto deadline = std::chrono::steady_clock::now() + 20s;
      while (done < kProblems - 1) {
        if (std::chrono::steady_clock::now() > deadline) {
          waited_out = true;
          break;
        }
        std::this_thread::sleep_for(1ms);
      }
    }
    ++by_consumer[consumer];
    ++done;
  });
  CHECK_FALSE(waited_out);  // the others did not wait for the slow problem
  CHECK(done == kProblems);
  REQUIRE(slow_consumer < kConsumers);
  CHECK(by_consumer[slow_consumer] == 1);  // the slow consumer tuned its one problem, the others the rest
}

TEST_CASE("tuner: a consumer's failure stops the others taking problems and reaches the caller", "[tuner]") {
  constexpr std::size_t kProblems = 200;
  std::atomic<std::size_t> started{0};
  std::atomic<int> finished{0};
  CHECK_THROWS_WITH(share_problems(
                        kProblems, 2,
                        [&](std::size_t, std::size_t problem) {
                          ++started;
                          if (problem == 0) throw std::runtime_error("GPU lost");
                          std::this_thread::sleep_for(20ms);
                        },
                        [&](std::size_t) { ++finished; }),
                    "GPU lost");
  CHECK(started < 20);  // the other consumer ended after the problem it was on
  CHECK(finished <= 1);  // the failed consumer is not told it finished
}

TEST_CASE("tuner: share_problems with one consumer tunes in order on the calling thread", "[tuner]") {
  const std::thread::id caller = std::this_thread::get_id();
  std::vector<std::size_t> order;
  bool finished = false;
  share_problems(
      5, 1,
      [&](std::size_t consumer, std::size_t problem) {
        CHECK(consumer == 0);
        CHECK(std::this_thread::get_id() == caller);
        order.push_back(problem);
      },
      [&](std::size_t) { finished = true; });
  CHECK(order == std::vector<std::size_t>{0, 1, 2, 3, 4});
  CHECK(finished);
  share_problems(0, 2, [&](std::size_t, std::size_t) { FAIL("no problem to tune"); });
}
