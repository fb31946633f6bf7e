// The tuned problems of one GPU, by layout: what selection chooses from. Built once at open from
// the database's winners; read-only afterwards, so any number of threads may share it.
#pragma once

#include <array>
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "cache_records.hpp"
#include "kernel_config.hpp"
#include "problem.hpp"

namespace gemmtune::dispatch {

struct TunedProblem {
  Problem problem;
  cache::Winner winner;
  // The winner's configuration; nullopt when this build cannot use it (a family it does not
  // know, a malformed name, a kernel of another layout), and then `unusable` says why.
  std::optional<KernelConfig> config;
  std::string unusable;
};

class TuningTable {
 public:
  TuningTable() = default;  // nothing tuned: every call gets a default kernel
  // Keeps the winners of `gpu` (same name, compute capability and SM count) and drops the
  // rest: a winner measured on another GPU says nothing about this one.
  TuningTable(const std::vector<cache::WinnerEntry>& winners, const cache::GpuKey& gpu);

  // The tuned problems of one layout, in the database's order (by M, N, K).
  const std::vector<TunedProblem>& of_layout(Layout layout) const {
    return by_layout_[static_cast<std::size_t>(layout)];
  }
  std::size_t size() const;

 private:
  std::array<std::vector<TunedProblem>, 4> by_layout_;
};

// "NVIDIA H200 (sm_90, 132 SMs)"
std::string describe_gpu(const cache::GpuKey& gpu);

}  // namespace gemmtune::dispatch
