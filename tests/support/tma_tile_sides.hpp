// Test configurations of tmawgmma and tmatf32 are written for nn, where the side the MMA reads
// from registers is B's (BN) and the side it reads from shared memory A's (BM). A 256-wide tmatf32
// tile or a narrow one (256, or 16 or 32, on the shared-memory side) and a PINGPONG 2 tile (64 on
// the register side) mean the other sides in the other layouts, except tn from a transposed copy of A (ACOPY 2), which runs as
// nn. Shared by the [gpu] tests and sanitize_kernels.
#pragma once

#include "kernel_config.hpp"

namespace gemmtune::testing {

// `config` (written for nn) as it is meant in its own layout: BM and BN swapped where needed.
inline KernelConfig tma_sides_in_layout(KernelConfig config) {
  if (config.family != "tmawgmma" && config.family != "tmatf32") return config;
  const bool runs_as_nn = config.layout == Layout::NN || (config.layout == Layout::TN && config.get("ACOPY") == 2);
  if (!runs_as_nn && (config.get("BM") == 256 || config.get("BM") < 64 || config.get("PINGPONG") == 2)) {
    const int bm = config.get("BM");
    config.set("BM", config.get("BN"));
    config.set("BN", bm);
  }
  return config;
}

}  // namespace gemmtune::testing
