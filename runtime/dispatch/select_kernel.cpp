#include "select_kernel.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <string>
#include <vector>

#include "can_implement.hpp"
#include "cost_model.hpp"
#include "dispatch_error.hpp"
#include "family_registry.hpp"
#include "gemm_call.hpp"
#include "kernel_name.hpp"

namespace gemmtune::dispatch {
namespace {

ProblemShape shape_of(const Problem& problem) {
  return {std::string(layout_name(problem.layout)), problem.M, problem.N, problem.K, problem.batch};
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

// "1024x1024x1024 (fp32)": a tuned problem and the class its winner won for.
std::string where_of(const TunedProblem& tuned) {
  return to_string(tuned.problem) + " (" + std::string(precision_name(tuned.tuned_for)) + ")";
}

// With prefer_cublas, a tuned problem that recorded cuBLAS faster than its winner selects cuBLAS,
// in the compute type the tuner timed it with: FAST_TF32 for a tf32 winner, pedantic FP32 otherwise.
bool cublas_instead(const SelectionPolicy& policy, const TunedProblem& tuned, Selection& selection, Notes& notes) {
  if (!policy.prefer_cublas || !cublas_was_faster(tuned.winner)) return false;
  notes.add("cuBLAS was measured faster on " + where_of(tuned) + ": " + milliseconds(*tuned.winner.cublas_ms) +
            " against " + milliseconds(tuned.winner.median_ms) + " for " + tuned.winner.kernel_name);
  selection.backend = Backend::Cublas;
  selection.kernel = "cublas";
  selection.precision = tuned.tuned_for == Precision::Tf32 ? Precision::Tf32 : Precision::Strict;
  selection.note = notes.joined();
  return true;
}

// A winner taken at a narrower alignment than it was tuned with says so.
void note_narrowed(const TunedProblem& tuned, const KernelConfig& variant, const Selection& selection, Notes& notes) {
  if (variant.align == tuned.config->align) return;
  notes.add("the winner of " + where_of(tuned) + " was tuned with align" + std::to_string(tuned.config->align) +
            "; this call allows align" + std::to_string(selection.call_align));
}

// A kernel that could serve an untuned call, and what the cost model says of it there.
struct Contender {
  KernelConfig config;
  const TunedProblem* tuned = nullptr;  // the tuned problem it won, or null for a family default
  double distance = 0;
  double estimated_ms = 0;
  double tile_fill = 0;
  bool stored = false;
};

// The share of the block tiles' area that is the problem's: 1 when the tiles divide M and N,
// small for a tile far larger than the problem.
double tile_fill(const KernelConfig& config, const Problem& problem) {
  const CostTraits traits = find_family(config.family).cost_traits(config);
  const auto covered = [](long long size, long long tile) { return (size + tile - 1) / tile * tile; };
  return static_cast<double>(problem.M) / covered(problem.M, traits.bm) * static_cast<double>(problem.N) /
         covered(problem.N, traits.bn);
}

// The families whose default an untuned call of `layout` on a GPU of `arch` may be ranked
// against, of every class: those tuned by default that serve the layout and compile there.
// select_kernel keeps the ones the call's class admits; selectable_configs takes them all.
std::vector<const KernelFamily*> default_families(Layout layout, const std::string& arch) {
  std::vector<const KernelFamily*> families;
  for (const KernelFamily* family : all_families()) {
    if (family->tuned_by_default() && family->supports_layout(layout) && family->compile_arch(arch)) {
      families.push_back(family);
    }
  }
  return families;
}

// The defaults an untuned call may get: of the families above, those whose class the call
// admits (so single-pass TF32 serves only a caller who asked for Tf32, and a Strict call only
// FFMA kernels), each default and, where worth searching for the call's shape, each shape
// default (KernelFamily::default_configs), at the widest alignment the call allows. A default
// that would serve the call from staged copies of A and B (operand_staging: TMA on a misaligned
// call) is left out: it would claim a workspace the size of A and B for a call nobody tuned, and
// the cost model prices the copies only as traffic, an estimate no untuned call has checked.
std::vector<KernelConfig> default_contenders(const RowMajorCall& call, const DeviceTraits& device,
                                             const SelectionPolicy& policy, Notes& notes) {
  const Problem problem = problem_of(call.params, call.layout);
  std::vector<KernelConfig> defaults;
  for (const KernelFamily* family : default_families(call.layout, "sm_" + std::to_string(device.arch))) {
    if (!admits(policy.precision, family->precision())) continue;
    bool staging_noted = false;
    const std::vector<KernelConfig> configs = family->default_configs(call.layout, family->alignments().front());
    for (const KernelConfig& widest : configs) {
      // A shape default serves its kind of shape only, where the tuner would measure it (tmawgmma's
      // split of K in 128 on K = 29 would be 127 empty slices).
      const bool shape_default = &widest != &configs.front();
      if (shape_default && !family->worth_searching(widest, problem, device.sm_count)) continue;
      std::string why_not;
      std::optional<KernelConfig> variant = serving_variant(widest, call.params, device, why_not);
      if (!variant) continue;
      if (family->operand_staging(*variant, problem, device)) {
        if (!staging_noted) {
          notes.add(std::string(family->name()) +
                    "'s defaults left out: they would stage copies of A and B for this call's alignment");
        }
        staging_noted = true;
        continue;
      }
      defaults.push_back(std::move(*variant));
    }
  }
  if (defaults.empty()) notes.add("no family default can serve this call");
  return defaults;
}

std::string describe_contender(const Contender& contender) {
  return kernel_name(contender.config) + " (" +
         (contender.tuned ? "won " + where_of(*contender.tuned) : std::string("default")) + ", " +
         milliseconds(contender.estimated_ms) + (contender.stored ? ", stored" : "") + ")";
}

// Rules 2 and 3: the nearest tuned problems' winners and the families' defaults, ranked by the
// cost model for the call's own shape (SelectionPolicy's constants say how).
Choice rank_untuned(const std::vector<const TunedProblem*>& nearest, const std::vector<double>& distances,
                    const RowMajorCall& call, const Problem& problem, const DeviceTraits& device,
                    const SelectionPolicy& policy, Selection selection, Notes& notes) {
  DeviceModel model;
  model.sm_count = device.sm_count > 0 ? device.sm_count : model.sm_count;
  model.arch = device.arch > 0 ? device.arch : model.arch;
  std::vector<Contender> contenders;
  for (std::size_t i = 0; i < nearest.size(); ++i) {
    std::string why_not;
    std::optional<KernelConfig> variant = serving_variant(*nearest[i]->config, call.params, device, why_not);
    if (variant) contenders.push_back({std::move(*variant), nearest[i], distances[i]});
  }
  for (KernelConfig& config : default_contenders(call, device, policy, notes)) {
    contenders.push_back({std::move(config)});
  }
  if (contenders.empty()) {
    throw DispatchError(Status::NotSupported, "no kernel can serve " + to_string(selection.problem) + ": " +
                                                  notes.joined());
  }
  double best_fill = 0;
  for (Contender& contender : contenders) {
    contender.estimated_ms = estimate_cost(contender.config, problem, model).ms;
    contender.tile_fill = tile_fill(contender.config, problem);
    contender.stored = policy.has_cubin && policy.has_cubin(contender.config);
    best_fill = std::max(best_fill, contender.tile_fill);
  }
  // Never a tile far larger than the problem: much less of it filled than the best fit offers.
  std::vector<const Contender*> kept;
  for (const Contender& contender : contenders) {
    if (contender.tile_fill >= kMinFillShare * best_fill && std::isfinite(contender.estimated_ms)) {
      kept.push_back(&contender);
    }
  }
  if (kept.empty()) kept.push_back(&contenders.front());  // the model knows none: the nearest evidence
  std::stable_sort(kept.begin(), kept.end(),
                   [](const Contender* a, const Contender* b) { return a->estimated_ms < b->estimated_ms; });
  // A measured winner stands unless a default is clearly faster by the model; among those close
  // to the pick, one whose cubin is stored is taken (no compile on the first call).
  const Contender* pick = kept.front();
  for (const Contender* contender : kept) {
    if (contender->tuned && contender->estimated_ms <= kWinnerMargin * pick->estimated_ms) {
      pick = contender;
      break;
    }
  }
  if (!pick->stored) {
    for (const Contender* contender : kept) {
      if (contender->stored && contender->estimated_ms <= kStoredMargin * pick->estimated_ms) {
        pick = contender;
        break;
      }
    }
  }
  // The model's first few, then the nearest winners and the pick where they rank lower.
  std::string ranking;
  for (std::size_t i = 0; i < kept.size(); ++i) {
    if (i >= kRankingShown && !kept[i]->tuned && kept[i] != pick) continue;
    ranking += (ranking.empty() ? "" : ", ") + std::to_string(i + 1) + ". " + describe_contender(*kept[i]);
  }
  const std::size_t left_out = contenders.size() - kept.size();
  notes.add("ranked by the cost model for " + to_string(selection.problem) + ": " + ranking +
            (left_out ? "; " + std::to_string(left_out) + " left out, their tiles far larger than the problem"
                      : std::string()));
  selection.reason = pick->tuned ? Reason::Nearest : Reason::Default;
  selection.precision = find_family(pick->config.family).precision();
  if (pick->tuned) {
    selection.tuned_problem = shape_of(pick->tuned->problem);
    selection.distance = pick->distance;
    if (cublas_instead(policy, *pick->tuned, selection, notes)) return {std::move(selection), std::nullopt};
    note_narrowed(*pick->tuned, pick->config, selection, notes);
  }
  notes.add("chose " + kernel_name(pick->config) + (pick->stored ? ", its cubin stored" : ""));
  selection.kernel = kernel_name(pick->config);
  selection.note = notes.joined();
  return {std::move(selection), pick->config};
}

}  // namespace

Choice select_kernel(const TuningTable& table, const RowMajorCall& call, const DeviceTraits& device,
                     const SelectionPolicy& policy) {
  const Problem problem = problem_of(call.params, call.layout);
  Selection selection;
  selection.problem = shape_of(problem);
  selection.call_align = call_alignment(call.params);
  selection.requested = policy.precision;
  selection.precision = Precision::Strict;  // the defaults'; a winner's class below

  // The exact problem is at distance 0, so it ranks first; of one problem, the winner of the
  // most permissive class tuned for (its search had the most kernels).
  std::vector<std::pair<double, const TunedProblem*>> ranked;
  for (const TunedProblem& tuned : table.of_layout(call.layout)) {
    if (admits(policy.precision, tuned.tuned_for)) ranked.emplace_back(log_distance(problem, tuned.problem), &tuned);
  }
  std::sort(ranked.begin(), ranked.end(), [](const auto& a, const auto& b) {
    if (a.first != b.first) return a.first < b.first;
    if (a.second->problem != b.second->problem) return a.second->problem < b.second->problem;
    return a.second->tuned_for > b.second->tuned_for;
  });

  // Rule 1: the exact problem's winner. Rules 2 and 3: the nearest usable winners, with the
  // families' defaults, ranked for this call.
  Notes notes;
  std::vector<const TunedProblem*> nearest;
  std::vector<double> distances;
  for (const auto& [distance, tuned] : ranked) {
    if (nearest.size() == kNearestRanked) break;
    const std::string where = where_of(*tuned);
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
    if (distance == 0.0) {
      selection.reason = Reason::Measured;
      selection.tuned_problem = shape_of(tuned->problem);
      if (cublas_instead(policy, *tuned, selection, notes)) return {std::move(selection), std::nullopt};
      selection.precision = tuned->kernel_precision;
      note_narrowed(*tuned, *variant, selection, notes);
      selection.kernel = kernel_name(*variant);
      selection.note = notes.joined();
      return {std::move(selection), std::move(variant)};
    }
    nearest.push_back(tuned);
    distances.push_back(distance);
  }
  if (ranked.empty()) {
    notes.add("no tuned " + selection.problem.layout + " problem for this GPU in a class " +
              std::string(precision_name(policy.precision)) + " admits");
  }
  return rank_untuned(nearest, distances, call, problem, device, policy, std::move(selection), notes);
}

std::vector<KernelConfig> selectable_configs(const TuningTable& table, const std::string& arch) {
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
    for (const KernelFamily* family : default_families(layout, arch)) {
      for (const KernelConfig& config : family->default_configs(layout, family->alignments().front())) {
        add_with_narrower(config);
      }
    }
  }
  std::vector<KernelConfig> all;
  for (auto& [name, config] : configs) all.push_back(std::move(config));
  return all;
}

}  // namespace gemmtune::dispatch
