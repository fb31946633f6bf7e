#include "search_setup.hpp"

#include <algorithm>
#include <set>
#include <stdexcept>

#include "error.hpp"
#include "family_registry.hpp"
#include "kernel_name.hpp"
#include "problem_rows.hpp"
#include "search_space.hpp"

namespace gemmtune::tuner {
namespace {

std::vector<const KernelFamily*> selected_families(const std::vector<std::string>& names, const std::string& arch) {
  auto runs_here = [&](const KernelFamily& family) { return arch.empty() || family.compile_arch(arch).has_value(); };
  std::vector<const KernelFamily*> families;
  if (names.empty()) {
    for (const KernelFamily* family : all_families()) {
      if (family->tuned_by_default() && runs_here(*family)) families.push_back(family);
    }
  } else {
    require_families_run_on(names, arch);
    for (const std::string& name : names) families.push_back(&find_family(name));
  }
  return families;
}

}  // namespace

void require_families_run_on(const std::vector<std::string>& family_names, const std::string& arch) {
  if (arch.empty()) return;
  for (const std::string& name : family_names) {
    if (!find_family(name).compile_arch(arch)) {
      throw InputError("kernel family '" + name + "' does not run on " + arch + " GPUs");
    }
  }
}

int natural_alignment(const Problem& problem) {
  const long long lda = a_is_transposed(problem.layout) ? problem.M : problem.K;
  const long long ldb = b_is_transposed(problem.layout) ? problem.K : problem.N;
  for (int align : {4, 2}) {
    if (lda % align == 0 && ldb % align == 0 && problem.N % align == 0) return align;
  }
  return 1;
}

std::vector<KernelConfig> candidate_space(const Problem& problem, int alignment,
                                          const std::vector<std::string>& family_names, int sm_count,
                                          const std::string& arch) {
  std::vector<KernelConfig> space;
  for (const KernelFamily* family : selected_families(family_names, arch)) {
    if (!family->supports_layout(problem.layout)) continue;
    for (int align : family->alignments()) {
      if (align > alignment) continue;
      for (KernelConfig& config : enumerate_space(*family, problem.layout, align)) {
        if (sm_count == 0 || family->worth_searching(config, problem, sm_count)) {
          space.push_back(std::move(config));
        }
      }
      break;
    }
  }
  return space;
}

WarmStart warm_start(const cache::Database& db, const cache::GpuKey& gpu, const Problem& problem, int alignment) {
  std::vector<std::pair<double, KernelConfig>> nearby;
  for (const cache::WinnerEntry& entry : db.all_winners(gpu.name)) {
    if (entry.gpu != gpu) continue;
    const std::optional<Problem> other = from_row(entry.problem);
    if (!other || other->layout != problem.layout || *other == problem) continue;
    try {
      KernelConfig config = parse_kernel_name(entry.winner.kernel_name);
      const std::vector<int> aligns = find_family(config.family).alignments();
      for (int align : aligns) {
        if (align <= alignment) {
          config.align = align;
          break;
        }
      }
      nearby.emplace_back(log_distance(problem, *other), config);
    } catch (const std::exception&) {
      // a winner from a family this build no longer has: no seed
    }
  }
  std::sort(nearby.begin(), nearby.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  WarmStart warm;
  for (std::size_t i = 0; i < nearby.size() && i < 3; ++i) {
    warm.distances.push_back(nearby[i].first);
    warm.seeds.push_back(nearby[i].second);
  }
  return warm;
}

bool WarmStart::neighbours_agree() const {
  if (seeds.size() < kAgreeing) return false;
  for (std::size_t i = 0; i < seeds.size(); ++i) {
    if (distances[i] > kAgreeWithin || !(seeds[i] == seeds.front())) return false;
  }
  return true;
}

std::optional<Budget> warm_budget(const WarmStart& warm, const Budget& asked, std::size_t space_size) {
  if (asked.max_candidates || asked.max_seconds || !warm.neighbours_agree()) return std::nullopt;
  Budget budget;
  budget.max_candidates = std::clamp<std::size_t>(space_size / 10, kWarmMin, kWarmMax);
  return budget;
}

std::vector<KernelConfig> family_defaults(const std::vector<KernelConfig>& space) {
  std::vector<KernelConfig> defaults;
  std::set<std::string> families;
  for (const KernelConfig& config : space) {
    if (!families.insert(config.family).second) continue;
    defaults.push_back(find_family(config.family).default_config(config.layout, config.align));
  }
  return defaults;
}

std::map<std::string, CandidateResult> stored_results(const cache::Database& db, std::int64_t gpu_id,
                                                      std::int64_t problem_id) {
  std::map<std::string, CandidateResult> results;
  for (const cache::MeasurementRow& row : db.measurements_for(gpu_id, problem_id)) {
    CandidateResult result = row.timing ? CandidateResult::measured(row.timing->median_ms) : CandidateResult::failed();
    auto [it, inserted] = results.emplace(row.kernel_name, result);
    if (!inserted && result.ok && (!it->second.ok || result.ms < it->second.ms)) it->second = result;
  }
  return results;
}

}  // namespace gemmtune::tuner
