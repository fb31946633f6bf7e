// The kernel families this program knows: the built-in ones, in a fixed order, and any that a
// program registers at start-up. Names, the tuner's search space and gemmbench's rows all come
// from this list.
#pragma once

#include <string_view>
#include <vector>

#include "kernel_family.hpp"

namespace gemmtune {

// Every family, in the order of the seed chapter, then the tuned families, then any registered.
const std::vector<const KernelFamily*>& all_families();
// Adds `family` (which must live as long as the program) to all_families(), for a program that
// carries a family of its own, such as the tests' deliberately faulty one. Call it at start-up,
// before any family is looked up from another thread or a worker process is forked (the workers
// inherit the registry). Throws std::invalid_argument for a name that is taken or is not
// lower-case letters and digits.
void register_family(const KernelFamily& family);
// The family of that name; throws std::invalid_argument listing the known ones.
const KernelFamily& find_family(std::string_view name);
// The family of that name, or null.
const KernelFamily* find_family_or_null(std::string_view name);

}  // namespace gemmtune
