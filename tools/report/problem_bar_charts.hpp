// The two per-problem bar charts of a GPU: our winner's TFLOPS beside cuBLAS's, and the
// speed-up over cuBLAS. Horizontal bars, one row a problem, so that problem names read level.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "cache_records.hpp"

namespace gemmtune::report {

// cuBLAS's time over ours (above 1: ours is faster); nullopt without a cuBLAS time.
std::optional<double> speedup_over_cublas(const cache::Winner& winner);

// A row's problem, and the class its winner was tuned for unless it is fp32, the default class:
// "nn:4096x4096x4096", "nn:4096x4096x4096 (tf32)". A problem won in several classes has a row
// for each.
std::string problem_row_label(const cache::ProblemSummary& summary);

// Grouped bars: winner TFLOPS and cuBLAS TFLOPS per problem, values printed at the bar ends;
// "no winner" / "no cuBLAS time" written where a bar is missing.
std::string throughput_chart_svg(const std::vector<cache::ProblemSummary>& problems);

// One bar per problem from the 1.0 line (cuBLAS's speed) to the speed-up, green when faster,
// red when slower, the value printed beside it.
std::string speedup_chart_svg(const std::vector<cache::ProblemSummary>& problems);

}  // namespace gemmtune::report
