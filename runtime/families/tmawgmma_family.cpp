// Host side of kernel_templates/tmawgmma.cuh, for its two kernels: tmawgmma (3xTF32, the fp32
// precision class) and tmatf32 (single-pass TF32, the tf32 class). Parameters, legality
// (tmawgmma_rules.h, the list the templates assert), the persistent grid and workspace of its
// tile schedule (tile_schedule.h, the same code the kernel runs), the tensor maps each call
// needs, and what the cost model should know of a persistent kernel.
#include <optional>
#include <string>
#include <vector>

#include "kernel_family.hpp"
#include "tensor_map.hpp"
#include "tile_schedule.h"
#include "tiny_scan.h"
#include "tmawgmma_rules.h"
#include "tma_params.h"

namespace gemmtune {
namespace {

// The parameters, in the order params() declares them: the launch path reads them by position
// (no name lookups on every call).
enum Param { kBM = 0, kBN, kStages, kSchedule, kSplitk, kCluster, kAcopy, kPingpong, kWatch, kCsplit };

// The main loop without the tiny-value watch (WATCH 2), against with it: 1.072, the geometric
// mean of the five large-problem pairs measured on an H100 (nn 4096^3 and 8192^3 with 3 and 4
// stages, nt 4096^3: 1.03-1.11x the speed; bench/results/2026-12-07-h100-watch-scan.md). The scan's own
// read and launch are the model's prepass, which is what makes small problems keep WATCH 1.
constexpr double kWatchByScanGain = 1.072;

// WATCH's searched values: both for 3xTF32, the in-loop watch only for single-pass TF32 (which
// watches nothing, so WATCH 2 is refused there).
std::vector<int> watch_values(int products) {
  return products == 3 ? std::vector<int>{kWatchInLoop, kWatchByScan} : std::vector<int>{kWatchInLoop};
}

class TmaWgmmaFamily final : public KernelFamily {
 public:
  // products: 3 (3xTF32) or 1 (single-pass TF32).
  explicit TmaWgmmaFamily(int products)
      : products_(products),
        params_{{"BM", 128, tile_sides(products)},
                {"BN", 128, tile_sides(products)},
                {"STAGES", 3, {2, 3, 4, 5, 6}},
                {"SCHEDULE", 1, {1, 2, 3}},
                {"SPLITK", 1, {1, 2, 4, 8, 16, 32, 64, 128}},
                // Blocks of a cluster: 2 share each Y tile, copied once from L2 to both
                // (tmawgmma.cuh). Added after names were stored: left out of a name at 1. Not
                // searched: on an H100 (bench/results/2026-12-05-h100-tf32-wide-tiles-and-clusters.md)
                // clusters of 2 moved large squares by -4% to +2%, within the noise, since L2 is not
                // what limits these kernels yet (42% busy); searched, each cluster twin tied with its
                // single-block configuration in the cost model and took half the model's first round.
                {"CLUSTER", 1, {1}, true},
                // Where A is read (tmawgmma_rules.h): 2 serves tn from a transposed copy of A, as
                // nn, which needs no transposing transform of Y every stage. Searched only for tn.
                {"ACOPY", kAcopyAsStored, {kAcopyAsStored, kAcopyTransposed}, true},
                // Two MMA warpgroups taking turns, each on its own tile of 64 X rows
                // (tmawgmma_rules.h), so that one's epilogue overlaps the other's main loop. Added
                // after names were stored: left out of a name at 1. Not searched until measured.
                {"PINGPONG", kPingpongOff, {kPingpongOff}, true},
                // How 3xTF32 finds the tiles that touch a tiny value (tmawgmma_rules.h): 2 scans A
                // and B before the GEMM (tiny_scan.cuh) instead of watching every value in the
                // main loop. Added after names were stored: left out of a name at 1. Searched for
                // 3xTF32 (single-pass TF32 watches nothing): measured 3-10% faster on large
                // problems, 6% slower at 1024^3 (bench/results/2026-12-07-h100-watch-scan.md).
                {"WATCH", kWatchInLoop, watch_values(products), true},
                // Blocks of a cluster that share each split-K unit's k tiles and add their sums in
                // shared memory, rank 0 reading the others' (tmawgmma_rules.h), for tall K such as
                // 64x64x65536: fewer pieces go through L2. Added after names were stored: left out
                // of a name at 1. Not searched: on an H100 it was 18-57% slower than plain split-K
                // 128 on 64x64x65536 (bench/results/2026-12-08-h100-narrow-csplit-tf32x3-watch.md).
                {"CSPLIT", 1, {1}, true}} {}

