// Every family compiles with NVRTC for sm_80, sm_89 and sm_90 over a representative set of
// configurations (no GPU needed), and illegal configurations are refused with a message.
#include <catch2/catch.hpp>

#include <algorithm>
#include <array>

#include "error.hpp"
#include "family_registry.hpp"
#include "kernel_name.hpp"
#include "nvrtc_compiler.hpp"
#include "staged_copy.h"
#include "tiny_scan.h"
#include "support/compile_in_parallel.hpp"
#include "support/family_test_cases.hpp"

namespace gemmtune {
namespace {

// The resources checked below come from ptxas's report, which a compute cache would withhold.
[[maybe_unused]] const bool reports_kept = (keep_ptxas_reports(), true);

bool is_a_default(const KernelFamily& family, const KernelConfig& config) {
  const std::vector<KernelConfig> defaults = family.default_configs(config.layout, config.align);
  return std::find(defaults.begin(), defaults.end(), config) != defaults.end();
}

// The defaults (shape defaults included) in every layout and alignment, plus two other legal ones.
std::vector<KernelConfig> representative_configs(const KernelFamily& family) {
  std::vector<KernelConfig> configs;
  for (Layout layout : {Layout::NN, Layout::NT, Layout::TN, Layout::TT}) {
    for (int align : family.alignments()) {
      for (KernelConfig& config : family.default_configs(layout, align)) configs.push_back(std::move(config));
    }
  }
  KernelConfig smallest = family.default_config(Layout::NN, family.alignments().back());
  KernelConfig largest = smallest;
  for (std::size_t i = 0; i < smallest.params.size(); ++i) {
    smallest.params[i].second = family.params()[i].search_values.front();
    largest.params[i].second = family.params()[i].search_values.back();
  }
  // The extremes are not always legal together: shrink or grow one parameter at a time until
  // the family accepts, so that the test covers non-default values that are legal.
  for (KernelConfig* config : {&smallest, &largest}) {
    for (std::size_t i = 0; i < config->params.size() && family.check(*config); ++i) {
      config->params[i].second = family.params()[i].default_value;
    }
    if (!family.check(*config)) configs.push_back(*config);
  }
  return configs;
}

// Compiles the representative configurations for each arch the family runs on, and checks that
// the others are refused before anything is compiled.
void compile_family(const KernelFamily& family) {
  for (const std::string arch : {"sm_80", "sm_89", "sm_90"}) {
    if (!family.compile_arch(arch)) {
      const KernelConfig config = family.default_config(Layout::NN, family.alignments().front());
      CHECK_THROWS_WITH(compile_kernel(config, arch), Catch::Contains("does not run on " + arch));
      continue;
    }
    for (const KernelConfig& config : representative_configs(family)) {
      INFO(kernel_name(config) << " for " << arch << " with NVRTC " << nvrtc_version());
      const CompiledKernel compiled = compile_kernel(config, arch);
      INFO("compile log:\n" << compiled.log);
      CHECK(compiled.cubin.size() > 1000);
      CHECK(compiled.lowered_name.find(std::string(family.name())) != std::string::npos);
      // ptxas's report comes through NVRTC's log where NVRTC gives one (seen empty in some
      // processes on the GPU machine; the measuring process reads the loaded kernel's
      // attributes instead).
      if (!compiled.log.empty()) CHECK(compiled.resources.registers > 0);
      // Large tiles may spill (the tuner records them so); the defaults must not.
      if (is_a_default(family, config)) CHECK_FALSE(compiled.resources.spills());
    }
  }
}

// One test case a registered family.
const testing::FamilyTestCases compiles("compiles for sm_80, sm_89 and sm_90, or is refused there", "[nvrtc]",
                                        compile_family);

}  // namespace

TEST_CASE("wgmma compiles for sm_90 (as sm_90a) and is refused for other GPUs", "[nvrtc]") {
  using Catch::Contains;
  const KernelFamily& wgmma = find_family("wgmma");
  CHECK(wgmma.compile_arch("sm_90") == std::optional<std::string>("sm_90a"));
  CHECK_FALSE(wgmma.compile_arch("sm_80").has_value());
  CHECK_FALSE(wgmma.compile_arch("sm_100").has_value());  // Blackwell has no wgmma
  CHECK_THROWS_WITH(compile_kernel(wgmma.default_config(), "sm_89"), Contains("does not run on sm_89"));
}

// The symbol as it stands in a cubin's string table, ended by its NUL.
static bool cubin_has_symbol(const std::vector<char>& cubin, const std::string& symbol) {
  const std::string needle = symbol + '\0';
  return std::search(cubin.begin(), cubin.end(), needle.begin(), needle.end()) != cubin.end();
}

// Compiles `config` for sm_90 (its family must accept it), checking that ptxas's report was read
// and that nothing spilled; returns the kernel for the caller's own checks.
static CompiledKernel compile_without_spills(const KernelConfig& config) {
  INFO(kernel_name(config));
  REQUIRE_FALSE(find_family(config.family).check(config).has_value());
  CompiledKernel compiled = compile_kernel(config, "sm_90");
  INFO("compile log:\n" << compiled.log);
  CHECK(compiled.resources.registers > 0);  // the report was read
  CHECK_FALSE(compiled.resources.spills());
  return compiled;
}

TEST_CASE("tmawgmma and tmatf32 compile every schedule in every layout, for sm_90 (as sm_90a) only", "[nvrtc]") {
  using Catch::Contains;
  for (const char* name : {"tmawgmma", "tmatf32"}) {
    const KernelFamily& family = find_family(name);
    CHECK(family.compile_arch("sm_90") == std::optional<std::string>("sm_90a"));
    CHECK_FALSE(family.compile_arch("sm_80").has_value());
    CHECK_THROWS_WITH(compile_kernel(family.default_config(Layout::NN, 4), "sm_89"), Contains("does not run on sm_89"));
    // Every schedule, in every layout, and one warpgroup of MMA (64-row tiles).
    for (Layout layout : {Layout::NN, Layout::NT, Layout::TN, Layout::TT}) {
      for (auto [schedule, splitk, bm, bn] : {std::array{1, 1, 128, 128}, {2, 8, 128, 64}, {3, 1, 64, 64}, {3, 1, 64, 128}}) {
        KernelConfig config = family.default_config(layout, 4);
        config.set("SCHEDULE", schedule);
        config.set("SPLITK", splitk);
        config.set("BM", bm);
        config.set("BN", bn);
        INFO(kernel_name(config));
        const CompiledKernel compiled = compile_kernel(config, "sm_90");
        INFO("compile log:\n" << compiled.log);
        CHECK(compiled.cubin.size() > 1000);
      }
    }
    // tn from a transposed copy of A (ACOPY 2), aligned and not: compiled as nn, with the staging
    // kernel in the cubin; refused in the other layouts.
    for (int align : {4, 1}) {
      KernelConfig copied = family.default_config(Layout::TN, align);
      copied.set("ACOPY", 2);
      INFO(kernel_name(copied));
      const CompiledKernel compiled = compile_kernel(copied, "sm_90");
      CHECK_FALSE(compiled.resources.spills());
      CHECK(cubin_has_symbol(compiled.cubin, kStagedCopyKernelName));
    }
    for (Layout layout : {Layout::NN, Layout::NT, Layout::TT}) {
      KernelConfig copied = family.default_config(layout, 4);
      copied.set("ACOPY", 2);
      CHECK_THAT(family.check(copied).value_or(""), Contains("ACOPY must be 1"));
    }
    // Two MMA warpgroups taking turns (PINGPONG 2) on tiles of 64 rows on the side read from
    // registers (B's for nn, A's otherwise), misaligned and with split-K too: no spills; refused
    // with 128 rows there.
    for (Layout layout : {Layout::NN, Layout::NT}) {
      for (auto [schedule, splitk, align] : {std::array{1, 1, 4}, {2, 4, 1}}) {
        KernelConfig turns = family.default_config(layout, align);
        turns.set(layout == Layout::NN ? "BN" : "BM", 64);
        turns.set("SCHEDULE", schedule);
        turns.set("SPLITK", splitk);
        turns.set("PINGPONG", 2);
        INFO(kernel_name(turns));
        const CompiledKernel compiled = compile_kernel(turns, "sm_90");
        CHECK_FALSE(compiled.resources.spills());
      }
      KernelConfig shared = family.default_config(layout, 4);
      shared.set("PINGPONG", 2);
      CHECK_THAT(family.check(shared).value_or(""), Contains("PINGPONG 2 needs a side read from registers"));
    }
    // Single-pass TF32 taking turns on 64 x 256 tiles (the side read from shared memory 256 wide),
    // which failed to launch before the hand-over waited for the unit's last k tile: no spills.
    if (std::string_view(name) == "tmatf32") {
      KernelConfig wide = family.default_config(Layout::NN, 4);
      wide.set("BM", 256);
      wide.set("BN", 64);
      wide.set("PINGPONG", 2);
      INFO(kernel_name(wide));
      REQUIRE_FALSE(family.check(wide).has_value());
      CHECK_FALSE(compile_kernel(wide, "sm_90").resources.spills());
    }
    // 3xTF32 told of tiny values by a scan before the GEMM (WATCH 2): the scan kernel is in the
    // cubin, which the launch finds by name (loaded_kernel.cpp); data-parallel and split-K in
    // every layout without spills (nt's stream-K spills 4 bytes, as measured when written).
    // Single-pass TF32 watches nothing and refuses it.
    if (std::string_view(name) == "tmawgmma") {
      for (Layout layout : {Layout::NN, Layout::NT, Layout::TN, Layout::TT}) {
        for (auto [schedule, splitk, align] : {std::array{1, 1, 4}, {2, 4, 1}}) {
          KernelConfig scanned = family.default_config(layout, align);
          scanned.set("SCHEDULE", schedule);
          scanned.set("SPLITK", splitk);
          scanned.set("WATCH", 2);
          INFO(kernel_name(scanned));
          const CompiledKernel compiled = compile_kernel(scanned, "sm_90");
          CHECK_FALSE(compiled.resources.spills());
          CHECK(cubin_has_symbol(compiled.cubin, kTinyScanKernelName));
        }
      }
    } else {
      KernelConfig scanned = family.default_config(Layout::NN, 4);
      scanned.set("WATCH", 2);
      CHECK_THAT(family.check(scanned).value_or(""), Contains("WATCH must be 1"));
    }
    if (std::string_view(name) == "tmawgmma") {  // tmatf32's align 1 is compiled below
      // The launch of an align-1 call finds its staged-copy kernel in the same cubin (loaded_kernel.cpp).
      const CompiledKernel unaligned = compile_kernel(family.default_config(Layout::NN, 1), "sm_90");
      CHECK(cubin_has_symbol(unaligned.cubin, kStagedCopyKernelName));
      CHECK_FALSE(cubin_has_symbol(unaligned.cubin, std::string(kStagedCopyKernelName) + "_not_there"));
    }
  }
}

TEST_CASE("tmatf32's 256-wide tiles compile in every layout without spilling, and tmawgmma refuses them", "[nvrtc]") {
  using Catch::Contains;
  for (Layout layout : {Layout::NN, Layout::NT, Layout::TN, Layout::TT}) {
    // 256 on the side the MMA reads from shared memory: A's (BM) for nn, B's (BN) otherwise.
    const bool wide_m = layout == Layout::NN;
    for (int align : {4, 1}) {
      KernelConfig config = find_family("tmatf32").default_config(layout, align);
      config.set(wide_m ? "BM" : "BN", 256);
      config.set("STAGES", layout == Layout::TN ? 2 : 4);
      INFO(kernel_name(config));
      const CompiledKernel compiled = compile_kernel(config, "sm_90");
      INFO("compile log:\n" << compiled.log);
      CHECK(compiled.resources.registers > 0);  // the report was read
      CHECK_FALSE(compiled.resources.spills());
      CHECK(compiled.resources.stack_frame_bytes == 0);
      if (align == 1) CHECK(cubin_has_symbol(compiled.cubin, kStagedCopyKernelName));
    }
    KernelConfig split = find_family("tmatf32").default_config(layout, 4);
    split.set(wide_m ? "BM" : "BN", 256);
    split.set("SCHEDULE", 2);
    split.set("SPLITK", 4);
    CHECK_THAT(find_family("tmatf32").check(split).value_or(""), Contains("data-parallel"));
    KernelConfig three_products = find_family("tmawgmma").default_config(layout, 4);
    three_products.set(wide_m ? "BM" : "BN", 256);
    CHECK_THAT(find_family("tmawgmma").check(three_products).value_or(""), Contains("single-pass TF32"));
  }
}

TEST_CASE("tmawgmma's and tmatf32's narrow Y tiles (16 and 32 rows) compile in every layout without spilling", "[nvrtc]") {
  using Catch::Contains;
  for (const char* name : {"tmawgmma", "tmatf32"}) {
    const KernelFamily& family = find_family(name);
    for (Layout layout : {Layout::NN, Layout::NT, Layout::TN, Layout::TT}) {
      // The side read from shared memory: A's (BM) for nn, B's (BN) otherwise.
      const char* y_side = layout == Layout::NN ? "BM" : "BN";
      const char* x_side = layout == Layout::NN ? "BN" : "BM";
      for (auto [rows_y, rows_x, schedule, splitk, align] :
           {std::array{16, 128, 2, 4, 4}, {32, 64, 3, 1, 4}, {16, 64, 1, 1, 1}, {32, 128, 1, 1, 1}}) {
        KernelConfig config = family.default_config(layout, align);
        config.set(y_side, rows_y);
        config.set(x_side, rows_x);
        config.set("SCHEDULE", schedule);
        config.set("SPLITK", splitk);
        INFO(kernel_name(config));
        if (layout == Layout::TN && rows_y == 16) {
          // tn read as stored moves Y in 32 x 32 blocks; as nn from a transposed copy of A it serves.
          CHECK_THAT(family.check(config).value_or(""), Contains("at least 32"));
          config.set("ACOPY", 2);
          config.set("BM", rows_y);
          config.set("BN", rows_x);
        }
        compile_without_spills(config);
      }
    }
    KernelConfig clustered = family.default_config(Layout::NT, 4);
    clustered.set("BN", 32);
    clustered.set("CLUSTER", 2);
    CHECK_THAT(family.check(clustered).value_or(""), Contains("CLUSTER 2 needs a side read from shared memory of 64"));
    for (int rows_y : {8, 48, 96}) {
      KernelConfig odd = family.default_config(Layout::NT, 4);
      odd.set("BN", rows_y);
      CHECK_THAT(family.check(odd).value_or(""), Contains("must be 16, 32, 64 or 128"));
    }
    KernelConfig narrow_x = family.default_config(Layout::NT, 4);
    narrow_x.set("BM", 32);
    CHECK_THAT(family.check(narrow_x).value_or(""), Contains("read from registers (BN for nn, BM otherwise) must be 64 or 128"));
  }
}

TEST_CASE("tmawgmma's and tmatf32's split-K summed in a cluster (CSPLIT) compiles in every layout without spilling",
          "[nvrtc]") {
  using Catch::Contains;
  for (const char* name : {"tmawgmma", "tmatf32"}) {
    const KernelFamily& family = find_family(name);
    for (Layout layout : {Layout::NN, Layout::NT, Layout::TN, Layout::TT}) {
      // (BM, BN, SPLITK, CSPLIT, ALIGN): 64x64x65536's shape (8 blocks a unit, 16 units a tile in
      // two levels of L2 sums), 128-wide tiles, and a unit summed in the cluster alone.
      for (auto [bm, bn, splitk, csplit, align] :
           {std::array{64, 64, 16, 8, 4}, {128, 128, 2, 2, 4}, {64, 128, 1, 4, 1}}) {
        KernelConfig config = family.default_config(layout, align);
        config.set("BM", bm);
        config.set("BN", bn);
        config.set("SCHEDULE", 2);
        config.set("SPLITK", splitk);
        config.set("CSPLIT", csplit);
        // tn's stages hold Y three times, and the sums take BM x BN floats more.
        config.set("STAGES", bm * bn == 128 * 128 ? 2 : bm * bn == 64 * 128 ? 3 : 4);
        compile_without_spills(config);
      }
    }
    KernelConfig config = family.default_config(Layout::NN, 4);
    config.set("CSPLIT", 2);
    CHECK_THAT(family.check(config).value_or(""), Contains("CSPLIT above 1 needs SCHEDULE 2"));
    config.set("SCHEDULE", 2);
    config.set("SPLITK", 4);
    REQUIRE_FALSE(family.check(config).has_value());
    config.set("PINGPONG", 2);
    config.set("BN", 64);
    CHECK_THAT(family.check(config).value_or(""), Contains("CSPLIT above 1 needs SCHEDULE 2 (split-K), CLUSTER 1 and PINGPONG 1"));
    config.set("PINGPONG", 1);
    config.set("CSPLIT", 16);
    CHECK_THAT(family.check(config).value_or(""), Contains("CSPLIT must be 1, 2, 4 or 8"));
  }
}

TEST_CASE("tf32x3 with the special-value watch out of its loop (WATCH 2) compiles in every layout, with its scan kernel",
          "[nvrtc]") {
  using Catch::Contains;
  const KernelFamily& family = find_family("tf32x3");
  for (Layout layout : {Layout::NN, Layout::NT, Layout::TN, Layout::TT}) {
    for (auto [splitk, align] : {std::array{1, 4}, {16, 1}}) {
      KernelConfig config = family.default_config(layout, align);
      config.set("SPLITK", splitk);
      config.set("WATCH", 2);
      INFO(kernel_name(config));
      CHECK(cubin_has_symbol(compile_without_spills(config).cubin, kTinyScanKernelName));
    }
  }
  KernelConfig config = family.default_config(Layout::NN, 4);
  config.set("WATCH", 3);
  CHECK_THAT(family.check(config).value_or(""), Contains("WATCH must be 1"));
  config.set("WATCH", 2);
  CHECK_THAT(family.batch_refusal(config, true).value_or(""), Contains("strided batches and plain calls only"));
  CHECK_FALSE(family.batch_refusal(config, false).has_value());
}

TEST_CASE("illegal configurations are refused before compiling, with the rule they break", "[nvrtc]") {
  using Catch::Contains;
  KernelConfig config = find_family("reg2d").default_config();
  config.set("TM", 3);
  CHECK(find_family("reg2d").check(config).value_or("") == "reg2d: BM and BN must be multiples of TM and TN");
  CHECK_THROWS_WITH(compile_kernel(config, "sm_90"), Contains("BM and BN must be multiples of TM and TN"));

  config = find_family("vectorized").default_config(Layout::NN, 4);
  config.set("TN", 2);
  CHECK_THROWS_WITH(compile_kernel(config, "sm_90"), Contains("TM and TN must be multiples of 4"));
  config = find_family("vectorized").default_config(Layout::NN, 3);
  CHECK_THROWS_WITH(compile_kernel(config, "sm_90"), Contains("ALIGN must be one of 4, 2, 1"));

  config = find_family("naive").default_config();
  config.set("TILE", 64);
  CHECK_THROWS_WITH(compile_kernel(config, "sm_90"), Contains("TILE * TILE threads"));

  config = find_family("naive").default_config();
  config.set("TILE", 65536);  // would overflow the legality arithmetic if it were not bounded first
  CHECK(find_family("naive").check(config).value_or("") == "naive: TILE must be 1..16384, not 65536");

  config = find_family("reg1d").default_config();
  config.set("BK", 128);
  CHECK_THROWS_WITH(compile_kernel(config, "sm_90"), Contains("48 KB"));
}

TEST_CASE("the tests' parallel compile gives each distinct configuration its kernel, and a failure's message",
          "[nvrtc]") {
  const KernelConfig naive = find_family("naive").default_config();
  const KernelConfig reg2d = find_family("reg2d").default_config();
  const auto compiled = testing::compile_in_parallel({naive, reg2d, naive}, "sm_90");
  REQUIRE(compiled.size() == 2);
  for (const KernelConfig& config : {naive, reg2d}) {
    const CompiledKernel& kernel = compiled.at(kernel_name(config));
    CHECK(kernel.kernel_name == kernel_name(config));
    CHECK_FALSE(kernel.cubin.empty());
  }
  KernelConfig illegal = reg2d;
  illegal.set("TM", 3);
  CHECK_THROWS_WITH(testing::compile_in_parallel({naive, illegal}, "sm_90"),
                    Catch::Contains("BM and BN must be multiples of TM and TN"));
}

TEST_CASE("an arch NVRTC does not know is refused with the list it knows", "[nvrtc]") {
  const KernelConfig config = find_family("naive").default_config();
  CHECK_THROWS_WITH(compile_kernel(config, "sm_12"), Catch::Contains("cannot compile for arch 'sm_12'") &&
                                                         Catch::Contains("sm_90"));
}

TEST_CASE("a compiled kernel carries its instantiation and ptxas's report", "[nvrtc]") {
  const KernelConfig config = find_family("reg2d").default_config();
  const CompiledKernel compiled = compile_kernel(config, "sm_90");
  CHECK(compiled.instantiation == "gemmtune::reg2d_sgemm<128, 128, 8, 8, 8, gemmtune::Layout::NN, 1>");
  // Where NVRTC gives a log (see compile_family above), it carries ptxas's report.
  if (!compiled.log.empty()) CHECK(compiled.log.find("registers") != std::string::npos);
}

TEST_CASE("compile_source compiles a standalone kernel that includes the embedded templates", "[nvrtc]") {
  const std::string source =
      "#include \"common.cuh\"\n"
      "template <int N> __global__ void scale(float* x) { x[threadIdx.x] *= N; }\n";
  const CompiledKernel compiled = compile_source(source, "probe.cu", "scale<3>", "sm_90");
  CHECK(compiled.instantiation == "scale<3>");
  CHECK(compiled.lowered_name == "_Z5scaleILi3EEvPf");
  CHECK(!compiled.cubin.empty());
  CHECK(compiled.arch == "sm_90");
}

TEST_CASE("compile_source reports a broken source with NVRTC's log and refuses an unknown arch", "[nvrtc]") {
  const std::string broken = "__global__ void broken(float* x) { x[0] = undeclared_name; }\n";
  try {
    compile_source(broken, "broken.cu", "broken", "sm_90");
    FAIL("a source that does not compile was compiled");
  } catch (const NvrtcError& error) {
    CHECK_THAT(error.log(), Catch::Contains("undeclared_name"));
    CHECK_THAT(error.what(), Catch::Contains("nvrtcCompileProgram"));
  }
  CHECK_THROWS_WITH(compile_source("__global__ void k() {}\n", "k.cu", "k", "sm_12"),
                    Catch::Contains("cannot compile for arch 'sm_12'"));
}

TEST_CASE("ptxas reports are parsed", "[nvrtc]") {
  const ResourceUsage usage = parse_ptxas_report(
      "ptxas info    : Function properties for f\n"
      "ptxas         .     16 bytes stack frame, 8 bytes spill stores, 12 bytes spill loads\n"
      "ptxas info    : Used 255 registers, used 1 barriers, 8192 bytes smem, 400 bytes cmem[0]\n");
  CHECK(usage.registers == 255);
  CHECK(usage.static_smem_bytes == 8192);
  CHECK(usage.stack_frame_bytes == 16);
  CHECK(usage.spill_store_bytes == 8);
  CHECK(usage.spill_load_bytes == 12);
  CHECK(usage.spills());
  CHECK(to_string(usage) == "255 registers, 8192 B static smem, 16 B stack, 8 B spill stores, 12 B spill loads");
  CHECK(parse_ptxas_report("").registers == -1);
}

TEST_CASE("the report read is the GEMM kernel's, not a helper kernel's of the same cubin", "[nvrtc]") {
  // As ptxas writes a cubin with the staged-copy kernel first and the GEMM kernel after it.
  const std::string log =
      "ptxas info    : 66 bytes gmem\n"
      "ptxas info    : Compiling entry function 'gemmtune_stage_operands' for 'sm_90'\n"
      "ptxas info    : Function properties for gemmtune_stage_operands\n"
      "ptxas         .     8 bytes stack frame, 4 bytes spill stores, 4 bytes spill loads\n"
      "ptxas info    : Used 32 registers, used 1 barriers, 4224 bytes smem\n"
      "ptxas info    : Compiling entry function '_ZN8gemmtune4gemmEv' for 'sm_90'\n"
      "ptxas info    : Function properties for _ZN8gemmtune4gemmEv\n"
      "ptxas         .     0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\n"
      "ptxas info    : Used 127 registers, used 1 barriers\n";
  for (const std::string_view entry : {std::string_view("_ZN8gemmtune4gemmEv"), std::string_view()}) {
    const ResourceUsage usage = parse_ptxas_report(log, entry);
    CHECK(usage.registers == 127);
    CHECK(usage.static_smem_bytes == 0);  // the copy kernel's 4224 bytes are not the GEMM's
    CHECK_FALSE(usage.spills());
  }
  // A kernel's own section where it is named, helper or not.
  CHECK(parse_ptxas_report(log, "gemmtune_stage_operands").static_smem_bytes == 4224);
  // A real cubin of a configuration that carries the staged-copy kernel.
  KernelConfig copied = find_family("warptile").default_config(Layout::NN, 1);
  copied.set("COPY", 2);
  const CompiledKernel compiled = compile_kernel(copied, "sm_90");
  CHECK_THAT(compiled.log, Catch::Contains(kStagedCopyKernelName));
  CHECK(compiled.resources.static_smem_bytes == 0);
  CHECK(compiled.resources.registers > 32);
}

TEST_CASE("a figure ptxas did not report reads unknown rather than -1; shared memory it leaves out is 0", "[nvrtc]") {
  // ptxas names shared memory only where a kernel declares some; NVRTC may give no log at all.
  const ResourceUsage no_smem = parse_ptxas_report(
      "ptxas         .     0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\n"
      "ptxas info    : Used 32 registers, used 0 barriers\n");
  CHECK(no_smem.static_smem_bytes == 0);
  CHECK(to_string(no_smem) == "32 registers, 0 B static smem, 0 B stack, 0 B spill stores, 0 B spill loads");
  CHECK(to_string(parse_ptxas_report("")) ==
        "unknown registers, unknown static smem, unknown stack, unknown spill stores, unknown spill loads");
}

}  // namespace gemmtune
