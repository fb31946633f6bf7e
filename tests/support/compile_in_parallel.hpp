// Compiles many kernel configurations on every core (NVRTC is thread-safe), for the GPU tests and
// sanitize_kernels, which otherwise spend most of their device time compiling one kernel after
// another (about a second each).
#pragma once

#include <algorithm>
#include <atomic>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "kernel_name.hpp"
#include "nvrtc_compiler.hpp"

namespace gemmtune::testing {

// Each configuration's compiled kernel by kernel name (a name given twice is compiled once).
// Throws the first failure's error, compile log included.
inline std::map<std::string, CompiledKernel> compile_in_parallel(const std::vector<KernelConfig>& configs,
                                                                 const std::string& arch) {
  std::vector<const KernelConfig*> distinct;
  std::map<std::string, bool> seen;
  for (const KernelConfig& config : configs) {
    if (seen.emplace(kernel_name(config), true).second) distinct.push_back(&config);
  }
  std::vector<std::optional<CompiledKernel>> results(distinct.size());
  std::vector<std::string> errors(distinct.size());
  std::atomic<std::size_t> next{0};
  auto worker = [&] {
    for (std::size_t i = next++; i < distinct.size(); i = next++) {
      try {
        results[i] = compile_kernel(*distinct[i], arch);
      } catch (const std::exception& error) {
        errors[i] = error.what();
      }
    }
  };
  const unsigned cores = std::max(1u, std::min(16u, std::thread::hardware_concurrency()));
  std::vector<std::thread> threads(std::min<std::size_t>(cores, std::max<std::size_t>(1, distinct.size())));
  for (std::thread& thread : threads) thread = std::thread(worker);
  for (std::thread& thread : threads) thread.join();
  std::map<std::string, CompiledKernel> compiled;
  for (std::size_t i = 0; i < distinct.size(); ++i) {
    if (!results[i]) throw std::runtime_error(errors[i]);
    compiled.emplace(kernel_name(*distinct[i]), std::move(*results[i]));
  }
  return compiled;
}

}  // namespace gemmtune::testing
