// A problem as the database stores it (cache::Problem: the layout as text, 64-bit sizes) and
// back: the one place where the problem type and the database's rows meet.
#pragma once

#include <optional>

#include "cache_records.hpp"
#include "problem.hpp"

namespace gemmtune {

cache::Problem to_row(const Problem& problem);

// The row's problem, or nullopt for a row this build cannot represent (a layout it does not
// know, a size beyond the limits): such a row can serve no call and seed no search.
std::optional<Problem> from_row(const cache::Problem& row);

}  // namespace gemmtune
