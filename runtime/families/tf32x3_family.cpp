// Host side of kernel_templates/tf32x3.cuh: parameters, legality (the template's static_asserts,
// rule for rule) and shared memory; the grid, the split-K workspace and search rule are
// WarpTiledFamily's (warp_tiled_family.hpp).
#include <string>

#include "tuned_families.hpp"
#include "warp_tiled_family.hpp"

namespace gemmtune {
namespace {

constexpr int kMaxThreads = 1024;
constexpr long long kMaxSmemBytes = 227 * 1024;  // sm_90's opt-in limit; smaller GPUs refuse at load

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

  long long smem_bytes(const KernelConfig& c) const override { return 4LL * c.get("STAGES") * staged_stage_floats(c); }

 protected:
  std::optional<std::string> check_params(const KernelConfig& c) const override {
    auto refuse = [](const std::string& why) { return std::optional<std::string>("tf32x3: " + why); };
    const int bm = c.get("BM"), bn = c.get("BN"), bk = c.get("BK"), wm = c.get("WM"), wn = c.get("WN");
    if (wm % 16 != 0 || wn % 8 != 0) return refuse("WM must be a multiple of 16 and WN of 8 (the MMA tile)");
    if (bm % wm != 0 || bn % wn != 0) return refuse("BM and BN must be multiples of WM and WN");
    if (bk % 8 != 0) return refuse("BK must be a multiple of 8 (the MMA's k)");
    if (wm * wn / 32 > 128) return refuse("a warp tile of more than 128 accumulators a lane cannot stay in registers");
    if (threads(c) > kMaxThreads) return refuse("32 * (BM / WM) * (BN / WN) threads must be at most 1024");
    if (c.get("STAGES") < 2) return refuse("STAGES must be at least 2 (one stage computes while the next loads)");
    if (smem_bytes(c) > kMaxSmemBytes) return refuse("shared memory must fit in 227 KB");
    if (auto why = check_splitk(c.get("SPLITK"))) return refuse(*why);
    return std::nullopt;
  }

 private:
  // The error bound of a product computed from split operands, in units of 2^-24 |a b|: the
  // dropped a_small b_small (4), and the tensor cores' truncation of each small part (8 each).
  static constexpr int kProductErrorUnits = 20;

  std::vector<ParamSpec> params_{{"BM", 128, {64, 128, 256}},
                                 {"BN", 128, {64, 128, 256}},
                                 {"BK", 32, {16, 32}},
                                 {"WM", 64, {32, 64}},
                                 {"WN", 32, {32, 64}},
                                 {"STAGES", 3, {2, 3, 4}},
                                 {"SPLITK", 1, {1, 4, 16, 64, 128}}};
};

}  // namespace

const KernelFamily& tf32x3_family() {
  static const Tf32x3Family tf32x3;
  return tf32x3;
}

}  // namespace gemmtune
