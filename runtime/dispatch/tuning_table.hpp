// The tuned problems of one GPU, by layout: what selection chooses from, a winner of each class a
// problem was tuned for. Built once at open from the database's winners; read-only afterwards, so
// any number of threads may share it.
#pragma once

#include <array>
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "cache_records.hpp"
#include "kernel_config.hpp"
#include "precision.hpp"
#include "problem.hpp"

namespace gemmtune::dispatch {

struct TunedProblem {
  Problem problem;
  cache::Winner winner;
  Precision tuned_for = Precision::Fp32;  // the class the winner won for (winner.precision)
  // The winner's configuration and its family's class; nullopt when this build cannot use it (a
  // family it does not know, a malformed name, a kernel of another layout, a class it does not
  // know), and then `unusable` says why.
  std::optional<KernelConfig> config;
  Precision kernel_precision = Precision::Strict;
  std::string unusable;
};

class TuningTable {
 public:
  TuningTable() = default;  // nothing tuned: every call gets a default kernel
  // Keeps the winners of `gpu` (same name, compute capability and SM count) and drops the
  // rest: a winner measured on another GPU says nothing about this one.
  TuningTable(const std::vector<cache::WinnerEntry>& winners, const cache::GpuKey& gpu);

  // The winners of one layout, in the database's order (by M, N, K, then class).
  const std::vector<TunedProblem>& of_layout(Layout layout) const {
    return by_layout_[static_cast<std::size_t>(layout)];
  }
  // Tuned problems, each once whatever the classes it has winners of.
  std::size_t size() const { return problems_; }

 private:
  std::array<std::vector<TunedProblem>, 4> by_layout_;
  std::size_t problems_ = 0;
};

// "NVIDIA H200 (sm_90, 132 SMs)"
std::string describe_gpu(const cache::GpuKey& gpu);

}  // namespace gemmtune::dispatch
