// Host side of kernel_templates/reg1d.cuh (rules: reg1d_rules.h): a thread TM outputs of one
// column of a BM x BN block tile.
#include <string>

#include "kernel_family.hpp"
#include "reg1d_rules.h"

namespace gemmtune {
namespace {

class Reg1dFamily final : public KernelFamily {
 public:
  std::string_view name() const override { return "reg1d"; }
  std::string_view summary() const override { return "1D register tiling (TM outputs a thread)"; }
  std::string_view source_file() const override { return "reg1d.cuh"; }
  std::string_view kernel_template() const override { return "gemmtune::reg1d_sgemm"; }
  const std::vector<ParamSpec>& params() const override { return params_; }

  LaunchShape launch_shape(const KernelConfig& c, const Problem& problem, const DeviceTraits&) const override {
    return {{ceil_div(problem.N, c.get("BN")), ceil_div(problem.M, c.get("BM")), 1},
            {static_cast<unsigned>(reg1d_threads(c.get("BM"), c.get("BN"), c.get("TM"))), 1, 1},
            0};
  }

  // 0.365: the fraction of cuBLAS its default reached in the seed chapter's measurements.
  CostTraits cost_traits(const KernelConfig& c) const override {
    CostTraits traits;
    traits.measured_fraction = 0.365;
    traits.tiles_in_smem = true;
    traits.bm = c.get("BM");
    traits.bn = c.get("BN");
    traits.bk = c.get("BK");
    traits.tm = c.get("TM");
    return traits;
  }

 protected:
  std::optional<std::string> check_params(const KernelConfig& c) const override {
    const int BM = c.get("BM"), BN = c.get("BN"), BK = c.get("BK"), TM = c.get("TM"), ALIGN = c.align;
    const long long THREADS = reg1d_threads(BM, BN, TM);
    GEMMTUNE_REG1D_RULES(GEMMTUNE_HOST_RULE, name())
    return std::nullopt;
  }

 private:
  std::vector<ParamSpec> params_{{"BM", 64, {32, 64, 128}},
                                 {"BN", 64, {32, 64, 128}},
                                 {"BK", 8, {4, 8, 16}},
                                 {"TM", 8, {4, 8, 16}}};
};

}  // namespace

const KernelFamily& reg1d_family() {
  static const Reg1dFamily family;
  return family;
}

}  // namespace gemmtune
