// CUTLASS's 3xTF32 tiles for nn calls whose leading dimensions are not multiples of 4 floats
// (1000x999x777), read a float at a time (cutlass_peer).
#include "peer_tiles.cuh"

namespace gemmtune::peer {

void add_peers_nn_align1(std::vector<std::unique_ptr<PeerKernel>>& kernels) {
  add_tf32x3_tiles<Layout::NN, 1>(kernels);
}

}  // namespace gemmtune::peer
