#include "select_kernel.hpp"

#include <algorithm>
#include <cstdio>
#include <map>
#include <string>
#include <vector>

#include "can_implement.hpp"
#include "dispatch_error.hpp"
#include "family_registry.hpp"
#include "gemm_call.hpp"
#include "kernel_name.hpp"

namespace gemmtune::dispatch {
namespace {

ProblemShape shape_of(const Problem& problem) {
  return {std::string(layout_name(problem.layout)), problem.M, problem.N, problem.K};
}

// `config` at its own alignment or the widest narrower one its family takes, whichever first
// can serve the call; else nullopt with the refusal at its own alignment in `why_not`.
std::optional<KernelConfig> serving_variant(const KernelConfig& config, const GemmParams& params,
                                            const DeviceTraits& device, std::string& why_not) {
  for (int align : find_family(config.family).alignments()) {  // largest first
    if (align > config.align) continue;
    KernelConfig variant = config;
    variant.align = align;
    const std::optional<std::string> refusal = can_implement(variant, params, device);
    if (!refusal) return variant;
    if (why_not.empty()) why_not = *refusal;
  }
  return std::nullopt;
}

// A selection's notes, joined with "; ". Only the first few skipped winners are named: a table
// of many unusable winners must not make every selection a page long.
class Notes {
 public:
  void add(std::string note) { notes_.push_back(std::move(note)); }
  void add_skipped(std::string note) {
    if (skipped_shown_ == kSkippedShown) {
      ++skipped_hidden_;
      return;
    }
    ++skipped_shown_;
    add(std::move(note));
  }
  std::string joined() const {
    std::string text;
    for (const std::string& note : notes_) text += (text.empty() ? "" : "; ") + note;
    if (skipped_hidden_ > 0) text += "; " + std::to_string(skipped_hidden_) + " more winners skipped";
    return text;
  }

