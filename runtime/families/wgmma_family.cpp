// Host side of kernel_templates/wgmma.cuh (rules and sizes: wgmma_rules.h) and the arch it needs
// (Hopper, compiled for sm_90a); the grid, the split-K workspace and search rule are
// WarpTiledFamily's.
#include <string>

#include "warp_tiled_family.hpp"
#include "wgmma_rules.h"

namespace gemmtune {
namespace {

class WgmmaFamily final : public WarpTiledFamily {
 public:
  std::string_view name() const override { return "wgmma"; }
  std::string_view summary() const override {
    return "tensor cores: 3xTF32 warpgroup MMA (Hopper), B split into shared memory, cp.async pipeline, split-K";
  }
  std::string_view source_file() const override { return "wgmma.cuh"; }
  std::string_view kernel_template() const override { return "gemmtune::wgmma_sgemm"; }
  const std::vector<ParamSpec>& params() const override { return params_; }
  std::vector<int> alignments() const override { return {4, 2, 1}; }
  int product_error_units() const override { return kProductErrorUnits; }
  Precision precision() const override { return Precision::Fp32; }
  std::optional<std::string> compile_arch(const std::string& device_arch) const override {
    if (device_arch != "sm_90") return std::nullopt;
    return std::string("sm_90a");
  }

  std::size_t dynamic_smem_bytes(const KernelConfig& c) const override {
    return static_cast<std::size_t>(wgmma_smem_bytes(c.get("BM"), c.get("BN"), c.get("BK"), c.get("STAGES"), c.layout));
  }

  // The same three products as tf32x3, on wgmma, which reaches the tensor cores' full TF32 rate:
  // a ceiling of ~165 TFLOPS, 2.4x the FP32 FMA peak. Its default reached 1.46x cuBLAS at 4096^3
  // (bench/results/2026-12-01-h200-wgmma-probe.md). A warpgroup's 64 x BN tile: BN / 2
  // accumulators a thread (written 8 x BN / 16), as many for the tile's own sum, and BK / 8 k
  // steps of split A fragments (8 registers each).
  CostTraits cost_traits(const KernelConfig& c) const override {
    CostTraits traits;
    traits.measured_fraction = 1.46;
    traits.peak_factor = 2.4;
    traits.tiles_in_smem = true;
    traits.vector_access = true;
    traits.bm = c.get("BM");
    traits.bn = c.get("BN");
    traits.bk = c.get("BK");
    traits.tm = 8;
    traits.tn = traits.bn / 16;
    traits.extra_registers = traits.bn / 2 + traits.bk + 32;
    traits.stages = c.get("STAGES");
    traits.split_k = c.get("SPLITK");
    return traits;
  }

 protected:
  int threads(const KernelConfig& c) const override { return static_cast<int>(wgmma_threads(c.get("BM"))); }

  std::optional<std::string> check_params(const KernelConfig& c) const override {
    const int BM = c.get("BM"), BN = c.get("BN"), BK = c.get("BK"), STAGES = c.get("STAGES"), SPLITK = c.get("SPLITK"),
              ALIGN = c.align;
    const long long SMEM_BYTES = wgmma_smem_bytes(BM, BN, BK, STAGES, c.layout);
    GEMMTUNE_WGMMA_RULES(GEMMTUNE_HOST_RULE, name())
    return std::nullopt;
  }

 private:
  // tf32x3's 20 units a product (the split operands), plus the tensor cores' truncating
  // accumulation within a BK tile: up to 3 * BK / 8 = 12 truncations of at most 2 units each, of
  // a partial sum no larger than the tile's sum of |a b|.
  static constexpr int kProductErrorUnits = 44;

  std::vector<ParamSpec> params_{{"BM", 128, {64, 128, 192, 256}},
                                 {"BN", 128, {64, 128}},
                                 {"BK", 32, {16, 32}},
                                 {"STAGES", 3, {2, 3, 4}},
                                 {"SPLITK", 1, {1, 4, 16, 64, 128}}};
};

}  // namespace

const KernelFamily& wgmma_family() {
  static const WgmmaFamily wgmma;
  return wgmma;
}

}  // namespace gemmtune
