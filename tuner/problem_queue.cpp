#include "problem_queue.hpp"

#include <exception>
#include <mutex>
#include <thread>
#include <vector>

namespace gemmtune::tuner {

std::optional<std::size_t> ProblemQueue::take() {
  if (closed_) return std::nullopt;
  const std::size_t index = next_.fetch_add(1);
  if (index >= count_) return std::nullopt;
  return index;
}

void share_problems(std::size_t count, std::size_t consumers,
                    const std::function<void(std::size_t consumer, std::size_t problem)>& tune_one,
                    const std::function<void(std::size_t consumer)>& finished) {
  ProblemQueue queue(count);
  std::mutex first_error_mutex;
  std::exception_ptr first_error;
  auto consume = [&](std::size_t consumer) {
    try {
      while (const std::optional<std::size_t> problem = queue.take()) tune_one(consumer, *problem);
      if (finished) finished(consumer);
    } catch (...) {
      queue.close();
      const std::lock_guard lock(first_error_mutex);
      if (!first_error) first_error = std::current_exception();
    }
  };
  if (consumers <= 1) {
    consume(0);
  } else {
    std::vector<std::thread> threads;
    for (std::size_t consumer = 0; consumer < consumers; ++consumer) threads.emplace_back(consume, consumer);
    for (std::thread& thread : threads) thread.join();
  }
  if (first_error) std::rethrow_exception(first_error);
}

}  // namespace gemmtune::tuner
