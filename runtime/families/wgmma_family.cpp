// Host side of kernel_templates/wgmma.cuh: parameters, legality (the template's static_asserts,
// rule for rule), shared memory and the arch it needs (Hopper, compiled for sm_90a); the grid,
// the split-K workspace and search rule are WarpTiledFamily's.
#include <string>

#include "tuned_families.hpp"
#include "warp_tiled_family.hpp"

namespace gemmtune {
namespace {

constexpr long long kMaxSmemBytes = 227 * 1024;  // sm_90's opt-in limit

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

  int threads(const KernelConfig& c) const override { return 2 * c.get("BM"); }  // a warpgroup per 64 rows

  // The pipeline's STAGES copies of A and B as stored (as tf32x3's), then two buffers of B's split
  // halves (big and small, BN x BK each).
  long long smem_bytes(const KernelConfig& c) const override {
    return 4LL * (c.get("STAGES") * staged_stage_floats(c) + 4LL * c.get("BN") * c.get("BK"));
  }

 protected:
  std::optional<std::string> check_params(const KernelConfig& c) const override {
    auto refuse = [](const std::string& why) { return std::optional<std::string>("wgmma: " + why); };
    const int bm = c.get("BM"), bn = c.get("BN"), bk = c.get("BK");
    if (bm % 64 != 0 || bm > 256) return refuse("BM must be 64, 128, 192 or 256 (64 rows a warpgroup)");
    if (bn != 64 && bn != 128) return refuse("BN must be 64 or 128 (the wgmma's N)");
    if (bk % 8 != 0) return refuse("BK must be a multiple of 8 (the wgmma's k)");
    // The error bound below counts on at most 12 truncating accumulations a tile.
    if (bk > 32) return refuse("BK must be at most 32 (the accuracy bound assumes it)");
    if (c.get("STAGES") < 2) return refuse("STAGES must be at least 2 (one stage computes while the next loads)");
    if (smem_bytes(c) > kMaxSmemBytes) return refuse("shared memory must fit in 227 KB");
    if (auto why = check_splitk(c.get("SPLITK"))) return refuse(*why);
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
