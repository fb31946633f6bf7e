// Which kernel serves a call: the exact tuned problem's winner, else the nearest tuned
// problem's, else a default. A pure function of the tuning table and the call (no CUDA, no
// database), so that every rule is tested on any machine.
#pragma once

#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "device.hpp"
#include "gemmtune/types.hpp"
#include "kernel_config.hpp"
#include "row_major_call.hpp"
#include "tuning_table.hpp"

namespace gemmtune::dispatch {

struct SelectionPolicy {
  bool prefer_cublas = false;  // RuntimeOptions::prefer_cublas
  Precision precision = Precision::Fp32;  // the class the call accepts
  // Whether the database holds `config`'s cubin for this device (then the first call loads it
  // instead of compiling); empty: none is stored.
  std::function<bool(const KernelConfig&)> has_cubin;
};

// How an untuned call is served (rules 2 and 3): the winners of the kNearestRanked nearest tuned
// problems and the families' defaults are ranked by the cost model for the call's own shape.
// Contenders whose block tiles fill less than kMinFillShare of what the best-fitting one fills
// are left out (a 256x64 tile for a 64x64 call); a measured winner is taken unless a default is
// faster by the model than kWinnerMargin of it (the winner's measurement on a neighbour is real
// evidence, the model's placing of families is rough); and a contender whose cubin is stored
// is preferred within kStoredMargin of the pick (a first call then loads instead of compiling:
// 591 ms for a wgmma tile).
inline constexpr std::size_t kNearestRanked = 3;
inline constexpr double kMinFillShare = 0.5;
inline constexpr double kWinnerMargin = 1.15;
inline constexpr double kStoredMargin = 1.10;
inline constexpr std::size_t kRankingShown = 3;  // the model's first, named in the note (and the winners)

struct Choice {
  Selection selection;
  std::optional<KernelConfig> config;  // what to launch; nullopt: cuBLAS
};

// The rules, in order (docs/api.md), over the winners tuned for a class policy.precision admits
// (of one problem, the most permissive class's first):
// 1. the winner of the tuned problem with the call's layout, M, N and K;
// 2. else the best by the cost model of the winners of the nearest tuned problems of the same
//    layout (log_distance; ties: the smaller problem; layouts are never crossed) and
// 3. the default configurations of the families tuned by default whose class the policy
//    admits (single-pass TF32, tmatf32, only for a Tf32 call), as the constants above say; the
//    note names the ranking and why the pick.
// A winner whose kernel's class (its family's, in this build) the policy does not admit is
// skipped whatever the database says, so a Strict call never gets a tensor-core kernel.
// A winner is taken at its own alignment or, when the call's pointers and leading dimensions
// allow less, at the widest narrower alignment its family offers; never wider than it was
// measured. A tuned winner that cannot serve the call (can_implement refuses it) is skipped
// and the note says why. With prefer_cublas, a tuned problem whose recorded cuBLAS time beats
// its winner's selects cuBLAS. Throws DispatchError(NotSupported) when no kernel can serve.
// `device` is the GPU the kernel is to run on (launch shapes may depend on it).
Choice select_kernel(const TuningTable& table, const RowMajorCall& call, const DeviceTraits& device,
                     const SelectionPolicy& policy);

// Every configuration select_kernel can return with `table` on a GPU of `arch` ("sm_90"),
// whatever the call and its class: each usable winner at its own alignment and each narrower
// one its family offers, and the default configurations of every family rule 3 may rank, of
// every layout, at every alignment. Sorted by name, each once: what an ahead-of-time export must
// hold to serve every call without compiling.
std::vector<KernelConfig> selectable_configs(const TuningTable& table, const std::string& arch);

}  // namespace gemmtune::dispatch
