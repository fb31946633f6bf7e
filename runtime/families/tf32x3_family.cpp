// Host side of kernel_templates/tf32x3.cuh (rules and sizes: tf32x3_rules.h); the grid, the split-K
// workspace and search rule are WarpTiledFamily's (warp_tiled_family.hpp).
#include <string>

#include "tf32x3_rules.h"
#include "tiny_scan.h"
#include "warp_tiled_family.hpp"

namespace gemmtune {
namespace {

class Tf32x3Family final : public WarpTiledFamily {
 public:
  std::string_view name() const override { return "tf32x3"; }
  std::string_view summary() const override {
    return "tensor cores: 3xTF32 mma.sync (FP32 accuracy), cp.async pipeline, padded smem, split-K";
  }
  std::string_view source_file() const override { return "tf32x3.cuh"; }
  std::string_view kernel_template() const override { return "gemmtune::tf32x3_sgemm"; }
  const std::vector<ParamSpec>& params() const override { return params_; }
  std::vector<int> alignments() const override { return {4, 2, 1}; }
  int product_error_units() const override { return kProductErrorUnits; }
  Precision precision() const override { return Precision::Fp32; }

  // WATCH 2 reads its operands' tiny-value flags from a scan of A and B, which goes by a stride
  // between entries: pointer arrays are refused.
  std::optional<std::string> batch_refusal(const KernelConfig& c, bool pointer_arrays) const override {
    if (pointer_arrays && c.get("WATCH") == kWatchByScan) {
      return std::string(name()) + " with WATCH 2 serves strided batches and plain calls only (its scan reads A and B by stride)";
    }
    return WarpTiledFamily::batch_refusal(c, pointer_arrays);
  }

  // WATCH 2's flags follow split-K's workspace (tf32x3_rules.h).
  std::size_t workspace_floats(const KernelConfig& c, const Problem& problem, const DeviceTraits& device) const override {
    if (c.get("WATCH") != kWatchByScan) return WarpTiledFamily::workspace_floats(c, problem, device);
    return static_cast<std::size_t>(flags_offset(c, problem) +
                                    tiny_flags_of_call(problem.M, problem.N, problem.K, problem.batch));
  }

  // WATCH 2: the tiny-value scan (tiny_scan.cuh, in the same cubin).
  std::optional<Prepass> prepass(const KernelConfig& c, const Problem& problem, const DeviceTraits&) const override {
    if (c.get("WATCH") != kWatchByScan) return std::nullopt;
    return tiny_scan_prepass(problem, flags_offset(c, problem));
  }

  // A as operand 0 (M rows, K-contiguous unless transposed) and B as operand 1 (N rows,
  // K-contiguous when transposed), as the kernel reads the flags.
  void build_prepass_arguments(const KernelConfig& c, const GemmParams& p, const Prepass& prepass,
                               KernelArguments& out) const override {
    const Layout layout = c.layout;
    TinyScanParams args{};
    args.operand[0] = TinyScanOperand{p.A, p.lda, p.stride_a, p.M, a_is_transposed(layout) ? 0 : 1};
    args.operand[1] = TinyScanOperand{p.B, p.ldb, p.stride_b, p.N, b_is_transposed(layout) ? 1 : 0};
    args.flags = reinterpret_cast<unsigned*>(p.workspace + prepass.workspace_offset);
    args.K = p.K;
    args.entries = p.batch < 1 ? 1 : p.batch;
    out.set(args);
  }

  std::size_t dynamic_smem_bytes(const KernelConfig& c) const override {
    return static_cast<std::size_t>(tf32x3_smem_bytes(c.get("BM"), c.get("BN"), c.get("BK"), c.get("STAGES"), c.layout));
  }

