// Compiled kernels as the database stores them: keyed by kernel name, template-source hash,
// compile options, arch and NVRTC version, so that a changed template or compiler never serves
// an old cubin.
#pragma once

#include <optional>
#include <string>

#include "cache_records.hpp"
#include "kernel_config.hpp"
#include "nvrtc_compiler.hpp"

namespace gemmtune {

// The key of `config` compiled for `arch` by this build (its name, its family's source texts,
// the options, NVRTC).
cache::BinaryKey binary_key(const KernelConfig& config, const std::string& arch);
// The same for a configuration known by its name; throws std::invalid_argument for a name that
// does not parse.
cache::BinaryKey binary_key(const std::string& kernel_name, const std::string& arch);
cache::Binary to_binary(const CompiledKernel& compiled);
CompiledKernel from_binary(const cache::Binary& binary);

// What a compile gave, for the compile_outcomes table: ptxas's figures of `compiled`, taking
// `seconds` (nullopt: not known, e.g. read back from a stored cubin).
cache::CompileOutcomeRecord compiled_outcome(const CompiledKernel& compiled, std::optional<double> seconds);
// A compile of `config` for `arch` that failed with `error`.
cache::CompileOutcomeRecord failed_outcome(const KernelConfig& config, const std::string& arch,
                                           const std::string& error, double seconds);

}  // namespace gemmtune
