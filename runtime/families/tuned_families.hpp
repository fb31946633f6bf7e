// The tuned workhorse families beyond the seed chapter (kernel_templates/warptile.cuh, tf32x3.cuh, wgmma.cuh, tmawgmma.cuh, skinny.cuh).
#pragma once

#include <vector>

#include "kernel_family.hpp"

namespace gemmtune {

std::vector<const KernelFamily*> tuned_families();

// One function a family, each in its own file.
const KernelFamily& warptile_family();
const KernelFamily& tf32x3_family();
const KernelFamily& wgmma_family();
const KernelFamily& tmawgmma_family();
const KernelFamily& tmatf32_family();
const KernelFamily& skinny_family();

}  // namespace gemmtune
