// Host side of kernel_templates/reg2d.cuh and vectorized.cuh (rules: reg2d_rules.h,
// vectorized_rules.h): a thread a TM x TN tile of a BM x BN block tile; vectorized keeps A
// transposed in shared memory and reads and writes 128 bits at a time.
#include <string>

#include "kernel_family.hpp"
#include "reg2d_rules.h"
#include "vectorized_rules.h"

namespace gemmtune {
namespace {

class Reg2dFamily final : public KernelFamily {
 public:
  explicit Reg2dFamily(bool vectorized) : vectorized_(vectorized) {}

  std::string_view name() const override { return vectorized_ ? "vectorized" : "reg2d"; }
  std::string_view summary() const override {
    return vectorized_ ? "A transposed in smem, 128-bit loads and stores"
                       : "2D register tiling (TM x TN outputs a thread)";
  }
  std::string_view source_file() const override { return vectorized_ ? "vectorized.cuh" : "reg2d.cuh"; }
  std::string_view kernel_template() const override {
    return vectorized_ ? "gemmtune::vectorized_sgemm" : "gemmtune::reg2d_sgemm";
  }
  const std::vector<ParamSpec>& params() const override { return params_; }
  std::vector<int> alignments() const override {
    return vectorized_ ? std::vector<int>{4, 2, 1} : std::vector<int>{1};
  }

  LaunchShape launch_shape(const KernelConfig& c, const Problem& problem, const DeviceTraits&) const override {
    return {{ceil_div(problem.N, c.get("BN")), ceil_div(problem.M, c.get("BM")), 1},
            {static_cast<unsigned>(reg2d_threads(c.get("BM"), c.get("BN"), c.get("TM"), c.get("TN"))), 1, 1},
            0};
  }

  // 0.687 and 0.784: the fractions of cuBLAS their defaults reached in the seed chapter's
  // measurements.
  CostTraits cost_traits(const KernelConfig& c) const override {
    CostTraits traits;
    traits.measured_fraction = vectorized_ ? 0.784 : 0.687;
    traits.tiles_in_smem = true;
    traits.vector_access = vectorized_;
    traits.bm = c.get("BM");
    traits.bn = c.get("BN");
    traits.bk = c.get("BK");
    traits.tm = c.get("TM");
    traits.tn = c.get("TN");
    return traits;
  }

 protected:
  std::optional<std::string> check_params(const KernelConfig& c) const override {
    const int BM = c.get("BM"), BN = c.get("BN"), BK = c.get("BK"), TM = c.get("TM"), TN = c.get("TN"),
              ALIGN = c.align;
    const long long THREADS = reg2d_threads(BM, BN, TM, TN);
    if (vectorized_) {
      GEMMTUNE_VECTORIZED_RULES(GEMMTUNE_HOST_RULE, name())
    } else {
      GEMMTUNE_REG2D_RULES(GEMMTUNE_HOST_RULE, name())
    }
    return std::nullopt;
  }

 private:
  bool vectorized_;
  std::vector<ParamSpec> params_{{"BM", 128, {32, 64, 128, 256}},
                                 {"BN", 128, {32, 64, 128, 256}},
                                 {"BK", 8, {8, 16, 32}},
                                 {"TM", 8, {4, 8}},
                                 {"TN", 8, {4, 8}}};
};

}  // namespace

const KernelFamily& reg2d_family() {
  static const Reg2dFamily family(false);
  return family;
}

const KernelFamily& vectorized_family() {
  static const Reg2dFamily family(true);
  return family;
}

}  // namespace gemmtune
