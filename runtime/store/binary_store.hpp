// Compiled kernels as the database stores them: keyed by kernel name, template-source hash,
// compile options, arch and NVRTC version, so that a changed template or compiler never serves
// an old cubin.
#pragma once

#include <string>

#include "cache_records.hpp"
#include "nvrtc_compiler.hpp"

namespace gemmtune {

// The key of `kernel_name` compiled for `arch` by this build (its family's source texts, options,
// NVRTC). Throws std::invalid_argument for a name that does not parse.
cache::BinaryKey binary_key(const std::string& kernel_name, const std::string& arch);
cache::Binary to_binary(const CompiledKernel& compiled);
CompiledKernel from_binary(const cache::Binary& binary);

}  // namespace gemmtune
