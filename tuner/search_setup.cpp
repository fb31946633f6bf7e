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

std::vector<const KernelFamily*> selected_families(const std::vector<std::string>& names, Precision precision,
                                                   const std::string& arch) {
  auto runs_here = [&](const KernelFamily& family) { return arch.empty() || family.compile_arch(arch).has_value(); };
  std::vector<const KernelFamily*> families;
  if (names.empty()) {
    for (const KernelFamily* family : all_families()) {
      if (family->tuned_by_default() && runs_here(*family) && admits(precision, family->precision())) {
        families.push_back(family);
      }
    }
  } else {
    require_families_run_on(names, arch);
    require_families_admitted(names, precision);
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

void require_families_admitted(const std::vector<std::string>& family_names, Precision precision) {
  for (const std::string& name : family_names) {
    const Precision own = find_family(name).precision();
    if (!admits(precision, own)) {
      throw InputError("kernel family '" + name + "' is of the " + std::string(precision_name(own)) +
                       " class, which --precision " + std::string(precision_name(precision)) +
                       " does not admit (--precision " + std::string(precision_name(own)) + " does)");
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
                                          const std::vector<std::string>& family_names, Precision precision,
                                          int sm_count, const std::string& arch) {
  std::vector<KernelConfig> space;
  for (const KernelFamily* family : selected_families(family_names, precision, arch)) {
    if (!family->supports_layout(problem.layout)) continue;
    for (int align : family->alignments()) {
      if (align > alignment) continue;
      for (KernelConfig& config : enumerate_space(*family, problem.layout, align)) {
        // A batched problem is measured strided (OperandSets): configurations that cannot serve it are
        // not candidates.
        if (problem.batch > 1 && family->batch_refusal(config, false)) continue;
        if (sm_count == 0 || family->worth_searching(config, problem, sm_count)) {
          space.push_back(std::move(config));
        }
      }
      break;
    }
  }
  return space;
}

namespace {

// A neighbour's winner at this problem's alignment `align`. Where its family then refuses it
// because of a value only narrower alignments take (warptile's COPY 2 serves misaligned calls),
// the seed is its twin with that parameter at its default (COPY 1), if one of the parameters added
// after names were stored makes it legal; otherwise the refused configuration is returned as it
// is, and the strategy skips it as a seed outside the space.
KernelConfig at_alignment(KernelConfig config, int align) {
  config.align = align;
  const KernelFamily& family = find_family(config.family);
  if (!family.check(config)) return config;
  for (const ParamSpec& spec : family.params()) {
    if (!spec.named_off_default_only || config.get(spec.name) == spec.default_value) continue;
    KernelConfig twin = config;
    twin.set(spec.name, spec.default_value);
    if (!family.check(twin)) return twin;
  }
  return config;
}

}  // namespace

WarmStart warm_start(const cache::Database& db, const cache::GpuKey& gpu, const Problem& problem, int alignment,
                     Precision precision) {
  // Each admitted winner of another tuned problem of the layout (one a class it was tuned for).
  struct Nearby {
    double distance;
    Problem problem;
    KernelConfig config;
  };
  std::vector<Nearby> nearby;
  for (const cache::WinnerEntry& entry : db.all_winners(gpu.name)) {
    if (entry.gpu != gpu) continue;
    const std::optional<Problem> other = from_row(entry.problem);
    if (!other || other->layout != problem.layout || *other == problem) continue;
    try {
      KernelConfig config = parse_kernel_name(entry.winner.kernel_name);
      const KernelFamily& family = find_family(config.family);
      if (!admits(precision, family.precision())) continue;
      for (int align : family.alignments()) {  // the widest the problem allows
        if (align <= alignment) {
          config = at_alignment(config, align);
          break;
        }
      }
      nearby.push_back({log_distance(problem, *other), *other, config});
    } catch (const std::exception&) {
      // a winner from a family this build no longer has: no seed
    }
  }
  std::stable_sort(nearby.begin(), nearby.end(),
                   [](const Nearby& a, const Nearby& b) { return a.distance < b.distance; });
  WarmStart warm;
  std::vector<Problem> neighbours;
  std::set<std::string> seen;
  for (const Nearby& near : nearby) {
    const bool new_neighbour = std::find(neighbours.begin(), neighbours.end(), near.problem) == neighbours.end();
    if (new_neighbour && neighbours.size() == WarmStart::kNeighbours) break;
    if (new_neighbour) neighbours.push_back(near.problem);
    warm.farthest = near.distance;
    // A problem's classes often share their winner: each kernel once.
    if (seen.insert(kernel_name(near.config)).second && warm.seeds.size() < WarmStart::kNeighbours) {
      warm.seeds.push_back(near.config);
      warm.distances.push_back(near.distance);
    }
  }
  warm.neighbours = neighbours.size();
  warm.kernels = seen.size();
  return warm;
}

bool WarmStart::neighbours_agree() const {
  return neighbours >= kAgreeing && kernels == 1 && farthest <= kAgreeWithin;
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
  std::set<std::string> in_space;
  for (const KernelConfig& config : space) in_space.insert(kernel_name(config));
  for (const KernelConfig& config : space) {
    if (!families.insert(config.family).second) continue;
    const KernelFamily& family = find_family(config.family);
    defaults.push_back(family.default_config(config.layout, config.align));
    // The family's shape defaults and seeds, where this problem's space holds them (legal and
    // worth searching).
    std::vector<std::vector<std::pair<std::string, int>>> changes_list = family.shape_defaults();
    for (auto& seed : family.search_seeds()) changes_list.push_back(std::move(seed));
    for (const auto& changes : changes_list) {
      KernelConfig seed = family.default_config(config.layout, config.align);
      for (const auto& [param, value] : changes) seed.set(param, value);
      if (in_space.count(kernel_name(seed))) defaults.push_back(std::move(seed));
    }
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
