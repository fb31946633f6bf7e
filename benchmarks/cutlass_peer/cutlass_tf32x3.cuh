// CUTLASS's FP32-accurate GEMM on the tensor cores (3xTF32: mma.sync m16n8k8 with
// OpMultiplyAddFastF32, SM80 kernels, which run on Hopper too) behind the PeerKernel interface, one
// class a block tile and layout. Every schedule goes through CUTLASS's stream-K kernel, which is
// also its data-parallel kernel (avail_sms 1) and its split-K kernel (a tile-splitting factor with
// avail_sms 1), as CUTLASS's example 47 uses it. Included by the peers_*.cu translation units only.
#pragma once

#include <cutlass/cutlass.h>
#include <cutlass/epilogue/thread/linear_combination.h>
#include <cutlass/gemm/device/gemm_universal.h>
#include <cutlass/gemm/threadblock/threadblock_swizzle_streamk.h>

#include <cstdint>
#include <stdexcept>
#include <string>
#include <type_traits>

#include "cuda_handles.hpp"
#include "error.hpp"
#include "peer_kernel.hpp"

namespace gemmtune::peer {

// The CUTLASS layout of op(A) and op(B) for a row-major call: an operand stored transposed is the
// untransposed one in column-major order, with the same leading dimension.
template <bool Transposed>
using OperandLayout = std::conditional_t<Transposed, cutlass::layout::ColumnMajor, cutlass::layout::RowMajor>;

template <Layout L, int TileM, int TileN, int TileK, int WarpM, int WarpN, int Stages, int Align>
class CutlassTf32x3 final : public PeerKernel {
  using Gemm = cutlass::gemm::device::GemmUniversal<
      float, OperandLayout<a_is_transposed(L)>, float, OperandLayout<b_is_transposed(L)>, float,
      cutlass::layout::RowMajor, float, cutlass::arch::OpClassTensorOp, cutlass::arch::Sm80,
      cutlass::gemm::GemmShape<TileM, TileN, TileK>, cutlass::gemm::GemmShape<WarpM, WarpN, TileK>,
      cutlass::gemm::GemmShape<16, 8, 8>, cutlass::epilogue::thread::LinearCombination<float, Align, float, float>,
      cutlass::gemm::threadblock::ThreadblockSwizzleStreamK, Stages, Align, Align,
      cutlass::arch::OpMultiplyAddFastF32>;

 public:
  CutlassTf32x3()
      : name_("cutlass_tf32x3_" + std::to_string(TileM) + "x" + std::to_string(TileN) + "x" + std::to_string(TileK) +
              "_s" + std::to_string(Stages) + "_" + layout_text() + "_align" + std::to_string(Align)) {}

  const std::string& name() const override { return name_; }
  Layout layout() const override { return L; }
  int alignment() const override { return Align; }
  long long output_tiles(int M, int N) const override {
    return static_cast<long long>((M + TileM - 1) / TileM) * ((N + TileN - 1) / TileN);
  }

  std::unique_ptr<PreparedPeerCall> prepare(const GemmParams& call, const ScheduleChoice& schedule, cudaStream_t stream,
                                            std::string& why_not) const override {
    const typename Gemm::Arguments args = arguments(call, schedule);
    if (const cutlass::Status status = Gemm::can_implement(args); status != cutlass::Status::kSuccess) {
      why_not = cutlassGetStatusString(status);
      return nullptr;
    }
    auto prepared = std::make_unique<Prepared>(name_, schedule, DeviceBuffer<std::uint8_t>(Gemm::get_workspace_size(args)));
    // initialize() zero-fills the flags in the workspace; each launch leaves them zero again.
    check(prepared->gemm.initialize(args, prepared->workspace.data(), stream), "initialize");
    GT_CUDA(cudaGetLastError(), name_ + ": after initialize()");
    return prepared;
  }

 private:
  static const char* layout_text() {
    return L == Layout::NN ? "nn" : L == Layout::NT ? "nt" : L == Layout::TN ? "tn" : "tt";
  }

  static typename Gemm::Arguments arguments(const GemmParams& p, const ScheduleChoice& schedule) {
    // avail_sms 1 is one SM to balance over: whole tiles only (data-parallel), or the split
    // factor's pieces of every tile; -1 lets CUTLASS balance stream-K over every SM.
    const int split = schedule.schedule == Schedule::SplitK ? schedule.split : 1;
    const int avail_sms = schedule.schedule == Schedule::StreamK ? -1 : 1;
    return typename Gemm::Arguments(cutlass::gemm::GemmUniversalMode::kGemm, {p.M, p.N, p.K}, split,
                                    {p.alpha, p.beta}, p.A, p.B, p.C, p.C, 0, 0, 0, 0, p.lda, p.ldb, p.ldc, p.ldc,
                                    avail_sms);
  }

  static void check(cutlass::Status status, const std::string& what, const std::string& name) {
    if (status != cutlass::Status::kSuccess) {
      const cudaError_t cuda = cudaGetLastError();
      throw std::runtime_error(name + ": CUTLASS " + what + " returned " + cutlassGetStatusString(status) +
                               (cuda != cudaSuccess ? std::string(" (CUDA: ") + cudaGetErrorString(cuda) + ")" : ""));
    }
  }
  void check(cutlass::Status status, const std::string& what) const { check(status, what, name_); }

  struct Prepared final : PreparedPeerCall {
    Prepared(const std::string& kernel_name, const ScheduleChoice& choice, DeviceBuffer<std::uint8_t> buffer)
        : name(kernel_name + " " + schedule_name(choice)), schedule(choice), workspace(std::move(buffer)) {}

    void launch(const GemmParams& params, cudaStream_t stream) override {
      // update() swaps the operand pointers only: the workspace stays as initialize() left it.
      check(gemm.update(arguments(params, schedule)), "update", name);
      check(gemm.run(stream), "run", name);
    }

    std::string name;
    ScheduleChoice schedule;
    DeviceBuffer<std::uint8_t> workspace;
    Gemm gemm;
  };

  std::string name_;
};

}  // namespace gemmtune::peer
