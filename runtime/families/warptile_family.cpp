// Host side of kernel_templates/warptile.cuh (rules and sizes: warptile_rules.h); the grid, the
// split-K workspace and search rule are WarpTiledFamily's (warp_tiled_family.hpp).
#include <string>

#include "warp_tiled_family.hpp"
#include "warptile_rules.h"

namespace gemmtune {
namespace {

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

  std::size_t dynamic_smem_bytes(const KernelConfig& c) const override {
    return static_cast<std::size_t>(warptile_smem_bytes(c.get("BM"), c.get("BN"), c.get("BK"), c.get("STAGES")));
  }

  // 1.46 is the fraction the cost model gave families it had no measurement of (then wgmma's,
  // the last of its table): warptile's ranking against the other families was tuned with it.
  // The H200's fastest FFMA tiles at 4096^3 to 8192^3 (bench/results/2026-12-02-h200-ffma-fragbuf.md):
  // one block an SM of 16x8 thread tiles, which the cost model ranks below the 8x8 default.
  std::vector<std::vector<std::pair<std::string, int>>> search_seeds() const override {
    return {{{"BM", 256}, {"BK", 16}, {"WM", 64}, {"TM", 16}, {"FRAGBUF", 2}},
            {{"BM", 256}, {"BK", 32}, {"WN", 128}, {"TM", 16}},
            {{"BN", 256}, {"WM", 64}, {"TN", 16}}};
  }

  // COPY 2 stages one call's copies: a batch's entries would each need theirs.
  std::optional<std::string> batch_refusal(const KernelConfig& c, bool pointer_arrays) const override {
    if (c.get("COPY") == 2) {
      return std::string(name()) + " with COPY 2 serves plain calls only (it stages one call's aligned copies of A and B)";
    }
    return WarpTiledFamily::batch_refusal(c, pointer_arrays);
  }

  // The split-K scratch, then (COPY 2) the aligned copies of A and B (operand_staging).
  std::size_t workspace_floats(const KernelConfig& c, const Problem& problem, const DeviceTraits& device) const override {
    if (auto staging = operand_staging(c, problem, device)) return static_cast<std::size_t>(staging->end);
    return WarpTiledFamily::workspace_floats(c, problem, device);
  }

  std::optional<StagedOperandLayout> operand_staging(const KernelConfig& c, const Problem& problem,
                                                     const DeviceTraits& device) const override {
    if (c.get("COPY") != 2) return std::nullopt;
    return staged_operand_layout(c.layout, problem.M, problem.N, problem.K,
                                 WarpTiledFamily::workspace_floats(c, problem, device));
  }

  CostTraits cost_traits(const KernelConfig& c) const override {
    CostTraits traits;
    traits.measured_fraction = 1.46;
    traits.tiles_in_smem = true;
    traits.vector_access = true;
    traits.operand_align = warptile_operand_align(c.get("COPY"), c.align);
    traits.bm = c.get("BM");
    traits.bn = c.get("BN");
    traits.bk = c.get("BK");
    traits.tm = c.get("TM");
    traits.tn = c.get("TN");
    traits.stages = c.get("STAGES");
    traits.split_k = c.get("SPLITK");
    // Uncapped (REGS 2), ptxas took 143 registers for the 8x8 default, 39 above the model's count:
    // one block of 256 threads an SM instead of two.
    if (c.get("REGS") == 2) traits.extra_registers = 40;
    return traits;
  }

 protected:
  int threads(const KernelConfig& c) const override {
    return static_cast<int>(warptile_threads(c.get("BM"), c.get("BN"), c.get("WM"), c.get("WN")));
  }

  std::optional<std::string> check_params(const KernelConfig& c) const override {
    const int BM = c.get("BM"), BN = c.get("BN"), BK = c.get("BK"), WM = c.get("WM"), WN = c.get("WN"),
              TM = c.get("TM"), TN = c.get("TN"), STAGES = c.get("STAGES"), SPLITK = c.get("SPLITK"),
              FRAGBUF = c.get("FRAGBUF"), ORDER = c.get("ORDER"), COPY = c.get("COPY"), REGS = c.get("REGS"), ALIGN = c.align;
    const int OPERAND_ALIGN = warptile_operand_align(COPY, ALIGN);
    const Layout L = c.layout;
    const long long THREADS = warptile_threads(BM, BN, WM, WN);
    const long long SMEM_BYTES = warptile_smem_bytes(BM, BN, BK, STAGES);
    GEMMTUNE_WARPTILE_RULES(GEMMTUNE_HOST_RULE, name())
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
                                 // (256 slices, legal and tested, is not searched: on an H100
                                 // it was 10% slower than 128 on 64x64x65536, docs/performance.md.)
                                 {"SPLITK", 1, {1, 4, 16, 64, 128}},
                                 // Fragment buffers: 2 double-buffers them across k steps and
                                 // tiles (warptile.cuh says why and what it costs).
                                 {"FRAGBUF", 1, {1, 2}, true},
                                 // The order of a k step's FFMAs: 1 row by row, 2 down pairs of
                                 // columns (warptile.cuh; docs/performance.md says what it does).
                                 {"ORDER", 1, {1, 2}, true},
                                 // 2: a call whose rows are not 16-byte aligned is served from
                                 // aligned copies of A and B (warptile.cuh; refused at ALIGN 4).
                                 {"COPY", 1, {1, 2}, true},
                                 // 2: no register cap for tiles REGS 1 holds to 128 registers
                                 // (warptile_rules.h's warptile_min_blocks says why it is searched).
                                 {"REGS", 1, {1, 2}, true}};
};

}  // namespace

const KernelFamily& warptile_family() {
  static const WarptileFamily warptile;
  return warptile;
}

}  // namespace gemmtune
