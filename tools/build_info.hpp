// Which build produced a result: the commit (from the build, or GEMMTUNE_COMMIT in the
// environment, which the GPU script sets where the checkout has no .git) and today's date.
#pragma once

#include <string>

namespace gemmtune {

std::string build_commit();
std::string utc_date_time();  // "2026-11-29 18:40 UTC"

}  // namespace gemmtune
