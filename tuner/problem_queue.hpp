// How `tune --devices` shares a run's problems among its GPUs: one queue, each consumer (a GPU's
// measuring thread) taking the next problem as it finishes one, so that a long problem holds up
// only the GPU tuning it and every problem is tuned once, on one GPU. Plain code, no CUDA: tested
// with made-up consumers.
#pragma once

#include <atomic>
#include <cstddef>
#include <functional>
#include <optional>

namespace gemmtune::tuner {

// Problem indices 0 .. count-1, each handed out once, in order, to whoever asks first.
class ProblemQueue {
 public:
  explicit ProblemQueue(std::size_t count) : count_(count) {}
  ProblemQueue(const ProblemQueue&) = delete;
  ProblemQueue& operator=(const ProblemQueue&) = delete;

  // The next index; nullopt once every one is taken or the queue is closed. Safe from any thread.
  std::optional<std::size_t> take();
  // Hands out nothing more (a consumer failed: the run stops after the problems in progress).
  void close() { closed_ = true; }

 private:
  const std::size_t count_;
  std::atomic<std::size_t> next_{0};
  std::atomic<bool> closed_{false};
};

// Runs tune_one(consumer, problem) for every problem of 0 .. count-1, each once, on `consumers`
// threads that each take the next problem as they finish one; then finished(consumer) when that
// consumer finds nothing left (on its thread; finished may be empty). With one consumer it all
// runs on the calling thread. The first exception a consumer throws closes the queue (the others
// finish the problem they are on and take no other) and is rethrown once every thread has ended.
void share_problems(std::size_t count, std::size_t consumers,
                    const std::function<void(std::size_t consumer, std::size_t problem)>& tune_one,
                    const std::function<void(std::size_t consumer)>& finished = {});

}  // namespace gemmtune::tuner
