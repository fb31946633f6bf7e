// The kernels a Runtime has loaded, by name: each loaded once, from a stored cubin (the
// database's for this build, or an ahead-of-time export's) when there is one, else compiled
// with NVRTC where that is allowed; then kept for the store's lifetime, so the pointers it hands
// out stay valid.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "kernel_config.hpp"
#include "loaded_kernel.hpp"

namespace gemmtune::dispatch {

struct StoredCubin {
  std::vector<char> cubin;
  std::string lowered_name;
};

// Where a store finds a configuration's cubin; nullopt: none stored. May throw (a file that
// cannot be read), which get() reports as the kernel's failure to load.
using CubinLookup = std::function<std::optional<StoredCubin>(const KernelConfig& config)>;
// Whether a configuration's cubin is stored, without reading it; may throw.
using CubinCheck = std::function<bool(const KernelConfig& config)>;

class KernelStore {
 public:
  // `no_compile` empty: a kernel without a stored cubin is compiled; else it is refused with
  // that reason (an ahead-of-time export: no NVRTC at run time).
  // `check` says, without reading it, whether `lookup` would find a cubin (empty: none would).
  KernelStore(CubinLookup lookup, std::string arch, std::string no_compile = {}, CubinCheck check = {});

  // The loaded kernel of `config`. Throws DispatchError(KernelError) naming the kernel when it
  // can be neither loaded nor compiled. Not thread-safe: the caller serializes calls.
  const LoadedKernel& get(const KernelConfig& config);

  // Whether `config` is loaded already or its cubin is stored: serving it needs no compile.
  // Never throws (false when the store cannot say).
  bool has_cubin(const KernelConfig& config) const noexcept;

  std::uint64_t from_database() const { return from_database_; }  // from stored cubins
  std::uint64_t compiled() const { return compiled_; }

 private:
  const LoadedKernel& load(const KernelConfig& config, const std::string& name);

  CubinLookup lookup_;
  CubinCheck check_;
  std::string arch_;
  std::string no_compile_;
  std::unordered_map<std::string, std::unique_ptr<LoadedKernel>> kernels_;
  std::uint64_t from_database_ = 0;
  std::uint64_t compiled_ = 0;
};

}  // namespace gemmtune::dispatch
