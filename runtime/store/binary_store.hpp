// Compiled kernels as the database stores them: keyed by kernel name, template-source hash,
// compile options, arch and NVRTC version, so that a changed template or compiler never serves
// an old cubin.
#pragma once

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

}  // namespace gemmtune