  std::string_view name() const override { return products_ == 3 ? "tmawgmma" : "tmatf32"; }
  std::string_view summary() const override {
    return products_ == 3 ? "tensor cores: 3xTF32 warpgroup MMA (Hopper), TMA + mbarrier pipeline, warp-specialized, "
                            "persistent data-parallel / split-K / stream-K"
                          : "tensor cores: single-pass TF32 warpgroup MMA (Hopper, tf32 precision only), TMA + "
                            "mbarrier pipeline, warp-specialized, persistent";
  }
  std::string_view source_file() const override { return "tmawgmma.cuh"; }
  std::string_view kernel_template() const override {
    return products_ == 3 ? "gemmtune::tmawgmma_sgemm" : "gemmtune::tmatf32_sgemm";
  }
  const std::vector<ParamSpec>& params() const override { return params_; }
  // TMA reads rows that start on 16 bytes: a call with less alignment (ALIGN 1) is served from
  // aligned copies of A and B in the workspace (operand_staging), and its C is read and written a
  // float at a time.
  std::vector<int> alignments() const override { return {4, 1}; }
  int product_error_units() const override { return products_ == 3 ? k3xTf32ErrorUnits : kTf32ErrorUnits; }
  Precision precision() const override { return products_ == 3 ? Precision::Fp32 : Precision::Tf32; }
  std::optional<std::string> compile_arch(const std::string& device_arch) const override {
    if (device_arch != "sm_90") return std::nullopt;
    return std::string("sm_90a");
  }

  // A strided batch is the tensor maps' third dimension (tmawgmma.cuh). Pointer arrays would need
  // a map an entry; ALIGN 1 stages one entry's aligned copies (operand_staging).
  std::optional<std::string> batch_refusal(const KernelConfig& c, bool pointer_arrays) const override {
    if (pointer_arrays) {
      return std::string(name()) + " reads its operands through one tensor map each and serves strided batches only";
    }
    if (c.align < 4) return std::string(name()) + " with ALIGN 1 serves plain calls only (it stages aligned copies of one entry)";
    if (value(c, kAcopy) == kAcopyTransposed) {
      return std::string(name()) + " with ACOPY 2 serves plain calls only (it stages a transposed copy of one entry's A)";
    }
    return std::nullopt;
  }
  // A tensor map's entries are a dimension of their own: they must not overlap.
  std::optional<std::string> stride_refusal(const KernelConfig& c, const GemmParams& p) const override {
    for (const MatrixView& m : {stored_a(c.layout, p), stored_b(c.layout, p)}) {  // the call's
      if (m.batch_stride < m.rows * m.ld) {
        return std::string(name()) + " needs batch entries that do not overlap: " + std::string(1, m.name) +
               "'s stride " + std::to_string(m.batch_stride) + " is below its entry's " + std::to_string(m.rows) +
               " rows x ld " + std::to_string(m.ld);
      }
    }
    return std::nullopt;
  }

  // K far deeper than M and N (64x64x65536): the default's data-parallel 128x128 tiles would give
  // one SM all the work; this split of K over 64x64 tiles won that problem on the H200
  // (2026-12-02-h200-tuning-cost-and-untuned.md). And for 3xTF32, the default with WATCH 2, which
  // the cost model ranks first where the main loop is long enough to repay the scan (measured
  // 3-10% faster on large problems, 6% slower at 1024^3: 2026-12-07-h100-watch-scan.md).
  std::vector<std::vector<std::pair<std::string, int>>> shape_defaults() const override {
    std::vector<std::vector<std::pair<std::string, int>>> defaults = {
        {{"BM", 64}, {"BN", 64}, {"STAGES", 6}, {"SCHEDULE", static_cast<int>(Schedule::SplitK)}, {"SPLITK", 128}}};
    if (products_ == 3) defaults.push_back({{"WATCH", kWatchByScan}});
    return defaults;
  }

