// The host side of faulty.cuh, a kernel family that fails on purpose (see there). Only test
// programs link it; they make it known with register_family(faulty_family()) before anything
// else, so that tune's compile workers and measuring process (forks) know it too.
#pragma once

#include <span>

#include "family_registry.hpp"
#include "kernel_sources.hpp"

namespace gemmtune::testing {

// What MODE selects.
enum class FaultMode : int { IllegalAddress = 1, Trap = 2, EndlessLoop = 3, WrongResult = 4, Correct = 5 };

const KernelFamily& faulty_family();

// faulty.cuh, embedded at build time (tests/reliability/CMakeLists.txt).
std::span<const EmbeddedFile> faulty_kernel_files();

}  // namespace gemmtune::testing
