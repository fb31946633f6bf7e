// Host side of kernel_templates/naive.cuh, coalesced.cuh and smem.cuh (the seed chapter's first
// three steps; rules: thread_per_output_rules.h): a TILE x TILE block of threads, one output each.
// naive puts threadIdx.x along the rows of C, the others along its columns.
#include <string>

#include "kernel_family.hpp"
#include "thread_per_output_rules.h"

namespace gemmtune {
namespace {

class ThreadPerOutputFamily final : public KernelFamily {
 public:
  // measured_fraction: the fraction of cuBLAS its default reached in the seed chapter's
  // measurements; smem stages its tiles in shared memory.
  ThreadPerOutputFamily(std::string_view name, std::string_view summary, bool rows_along_x, double measured_fraction,
                        bool tiles_in_smem)
      : name_(name), summary_(summary), rows_along_x_(rows_along_x), measured_fraction_(measured_fraction),
        tiles_in_smem_(tiles_in_smem), source_(std::string(name) + ".cuh"),
        template_("gemmtune::" + std::string(name) + "_sgemm") {}

  std::string_view name() const override { return name_; }
  std::string_view summary() const override { return summary_; }
  std::string_view source_file() const override { return source_; }
  std::string_view kernel_template() const override { return template_; }
  const std::vector<ParamSpec>& params() const override { return params_; }
  bool tuned_by_default() const override { return false; }  // baselines: they never win

  LaunchShape launch_shape(const KernelConfig& config, const Problem& problem, const DeviceTraits&) const override {
    const int tile = config.get("TILE");
    const unsigned along_rows = ceil_div(problem.M, tile);
    const unsigned along_cols = ceil_div(problem.N, tile);
    return {{rows_along_x_ ? along_rows : along_cols, rows_along_x_ ? along_cols : along_rows, 1},
            {static_cast<unsigned>(tile), static_cast<unsigned>(tile), 1},
            0};
  }

  // A TILE x TILE x TILE block tile with a 1 x 1 register tile.
  CostTraits cost_traits(const KernelConfig& config) const override {
    CostTraits traits;
    traits.measured_fraction = measured_fraction_;
    traits.tiles_in_smem = tiles_in_smem_;
    traits.bm = traits.bn = traits.bk = config.get("TILE");
    return traits;
  }

 protected:
  std::optional<std::string> check_params(const KernelConfig& c) const override {
    const int TILE = c.get("TILE"), ALIGN = c.align;
    GEMMTUNE_THREAD_PER_OUTPUT_RULES(GEMMTUNE_HOST_RULE, name_)
    return std::nullopt;
  }

 private:
  std::string_view name_;
  std::string_view summary_;
  bool rows_along_x_;
  double measured_fraction_;
  bool tiles_in_smem_;
  std::string source_;
  std::string template_;
  std::vector<ParamSpec> params_{{"TILE", 32, {8, 16, 32}}};
};

}  // namespace

const KernelFamily& naive_family() {
  static const ThreadPerOutputFamily family("naive", "one thread an output, x along rows (uncoalesced)", true, 0.013,
                                            false);
  return family;
}

const KernelFamily& coalesced_family() {
  static const ThreadPerOutputFamily family("coalesced", "x along columns: coalesced access", false, 0.085, false);
  return family;
}

const KernelFamily& smem_family() {
  static const ThreadPerOutputFamily family("smem", "shared-memory tiling", false, 0.128, true);
  return family;
}

}  // namespace gemmtune