  // tn from a transposed copy of A (ACOPY 2), measured first beside the default: the cost model
  // does not know what tn's transposing transform costs against the copy. Outside tn the seed is
  // illegal and left out.
  std::vector<std::vector<std::pair<std::string, int>>> search_seeds() const override {
    return {{{"ACOPY", kAcopyTransposed}}};
  }

  bool worth_searching(const KernelConfig& c, const Problem& problem, int sm_count) const override {
    const TileSchedule s = schedule(c, problem, sm_count);
    // A cluster's second block would have no rows of X of its own.
    const Layout layout = kernel_layout(c);
    const int x_tile = tmawgmma_rows_x(value(c, kBM), value(c, kBN), layout);
    if (value(c, kCluster) > 1 && (layout == Layout::NN ? problem.N : problem.M) <= x_tile) return false;
    // Narrow Y tiles (16 or 32 rows) only where a 64-row tile would be mostly padding.
    const int y_tile = tmawgmma_rows_y(value(c, kBM), value(c, kBN), layout);
    if (y_tile < 64 && (layout == Layout::NN ? problem.M : problem.N) > 32) return false;
    switch (static_cast<Schedule>(c.get("SCHEDULE"))) {
      case Schedule::SplitK:  // only while the tiles alone leave SMs idle, with K to split; one
                              // slice walks as data-parallel does, a second compile of one kernel
        return c.get("SPLITK") > 1 && s.tiles() < sm_count && s.k_tiles >= 2 * c.get("SPLITK");
      case Schedule::StreamK:  // differs from data-parallel only where the tiles do not divide the SMs
        return s.sk_tiles > 0;
      case Schedule::DataParallel:
        return true;
    }
    return true;
  }

  std::size_t dynamic_smem_bytes(const KernelConfig& c) const override {
    return static_cast<std::size_t>(
        tmawgmma_smem_bytes(value(c, kBM), value(c, kBN), value(c, kStages), kernel_layout(c), products_, value(c, kCsplit)));
  }

  // A persistent grid: at most one block an SM, sized by the device (tile_schedule.h), of clusters
  // of CLUSTER x CSPLIT blocks (the kernel names its cluster shape itself: __cluster_dims__).
  LaunchShape launch_shape(const KernelConfig& c, const Problem& problem, const DeviceTraits& device) const override {
    const TileSchedule s = schedule(c, problem, device.sm_count);
    const unsigned threads =
        static_cast<unsigned>(tmawgmma_threads(value(c, kBM), value(c, kBN), kernel_layout(c), value(c, kPingpong)));
    return {{static_cast<unsigned>(s.grid * cluster_blocks(c)), 1, 1}, {threads, 1, 1}, dynamic_smem_bytes(c)};
  }

  // The kernel's own scratch (kernel_workspace_floats); with ALIGN 1 or ACOPY 2, the copies of A
  // (and B) follow (operand_staging).
  std::size_t workspace_floats(const KernelConfig& c, const Problem& problem, const DeviceTraits& device) const override {
    if (auto staging = operand_staging(c, problem, device)) return static_cast<std::size_t>(staging->end);
    return kernel_workspace_floats(c, problem, device);
  }

  std::size_t workspace_counter_floats(const KernelConfig& c, const Problem& problem,
                                       const DeviceTraits& device) const override {
    return static_cast<std::size_t>(schedule(c, problem, device.sm_count).counter_words());
  }

  // WATCH 2: the tiny-value scan, a block a flag, writing the flags after the kernel's scratch.
  std::optional<Prepass> prepass(const KernelConfig& c, const Problem& problem, const DeviceTraits& device) const override {
    if (value(c, kWatch) != kWatchByScan) return std::nullopt;
    return tiny_scan_prepass(
        problem, tmawgmma_tiny_flags_offset(schedule(c, problem, device.sm_count), value(c, kBM), value(c, kBN)));
  }

