// One compile pool for every GPU of a run (tune --devices): each GPU's measuring thread is an
// owner that submits its own candidates and collects only the outcomes it asked for, through its
// CompileClient, the calls the driver loop makes of a pool. Two rules keep every GPU fed:
// - a configuration already compiling for another owner is not compiled again: the owner joins
//   it and gets its own copy of the outcome (problems of one layout share most candidates);
// - an owner keeps at most its share of the workers busy (the workers divided among the owners
//   still tuning, rounded up), so that one GPU's search cannot hold every worker while another
//   GPU waits; an owner that has no problem left leaves, and its share goes to the others.
// With one owner it behaves as the plain pool. Safe to call from any thread; no lock is held
// while an owner waits for compiles to end.
#pragma once

#include <chrono>
#include <cstddef>
#include <deque>
#include <map>
#include <mutex>
#include <string>
#include <vector>

#include "compile_pool.hpp"

namespace gemmtune::tuner {

class SharedCompilePool {
 public:
  // Starts `workers` compile processes (at least 1) for `arch`, for owners 0 .. owners-1.
  SharedCompilePool(int workers, std::string arch, std::size_t owners);
  SharedCompilePool(const SharedCompilePool&) = delete;
  SharedCompilePool& operator=(const SharedCompilePool&) = delete;

  int workers() const;                 // the whole pool's
  std::size_t compiled_count() const;  // compiles run (a joined one once)

  // The most compiles `owner` may have running at once.
  int share(std::size_t owner) const;
  // Whether a worker is idle and `owner` is within its share.
  bool has_idle_worker(std::size_t owner) const;
  // The compiles `owner` has not collected yet (running or ended), joined ones included.
  std::size_t in_flight(std::size_t owner) const;
  // Compiles `config` for `owner`, or joins the compile of it already running or queued; call it
  // after has_idle_worker(owner). Should another owner take the idle worker in between, the
  // compile waits for the next one to free up.
  void submit(std::size_t owner, const KernelConfig& config);
  // Waits up to `wait` for one of `owner`'s compiles to end, and returns every outcome of its
  // that has; returns at once (nothing) when it waits for none and may submit. A joined
  // outcome is marked `joined`.
  std::vector<CompileOutcome> collect(std::size_t owner, std::chrono::milliseconds wait);
  // `owner` submits nothing more: its share goes to the owners still tuning.
  void leave(std::size_t owner);

 private:
  struct Owner {
    bool tuning = true;
    std::size_t started = 0;  // compiles running that it submitted
    std::size_t waiting = 0;  // compiles running that it waits for (started or joined)
    std::vector<CompileOutcome> done;
  };
  // Hands out what the pool has finished, each outcome to every owner waiting for it.
  void distribute(std::vector<CompileOutcome> outcomes);
  int share_of(const Owner& owner) const;  // with mutex_ held
  bool may_submit(const Owner& owner) const;  // a worker is idle and `owner` is within its share; mutex_ held
  void start_queued();  // hands queued_ to idle workers, oldest first; mutex_ held

  mutable std::mutex mutex_;
  CompilePool pool_;
  std::map<std::string, std::vector<std::size_t>> waiters_;  // kernel name compiling or queued -> owners, its submitter first
  std::deque<KernelConfig> queued_;  // submitted while every worker was busy (see submit)
  std::vector<Owner> owners_;
};

// One owner's view of a SharedCompilePool.
class CompileClient {
 public:
  CompileClient(SharedCompilePool& pool, std::size_t owner) : pool_(pool), owner_(owner) {}

  int workers() const { return pool_.share(owner_); }
  bool has_idle_worker() const { return pool_.has_idle_worker(owner_); }
  std::size_t in_flight() const { return pool_.in_flight(owner_); }
  void submit(const KernelConfig& config) { pool_.submit(owner_, config); }
  std::vector<CompileOutcome> collect(std::chrono::milliseconds wait) { return pool_.collect(owner_, wait); }

 private:
  SharedCompilePool& pool_;
  std::size_t owner_;
};

}  // namespace gemmtune::tuner
