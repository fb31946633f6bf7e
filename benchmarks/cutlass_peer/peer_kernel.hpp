// A peer library's GEMM kernel as cutlass_peer times it: CUTLASS's kernels are compiled by nvcc in
// their own translation units (peers_*.cu), and this interface, free of CUTLASS's headers, is all
// the C++ benchmark sees of them.
#pragma once

#include <cuda_runtime_api.h>

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "gemm_params.h"

namespace gemmtune::peer {

// How the output tiles are spread over the blocks. Data-parallel: a tile a block. Stream-K:
// CUTLASS's hybrid of whole tiles and k-iterations shared out evenly over the SMs. Split-K: each
// tile's k range cut in `split` pieces whose partial sums are added in a fixed order.
enum class Schedule { DataParallel, StreamK, SplitK };

struct ScheduleChoice {
  Schedule schedule = Schedule::DataParallel;
  int split = 1;  // SplitK only: 2 or more
};

// "dp", "streamk", "splitk8".
std::string schedule_name(const ScheduleChoice& choice);

// One schedule of one kernel, set up for one problem: launch() enqueues the product of the given
// operands, which must have the problem's shape and leading dimensions, reusing the workspace set up
// once (CUTLASS's stream-K and split-K flags return to zero at the end of each launch).
class PreparedPeerCall {
 public:
  virtual ~PreparedPeerCall() = default;
  // Throws std::runtime_error with CUTLASS's status and the kernel's name when a launch fails.
  virtual void launch(const GemmParams& params, cudaStream_t stream) = 0;
};

class PeerKernel {
 public:
  virtual ~PeerKernel() = default;
  // "cutlass_tf32x3_128x128x16_s4_nn_align4": operation, block tile (M x N x K), stages, layout
  // (the caller's, row-major), the floats its global loads are aligned to.
  virtual const std::string& name() const = 0;
  virtual Layout layout() const = 0;
  virtual int alignment() const = 0;
  // The output tiles of an M x N result (ceil(M / tile M) * ceil(N / tile N)).
  virtual long long output_tiles(int M, int N) const = 0;
  // Sets up `schedule` for the problem of `call` (its shape and leading dimensions): CUTLASS's
  // can_implement, its workspace allocated and initialized on `stream`. nullptr with `why_not` set
  // when CUTLASS refuses the problem. Throws CudaError when CUDA fails.
  virtual std::unique_ptr<PreparedPeerCall> prepare(const GemmParams& call, const ScheduleChoice& schedule,
                                                    cudaStream_t stream, std::string& why_not) const = 0;
};

// Every CUTLASS kernel built into this binary.
std::vector<std::unique_ptr<PeerKernel>> all_peer_kernels();

}  // namespace gemmtune::peer
