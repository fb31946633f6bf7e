#include "shared_compile_pool.hpp"

#include <poll.h>

#include <algorithm>
#include <cerrno>

#include "kernel_name.hpp"

namespace gemmtune::tuner {
namespace {

// Waits up to `wait` for one of `pipes` to be readable (or closed). A pipe closed meanwhile by a
// worker's replacement only ends the wait early: the caller looks again under the lock.
void wait_for_any(const std::vector<int>& pipes, std::chrono::milliseconds wait) {
  std::vector<pollfd> waiting;
  for (const int pipe : pipes) waiting.push_back({pipe, POLLIN, 0});
  int ready;
  do {
    ready = ::poll(waiting.data(), waiting.size(), static_cast<int>(wait.count()));
  } while (ready < 0 && errno == EINTR);
}

}  // namespace

SharedCompilePool::SharedCompilePool(int workers, std::string arch, std::size_t owners)
    : pool_(workers, std::move(arch)), owners_(std::max<std::size_t>(owners, 1)) {}

int SharedCompilePool::workers() const {
  const std::lock_guard lock(mutex_);
  return pool_.workers();
}

std::size_t SharedCompilePool::compiled_count() const {
  const std::lock_guard lock(mutex_);
  return pool_.compiled_count();
}

int SharedCompilePool::share_of(const Owner& owner) const {
  if (!owner.tuning) return 0;
  const auto tuning = std::count_if(owners_.begin(), owners_.end(), [](const Owner& o) { return o.tuning; });
  const int workers = pool_.workers();
  return std::max(1, static_cast<int>((workers + tuning - 1) / tuning));
}

int SharedCompilePool::share(std::size_t owner) const {
  const std::lock_guard lock(mutex_);
  return share_of(owners_.at(owner));
}

bool SharedCompilePool::may_submit(const Owner& owner) const {
  return pool_.has_idle_worker() && static_cast<int>(owner.started) < share_of(owner);
}

bool SharedCompilePool::has_idle_worker(std::size_t owner) const {
  const std::lock_guard lock(mutex_);
  return may_submit(owners_.at(owner));
}

std::size_t SharedCompilePool::in_flight(std::size_t owner) const {
  const std::lock_guard lock(mutex_);
  const Owner& own = owners_.at(owner);
  return own.waiting + own.done.size();  // outcomes another owner took from the pool count until collected
}

void SharedCompilePool::submit(std::size_t owner, const KernelConfig& config) {
  const std::lock_guard lock(mutex_);
  Owner& own = owners_.at(owner);
  const std::string name = kernel_name(config);
  if (const auto running = waiters_.find(name); running != waiters_.end()) {
    running->second.push_back(owner);
    ++own.waiting;
    return;
  }
  waiters_[name] = {owner};
  ++own.started;
  ++own.waiting;
  // has_idle_worker() and this call take the lock apart: another owner may have taken the worker
  // seen idle in between. The compile then starts when the next worker frees up.
  queued_.push_back(config);
  start_queued();
}

void SharedCompilePool::start_queued() {
  while (!queued_.empty() && pool_.has_idle_worker()) {
    pool_.submit(queued_.front());
    queued_.pop_front();
  }
}

void SharedCompilePool::distribute(std::vector<CompileOutcome> outcomes) {
  for (CompileOutcome& outcome : outcomes) {
    auto job = waiters_.extract(kernel_name(outcome.config));
    if (job.empty()) continue;  // not submitted through this pool: cannot happen
    const std::vector<std::size_t>& waiters = job.mapped();
    --owners_[waiters.front()].started;
    for (std::size_t i = 0; i < waiters.size(); ++i) {
      Owner& waiter = owners_[waiters[i]];
      --waiter.waiting;
      CompileOutcome& copy = waiter.done.emplace_back(outcome);
      copy.joined = i > 0;
    }
  }
}

std::vector<CompileOutcome> SharedCompilePool::collect(std::size_t owner, std::chrono::milliseconds wait) {
  const auto deadline = std::chrono::steady_clock::now() + wait;
  while (true) {
    std::vector<int> pipes;
    std::chrono::milliseconds left{0};
    {
      const std::lock_guard lock(mutex_);
      distribute(pool_.collect(std::chrono::milliseconds(0)));
      start_queued();
      Owner& own = owners_.at(owner);
      left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
      // Nothing of its own running and room to submit: waiting would only idle a worker.
      if (!own.done.empty() || (own.waiting == 0 && may_submit(own)) || left.count() <= 0) {
        return std::exchange(own.done, {});
      }
      pipes = pool_.busy_pipes();
    }
    // Its compiles, or (at its share with none running) another owner's, whose end frees a
    // worker: waited for unlocked, so that the other owners submit and collect meanwhile.
    wait_for_any(pipes, left);
  }
}

void SharedCompilePool::leave(std::size_t owner) {
  const std::lock_guard lock(mutex_);
  owners_.at(owner).tuning = false;
}

}  // namespace gemmtune::tuner
