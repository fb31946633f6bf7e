// Host side of kernel_templates/skinny.cuh (rules and sizes: skinny_rules.h): launch shape,
// split-K workspace and where it is worth a measurement.
#include <string>

#include "kernel_family.hpp"
#include "skinny_rules.h"

namespace gemmtune {
namespace {

class SkinnyFamily final : public KernelFamily {
 public:
  std::string_view name() const override { return "skinny"; }
  std::string_view summary() const override { return "few rows (M <= 32): B streamed once, bandwidth-bound"; }
  std::string_view source_file() const override { return "skinny.cuh"; }
  std::string_view kernel_template() const override { return "gemmtune::skinny_sgemm"; }
  const std::vector<ParamSpec>& params() const override { return params_; }
  std::vector<int> alignments() const override { return {4, 2, 1}; }

  std::size_t dynamic_smem_bytes(const KernelConfig& c) const override {
    return static_cast<std::size_t>(skinny_smem_bytes(c.get("NT"), c.get("KG"), c.get("MT"), c.get("KC")));
  }

  LaunchShape launch_shape(const KernelConfig& c, const Problem& problem, const DeviceTraits&) const override {
    return {{ceil_div(problem.N, 4 * c.get("NT")), static_cast<unsigned>(c.get("SPLITK")), ceil_div(problem.M, c.get("MT"))},
            {static_cast<unsigned>(skinny_threads(c.get("NT"), c.get("KG"))), 1, 1},
            dynamic_smem_bytes(c)};
  }

  std::size_t workspace_floats(const KernelConfig& c, const Problem& problem, const DeviceTraits&) const override {
    return static_cast<std::size_t>(splitk_workspace_floats(output_tiles(c, problem), c.get("SPLITK"), problem.M, problem.N));
  }
  std::size_t workspace_counter_floats(const KernelConfig& c, const Problem& problem, const DeviceTraits&) const override {
    if (c.get("SPLITK") == 1) return 0;
    return static_cast<std::size_t>(splitk_counter_floats(output_tiles(c, problem), c.get("SPLITK")));
  }

  // Only where every row fits one block (B read once) and the rows fill at least half of it.
  bool worth_searching(const KernelConfig& c, const Problem& problem, int /*sm_count*/) const override {
    const int mt = c.get("MT");
    return problem.M <= mt && 2 * problem.M > mt - (mt == 1 ? 1 : 0) && problem.K >= c.get("SPLITK") * c.get("KG");
  }

  // A block is MT rows by 4 * NT columns, each thread MT x 4, A's rows staged KC at a time. 1.46
  // is the fraction the cost model gave families it had no measurement of (then wgmma's, the last
  // of its table): skinny's ranking against the other families was tuned with it.
  CostTraits cost_traits(const KernelConfig& c) const override {
    CostTraits traits;
    traits.measured_fraction = 1.46;
    traits.vector_access = true;
    traits.bm = c.get("MT");
    traits.bn = 4 * c.get("NT");
    traits.bk = c.get("KC");
    traits.tm = c.get("MT");
    traits.tn = 4;
    traits.split_k = c.get("SPLITK");
    return traits;
  }

 protected:
  std::optional<std::string> check_params(const KernelConfig& c) const override {
    const int NT = c.get("NT"), KG = c.get("KG"), MT = c.get("MT"), KC = c.get("KC"), SPLITK = c.get("SPLITK"),
              PREFETCH = c.get("PREFETCH"), ALIGN = c.align;
    const long long THREADS = skinny_threads(NT, KG);
    const long long SMEM_BYTES = skinny_smem_bytes(NT, KG, MT, KC);
    GEMMTUNE_SKINNY_RULES(GEMMTUNE_HOST_RULE, name())
    return std::nullopt;
  }

  // One row (a matrix-vector product): the default's 16 rows a block would leave 15 idle. This
  // configuration won 1x4096x4096 on the H200 (2026-12-02-h200-tuning-cost-and-untuned.md).
  std::vector<std::vector<std::pair<std::string, int>>> shape_defaults() const override {
    return {{{"NT", 64}, {"KG", 16}, {"MT", 1}, {"KC", 512}, {"U", 4}}};
  }

 private:
  // Blocks of the launch's x and z (MT rows by 4 NT columns of C each), each a tile of split-K.
  static long long output_tiles(const KernelConfig& c, const Problem& problem) {
    return static_cast<long long>(ceil_div(problem.N, 4 * c.get("NT"))) * ceil_div(problem.M, c.get("MT"));
  }

  std::vector<ParamSpec> params_{{"NT", 32, {16, 32, 64}},
                                 {"KG", 8, {4, 8, 16}},
                                 {"MT", 16, {1, 2, 4, 8, 16, 32}},
                                 {"KC", 128, {128, 512, 2048}},
                                 {"U", 2, {2, 4, 8}},
                                 {"SPLITK", 8, {1, 2, 4, 8, 16, 32}},
                                 // 2 requests the next U rows before this step's are used (the
                                 // loads' latency behind the FFMAs), for 4 U more registers.
                                 {"PREFETCH", 1, {1, 2}, true}};
};

}  // namespace

const KernelFamily& skinny_family() {
  static const SkinnyFamily skinny;
  return skinny;
}

}  // namespace gemmtune
