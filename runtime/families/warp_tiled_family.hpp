// What the warp-tiled families (warptile, tf32x3, wgmma) share on the host: a grid of BM x BN output
// tiles, SPLITK slices of K in grid z, (BM / WM) x (BN / WN) warps a block, the split-K workspace
// and the rule for when splitting K is worth a measurement.
#pragma once

#include "kernel_family.hpp"

namespace gemmtune {

class WarpTiledFamily : public KernelFamily {
 public:
  // 32 * (BM / WM) * (BN / WN); a family whose block is not made of WM x WN warp tiles says its own.
  virtual int threads(const KernelConfig& c) const;
  LaunchShape launch_shape(const KernelConfig& c, int M, int N) const override;
  // Split-K pays only while the output tiles alone leave SMs idle, and only with K to split.
  bool worth_searching(const KernelConfig& c, int M, int N, int K, int sm_count) const override;
  std::size_t workspace_floats(const KernelConfig& c, int M, int N) const override;

 protected:
  // Dynamic shared memory a block takes (all its pipeline stages).
  virtual long long smem_bytes(const KernelConfig& c) const = 0;
  // One pipeline stage of tf32x3.cuh's Tf32x3Tile pair (tf32x3 and wgmma stage their operands
  // so), in floats: a K-contiguous tile keeps rows of BK + 4 floats, the other kind BK rows of
  // BM + 8 (BN + 8).
  static long long staged_stage_floats(const KernelConfig& c);

 private:
  static long long output_tiles(const KernelConfig& c, int M, int N);
};

}  // namespace gemmtune
