#include "kernel_store.hpp"

#include "dispatch_error.hpp"
#include "kernel_name.hpp"
#include "nvrtc_compiler.hpp"

namespace gemmtune::dispatch {

KernelStore::KernelStore(CubinLookup lookup, std::string arch, std::string no_compile, CubinCheck check)
    : lookup_(std::move(lookup)),
      check_(std::move(check)),
      arch_(std::move(arch)),
      no_compile_(std::move(no_compile)) {}

const LoadedKernel& KernelStore::get(const KernelConfig& config) {
  const std::string name = kernel_name(config);
  if (auto found = kernels_.find(name); found != kernels_.end()) return *found->second;
  try {
    return load(config, name);
  } catch (const DispatchError&) {
    throw;
  } catch (const std::exception& error) {
    throw DispatchError(Status::KernelError, "cannot load " + name + " for " + arch_ + ": " + error.what());
  }
}

bool KernelStore::has_cubin(const KernelConfig& config) const noexcept {
  try {
    if (kernels_.count(kernel_name(config)) > 0) return true;
    return check_ && check_(config);
  } catch (const std::exception&) {
    return false;  // only a preference: selection goes on without it
  }
}

const LoadedKernel& KernelStore::load(const KernelConfig& config, const std::string& name) {
  std::unique_ptr<LoadedKernel> kernel;
  if (std::optional<StoredCubin> stored = lookup_ ? lookup_(config) : std::nullopt) {
    kernel = std::make_unique<LoadedKernel>(config, stored->cubin, stored->lowered_name);
    ++from_database_;
  } else if (!no_compile_.empty()) {
    throw DispatchError(Status::KernelError, "cannot load " + name + " for " + arch_ + ": " + no_compile_);
  } else {
    const CompiledKernel compiled = compile_kernel(config, arch_);
    kernel = std::make_unique<LoadedKernel>(config, compiled.cubin, compiled.lowered_name);
    ++compiled_;
  }
  return *kernels_.emplace(name, std::move(kernel)).first->second;
}

}  // namespace gemmtune::dispatch
