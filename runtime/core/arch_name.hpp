// The names users type for a GPU arch, mapped to the one key cubins are stored and looked up
// under: the arch a device reports ("sm_90" on an H200, DeviceInfo::arch()). "sm_90a" and
// "compute_90" are the same GPU to NVRTC's user; stored under "sm_90a" a dry run's cubins were
// never found by a run on the H200. A family that needs arch-specific instructions derives its
// target from the key (wgmma compiles "sm_90" as sm_90a: KernelFamily::compile_arch).
#pragma once

#include <string>
#include <string_view>

namespace gemmtune {

// "sm_90", "SM_90", "sm90", "sm_90a", "sm_100f", "compute_90", "9.0", "90" -> "sm_90" (or "sm_100").
// Throws std::invalid_argument saying which forms are accepted for anything else. Whether NVRTC
// can compile for the result is require_supported_arch's question.
std::string canonical_arch(std::string_view text);

}  // namespace gemmtune
