// NVRTC compiles in a pool of worker processes (NVRTC does not scale over threads in one
// process; processes do). The pool is driven from one thread: submit to an idle worker, then
// collect what finished, so compilation overlaps with measurement in the caller's loop.
#pragma once

#include <chrono>
#include <deque>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "kernel_config.hpp"
#include "nvrtc_compiler.hpp"
#include "worker_process.hpp"

namespace gemmtune::tuner {

struct CompileOutcome {
  KernelConfig config;
  std::optional<CompiledKernel> compiled;  // absent when compilation failed
  std::string error;                       // why it failed: NVRTC's message and log
  bool worker_died = false;                // it failed because the worker died, not NVRTC
  double seconds = 0;                      // wall time in the worker
  bool joined = false;  // compiled at another owner's request (shared_compile_pool.hpp): its time counted there
};

class CompilePool {
 public:
  // Starts `workers` compile processes (at least 1) for `arch`.
  CompilePool(int workers, std::string arch);
  ~CompilePool();

  int workers() const { return static_cast<int>(slots_.size()); }
  bool has_idle_worker() const;
  std::size_t in_flight() const;
  // Hands `config` to an idle worker; requires has_idle_worker().
  void submit(const KernelConfig& config);
  // Waits up to `wait` for at least one compilation to finish and returns all that have. A
  // worker that dies mid-compile yields a failed outcome and is replaced.
  std::vector<CompileOutcome> collect(std::chrono::milliseconds wait);
  // The pipes of the busy workers, each readable once its compile has ended (or its worker
  // died): for a caller that waits on them without holding the pool (shared_compile_pool.hpp),
  // then collects.
  std::vector<int> busy_pipes() const;

  std::size_t compiled_count() const { return compiled_count_; }

 private:
  struct Slot {
    std::unique_ptr<WorkerProcess> process;
    std::optional<KernelConfig> job;
    std::chrono::steady_clock::time_point started;
  };
  void start_worker(Slot& slot, int index);

  std::string arch_;
  std::vector<Slot> slots_;
  std::size_t compiled_count_ = 0;
};

// The loop a compile worker runs: {kernel, arch} in, {ok, cubin, lowered_name, log, ...} out.
int compile_worker_main(const MessageChannel& channel);

}  // namespace gemmtune::tuner
