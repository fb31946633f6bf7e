#include "peer_kernel.hpp"

namespace gemmtune::peer {

// Defined in peers_*.cu, one translation unit each, so that nvcc builds them in parallel.
void add_peers_nn_align4(std::vector<std::unique_ptr<PeerKernel>>& kernels);
void add_peers_nt_align4(std::vector<std::unique_ptr<PeerKernel>>& kernels);
void add_peers_tn_align4(std::vector<std::unique_ptr<PeerKernel>>& kernels);
void add_peers_nn_align1(std::vector<std::unique_ptr<PeerKernel>>& kernels);

std::string schedule_name(const ScheduleChoice& choice) {
  switch (choice.schedule) {
    case Schedule::DataParallel: return "dp";
    case Schedule::StreamK: return "streamk";
    case Schedule::SplitK: return "splitk" + std::to_string(choice.split);
  }
  return "?";
}

std::vector<std::unique_ptr<PeerKernel>> all_peer_kernels() {
  std::vector<std::unique_ptr<PeerKernel>> kernels;
  add_peers_nn_align4(kernels);
  add_peers_nt_align4(kernels);
  add_peers_tn_align4(kernels);
  add_peers_nn_align1(kernels);
  return kernels;
}

}  // namespace gemmtune::peer
