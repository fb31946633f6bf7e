#include "binary_store.hpp"

#include <algorithm>

#include "family_registry.hpp"
#include "kernel_name.hpp"

namespace gemmtune {

cache::BinaryKey binary_key(const KernelConfig& config, const std::string& arch) {
  return cache::BinaryKey{kernel_name(config), source_hash(find_family(config.family)), nvrtc_compile_options(), arch,
                          nvrtc_version()};
}

cache::BinaryKey binary_key(const std::string& kernel_name, const std::string& arch) {
  return binary_key(parse_kernel_name(kernel_name), arch);
}

cache::Binary to_binary(const CompiledKernel& compiled) {
  cache::Binary binary;
  binary.key = binary_key(compiled.kernel_name, compiled.arch);
  binary.lowered_name = compiled.lowered_name;
  binary.cubin = compiled.cubin;
  binary.registers = compiled.resources.registers;
  binary.spill_bytes = std::max(compiled.resources.spill_store_bytes, 0) + std::max(compiled.resources.spill_load_bytes, 0);
  binary.compile_log = compiled.log;
  return binary;
}

CompiledKernel from_binary(const cache::Binary& binary) {
  CompiledKernel compiled;
  compiled.kernel_name = binary.key.kernel_name;
  compiled.arch = binary.key.arch;
  compiled.lowered_name = binary.lowered_name;
  compiled.cubin = binary.cubin;
  compiled.log = binary.compile_log;
  compiled.resources = parse_ptxas_report(binary.compile_log, binary.lowered_name);
  return compiled;
}

cache::CompileOutcomeRecord compiled_outcome(const CompiledKernel& compiled, std::optional<double> seconds) {
  cache::CompileOutcomeRecord outcome;
  outcome.key = binary_key(compiled.kernel_name, compiled.arch);
  outcome.compiled = true;
  outcome.registers = compiled.resources.registers;
  outcome.spill_store_bytes = compiled.resources.spill_store_bytes;
  outcome.spill_load_bytes = compiled.resources.spill_load_bytes;
  outcome.static_smem_bytes = compiled.resources.static_smem_bytes;
  outcome.compile_seconds = seconds;
  return outcome;
}

cache::CompileOutcomeRecord failed_outcome(const KernelConfig& config, const std::string& arch,
                                           const std::string& error, double seconds) {
  cache::CompileOutcomeRecord outcome;
  outcome.key = binary_key(config, arch);
  outcome.compile_seconds = seconds;
  outcome.error_text = error;
  return outcome;
}

}  // namespace gemmtune
