// Which kernel serves a call: the exact tuned problem's winner, else the nearest tuned
// problem's, else a default. A pure function of the tuning table and the call (no CUDA, no
// database), so that every rule is tested on any machine.
#pragma once

#include <optional>
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
};

struct Choice {
  Selection selection;
  std::optional<KernelConfig> config;  // what to launch; nullopt: cuBLAS
};

// The rules, in order (docs/api.md), over the winners tuned for a class policy.precision admits
// (of one problem, the most permissive class's first):
// 1. the winner of the tuned problem with the call's layout, M, N and K;
// 2. else the winner of the nearest tuned problem of the same layout (log_distance;
//    ties: the smaller problem), layouts are never crossed;
// 3. else the vectorized family's default configuration, else reg2d's (both strict).
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

// Every configuration select_kernel can return with `table`, whatever the call: each usable
// winner at its own alignment and each narrower one its family offers, and the default
// configurations of every layout at every alignment. Sorted by name, each once: what an
// ahead-of-time export must hold to serve every call without compiling.
std::vector<KernelConfig> selectable_configs(const TuningTable& table);

}  // namespace gemmtune::dispatch
