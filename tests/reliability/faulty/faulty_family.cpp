#include "faulty_family.hpp"

#include <string>

namespace gemmtune::testing {
namespace {

constexpr int kTile = 16;  // a 16 x 16 block of threads, one output each

class FaultyFamily final : public KernelFamily {
 public:
  std::string_view name() const override { return "faulty"; }
  std::string_view summary() const override {
    return "fails on purpose (tests only): MODE 1 illegal address, 2 trap, 3 endless loop, 4 wrong result, 5 correct";
  }
  std::string_view source_file() const override { return "faulty.cuh"; }
  std::string_view source_text() const override { return faulty_kernel_files().front().text; }
  std::string_view kernel_template() const override { return "gemmtune::faulty_sgemm"; }
  const std::vector<ParamSpec>& params() const override { return params_; }
  // Only where a test asks for it by name.
  bool tuned_by_default() const override { return false; }

  LaunchShape launch_shape(const KernelConfig& /*config*/, const Problem& problem, const DeviceTraits&) const override {
    return {{ceil_div(problem.N, kTile), ceil_div(problem.M, kTile), 1}, {kTile, kTile, 1}, 0};
  }

  // What the cost model gave a family it had no measurement of (it ranks nothing but the faulty
  // modes, which tests ask for by name).
  CostTraits cost_traits(const KernelConfig& /*config*/) const override {
    CostTraits traits;
    traits.measured_fraction = 1.46;
    traits.vector_access = true;
    return traits;
  }

 protected:
  std::optional<std::string> check_params(const KernelConfig& config) const override {
    if (config.get("MODE") > static_cast<int>(FaultMode::Correct)) return std::string("faulty: MODE must be 1..5");
    return std::nullopt;
  }

 private:
  // The default is the correct mode: tune measures every family's default first.
  std::vector<ParamSpec> params_{{"MODE", 5, {1, 2, 3, 4, 5}}};
};

}  // namespace

const KernelFamily& faulty_family() {
  static const FaultyFamily family;
  return family;
}

}  // namespace gemmtune::testing
