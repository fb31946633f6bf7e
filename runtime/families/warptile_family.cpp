// Host side of kernel_templates/warptile.cuh: parameters, legality (the template's
// static_asserts, rule for rule) and shared memory; the grid, the split-K workspace and search
// rule are WarpTiledFamily's (warp_tiled_family.hpp).
#include <string>

#include "tuned_families.hpp"
#include "warp_tiled_family.hpp"

namespace gemmtune {
namespace {

constexpr int kMaxThreads = 1024;
constexpr long long kMaxSmemBytes = 227 * 1024;  // sm_90's opt-in limit; smaller GPUs refuse at load

class WarptileFamily final : public WarpTiledFamily {
 public:
  std::string_view name() const override { return "warptile"; }
  std::string_view summary() const override {
    return "warp tiling, multi-stage pipeline (cp.async; K-contiguous tiles via registers), padded smem, split-K";
  }
  std::string_view source_file() const override { return "warptile.cuh"; }
  std::string_view kernel_template() const override { return "gemmtune::warptile_sgemm"; }
  const std::vector<ParamSpec>& params() const override { return params_; }
  std::vector<int> alignments() const override { return {4, 2, 1}; }

  long long smem_bytes(const KernelConfig& c) const override {
    return 4LL * c.get("STAGES") * c.get("BK") * (c.get("BM") + 4 + c.get("BN") + 4);
  }

 protected:
  std::optional<std::string> check_params(const KernelConfig& c) const override {
    auto refuse = [](const std::string& why) { return std::optional<std::string>("warptile: " + why); };
    const int bm = c.get("BM"), bn = c.get("BN"), bk = c.get("BK"), wm = c.get("WM"), wn = c.get("WN"),
              tm = c.get("TM"), tn = c.get("TN");
    if (tm % 4 != 0 || tn % 4 != 0) return refuse("TM and TN must be multiples of 4");
    if (c.get("STAGES") < 2) return refuse("STAGES must be at least 2 (one stage computes while the next loads)");
    if (tm * tn > 128) return refuse("a thread tile of more than 128 accumulators cannot stay in registers");
    if (wm % tm != 0 || wn % tn != 0) return refuse("WM and WN must be multiples of TM and TN");
    if ((wm / tm) * (wn / tn) != 32) return refuse("(WM / TM) * (WN / TN) must be 32, the lanes of a warp");
    if (bm % wm != 0 || bn % wn != 0) return refuse("BM and BN must be multiples of WM and WN");
    const int block_threads = threads(c);
    if (block_threads > kMaxThreads) return refuse("32 * (BM / WM) * (BN / WN) threads must be at most 1024");
    if (bk % 4 != 0) return refuse("BK must be a multiple of 4");
    // Tiles copied by cp.async must divide evenly; K-contiguous ones (through registers) need not.
    if (a_is_transposed(c.layout) && bk * bm / c.align % block_threads != 0) {
      return refuse("the A tile's copies must divide evenly over the threads");
    }
    if (!b_is_transposed(c.layout) && bk * bn / c.align % block_threads != 0) {
      return refuse("the B tile's copies must divide evenly over the threads");
    }
    if (smem_bytes(c) > kMaxSmemBytes) return refuse("shared memory must fit in 227 KB");
    if (auto why = check_splitk(c.get("SPLITK"))) return refuse(*why);
    return std::nullopt;
  }

 private:
  std::vector<ParamSpec> params_{{"BM", 128, {64, 128, 256}},
                                 {"BN", 128, {64, 128, 256}},
                                 {"BK", 8, {8, 16, 32}},
                                 {"WM", 32, {16, 32, 64}},
                                 {"WN", 64, {32, 64, 128}},
                                 {"TM", 8, {4, 8, 16}},
                                 {"TN", 8, {4, 8, 16}},
                                 {"STAGES", 3, {2, 3, 4}},
                                 {"SPLITK", 1, {1, 4, 16, 64, 128}}};
};

}  // namespace

const KernelFamily& warptile_family() {
  static const WarptileFamily warptile;
  return warptile;
}

}  // namespace gemmtune