  // Three TF32 MMAs a product. Its default reached 1.08x cuBLAS at 4096^3 on the H200
  // (bench/results/2026-12-01-h200-tf32x3-probe.md). mma.sync reaches about half the H200's 495
  // TF32 TFLOPS (wgmma gets the rest): about 82 TFLOPS of FP32 products, 1.6x cuBLAS's 50. A
  // lane's WM * WN / 32 accumulators are written as a (WM / 4) x (WN / 8) tile, with the split
  // halves of A's fragments (WM / 2 registers) beside them; ptxas's counts for its warp tiles
  // were within ~10 of that.
  CostTraits cost_traits(const KernelConfig& c) const override {
    CostTraits traits;
    traits.measured_fraction = 1.08;
    if (c.get("WATCH") == kWatchByScan) traits.measured_fraction *= kWatchByScanGain;
    traits.peak_factor = 1.6;
    traits.tiles_in_smem = true;
    traits.vector_access = true;
    traits.bm = c.get("BM");
    traits.bn = c.get("BN");
    traits.bk = c.get("BK");
    traits.tm = c.get("WM") / 4;
    traits.tn = c.get("WN") / 8;
    traits.extra_registers = c.get("WM") / 2 + 32;
    traits.stages = c.get("STAGES");
    traits.split_k = c.get("SPLITK");
    return traits;
  }

 protected:
  int threads(const KernelConfig& c) const override {
    return static_cast<int>(tf32x3_threads(c.get("BM"), c.get("BN"), c.get("WM"), c.get("WN")));
  }

  std::optional<std::string> check_params(const KernelConfig& c) const override {
    const int BM = c.get("BM"), BN = c.get("BN"), BK = c.get("BK"), WM = c.get("WM"), WN = c.get("WN"),
              STAGES = c.get("STAGES"), SPLITK = c.get("SPLITK"), WATCH = c.get("WATCH"), ALIGN = c.align;
    const long long THREADS = tf32x3_threads(BM, BN, WM, WN);
    const long long SMEM_BYTES = tf32x3_smem_bytes(BM, BN, BK, STAGES, c.layout);
    GEMMTUNE_TF32X3_RULES(GEMMTUNE_HOST_RULE, name())
    return std::nullopt;
  }

 private:
  static long long flags_offset(const KernelConfig& c, const Problem& problem) {
    return tf32x3_tiny_flags_offset(output_tiles(c, problem), c.get("SPLITK"), problem.M, problem.N);
  }

  // The main loop without the in-loop watch (WATCH 2) against with it: 1.09, the geometric mean of
  // the five large-problem pairs measured on an H100 (nn 4096^3 and 2048^3 with 64x32 and 64x64
  // warp tiles, nt 4096^3: 1.01-1.17x the speed; bench/results/2026-12-08-h100-narrow-csplit-tf32x3-watch.md).
  // The scan is charged as the model's prepass.
  static constexpr double kWatchByScanGain = 1.09;

  // The error bound of a product computed from split operands, in units of 2^-24 |a b|: the
  // dropped a_small b_small (4), and the tensor cores' truncation of each small part (8 each).
  static constexpr int kProductErrorUnits = 20;

  std::vector<ParamSpec> params_{{"BM", 128, {64, 128, 256}},
                                 {"BN", 128, {64, 128, 256}},
                                 {"BK", 32, {16, 32}},
                                 {"WM", 64, {32, 64}},
                                 {"WN", 32, {32, 64}},
                                 {"STAGES", 3, {2, 3, 4}},
                                 {"SPLITK", 1, {1, 4, 16, 64, 128}},
                                 // How special values are found (tf32x3.cuh): 1 in the main loop, 2
                                 // by the outputs and a scan of A and B before the GEMM. Added after
                                 // names were stored: left out of a name at 1. Searched: measured
                                 // 1-17% faster on 2048^3 and 4096^3, -6% to +4% at 1024^3 (H100,
                                 // bench/results/2026-12-08-h100-narrow-csplit-tf32x3-watch.md).
                                 {"WATCH", kWatchInLoop, {kWatchInLoop, kWatchByScan}, true}};
};

}  // namespace

const KernelFamily& tf32x3_family() {
  static const Tf32x3Family tf32x3;
  return tf32x3;
}

}  // namespace gemmtune
