// What the search of one problem starts from: its candidate space, its seeds (warm start from
// the nearest tuned problems, then every family's default), and what the database already holds
// of it. Shared by `tune` and by replays of recorded measurements (tests/tuner), so that both
// search the same space from the same seeds. No GPU here.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "kernel_config.hpp"
#include "precision.hpp"
#include "problem.hpp"
#include "strategy.hpp"
#include "tuning_db.hpp"

namespace gemmtune::tuner {

// The alignment (in floats) of a problem's operands with minimal leading dimensions in
// cudaMalloc'd buffers: what the tuner's own inputs allow, and so which variants it tunes.
int natural_alignment(const Problem& problem);

// Each family's configurations at the widest alignment it has within `alignment` (a narrower
// variant of the same tiles is never faster on aligned data), less those the family says cannot
// compete on this problem. `family_names` empty: every family tuned by default whose class
// `precision` admits. sm_count 0: keep them all (a dry run compiles everything). Families that
// cannot run on `arch` ("sm_90"; empty: any) are left out when chosen by default; one named in
// `family_names` is an error (InputError), as the user asked for something this GPU cannot do,
// and so is one whose class `precision` does not admit.
// Throws InputError ("kernel family 'wgmma' does not run on sm_80 GPUs") for a named family that
// cannot run on `arch`, std::invalid_argument for a name no family has.
void require_families_run_on(const std::vector<std::string>& family_names, const std::string& arch);
// Throws InputError ("kernel family 'tmatf32' is of the tf32 class, which --precision fp32 does
// not admit") for a named family whose class `precision` does not admit.
void require_families_admitted(const std::vector<std::string>& family_names, Precision precision);

// The configurations the search may propose for `problem`: of the families selected, those that
// serve its layout at the widest alignment up to `alignment`, serve its batch (a batched problem:
// batch_refusal), and are worth searching on `sm_count` SMs (0: all).
std::vector<KernelConfig> candidate_space(const Problem& problem, int alignment,
                                          const std::vector<std::string>& family_names, Precision precision,
                                          int sm_count, const std::string& arch = "");

// Warm start: the winners (of any class) of the three nearest tuned problems of the same layout on
// this GPU whose kernel `precision` admits, each kernel once (a problem's classes often share
// their winner), moved to this problem's alignment where their family allows it.
struct WarmStart {
  std::vector<KernelConfig> seeds;
  std::vector<double> distances;  // log_distance of each seed's problem
  std::size_t neighbours = 0;     // tuned problems the seeds came from
  std::size_t kernels = 0;        // distinct winners among them (seeds holds kNeighbours at most)
  double farthest = 0;            // log_distance of the farthest of them
  // At least kAgreeing neighbours, all within kAgreeWithin, and every winner of theirs the same
  // configuration: the search around it needs less than the default budget (warm_budget).
  bool neighbours_agree() const;
  static constexpr std::size_t kNeighbours = 3;
  static constexpr std::size_t kAgreeing = 2;    // at least this many neighbours
  static constexpr double kAgreeWithin = 1.0;    // log2 distance: each side within 2x, or so
};
WarmStart warm_start(const cache::Database& db, const cache::GpuKey& gpu, const Problem& problem, int alignment,
                     Precision precision);

// The budget of a guided search whose neighbours' winners agree, when the user set none: a
// tenth of the space, between kWarmMin and kWarmMax candidates. The agreed winner is measured
// first and its neighbourhood next, so the smaller budget shortens the search around it (not yet
// measured against the full default on a GPU: bench/results/2026-12-02-tuning-cost.md says what
// to run). nullopt when the user gave a budget or the neighbours do not agree.
inline constexpr std::size_t kWarmMin = 20;
inline constexpr std::size_t kWarmMax = 60;
std::optional<Budget> warm_budget(const WarmStart& warm, const Budget& asked, std::size_t space_size);

// The default configuration of each family present in `space`, at the alignment the space has
// for that family, each followed by the family's search seeds that the space holds.
std::vector<KernelConfig> family_defaults(const std::vector<KernelConfig>& space);

// What the database already knows of this (GPU, problem): the best ok time of each kernel, or
// a failure.
std::map<std::string, CandidateResult> stored_results(const cache::Database& db, std::int64_t gpu_id,
                                                      std::int64_t problem_id);

}  // namespace gemmtune::tuner
