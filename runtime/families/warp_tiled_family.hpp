// What the warp-tiled families (warptile, tf32x3, wgmma) share on the host: a grid of BM x BN output
// tiles, in grid z SPLITK slices of K or (SPLITK == 1) the batch entries of a batched call
// (strided or pointer arrays), the split-K workspace and the rule for when splitting K is worth a
// measurement. Each family says its block's threads and shared memory (its rules header's
// functions).
#pragma once

#include "kernel_family.hpp"

namespace gemmtune {

class WarpTiledFamily : public KernelFamily {
 public:
  // Split-K takes grid z, so only SPLITK == 1 serves batched calls.
  std::optional<std::string> batch_refusal(const KernelConfig& c, bool pointer_arrays) const override;
  LaunchShape launch_shape(const KernelConfig& c, const Problem& problem, const DeviceTraits& device) const override;
  // Split-K pays only while the output tiles alone leave SMs idle, and only with K to split.
  bool worth_searching(const KernelConfig& c, const Problem& problem, int sm_count) const override;
  std::size_t workspace_floats(const KernelConfig& c, const Problem& problem, const DeviceTraits& device) const override;
  std::size_t workspace_counter_floats(const KernelConfig& c, const Problem& problem,
                                       const DeviceTraits& device) const override;

 protected:
  virtual int threads(const KernelConfig& c) const = 0;
  // The grid's BM x BN output tiles.
  static long long output_tiles(const KernelConfig& c, const Problem& problem);
};

}  // namespace gemmtune