  // X and Y as the kernel reads them (the layout it runs in: nn for ACOPY 2), and the flags.
  void build_prepass_arguments(const KernelConfig& c, const GemmParams& p, const Prepass& prepass,
                               KernelArguments& out) const override {
    const Layout layout = kernel_layout(c);
    const MatrixView a = stored_a(layout, p);
    const MatrixView b = stored_b(layout, p);
    // A's rows are M; it is K-contiguous unless transposed. B's rows are N; K-contiguous when transposed.
    const TinyScanOperand scan_a{a.base, a.ld, a.batch_stride, p.M, a_is_transposed(layout) ? 0 : 1};
    const TinyScanOperand scan_b{b.base, b.ld, b.batch_stride, p.N, b_is_transposed(layout) ? 1 : 0};
    TinyScanParams args{};
    const bool b_is_x = layout == Layout::NN;  // tmawgmma.cuh's roles: X = op(B)^T for nn
    args.operand[0] = b_is_x ? scan_b : scan_a;
    args.operand[1] = b_is_x ? scan_a : scan_b;
    args.flags = reinterpret_cast<unsigned*>(p.workspace + prepass.workspace_offset);
    args.K = p.K;
    args.entries = p.batch < 1 ? 1 : p.batch;
    out.set(args);
  }

  std::optional<StagedOperandLayout> operand_staging(const KernelConfig& c, const Problem& problem,
                                                     const DeviceTraits& device) const override {
    StagingRequest request;
    request.align_rows = c.align < 4;
    request.transpose_a = value(c, kAcopy) == kAcopyTransposed;
    if (!request.align_rows && !request.transpose_a) return std::nullopt;
    return staged_operand_layout(c.layout, problem.M, problem.N, problem.K, kernel_workspace_floats(c, problem, device),
                                 request);
  }

  // GemmParams and the tensor maps of the two operands as the kernel reads them: which is X and
  // which is Y, and their boxes, per layout (tmawgmma.cuh). For ACOPY 2, `p` already points at the
  // transposed copy of A (operand_staging), and the kernel runs as nn.
  void build_arguments(const KernelConfig& c, const GemmParams& p, KernelArguments& out) const override {
    const Layout layout = kernel_layout(c);
    const int x_rows = tmawgmma_rows_x(value(c, kBM), value(c, kBN), layout);
    // Each block of a cluster copies its share of the Y tile's rows (a box) for all of them.
    const int y_rows = (value(c, kBM) + value(c, kBN) - x_rows) / value(c, kCluster);
    // Stored shapes (rows x cols, ld) of A and B.
    const MatrixView a = stored_a(layout, p);
    const MatrixView b = stored_b(layout, p);
    TmaGemmParams args{};
    args.gemm = p;
    switch (layout) {
      case Layout::NT:  // X = A (M x K), Y = B (N x K): both K-contiguous, one box a tile each
        args.x = encode_matrix_tensor_map(a, x_rows, kTmaTileK);
        args.y = encode_matrix_tensor_map(b, y_rows, kTmaTileK);
        break;
      case Layout::TT:  // X = A (K x M): 32 x 32 boxes; Y = B (N x K)
        args.x = encode_matrix_tensor_map(a, kTmaTileK, 32);
        args.y = encode_matrix_tensor_map(b, y_rows, kTmaTileK);
        break;
      case Layout::NN:  // X = B (K x N): 32 x 32 boxes; Y = A (M x K)
        args.x = encode_matrix_tensor_map(b, kTmaTileK, 32);
        args.y = encode_matrix_tensor_map(a, y_rows, kTmaTileK);
        break;
      case Layout::TN:  // X = A (K x M), Y = B (K x N): both in 32 x 32 boxes
        args.x = encode_matrix_tensor_map(a, kTmaTileK, 32);
        args.y = encode_matrix_tensor_map(b, kTmaTileK, 32);
        break;
    }
    out.set(args);
  }

