// The seed chapter's six kernel families (kernel_templates/{naive,coalesced,smem,reg1d,reg2d,
// vectorized}.cuh): the teaching baseline and the first rows of the benchmark.
#pragma once

#include <vector>

#include "kernel_family.hpp"

namespace gemmtune {

std::vector<const KernelFamily*> seed_families();

}  // namespace gemmtune
