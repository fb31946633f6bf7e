// The kernels a Runtime has loaded, by name: each loaded once, from the database's cubin when it
// has one for this build (template sources, NVRTC options and version, arch), else compiled
// with NVRTC; then kept for the store's lifetime, so the pointers it hands out stay valid.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <unordered_map>

#include "kernel_config.hpp"
#include "loaded_kernel.hpp"
#include "tuning_db.hpp"

namespace gemmtune::dispatch {

class KernelStore {
 public:
  // `database` may be null (no database: every kernel is compiled); it must outlive the store.
  KernelStore(const cache::Database* database, std::string arch);

  // The loaded kernel of `config`. Throws DispatchError(KernelError) naming the kernel when it
  // can be neither loaded nor compiled. Not thread-safe: the caller serializes calls.
  const LoadedKernel& get(const KernelConfig& config);

  // Whether `config` is loaded already or its cubin is in the database: serving it needs no
  // compile. Never throws (false when the database cannot say).
  bool has_cubin(const KernelConfig& config) const noexcept;

  std::uint64_t from_database() const { return from_database_; }
  std::uint64_t compiled() const { return compiled_; }

 private:
  const LoadedKernel& load(const KernelConfig& config, const std::string& name);

  const cache::Database* database_;
  std::string arch_;
  std::unordered_map<std::string, std::unique_ptr<LoadedKernel>> kernels_;
  std::uint64_t from_database_ = 0;
  std::uint64_t compiled_ = 0;
};

}  // namespace gemmtune::dispatch