  // A warpgroup's 64 x BS tile, as wgmma's: BS / 2 accumulators a thread (8 x BS / 16), as many
  // for 3xTF32's tile sum, and the register operand's fragments (16 registers a k tile, twice for
  // big and small parts). The fractions were set from tmawgmma's first run (eaf1000, 1.85x cuBLAS
  // at 4096^3 with 4 stages) and a guess for tmatf32 (3.0). The defaults (128 x 128, data-parallel,
  // 3 stages) now measure more at nn 4096^3 on the H200 against cuBLAS pedantic FP32 (2.71 ms):
  // tmawgmma 1.244 ms, 2.18x; tmatf32 0.527 ms, 5.1x (bench/results/2026-12-06-h200-acopy.md).
  // Not raised yet: the fractions also place the families for untuned calls (the runtime's
  // defaults against neighbours' winners, tests/dispatch), and raised, tmawgmma's default would
  // displace a neighbour's measured winner at 256^3, a change no untuned run has measured.
  // tmatf32's ceiling is the TF32 rate (~495 TFLOPS, 7.4x the FP32 FMA peak).
  // tn's kernel (ACOPY 1) also transposes Y in the transform warps every stage: measured against
  // nn at 4096^3, 3xTF32 1.56 ms against 1.24 (128 x 128 both, H200), single pass 0.86 against
  // 0.41 (each layout's best tile) (bench/results/2026-12-06-h200-acopy.md). The model does not
  // charge tn for it: the other families' fractions are nn's too, and charged here alone, tn's
  // untuned calls went to wgmma's default (ranked 1.455 ms against 1.475 at 4096^3; wgmma runs
  // that problem in 1.75 ms, 2026-12-01-h200-targets-wgmma.md). So the model ranks ACOPY 2
  // below ACOPY 1 by its copy, and the tuner measures ACOPY 2 as a seed (search_seeds).
  // WATCH 2 takes the tiny-value watch out of 3xTF32's main loop for a scan before it (charged by
  // the model as a prepass): its loop is faster by kWatchByScanGain.
  CostTraits cost_traits(const KernelConfig& c) const override {
    CostTraits traits;
    traits.measured_fraction = products_ == 3 ? 1.8 : 3.0;
    if (value(c, kWatch) == kWatchByScan) traits.measured_fraction *= kWatchByScanGain;
    traits.peak_factor = products_ == 3 ? 2.4 : 7.4;
    traits.tiles_in_smem = true;
    traits.vector_access = true;
    traits.bm = value(c, kBM);
    traits.bn = value(c, kBN);
    traits.bk = kTmaTileK;
    const int y_rows = traits.bm + traits.bn - tmawgmma_rows_x(traits.bm, traits.bn, kernel_layout(c));
    traits.tm = 8;
    traits.tn = y_rows / 16;
    traits.extra_registers = products_ == 3 ? y_rows / 2 + 32 : 16;
    traits.stages = value(c, kStages);
    traits.split_k =
        static_cast<Schedule>(value(c, kSchedule)) == Schedule::SplitK ? value(c, kSplitk) * value(c, kCsplit) : 1;
    return traits;
  }

  // The work of a persistent block is its units, not one tile (tile_schedule.h): the busiest
  // block's units, and all units, for the cost model.
  std::optional<PersistentWork> persistent_work(const KernelConfig& c, const Problem& problem, const DeviceTraits& device) const override {
    const TileSchedule s = schedule(c, problem, device.sm_count);
    // A cluster's unit is a tile (CLUSTER), or a share of its k tiles (CSPLIT), for each of its
    // blocks: the grid's units are blocks' units.
    const double units = static_cast<double>(s.tiles()) * s.splitk * cluster_blocks(c);
    if (s.schedule == Schedule::StreamK && s.sk_tiles > 0) {
      // Stream-K spreads the k iterations evenly; each block also pays up to two partial tiles'
      // fix-ups (a tenth of a tile, as a guess).
      return PersistentWork{units / s.grid + 0.1, units};
    }
    const long long cluster_units = static_cast<long long>(s.tiles()) * s.splitk;  // a cluster walks these
    return PersistentWork{static_cast<double>((cluster_units + s.grid - 1) / s.grid), units};
  }

 protected:
  std::optional<std::string> check_params(const KernelConfig& c) const override {
    const int BM = value(c, kBM), BN = value(c, kBN), STAGES = value(c, kStages), SCHEDULE = value(c, kSchedule),
              SPLITK = value(c, kSplitk), CLUSTER = value(c, kCluster), ACOPY = value(c, kAcopy),
              PINGPONG = value(c, kPingpong), WATCH = value(c, kWatch), CSPLIT = value(c, kCsplit), ALIGN = c.align;
    const Layout L = c.layout;
    const Layout KL = tmawgmma_kernel_layout(L, ACOPY);
    const int PRODUCTS = products_;
    const long long SMEM_BYTES = tmawgmma_smem_bytes(BM, BN, STAGES, KL, PRODUCTS, CSPLIT);
    GEMMTUNE_TMAWGMMA_RULES(GEMMTUNE_HOST_RULE, name())
    return std::nullopt;
  }

