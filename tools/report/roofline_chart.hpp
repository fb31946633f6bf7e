// The roofline of one GPU: attainable TFLOPS against arithmetic intensity on log-log axes,
// the memory and compute ceilings, and each problem's winner (labelled) and cuBLAS on it.
#pragma once

#include <string>
#include <vector>

#include "cache_records.hpp"
#include "gpu_ceilings.hpp"

namespace gemmtune::report {

// The short label of a point: "4096³" for a cube, "16x4096x4096", and the layout only when
// it is not nn ("tn:4096³"): the full names of close points would cover each other.
std::string roofline_label(const cache::Problem& problem);

// Intensity where the two ceilings meet: peak / bandwidth, in FLOPs per byte.
double ridge_intensity(const Ceilings& ceilings);

// Problems without a winner, and times that are not positive, are left out (a log axis
// cannot place them); the axes widen to whole decades over everything that is drawn.
std::string roofline_chart_svg(const std::vector<cache::ProblemSummary>& problems,
                               const Ceilings& ceilings);

}  // namespace gemmtune::report
