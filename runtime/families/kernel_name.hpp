// The one name of a configuration, used as database key, log tag and NVRTC program name, and
// its inverse: a pure function each way.
#pragma once

#include <string>
#include <string_view>

#include "kernel_config.hpp"

namespace gemmtune {

// "gemmtune_sgemm_<family>_<layout>_<param><value>..._align<n>", for instance
// "gemmtune_sgemm_reg2d_nn_bm128_bn128_bk8_tm8_tn8_align1". Pure: the same config, the same name.
std::string kernel_name(const KernelConfig& config);

// The inverse of kernel_name. Throws std::invalid_argument saying what is wrong for a name that
// is malformed, names an unknown family, or does not list exactly the family's parameters.
KernelConfig parse_kernel_name(std::string_view name);

}  // namespace gemmtune