 private:
  static int value(const KernelConfig& c, Param param) { return c.params[param].second; }
  // The blocks of a cluster: CLUSTER sharing Y tiles, or CSPLIT sharing a unit's k tiles.
  static int cluster_blocks(const KernelConfig& c) { return value(c, kCluster) * value(c, kCsplit); }
  // The layout the kernel reads its operands in (nn for a tn call with ACOPY 2).
  static Layout kernel_layout(const KernelConfig& c) { return tmawgmma_kernel_layout(c.layout, value(c, kAcopy)); }

  // A and B as stored (rows x cols, ld), with the call's batch.
  static MatrixView stored_a(Layout layout, const GemmParams& p) {
    const bool t = a_is_transposed(layout);
    return MatrixView{p.A, t ? p.K : p.M, t ? p.M : p.K, p.lda, 'A', p.batch, p.stride_a};
  }
  static MatrixView stored_b(Layout layout, const GemmParams& p) {
    const bool t = b_is_transposed(layout);
    return MatrixView{p.B, t ? p.N : p.K, t ? p.K : p.N, p.ldb, 'B', p.batch, p.stride_b};
  }

  // The kernel's own scratch: [arrival counters (TileSchedule::counter_words)][partial slots of
  // one tile each].
  std::size_t kernel_workspace_floats(const KernelConfig& c, const Problem& problem, const DeviceTraits& device) const {
    const TileSchedule s = schedule(c, problem, device.sm_count);
    if (value(c, kWatch) == kWatchByScan) {
      return static_cast<std::size_t>(tmawgmma_tiny_flags_offset(s, value(c, kBM), value(c, kBN)) +
                                      tiny_flags_of_call(problem.M, problem.N, problem.K, problem.batch));
    }
    return static_cast<std::size_t>(tmawgmma_scratch_floats(s, value(c, kBM), value(c, kBN)));
  }

  // The schedule of the clusters (tmawgmma.cuh): units of CLUSTER X tiles, at most one cluster
  // a CLUSTER x CSPLIT SMs.
  static TileSchedule schedule(const KernelConfig& c, const Problem& problem, int sm_count) {
    const Layout layout = kernel_layout(c);
    const int x_rows = tmawgmma_rows_x(value(c, kBM), value(c, kBN), layout);
    const int cluster = value(c, kCluster);
    const bool swap = layout == Layout::NN;
    return make_tile_schedule(swap ? problem.N : problem.M, swap ? problem.M : problem.N, problem.K, x_rows * cluster,
                              value(c, kBM) + value(c, kBN) - x_rows, kTmaTileK, sm_count / cluster_blocks(c),
                              static_cast<Schedule>(value(c, kSchedule)), value(c, kSplitk), problem.batch);
  }

  // The truncating split (tmawgmma.cuh): 2^-21 |a b| for each rounded small part and 2^-20 for
  // the dropped a_small b_small, 32 units; plus the tensor cores' truncating accumulation within a
  // tile, as for wgmma (12 truncations of at most 2 units), 24.
  static constexpr int k3xTf32ErrorUnits = 56;
  // Single-pass TF32: each operand truncated by less than 2^-10 of itself, 2^-9 |a b| (2^15
  // units), and the tensor cores' truncating accumulation over all of K (up to 2 units an add of
  // the running sum, covered for K up to 2^15).
  static constexpr int kTf32ErrorUnits = 3 << 15;

  // The sides a tile is searched with. Single-pass TF32 can also be 256 wide on the side the MMA
  // reads from shared memory (tmawgmma_rules.h): a quarter fewer operand bytes an output than
  // 128 x 128. That side may also be 16 or 32 wide (narrow Y tiles), searched only for problems
  // with at most 32 rows of Y, e.g. 16x4096x4096 nn (worth_searching).
  static std::vector<int> tile_sides(int products) {
    return products == 3 ? std::vector<int>{16, 32, 64, 128} : std::vector<int>{16, 32, 64, 128, 256};
  }

  int products_;
  std::vector<ParamSpec> params_;
};

}  // namespace

const KernelFamily& tmawgmma_family() {
  static const TmaWgmmaFamily tmawgmma(3);
  return tmawgmma;
}

const KernelFamily& tmatf32_family() {
  static const TmaWgmmaFamily tmatf32(1);
  return tmatf32;
}

}  // namespace gemmtune
