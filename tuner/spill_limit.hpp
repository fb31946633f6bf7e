// Which spilling candidates the tuner still measures. A few bytes of spilled loop state cost
// little: tf32x3's 128x128x32 with 64 x 64 warp tiles spills 24 bytes (two local loads a k tile)
// and was the fastest configuration measured at 4096^3 on the H200, 1.22x cuBLAS, yet a tuner
// that refused every spill never timed it. Spilled accumulators cost a lot, and timing such
// kernels only spends the budget, so past the limit a candidate is recorded as `spills`.
#pragma once

#include <cstddef>

namespace gemmtune::tuner {

inline constexpr std::size_t kMeasuredSpillBytes = 64;

// From ptxas's report (bytes of spill stores and loads, negative where it said nothing) or from
// the loaded kernel's local memory a thread.
inline bool spills_too_much(long long spill_store_bytes, long long spill_load_bytes) {
  return spill_store_bytes > static_cast<long long>(kMeasuredSpillBytes) ||
         spill_load_bytes > static_cast<long long>(kMeasuredSpillBytes);
}
inline bool spills_too_much(std::size_t local_bytes) { return local_bytes > kMeasuredSpillBytes; }

}  // namespace gemmtune::tuner
