// The block tiles cutlass_peer times for each layout: eight of the tiles CUTLASS's own library
// generates for its SM80 3xTF32 GEMMs (tile M x N x K, warp tile M x N, stages), from 64 x 64 for
// small and odd problems to 256 x 64 and 64 x 256 for large ones.
#pragma once

#include <memory>
#include <vector>

#include "cutlass_tf32x3.cuh"

namespace gemmtune::peer {

template <Layout L, int Align>
void add_tf32x3_tiles(std::vector<std::unique_ptr<PeerKernel>>& kernels) {
  kernels.push_back(std::make_unique<CutlassTf32x3<L, 128, 128, 16, 32, 64, 4, Align>>());
  kernels.push_back(std::make_unique<CutlassTf32x3<L, 128, 128, 32, 32, 64, 3, Align>>());
  kernels.push_back(std::make_unique<CutlassTf32x3<L, 256, 64, 16, 64, 32, 3, Align>>());
  kernels.push_back(std::make_unique<CutlassTf32x3<L, 64, 256, 16, 32, 64, 3, Align>>());
  kernels.push_back(std::make_unique<CutlassTf32x3<L, 128, 64, 16, 64, 32, 4, Align>>());
  kernels.push_back(std::make_unique<CutlassTf32x3<L, 64, 128, 16, 32, 64, 4, Align>>());
  kernels.push_back(std::make_unique<CutlassTf32x3<L, 64, 128, 32, 32, 64, 3, Align>>());
  kernels.push_back(std::make_unique<CutlassTf32x3<L, 64, 64, 16, 32, 32, 3, Align>>());
}

}  // namespace gemmtune::peer
