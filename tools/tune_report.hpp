// tune's final report, in the format --format asks for: a Markdown table with a heading and a
// summary line (for people and bench/results/), CSV (one row a problem, plain numbers) or JSON
// (the run and its problems, plain numbers), for scripts that read a run's results.
#pragma once

#include <ostream>

#include "result_format.hpp"
#include "tuning_run.hpp"

namespace gemmtune {

void write_tune_report(std::ostream& out, const tuner::RunReport& run, const tuner::TuneOptions& options,
                       ResultFormat format);

}  // namespace gemmtune