 private:
  static constexpr std::size_t kSkippedShown = 3;
  std::vector<std::string> notes_;
  std::size_t skipped_shown_ = 0;
  std::size_t skipped_hidden_ = 0;
};

std::string milliseconds(double ms) {
  char text[32];
  std::snprintf(text, sizeof text, "%.4g ms", ms);
  return text;
}

bool cublas_was_faster(const cache::Winner& winner) {
  return winner.cublas_ms.has_value() && *winner.cublas_ms < winner.median_ms;
}

// Rule 3's families, in the order tried (FFMA: every class admits them).
constexpr const char* kDefaultFamilies[] = {"vectorized", "reg2d"};

// Rule 3: the default configurations, at the widest alignment the call allows.
Choice default_choice(const RowMajorCall& call, const DeviceTraits& device, Selection selection, Notes& notes) {
  for (const char* family_name : kDefaultFamilies) {
    const KernelFamily& family = find_family(family_name);
    std::string why_not;
    const KernelConfig widest = family.default_config(call.layout, family.alignments().front());
    if (std::optional<KernelConfig> variant = serving_variant(widest, call.params, device, why_not)) {
      selection.kernel = kernel_name(*variant);
      selection.note = notes.joined();
      return {std::move(selection), std::move(variant)};
    }
    notes.add(why_not);
  }
  throw DispatchError(Status::NotSupported, "no kernel can serve " + to_string(selection.problem) + ": " +
                                                notes.joined());
}

}  // namespace

Choice select_kernel(const TuningTable& table, const RowMajorCall& call, const DeviceTraits& device,
                     const SelectionPolicy& policy) {
  const Problem problem{call.layout, call.params.M, call.params.N, call.params.K};
  Selection selection;
  selection.problem = shape_of(problem);
  selection.call_align = call_alignment(call.params);
  selection.requested = policy.precision;
  selection.precision = Precision::Strict;  // the defaults'; a winner's class below

  // Rules 1 and 2 in one pass: the exact problem is at distance 0, so it ranks first; of one
  // problem, the winner of the most permissive class tuned for (its search had the most kernels).
  std::vector<std::pair<double, const TunedProblem*>> ranked;
  for (const TunedProblem& tuned : table.of_layout(call.layout)) {
    if (admits(policy.precision, tuned.tuned_for)) ranked.emplace_back(log_distance(problem, tuned.problem), &tuned);
  }
  std::sort(ranked.begin(), ranked.end(), [](const auto& a, const auto& b) {
    if (a.first != b.first) return a.first < b.first;
    if (a.second->problem != b.second->problem) return a.second->problem < b.second->problem;
    return a.second->tuned_for > b.second->tuned_for;
  });

  Notes notes;
  for (const auto& [distance, tuned] : ranked) {
    const std::string where = to_string(tuned->problem) + " (" + std::string(precision_name(tuned->tuned_for)) + ")";
    if (!tuned->config) {
      notes.add_skipped("the winner of " + where + " is unusable: " + tuned->unusable);
      continue;
    }
    if (!admits(policy.precision, tuned->kernel_precision)) {
      notes.add_skipped("the winner of " + where + " is a " + std::string(precision_name(tuned->kernel_precision)) +
                        " kernel, which " + std::string(precision_name(policy.precision)) + " does not admit");
      continue;
    }
    std::string why_not;
    std::optional<KernelConfig> variant = serving_variant(*tuned->config, call.params, device, why_not);
    if (!variant) {
      notes.add_skipped("the winner of " + where + " cannot serve this call: " + why_not);
      continue;
    }
    selection.reason = distance == 0.0 ? Reason::Measured : Reason::Nearest;
    selection.tuned_problem = shape_of(tuned->problem);
    selection.distance = distance;
    if (policy.prefer_cublas && cublas_was_faster(tuned->winner)) {
      notes.add("cuBLAS was measured faster on " + where + ": " + milliseconds(*tuned->winner.cublas_ms) +
                " against " + milliseconds(tuned->winner.median_ms) + " for " + tuned->winner.kernel_name);
      selection.backend = Backend::Cublas;
      selection.kernel = "cublas";
      // As the tuner timed it: FAST_TF32 for a tf32 winner, pedantic FP32 otherwise.
      selection.precision = tuned->tuned_for == Precision::Tf32 ? Precision::Tf32 : Precision::Strict;
      variant.reset();
    } else {
      selection.precision = tuned->kernel_precision;
      if (variant->align != tuned->config->align) {
        notes.add("the winner of " + where + " was tuned with align" + std::to_string(tuned->config->align) +
                  "; this call allows align" + std::to_string(selection.call_align));
      }
      selection.kernel = kernel_name(*variant);
    }
    selection.note = notes.joined();
    return {std::move(selection), std::move(variant)};
  }

  if (ranked.empty()) {
    notes.add("no tuned " + selection.problem.layout + " problem for this GPU in a class " +
              std::string(precision_name(policy.precision)) + " admits");
  }
  return default_choice(call, device, std::move(selection), notes);
}

std::vector<KernelConfig> selectable_configs(const TuningTable& table) {
  std::map<std::string, KernelConfig> configs;
  // A configuration and each narrower alignment of it that its family offers (serving_variant's
  // candidates).
  auto add_with_narrower = [&configs](const KernelConfig& config) {
    for (int align : find_family(config.family).alignments()) {
      if (align > config.align) continue;
      KernelConfig variant = config;
      variant.align = align;
      configs.emplace(kernel_name(variant), variant);
    }
  };
  for (Layout layout : {Layout::NN, Layout::NT, Layout::TN, Layout::TT}) {
    for (const TunedProblem& tuned : table.of_layout(layout)) {
      if (tuned.config) add_with_narrower(*tuned.config);
    }
    for (const char* family_name : kDefaultFamilies) {
      const KernelFamily& family = find_family(family_name);
      add_with_narrower(family.default_config(layout, family.alignments().front()));
    }
  }
  std::vector<KernelConfig> all;
  for (auto& [name, config] : configs) all.push_back(std::move(config));
  return all;
}

}  // namespace gemmtune::dispatch
