#include "tuning_table.hpp"

#include <set>
#include <stdexcept>

#include "family_registry.hpp"
#include "kernel_name.hpp"
#include "problem_rows.hpp"

namespace gemmtune::dispatch {
namespace {

TunedProblem make_tuned_problem(const Problem& problem, const cache::Winner& winner) {
  TunedProblem tuned;
  tuned.problem = problem;
  tuned.winner = winner;
  try {
    tuned.tuned_for = parse_precision(winner.precision);
    KernelConfig config = parse_kernel_name(winner.kernel_name);
    // The class comes from this build's family, not from the database: it is what the kernel does.
    tuned.kernel_precision = find_family(config.family).precision();
    if (config.layout != problem.layout) {
      tuned.unusable = winner.kernel_name + " is a " + std::string(layout_name(config.layout)) +
                       " kernel but won the " + to_string(problem) + " problem";
    } else {
      tuned.config = std::move(config);
    }
  } catch (const std::logic_error& error) {  // invalid_argument, out_of_range: a name it cannot read
    tuned.unusable = error.what();
  }
  return tuned;
}

}  // namespace

TuningTable::TuningTable(const std::vector<cache::WinnerEntry>& winners, const cache::GpuKey& gpu) {
  std::set<Problem> problems;
  for (const cache::WinnerEntry& entry : winners) {
    if (entry.gpu != gpu) continue;
    if (const std::optional<Problem> problem = from_row(entry.problem)) {
      by_layout_[static_cast<std::size_t>(problem->layout)].push_back(make_tuned_problem(*problem, entry.winner));
      problems.insert(*problem);
    }
  }
  problems_ = problems.size();
}

std::string describe_gpu(const cache::GpuKey& gpu) {
  return gpu.name + " (sm_" + std::to_string(gpu.cc_major * 10 + gpu.cc_minor) + ", " +
         std::to_string(gpu.sm_count) + " SMs)";
}

}  // namespace gemmtune::dispatch
