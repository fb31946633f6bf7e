// Every kernel family against an FP64 CPU reference on the GPU: odd sizes, all layouts,
// alpha != 1, beta != 0 and beta == 0 (with C poisoned by NaN), leading dimensions above the
// minimum with poisoned padding, and misaligned pointers.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "cuda_handles.hpp"
#include "family_registry.hpp"
#include "gemm_call.hpp"
#include "kernel_name.hpp"
#include "loaded_kernel.hpp"
#include "nvrtc_compiler.hpp"
#include "support/compile_in_parallel.hpp"
#include "support/family_test_cases.hpp"
#include "support/gpu_or_skip.hpp"
#include "support/host_gemm.hpp"
#include "support/tma_tile_sides.hpp"
#include "workspace.hpp"

namespace gemmtune {
namespace {

using testing::HostProblem;

constexpr float kPad = -7777.0f;  // fills padding; must survive every run
const float kNaN = std::numeric_limits<float>::quiet_NaN();

struct Shape {
  int M, N, K;
};
const Shape kShapes[] = {{1, 1, 1}, {7, 13, 5}, {33, 65, 17}, {129, 257, 65}, {1000, 999, 777}};

// A leading dimension above the minimum: for an aligned run, the next multiple of 4 plus 4; for
// an unaligned one, the minimum plus 3 (odd, so 64- and 128-bit accesses would be misaligned).
long long padded_ld(long long minimum, bool aligned) { return aligned ? (minimum + 3) / 4 * 4 + 4 : minimum + 3; }

// Runs `kernel` on `p` stored in the kernel's layout with leading dimensions above the minimum
// (see padded_ld) and, unaligned, every pointer one float past an aligned allocation; returns
// the check's failures ("" when all is well).
// `shared`: a workspace the caller keeps from run to run (as the runtime keeps one a stream);
// without it, a new one.
std::string run_and_check(const LoadedKernel& kernel, const HostProblem& p, float alpha, float beta, bool aligned,
                          Workspace* shared = nullptr) {
  const Layout layout = kernel.config().layout;
  const bool a_t = a_is_transposed(layout), b_t = b_is_transposed(layout);
  const long long lda = padded_ld(a_t ? p.M : p.K, aligned);
  const long long ldb = padded_ld(b_t ? p.K : p.N, aligned);
  const long long ldc = padded_ld(p.N, aligned);
  const int offset = aligned ? 0 : 1;
  const std::vector<float> a = testing::store_operand(p.a, p.M, p.K, a_t, lda, offset, kNaN);
  const std::vector<float> b = testing::store_operand(p.b, p.K, p.N, b_t, ldb, offset, kNaN);
  // beta == 0 must not read C: poison it with NaN. Padding columns get kPad, checked after.
  std::vector<float> c = testing::store_operand(beta == 0.0f ? std::vector<float>(p.c0.size(), kNaN) : p.c0,
                                                p.M, p.N, false, ldc, offset, kPad);
  DeviceBuffer<float> a_dev(a.size()), b_dev(b.size()), c_dev(c.size());
  a_dev.upload(a);
  b_dev.upload(b);
  c_dev.upload(c);
  GemmParams params{p.M, p.N, p.K, alpha, beta, a_dev.data() + offset, lda, b_dev.data() + offset, ldb,
                    c_dev.data() + offset, ldc, nullptr, 0};
  Workspace own;
  (shared != nullptr ? *shared : own).attach(kernel, params, nullptr);
  kernel.launch(params, nullptr);
  GT_CUDA(cudaDeviceSynchronize(), kernel.name());
  return testing::check_result(p, alpha, beta, c_dev.download(), ldc, offset, kPad,
                               find_family(kernel.config().family).product_error_units());
}

// `family`'s nn default at alignment `align` with some parameters changed.
KernelConfig variant(const char* family, std::initializer_list<std::pair<const char*, int>> changes, int align = 1) {
  KernelConfig config = find_family(family).default_config(Layout::NN, align);
  for (auto [param, value] : changes) config.set(param, value);
  return config;
}

// Every family's defaults (its shape defaults too), plus the variants whose code paths differ: split-K (one
// level of sums, and the two-level tree above 16 slices), two and four pipeline stages, another
// warp shape.
std::vector<KernelConfig> configs_under_test() {
  std::vector<KernelConfig> configs;
  for (const KernelFamily* family : all_families()) {
    for (KernelConfig& config : family->default_configs(Layout::NN, 1)) configs.push_back(std::move(config));
  }
  for (const char* pipelined : {"warptile", "tf32x3", "wgmma"}) {
    for (auto change : {std::pair<const char*, int>{"SPLITK", 4}, {"SPLITK", 16}, {"SPLITK", 64}, {"STAGES", 2}, {"STAGES", 4}}) {
      configs.push_back(variant(pipelined, {change}));
    }
  }
  configs.push_back(variant("warptile", {{"BK", 16}, {"WM", 64}, {"WN", 32}}));
  // 256 slices (16 groups of 16 in the sum's second level), most of them empty on short K.
  configs.push_back(variant("warptile", {{"SPLITK", 256}, {"BM", 64}, {"BN", 64}, {"WM", 16}, {"TN", 4}, {"BK", 32}}));
  // Double-buffered fragments: one piece a tile (BK 8) and several (BK 32), two and three stages,
  // cuBLAS's 256 x 128 block of 64 x 64 warp tiles, and with split-K.
  configs.push_back(variant("warptile", {{"FRAGBUF", 2}}));
  configs.push_back(variant("warptile", {{"FRAGBUF", 2}, {"BK", 32}, {"STAGES", 2}}));
  configs.push_back(variant("warptile", {{"FRAGBUF", 2}, {"BM", 256}, {"WM", 64}, {"TM", 16}}));
  configs.push_back(variant("warptile", {{"FRAGBUF", 2}, {"SPLITK", 16}, {"BK", 16}}));
  // The other FFMA order: the default's 8x8 tiles, and the 16x8 FRAGBUF 2 seed (BK 16).
  configs.push_back(variant("warptile", {{"ORDER", 2}}));
  configs.push_back(
      variant("warptile", {{"ORDER", 2}, {"FRAGBUF", 2}, {"BM", 256}, {"BK", 16}, {"WM", 64}, {"TM", 16}}));
  // Misaligned calls served from aligned copies of A and B: the default, with split-K (the
  // copies after the partial sums in the workspace), and the tile that won 1000x999x777 on the
  // H100 at ALIGN 1 (8 x 4 thread tiles, double-buffered fragments, 16 wide k tiles).
  configs.push_back(variant("warptile", {{"COPY", 2}}));
  configs.push_back(variant("warptile", {{"COPY", 2}, {"SPLITK", 16}, {"BK", 16}}));
  configs.push_back(variant("warptile", {{"COPY", 2}, {"BM", 64}, {"BK", 16}, {"WM", 16}, {"TN", 4}, {"FRAGBUF", 2},
                                         {"ORDER", 2}}));
  // No register cap (REGS 2): the default, whose epilogue then keeps 8 runs of C in flight, and
  // the 64 x 128 tile of 8 x 4 thread tiles with split-K.
  configs.push_back(variant("warptile", {{"REGS", 2}}));
  configs.push_back(variant("warptile", {{"REGS", 2}, {"BM", 64}, {"BK", 16}, {"WM", 16}, {"TN", 4}, {"SPLITK", 4}}));
  // 64 x 64 warp tiles in a 4-warp block, and BK 16 with 32 x 32 warp tiles in a 16-warp one.
  configs.push_back(variant("tf32x3", {{"WN", 64}}));
  configs.push_back(variant("tf32x3", {{"BK", 16}, {"WM", 32}, {"WN", 32}}));
  // The special-value watch out of the loop (WATCH 2): the scan's flags, alone and after split-K's
  // workspace in two levels.
  configs.push_back(variant("tf32x3", {{"WATCH", 2}}));
  configs.push_back(variant("tf32x3", {{"WATCH", 2}, {"SPLITK", 32}, {"BK", 16}}));
  // One warpgroup with wgmma's N of 64 and 2 k steps a tile; three warpgroups (a block of 384
  // threads, which splits B in uneven shares).
  configs.push_back(variant("wgmma", {{"BM", 64}, {"BN", 64}, {"BK", 16}}));
  configs.push_back(variant("wgmma", {{"BM", 192}, {"BN", 64}}));
  // tmawgmma's schedules (its default is data-parallel): stream-K, split-K with one level of sums
  // and with empty slices on short K, one MMA warpgroup (64-row tiles, either orientation), and
  // the shallowest pipeline.
  configs.push_back(variant("tmawgmma", {{"SCHEDULE", 3}}));
  configs.push_back(variant("tmawgmma", {{"SCHEDULE", 2}, {"SPLITK", 4}}));
  configs.push_back(variant("tmawgmma", {{"SCHEDULE", 2}, {"SPLITK", 32}}));
  configs.push_back(variant("tmawgmma", {{"BM", 64}, {"BN", 64}, {"SCHEDULE", 3}}));
  configs.push_back(variant("tmawgmma", {{"BM", 64}, {"BN", 128}, {"SCHEDULE", 1}}));
  configs.push_back(variant("tmawgmma", {{"BM", 128}, {"BN", 64}, {"STAGES", 2}}));
  // tmatf32's other schedules: its fix-ups run with a single-pass main loop's registers.
  configs.push_back(variant("tmatf32", {{"SCHEDULE", 3}}));
  configs.push_back(variant("tmatf32", {{"SCHEDULE", 2}, {"SPLITK", 4}}));
  configs.push_back(variant("tmatf32", {{"SCHEDULE", 2}, {"SPLITK", 32}}));
  configs.push_back(variant("tmatf32", {{"BM", 64}, {"BN", 128}, {"SCHEDULE", 1}}));
  // A 256-wide tile (the epilogue and the FFMA redo in passes; see tma_sides_in_layout), and clusters of
  // two blocks sharing each Y tile (multicast copies, stages released across the cluster).
  configs.push_back(variant("tmatf32", {{"BM", 256}, {"STAGES", 2}}));
  configs.push_back(variant("tmatf32", {{"BM", 256}, {"STAGES", 2}, {"CLUSTER", 2}}));
  configs.push_back(variant("tmawgmma", {{"CLUSTER", 2}}));
  configs.push_back(variant("tmawgmma", {{"BM", 64}, {"BN", 64}, {"CLUSTER", 2}}));
  // tn from a transposed copy of A (ACOPY 2: tn only, the other layouts leave it out), with a
  // one-warpgroup tile under stream-K, and single-pass.
  configs.push_back(variant("tmawgmma", {{"ACOPY", 2}}));
  configs.push_back(variant("tmawgmma", {{"ACOPY", 2}, {"BM", 64}, {"BN", 64}, {"SCHEDULE", 3}}));
  configs.push_back(variant("tmatf32", {{"ACOPY", 2}}));
  // Two MMA warpgroups taking turns on tiles of 64 X rows (PINGPONG 2; written for nn, see
  // tma_sides_in_layout): data-parallel, stream-K and split-K (each warpgroup its own arrival word),
  // misaligned through the staged copies, tn from a transposed copy, and single-pass.
  configs.push_back(variant("tmawgmma", {{"PINGPONG", 2}, {"BN", 64}}));
  configs.push_back(variant("tmawgmma", {{"PINGPONG", 2}, {"BM", 64}, {"BN", 64}, {"SCHEDULE", 3}}));
  configs.push_back(variant("tmawgmma", {{"PINGPONG", 2}, {"BN", 64}, {"SCHEDULE", 2}, {"SPLITK", 4}}));
  configs.push_back(variant("tmawgmma", {{"PINGPONG", 2}, {"BN", 64}, {"ACOPY", 2}}));
  configs.push_back(variant("tmatf32", {{"PINGPONG", 2}, {"BN", 64}}));
  configs.push_back(variant("tmatf32", {{"PINGPONG", 2}, {"BN", 64}, {"SCHEDULE", 3}}));
  configs.push_back(variant("tmatf32", {{"PINGPONG", 2}, {"BM", 256}, {"BN", 64}}));
  // 3xTF32 told of tiny values by a scan of A and B before the GEMM (WATCH 2): its flags after
  // the partial sums of split-K and stream-K, through the staged copies (ALIGN 1, ACOPY 2).
  configs.push_back(variant("tmawgmma", {{"WATCH", 2}}));
  configs.push_back(variant("tmawgmma", {{"WATCH", 2}, {"SCHEDULE", 2}, {"SPLITK", 4}}));
  configs.push_back(variant("tmawgmma", {{"WATCH", 2}, {"BM", 64}, {"BN", 64}, {"SCHEDULE", 3}}));
  configs.push_back(variant("tmawgmma", {{"WATCH", 2}, {"ACOPY", 2}}));
  // Narrow Y tiles (16 or 32 rows read from shared memory: A's for nn, B's otherwise): split-K
  // over 128-wide X tiles (16x4096x4096's shape), stream-K, the tiny-value scan, tn from a
  // transposed copy of A, and single-pass TF32. tn read as stored refuses 16 (its blocks are 32).
  configs.push_back(variant("tmawgmma", {{"BM", 16}, {"BN", 128}, {"SCHEDULE", 2}, {"SPLITK", 4}}));
  configs.push_back(variant("tmawgmma", {{"BM", 32}, {"BN", 64}, {"SCHEDULE", 3}}));
  configs.push_back(variant("tmawgmma", {{"BM", 16}, {"BN", 64}, {"WATCH", 2}, {"STAGES", 8}}));
  configs.push_back(variant("tmawgmma", {{"BM", 16}, {"BN", 128}, {"ACOPY", 2}}));
  configs.push_back(variant("tmatf32", {{"BM", 16}, {"BN", 128}}));
  configs.push_back(variant("tmatf32", {{"BM", 32}, {"BN", 128}, {"SCHEDULE", 2}, {"SPLITK", 4}}));
  // Split-K summed in a cluster's shared memory (CSPLIT): 8 blocks a unit with two units a tile in
  // L2, 128-wide tiles, the sum in the cluster alone, and with a narrow Y tile and the scan.
  configs.push_back(variant("tmawgmma", {{"BM", 64}, {"BN", 64}, {"SCHEDULE", 2}, {"SPLITK", 2}, {"CSPLIT", 8}}));
  configs.push_back(variant("tmawgmma", {{"SCHEDULE", 2}, {"SPLITK", 2}, {"CSPLIT", 2}, {"STAGES", 2}}));
  configs.push_back(variant("tmawgmma", {{"BM", 16}, {"BN", 64}, {"SCHEDULE", 2}, {"SPLITK", 1}, {"CSPLIT", 4}, {"WATCH", 2}}));
  configs.push_back(variant("tmatf32", {{"BM", 64}, {"BN", 64}, {"SCHEDULE", 2}, {"SPLITK", 1}, {"CSPLIT", 8}}));
  configs.push_back(variant("skinny", {{"SPLITK", 32}}));
  // Eight rows of B in flight a thread, one row of C a block: the U-row loop and its remainder.
  configs.push_back(variant("skinny", {{"U", 8}, {"KG", 4}, {"MT", 1}}));
  // The next U rows requested before a step's are used (PREFETCH 2): the step loop, its last step
  // and the remainder, with many rows a block and with one.
  configs.push_back(variant("skinny", {{"PREFETCH", 2}}));
  configs.push_back(variant("skinny", {{"PREFETCH", 2}, {"U", 4}, {"KG", 4}, {"MT", 1}, {"SPLITK", 4}}));
  return configs;
}

// The configurations of `family` among configs_under_test(), each on kShapes in every layout and
// alignment, against FP64.
void check_family_on_odd_sizes(std::string_view family_name) {
  const auto device = testing::gpu_or_skip();
  if (!device) return;
  const KernelFamily& family = find_family(family_name);
  if (!family.compile_arch(device->arch())) {
    WARN(family.name() << " skipped: it does not run on " << device->arch());
    return;
  }
  // Every layout and alignment of the family's configurations, compiled up front on every core.
  std::vector<KernelConfig> configs;
  for (const KernelConfig& base : configs_under_test()) {
    if (base.family != family.name()) continue;
    for (Layout layout : {Layout::NN, Layout::NT, Layout::TN, Layout::TT}) {
      for (int align : family.alignments()) {
        KernelConfig config = base;
        config.layout = layout;
        config.align = align;
        config = testing::tma_sides_in_layout(config);
        // A variant of one layout (ACOPY 2: tn) is left out of the others, a 16-row Y tile out of
        // tn read as stored, and one of misaligned calls (warptile COPY 2) out of ALIGN 4; any
        // other refusal fails in the compile below.
        const std::optional<std::string> refusal = family.check(config);
        if (refusal && (refusal->find("ACOPY must") != std::string::npos ||
                        refusal->find("tn read as stored (ACOPY 1) needs") != std::string::npos ||
                        refusal->find("is for ALIGN 1 or 2 only") != std::string::npos)) {
          continue;
        }
        configs.push_back(config);
      }
    }
  }
  const std::map<std::string, CompiledKernel> compiled = testing::compile_in_parallel(configs, device->arch());
  std::map<std::string, LoadedKernel> kernels;  // loaded once, reused over shapes
  auto kernel_for = [&](const KernelConfig& config) -> const LoadedKernel& {
    const std::string name = kernel_name(config);
    auto found = kernels.find(name);
    if (found == kernels.end()) {
      const CompiledKernel& kernel = compiled.at(name);
      found = kernels.emplace(name, LoadedKernel(config, kernel.cubin, kernel.lowered_name)).first;
    }
    return found->second;
  };
  unsigned seed = 1;
  for (const Shape& shape : kShapes) {
    const HostProblem problem = testing::make_host_problem(shape.M, shape.N, shape.K, seed++);
    for (const KernelConfig& config : configs) {
      const LoadedKernel& kernel = kernel_for(config);
      // Align-1 configurations get misaligned pointers and odd leading dimensions.
      const bool aligned = config.align > 1;
      for (float beta : {-1.3f, 0.0f}) {
        INFO(kernel.name() << " on " << shape.M << "x" << shape.N << "x" << shape.K << ", beta " << beta
                           << (aligned ? ", aligned" : ", misaligned"));
        CHECK(run_and_check(kernel, problem, 0.7f, beta, aligned) == "");
      }
    }
  }
}

// One test case a registered family: ctest runs them in parallel, and one family's can be run alone.
const testing::FamilyTestCases odd_sizes("every family matches an FP64 reference on odd sizes", "[gpu]",
                                         [](const KernelFamily& family) { check_family_on_odd_sizes(family.name()); });

}  // namespace

// A family registered once the program runs (none in this tree today) is not left out.
TEST_CASE("every family matches an FP64 reference on odd sizes: any other registered family", "[gpu]") {
  if (!testing::gpu_or_skip()) return;
  for (const KernelFamily* family : all_families()) {
    if (!odd_sizes.covers(*family)) check_family_on_odd_sizes(family->name());
  }
}

// kShapes' N are odd; with N a multiple of 4 the split-K sums read 4 outputs' terms at a time
// (splitk_sum_tile), one level of sums (4 slices) and two (32).
TEST_CASE("split-K with N a multiple of 4 matches an FP64 reference in all layouts and alignments", "[gpu]") {
  const auto device = testing::gpu_or_skip();
  if (!device) return;
  const HostProblem wide = testing::make_host_problem(70, 132, 999, 11);
  const HostProblem few_rows = testing::make_host_problem(5, 132, 999, 12);
  std::vector<KernelConfig> configs;
  for (const char* family_name : {"warptile", "tf32x3", "wgmma", "skinny"}) {
    const KernelFamily& family = find_family(family_name);
    if (!family.compile_arch(device->arch())) continue;
    for (int splitk : {4, 32}) {
      for (Layout layout : {Layout::NN, Layout::NT, Layout::TN, Layout::TT}) {
        for (int align : {4, 1}) {
          KernelConfig config = family.default_config(layout, align);
          config.set("SPLITK", splitk);
          configs.push_back(config);
        }
      }
    }
  }
  const std::map<std::string, CompiledKernel> compiled = testing::compile_in_parallel(configs, device->arch());
  for (const KernelConfig& config : configs) {
    const CompiledKernel& binary = compiled.at(kernel_name(config));
    const LoadedKernel kernel(config, binary.cubin, binary.lowered_name);
    const HostProblem& problem = config.family == "skinny" ? few_rows : wide;
    for (float beta : {-1.3f, 0.0f}) {
      INFO(kernel.name() << " on " << problem.M << "x" << problem.N << "x" << problem.K << ", beta " << beta);
      CHECK(run_and_check(kernel, problem, 0.7f, beta, config.align > 1) == "");
    }
  }
}

// One workspace for one kernel after another, and one kernel on several shapes, as the runtime
// keeps one a stream: another kernel's partial sums may lie where the next counts arrivals (the
// H200 run of f492c73 gave wrong results for every call after the first of tmawgmma's split of K
// in 128 when skinny's split-K had used the buffer in between).
TEST_CASE("kernels sharing a workspace, one after another and on several shapes, each match FP64", "[gpu]") {
  const auto device = testing::gpu_or_skip();
  if (!device) return;
  std::vector<KernelConfig> configs{variant("skinny", {{"SPLITK", 8}}, 4), variant("warptile", {{"SPLITK", 16}}, 4)};
  if (find_family("tmawgmma").compile_arch(device->arch())) {
    configs.push_back(variant("tmawgmma", {{"BM", 64}, {"BN", 64}, {"SCHEDULE", 2}, {"SPLITK", 128}}, 4));
    configs.push_back(variant("tmawgmma", {{"SCHEDULE", 3}}, 4));
  }
  const std::map<std::string, CompiledKernel> compiled = testing::compile_in_parallel(configs, device->arch());
  std::vector<std::unique_ptr<LoadedKernel>> kernels;
  for (const KernelConfig& config : configs) {
    const CompiledKernel& binary = compiled.at(kernel_name(config));
    kernels.push_back(std::make_unique<LoadedKernel>(config, binary.cubin, binary.lowered_name));
  }
  const HostProblem problems[] = {testing::make_host_problem(61, 37, 29, 31), testing::make_host_problem(16, 96, 5000, 32),
                                  testing::make_host_problem(200, 300, 700, 33)};
  Workspace shared;
  for (int round = 0; round < 2; ++round) {
    for (const HostProblem& problem : problems) {
      for (const auto& kernel : kernels) {
        INFO(kernel->name() << " on " << problem.M << "x" << problem.N << "x" << problem.K << ", round " << round);
        CHECK(run_and_check(*kernel, problem, 0.7f, -1.3f, true, &shared) == "");
      }
    }
  }
}

// tmawgmma and tmatf32 with N a multiple of 4 (vector epilogue stores in every orientation), and
// their split-K and stream-K pieces: every schedule gives the same bits on every run. (tmatf32
// shares the scheduler but not the main loop or the epilogue's register budget.)
TEST_CASE("tmawgmma's and tmatf32's schedules match an FP64 reference and repeat their bits exactly", "[gpu]") {
  const auto device = testing::gpu_or_skip();
  if (!device) return;
  // 132 tiles would divide the H200's SMs: 1000 x 1056 gives 8 x 9 = 72 tiles (all stream-K),
  // 2000 x 1500 gives 16 x 12 = 192 (one data-parallel wave is not full: 60 + 132 stream-K).
  const HostProblem problems[] = {testing::make_host_problem(1000, 1056, 999, 21),
                                  testing::make_host_problem(2000, 1500, 300, 22),
                                  testing::make_host_problem(64, 96, 5000, 23)};
  // (BM, BN, SCHEDULE, SPLITK, CLUSTER). 16 slices and more, and stream-K on the long-K problem
  // (one tile shared by every SM), are added in two levels (tile_schedule.h); 64-wide tiles load
  // three pieces at a time, 128-wide ones one. Clusters of two blocks: 1000 rows are 8 tiles of
  // 128 (4 pairs), 2000 are 16, 64 are one tile whose pair has no rows. Narrow Y tiles (16 and 32
  // rows read from shared memory) with split-K and stream-K; split-K summed in clusters of 8 and 2
  // (CSPLIT, the last field).
  struct Case {
    int bm, bn, schedule, splitk, cluster, csplit = 1;
  };
  const Case cases[] = {{128, 128, 1, 1, 1}, {128, 128, 2, 4, 1}, {128, 128, 2, 16, 1}, {128, 128, 3, 1, 1},
                        {64, 64, 2, 32, 1},   {64, 64, 3, 1, 1},   {64, 128, 1, 1, 1},   {256, 128, 1, 1, 1},
                        {128, 128, 1, 1, 2},  {256, 128, 1, 1, 2}, {32, 128, 2, 4, 1},  {16, 64, 3, 1, 1},
                        {64, 64, 2, 4, 1, 8}, {128, 128, 2, 2, 1, 2}};
  std::vector<KernelConfig> configs;
  for (const char* family_name : {"tmawgmma", "tmatf32"}) {
    const KernelFamily& family = find_family(family_name);
    if (!family.compile_arch(device->arch())) {
      WARN(family.name() << " skipped: it does not run on " << device->arch());
      continue;
    }
    for (const Case& c : cases) {
      if (c.bm == 256 && family.name() != "tmatf32") continue;  // single-pass TF32 only
      for (Layout layout : {Layout::NN, Layout::NT, Layout::TN, Layout::TT}) {
        KernelConfig config = family.default_config(layout, 4);
        config.set("BM", c.bm);
        config.set("BN", c.bn);
        config.set("SCHEDULE", c.schedule);
        config.set("SPLITK", c.splitk);
        config.set("CLUSTER", c.cluster);
        config.set("CSPLIT", c.csplit);
        if (c.bm == 256 && layout == Layout::TN) config.set("STAGES", 2);  // its transposed copy
        if (c.csplit > 1 && c.bm == 128) config.set("STAGES", 2);          // and its 64 KB of sums
        if (c.bm == 16 && layout == Layout::TN) continue;  // tn's transform moves blocks of 32
        configs.push_back(testing::tma_sides_in_layout(config));
      }
    }
  }
  const std::map<std::string, CompiledKernel> compiled = testing::compile_in_parallel(configs, device->arch());
  for (const KernelConfig& config : configs) {
    const CompiledKernel& binary = compiled.at(kernel_name(config));
    const LoadedKernel kernel(config, binary.cubin, binary.lowered_name);
    for (const HostProblem& problem : problems) {
      // The many-piece cases on the long-K problem only; 64 x 128 data-parallel on the others.
      if (config.get("BM") == 64 && (config.get("BN") == 64) != (problem.K >= 4096)) continue;
      INFO(kernel.name() << " on " << problem.M << "x" << problem.N << "x" << problem.K);
      CHECK(run_and_check(kernel, problem, 0.7f, -1.3f, true) == "");

      // The same call three times: the same bits.
      const Layout layout = config.layout;
      const bool a_t = a_is_transposed(layout), b_t = b_is_transposed(layout);
      const long long lda = padded_ld(a_t ? problem.M : problem.K, true);
      const long long ldb = padded_ld(b_t ? problem.K : problem.N, true);
      const long long ldc = padded_ld(problem.N, true);
      DeviceBuffer<float> a(static_cast<std::size_t>(lda) * (a_t ? problem.K : problem.M));
      DeviceBuffer<float> b(static_cast<std::size_t>(ldb) * (b_t ? problem.N : problem.K));
      DeviceBuffer<float> c(static_cast<std::size_t>(ldc) * problem.M);
      a.upload(testing::store_operand(problem.a, problem.M, problem.K, a_t, lda, 0, 0.0f));
      b.upload(testing::store_operand(problem.b, problem.K, problem.N, b_t, ldb, 0, 0.0f));
      GemmParams params{problem.M, problem.N, problem.K, 1.0f, 0.0f, a.data(), lda, b.data(), ldb,
                        c.data(), ldc, nullptr, 0};
      Workspace workspace;
      workspace.attach(kernel, params, nullptr);
      std::vector<float> first;
      for (int run = 0; run < 3; ++run) {
        kernel.launch(params, nullptr);
        GT_CUDA(cudaDeviceSynchronize(), kernel.name());
        const std::vector<float> result = c.download();
        if (run == 0) first = result;
        else CHECK(std::memcmp(first.data(), result.data(), first.size() * sizeof(float)) == 0);
      }
    }
  }
}

TEST_CASE("a vectorized configuration refuses a call whose pointers are not aligned", "[gpu]") {
  const auto device = testing::gpu_or_skip();
  if (!device) return;
  const KernelConfig config = find_family("vectorized").default_config(Layout::NN, 4);
  const CompiledKernel compiled = compile_kernel(config, device->arch());
  const LoadedKernel kernel(config, compiled.cubin, compiled.lowered_name);
  DeviceBuffer<float> buffer(64 * 64 * 3 + 1);
  const GemmParams misaligned{64, 64, 64, 1.0f, 0.0f, buffer.data() + 1, 64, buffer.data() + 4097, 64,
                              buffer.data() + 8193, 64, nullptr, 0};
  REQUIRE(call_alignment(misaligned) == 1);
  REQUIRE_THROWS_WITH(kernel.launch(misaligned, nullptr), Catch::Contains("aligned to 4 floats"));
}

TEST_CASE("an invalid call is refused before launch", "[gpu]") {
  const auto device = testing::gpu_or_skip();
  if (!device) return;
  const KernelConfig config = find_family("reg2d").default_config();
  const CompiledKernel compiled = compile_kernel(config, device->arch());
  const LoadedKernel kernel(config, compiled.cubin, compiled.lowered_name);
  DeviceBuffer<float> buffer(3 * 64 * 64);
  GemmParams params{64, 64, 64, 1.0f, 0.0f, buffer.data(), 64, buffer.data() + 4096, 64, buffer.data() + 8192, 64,
                    nullptr, 0};
  params.ldb = 63;
  REQUIRE_THROWS_WITH(kernel.launch(params, nullptr), Catch::Contains("ldb 63 is below 64"));
  params.ldb = 64;
  params.K = 0;
  REQUIRE_THROWS_WITH(kernel.launch(params, nullptr), Catch::Contains("at least 1"));
}

}  // namespace gemmtune
