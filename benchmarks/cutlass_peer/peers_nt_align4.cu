// CUTLASS's 3xTF32 tiles for nt calls whose operands are 16-byte aligned (cutlass_peer).
#include "peer_tiles.cuh"

namespace gemmtune::peer {

void add_peers_nt_align4(std::vector<std::unique_ptr<PeerKernel>>& kernels) {
  add_tf32x3_tiles<Layout::NT, 4>(kernels);
}

}  // namespace gemmtune::peer
