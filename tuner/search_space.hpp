// The candidate configurations of a search: the cartesian product of each family's search values,
// less what the family's legality check (the mirror of its template's static_asserts) refuses.
#pragma once

#include <string>
#include <vector>

#include "family_registry.hpp"
#include "kernel_config.hpp"

namespace gemmtune::tuner {

// Every legal configuration of `family` for one layout and alignment, in lexicographic order of
// the family's parameters (the first parameter varies slowest). Throws std::invalid_argument when
// the family does not take `align` at all (a caller bug, not an empty space).
std::vector<KernelConfig> enumerate_space(const KernelFamily& family, Layout layout, int align);

// enumerate_space for every alignment a family takes up to `max_align` (the alignment the call
// guarantees: a kernel needing less runs too), over the families named in `family_names` (all
// families, in all_families() order, when empty). Throws std::invalid_argument for an unknown name.
std::vector<KernelConfig> enumerate_all(Layout layout, int max_align,
                                        const std::vector<std::string>& family_names = {});

// The legal configurations one move away from `config`, for local search: one parameter changed
// to the nearest value of its search list, in each direction, that gives a legal configuration
// (so an illegal value in between does not wall off the rest of the list). Family, layout and
// alignment stay. Ordered by parameter, smaller value first.
std::vector<KernelConfig> neighbours(const KernelConfig& config);

}  // namespace gemmtune::tuner
