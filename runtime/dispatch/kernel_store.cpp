#include "kernel_store.hpp"

#include "binary_store.hpp"
#include "dispatch_error.hpp"
#include "kernel_name.hpp"
#include "nvrtc_compiler.hpp"

namespace gemmtune::dispatch {

KernelStore::KernelStore(const cache::Database* database, std::string arch)
    : database_(database), arch_(std::move(arch)) {}

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
    return database_ != nullptr && database_->has_binary(binary_key(config, arch_));
  } catch (const std::exception&) {
    return false;  // only a preference: selection goes on without it
  }
}

const LoadedKernel& KernelStore::load(const KernelConfig& config, const std::string& name) {
  std::optional<cache::Binary> binary;
  if (database_ != nullptr) {
    // The key the tuner stores its cubins under.
    binary = database_->find_binary(binary_key(config, arch_));
  }
  std::unique_ptr<LoadedKernel> kernel;
  if (binary) {
    kernel = std::make_unique<LoadedKernel>(config, binary->cubin, binary->lowered_name);
    ++from_database_;
  } else {
    const CompiledKernel compiled = compile_kernel(config, arch_);
    kernel = std::make_unique<LoadedKernel>(config, compiled.cubin, compiled.lowered_name);
    ++compiled_;
  }
  return *kernels_.emplace(name, std::move(kernel)).first->second;
}

}  // namespace gemmtune::dispatch
