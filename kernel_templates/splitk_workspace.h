// Split-K's workspace and its rule on SPLITK, for the kernels (splitk.cuh) and the host
// (which sizes the workspace) alike: [counters, rounded up to 4][partials: SPLITK x M x N] floats.
// Counters: one per (output tile, group of kSplitkGroup slices), then, with more than one group,
// one per tile.
#pragma once

#include "gemm_params.h"

namespace gemmtune {

inline constexpr int kSplitkGroup = 16;  // slices added by one block before the second level of the sum

GEMMTUNE_HOST_DEVICE constexpr int splitk_groups(int splitk) { return (splitk + kSplitkGroup - 1) / kSplitkGroup; }

GEMMTUNE_HOST_DEVICE constexpr long long splitk_counter_floats(long long tiles, int splitk) {
  const long long counters = tiles * splitk_groups(splitk) + (splitk_groups(splitk) > 1 ? tiles : 0);
  return (counters + 3) / 4 * 4;
}

// The workspace of `tiles` output tiles of an M x N problem cut into `splitk` slices; none
// without split-K.
GEMMTUNE_HOST_DEVICE constexpr long long splitk_workspace_floats(long long tiles, int splitk, int M, int N) {
  return splitk == 1 ? 0 : splitk_counter_floats(tiles, splitk) + static_cast<long long>(splitk) * M * N;
}

// Beyond one group, the slices are summed a whole group at a time.
GEMMTUNE_HOST_DEVICE constexpr bool splitk_slices_legal(int splitk) {
  return splitk <= kSplitkGroup || splitk % kSplitkGroup == 0;
}

}  // namespace gemmtune
