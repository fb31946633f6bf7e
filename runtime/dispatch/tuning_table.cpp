#include "tuning_table.hpp"

#include <stdexcept>

#include "kernel_name.hpp"
#include "problem_rows.hpp"

namespace gemmtune::dispatch {
namespace {

TunedProblem make_tuned_problem(const Problem& problem, const cache::Winner& winner) {
  TunedProblem tuned{problem, winner, std::nullopt, {}};
  try {
    KernelConfig config = parse_kernel_name(winner.kernel_name);
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
  for (const cache::WinnerEntry& entry : winners) {
    if (entry.gpu != gpu) continue;
    if (const std::optional<Problem> problem = from_row(entry.problem)) {
      by_layout_[static_cast<std::size_t>(problem->layout)].push_back(make_tuned_problem(*problem, entry.winner));
    }
  }
}

std::size_t TuningTable::size() const {
  std::size_t count = 0;
  for (const auto& problems : by_layout_) count += problems.size();
  return count;
}

std::string describe_gpu(const cache::GpuKey& gpu) {
  return gpu.name + " (sm_" + std::to_string(gpu.cc_major * 10 + gpu.cc_minor) + ", " +
         std::to_string(gpu.sm_count) + " SMs)";
}

}  // namespace gemmtune::dispatch
