// The selection rules on a database the test fills for a made-up GPU: exact, nearest, layouts
// never crossed, default, alignment fallback, other GPUs, cuBLAS preference. CPU only.
#include <catch2/catch.hpp>

#include "dispatch_error.hpp"
#include "dispatch_test_support.hpp"
#include "family_registry.hpp"
#include "kernel_name.hpp"
#include "problem.hpp"
#include "select_kernel.hpp"
#include "selection_fixture.hpp"

#include <tuple>

namespace gemmtune::dispatch {
namespace {

using namespace test;

struct Fixture : SelectionFixture {
  Choice select(const SgemmCall& call, const cache::GpuKey& gpu = fake_gpu(), bool prefer_cublas = false) const {
    SelectionPolicy policy;  // no cubin stored
    policy.prefer_cublas = prefer_cublas;
    return select_with(call, policy, gpu);
  }
};

// Two vectorized winners, tuned on aligned problems (align4), and a reg2d one.
const KernelConfig kSmallWinner =
    config_of("vectorized", Layout::NN, 4, {{"BM", 64}, {"BN", 64}, {"BK", 16}, {"TM", 4}, {"TN", 4}});
const KernelConfig kLargeWinner = config_of("vectorized", Layout::NN, 4, {{"BN", 64}});
const KernelConfig kNtWinner = config_of("reg2d", Layout::NT, 1, {{"BM", 64}, {"BN", 64}, {"TM", 4}, {"TN", 4}});

}  // namespace

TEST_CASE("dispatch: the exact tuned problem's winner serves the call", "[dispatch]") {
  Fixture f;
  add_winner(f.db, fake_gpu(), {"nn", 256, 256, 256}, kSmallWinner);
  add_winner(f.db, fake_gpu(), {"nn", 1024, 1024, 1024}, kLargeWinner);
  const Choice choice = f.select(fake_nn_call(256, 256, 256));
  CHECK(choice.selection.reason == Reason::Measured);
  CHECK(choice.selection.backend == Backend::Kernel);
  CHECK(choice.selection.kernel == kernel_name(kSmallWinner));
  REQUIRE(choice.config);
  CHECK(*choice.config == kSmallWinner);
  CHECK(choice.selection.tuned_problem == ProblemShape{"nn", 256, 256, 256});
  CHECK(choice.selection.problem == ProblemShape{"nn", 256, 256, 256});
  CHECK(choice.selection.distance == 0.0);
  CHECK(choice.selection.call_align == 4);
  CHECK(choice.selection.note.empty());
}

TEST_CASE("dispatch: an untuned shape gets the nearest winners and the defaults ranked for its own shape",
          "[dispatch]") {
  Fixture f;
  add_winner(f.db, fake_gpu(), {"nn", 256, 256, 256}, kSmallWinner);
  add_winner(f.db, fake_gpu(), {"nn", 1024, 1024, 1024}, kLargeWinner);
  const Choice choice = f.select(fake_nn_call(300, 200, 260));
  CHECK(choice.selection.reason != Reason::Measured);
  REQUIRE(choice.config);
  // The note names the ranking, the nearest winners among it, and the pick.
  CHECK_THAT(choice.selection.note, Catch::Contains("ranked by the cost model for nn:300x200x260") &&
                                        Catch::Contains("won nn:256x256x256") &&
                                        Catch::Contains("chose " + choice.selection.kernel));
  if (choice.selection.reason == Reason::Nearest) {
    REQUIRE(choice.selection.tuned_problem);
    const Problem tuned{Layout::NN, choice.selection.tuned_problem->M, choice.selection.tuned_problem->N,
                        choice.selection.tuned_problem->K};
    CHECK(choice.selection.distance == Approx(log_distance({Layout::NN, 300, 200, 260}, tuned)));
  }
}

TEST_CASE("dispatch: a nearest winner the model ranks with the best defaults is taken over them", "[dispatch]") {
  Fixture f;
  // The winner is the configuration the model ranks first for the call: the measured one stands.
  const Choice untuned = f.select(fake_nn_call(2048, 2048, 2048));
  REQUIRE(untuned.config);
  REQUIRE(untuned.selection.reason == Reason::Default);
  add_winner(f.db, fake_gpu(), {"nn", 4096, 4096, 4096}, *untuned.config);
  const Choice choice = f.select(fake_nn_call(2048, 2048, 2048));
  CHECK(choice.selection.reason == Reason::Nearest);
  CHECK(choice.selection.kernel == untuned.selection.kernel);
  CHECK(choice.selection.tuned_problem == ProblemShape{"nn", 4096, 4096, 4096});
}

TEST_CASE("dispatch: an untuned call never gets a tile far larger than the problem", "[dispatch]") {
  Fixture f;
  // A 4096-class winner nearby, and a small call: 64 x 64 outputs.
  const KernelConfig big_tiles = config_of("vectorized", Layout::NN, 4, {{"BM", 128}, {"BN", 128}});
  add_winner(f.db, fake_gpu(), {"nn", 256, 256, 256}, big_tiles);
  const Choice choice = f.select(fake_nn_call(64, 64, 64));
  REQUIRE(choice.config);
  const CostTraits tile = find_family(choice.config->family).cost_traits(*choice.config);
  CHECK(tile.bm <= 64);
  CHECK(tile.bn <= 64);
  CHECK(choice.selection.kernel != kernel_name(big_tiles));
  CHECK_THAT(choice.selection.note, Catch::Contains("their tiles far larger than the problem"));
}

TEST_CASE("dispatch: an untuned call of a shape the defaults serve badly gets its family's shape default",
          "[dispatch]") {
  // On an H200's 132 SMs, with nothing tuned: one row gets skinny's one-row configuration, and K
  // far deeper than M and N gets tmawgmma's split of K (the defaults gave 0.71x and 0.08x cuBLAS
  // there, bench/results/2026-12-02-h200-tuning-cost-and-untuned.md).
  Fixture f;
  const cache::GpuKey h200{"NVIDIA H200", 9, 0, 132};
  SelectionPolicy policy;
  for (const auto& [m, n, k, family] : {std::tuple{1, 4096, 4096, "skinny"}, {64, 64, 65536, "tmawgmma"}}) {
    const Choice choice = f.select_with(fake_nn_call(m, n, k), policy, h200);
    REQUIRE(choice.config);
    INFO(choice.selection.note);
    CHECK(choice.selection.reason == Reason::Default);
    const KernelFamily& expected = find_family(family);
    const std::vector<KernelConfig> defaults = expected.default_configs(Layout::NN, 4);
    REQUIRE(defaults.size() >= 2);
    CHECK(*choice.config == defaults[1]);  // the first shape default: the one for this kind of shape
  }
  // A shape of neither kind gets none of them: tmawgmma's split of K in 128 on K = 29 would be
  // empty slices, skinny's one-row block idles on 61 rows, and tmawgmma's scan for tiny values
  // (WATCH 2) costs more than it saves on so short a loop.
  const Choice small = f.select_with(fake_nn_call(61, 37, 29), policy, h200);
  REQUIRE(small.config);
  INFO(small.selection.note);
  for (const char* family : {"skinny", "tmawgmma"}) {
    const std::vector<KernelConfig> defaults = find_family(family).default_configs(Layout::NN, 4);
    for (std::size_t i = 1; i < defaults.size(); ++i) CHECK(*small.config != defaults[i]);
  }
}

TEST_CASE("dispatch: an untuned tn call on an H200 gets tmawgmma's default, not wgmma's", "[dispatch]") {
  // Measured on the H200 at tn 4096^3: tmawgmma's default 1.56 ms, wgmma's 1.75
  // (bench/results/2026-12-06-h200-acopy.md, 2026-12-01-h200-targets-wgmma.md). Charging
  // tmawgmma's tn transform in the cost model alone once ranked wgmma first here.
  Fixture f;
  const cache::GpuKey h200{"NVIDIA H200", 9, 0, 132};
  SelectionPolicy policy;
  // Row-major tn: A stored K x M (lda M), B stored K x N (ldb N).
  const SgemmCall tn = fake_call(Order::RowMajor, Transpose::Yes, Transpose::No, 4096, 4096, 4096, 4096, 4096, 4096);
  const Choice choice = f.select_with(tn, policy, h200);
  REQUIRE(choice.config);
  INFO(choice.selection.note);
  CHECK(choice.selection.reason == Reason::Default);
  CHECK(choice.config->family == "tmawgmma");
  CHECK(choice.config->layout == Layout::TN);
}

TEST_CASE("dispatch: an untuned 3xTF32 call scans for tiny values first where the loop repays it (WATCH 2)",
          "[dispatch]") {
  // Measured on an H100 (bench/results/2026-12-07-h100-watch-scan.md): WATCH 2 3-10% faster at
  // 4096^3 and 8192^3, 6% slower at 1024^3.
  Fixture f;
  const cache::GpuKey h200{"NVIDIA H200", 9, 0, 132};
  SelectionPolicy policy;
  const Choice large = f.select_with(fake_nn_call(8192, 8192, 8192), policy, h200);
  REQUIRE(large.config);
  INFO(large.selection.note);
  CHECK(large.config->family == "tmawgmma");
  CHECK(large.config->get("WATCH") == 2);
  const Choice small = f.select_with(fake_nn_call(1024, 1024, 1024), policy, h200);
  REQUIRE(small.config);
  INFO(small.selection.note);
  CHECK((small.config->family != "tmawgmma" || small.config->get("WATCH") == 1));
}

TEST_CASE("dispatch: an untuned call prefers a kernel whose cubin is stored when the model ranks it close",
          "[dispatch]") {
  Fixture f;
  const Choice fresh = f.select(fake_nn_call(300, 200, 260));
  REQUIRE(fresh.config);
  // Another serving default the model ranks within the margin, its cubin stored.
  SelectionPolicy policy;
  std::string stored_name;
  const cache::GpuKey gpu = fake_gpu();
  const DeviceTraits device{gpu.sm_count, gpu.cc_major * 10 + gpu.cc_minor};
  const RowMajorCall call = to_row_major(fake_nn_call(300, 200, 260));
  policy.has_cubin = [&](const KernelConfig& config) { return kernel_name(config) == stored_name; };
  for (const KernelFamily* family : all_families()) {
    const KernelConfig candidate = family->default_config(Layout::NN, family->alignments().front());
    if (kernel_name(candidate) == fresh.selection.kernel) continue;
    stored_name = kernel_name(candidate);
    const Choice choice = select_kernel(TuningTable(f.db.all_winners(), gpu), call, device, policy);
    if (choice.selection.kernel != stored_name) continue;
    CHECK_THAT(choice.selection.note, Catch::Contains("its cubin stored"));
    SUCCEED("the stored " << stored_name << " was taken over " << fresh.selection.kernel);
    return;
  }
  FAIL("no stored default within the margin was taken over " << fresh.selection.kernel << ": " << fresh.selection.note);
}

TEST_CASE("dispatch: selection never crosses layouts", "[dispatch]") {
  Fixture f;
  add_winner(f.db, fake_gpu(), {"nt", 256, 256, 256}, kNtWinner);
  // Same sizes, another layout: the nt winner says nothing about nn.
  const Choice nn = f.select(fake_nn_call(256, 256, 256));
  CHECK(nn.selection.reason == Reason::Default);
  CHECK_FALSE(nn.selection.tuned_problem);
  CHECK_THAT(nn.selection.note, Catch::Contains("no tuned nn problem") && !Catch::Contains("won nt:"));

  const Choice nt = f.select(fake_call(Order::RowMajor, Transpose::No, Transpose::Yes, 256, 256, 256, 256, 256, 256));
  CHECK(nt.selection.reason == Reason::Measured);
  CHECK(nt.selection.kernel == kernel_name(kNtWinner));
}

TEST_CASE("dispatch: with nothing tuned a default serves at the widest alignment its family has within the call's",
          "[dispatch]") {
  Fixture f;
  for (const auto& [ld_pad, misaligned, allowed] : {std::tuple{4, false, 4}, {2, false, 2}, {4, true, 1}}) {
    const Choice choice = f.select(fake_nn_call(100, 100, 100, ld_pad, misaligned));
    INFO("call align " << allowed << ": " << choice.selection.kernel);
    CHECK(choice.selection.reason == Reason::Default);
    CHECK(choice.selection.call_align == allowed);
    REQUIRE(choice.config);
    CHECK(choice.config->align <= allowed);
    for (int align : find_family(choice.config->family).alignments()) {
      if (align <= allowed) {
        CHECK(choice.config->align == align);
        break;
      }
    }
  }
  // A column-major call's default is for its swapped, row-major problem.
  const Choice column = f.select(fake_call(Order::ColMajor, Transpose::Yes, Transpose::No, 8, 12, 16, 16, 16, 8));
  CHECK(column.selection.problem == ProblemShape{"nt", 12, 8, 16});
  REQUIRE(column.config);
  CHECK(column.config->layout == Layout::NT);
}

TEST_CASE("dispatch: an untuned call is never served by a single-pass TF32 default", "[dispatch]") {
  Fixture f;
  for (const auto& [m, n, k] : {std::tuple{4096, 4096, 4096}, {1000, 999, 777}, {64, 3000, 800}}) {
    const Choice choice = f.select(fake_nn_call(m, n, k));
    REQUIRE(choice.config);
    CHECK(find_family(choice.config->family).precision() != Precision::Tf32);
  }
}

TEST_CASE("dispatch: a winner tuned with align4 serves a misaligned call at a narrower alignment", "[dispatch]") {
  Fixture f;
  add_winner(f.db, fake_gpu(), {"nn", 256, 256, 256}, kSmallWinner);
  KernelConfig narrowed = kSmallWinner;

  const Choice misaligned_pointers = f.select(fake_nn_call(256, 256, 256, 0, true));
  narrowed.align = 1;
  CHECK(misaligned_pointers.selection.reason == Reason::Measured);
  CHECK(misaligned_pointers.selection.kernel == kernel_name(narrowed));
  CHECK_THAT(misaligned_pointers.selection.note, Catch::Contains("tuned with align4") && Catch::Contains("align1"));

  const Choice even_lds = f.select(fake_nn_call(256, 256, 256, 2));  // lds 258
  narrowed.align = 2;
  CHECK(even_lds.selection.reason == Reason::Measured);
  CHECK(even_lds.selection.kernel == kernel_name(narrowed));
}

TEST_CASE("dispatch: a winner is never widened beyond the alignment it was measured with", "[dispatch]") {
  Fixture f;
  const KernelConfig align1 = config_of("vectorized", Layout::NN, 1);
  add_winner(f.db, fake_gpu(), {"nn", 255, 255, 255}, align1);
  const Choice choice = f.select(fake_nn_call(255, 255, 255, 1));  // lds 256: the call allows 4
  CHECK(choice.selection.call_align == 4);
  CHECK(choice.selection.kernel == kernel_name(align1));
}

TEST_CASE("dispatch: another GPU's winners are ignored", "[dispatch]") {
  Fixture f;
  add_winner(f.db, other_gpu(), {"nn", 256, 256, 256}, kSmallWinner);
  cache::GpuKey same_name_fewer_sms = fake_gpu();
  same_name_fewer_sms.sm_count -= 1;
  add_winner(f.db, same_name_fewer_sms, {"nn", 256, 256, 256}, kSmallWinner);
  CHECK(f.select(fake_nn_call(256, 256, 256)).selection.reason == Reason::Default);
  CHECK(f.select(fake_nn_call(256, 256, 256), other_gpu()).selection.reason == Reason::Measured);
}

TEST_CASE("dispatch: a tuned winner that cannot serve the call is skipped, saying why", "[dispatch]") {
  Fixture f;
  // BM 32 needs more than 65535 block rows beyond M = 2,097,120; the default (BM 128) does not.
  const KernelConfig short_tiles =
      config_of("vectorized", Layout::NN, 4, {{"BM", 32}, {"BN", 32}, {"TM", 4}, {"TN", 4}});
  add_winner(f.db, fake_gpu(), {"nn", 1000000, 4, 4}, short_tiles);
  const Choice choice = f.select(fake_nn_call(2200000, 4, 4));
  CHECK(choice.selection.reason == Reason::Default);
  CHECK_THAT(choice.selection.note, Catch::Contains("nn:1000000x4x4") && Catch::Contains("exceeds 65535"));
  CHECK(f.select(fake_nn_call(1000000, 4, 4)).selection.reason == Reason::Measured);
}

TEST_CASE("dispatch: a winner this build cannot use is skipped for the next nearest", "[dispatch]") {
  Fixture f;
  add_winner(f.db, fake_gpu(), {"nn", 256, 256, 256}, "gemmtune_sgemm_nosuchfamily_nn_bm128_align4", "nosuchfamily",
             R"({"BM":128,"layout":"nn","align":4})");
  add_winner(f.db, fake_gpu(), {"nn", 1024, 1024, 1024}, kLargeWinner);
  const Choice choice = f.select(fake_nn_call(256, 256, 256));
  CHECK(choice.selection.reason == Reason::Nearest);
  CHECK(choice.selection.kernel == kernel_name(kLargeWinner));
  CHECK_THAT(choice.selection.note, Catch::Contains("unknown kernel family 'nosuchfamily'"));
}

TEST_CASE("dispatch: a selection names only the first few skipped winners", "[dispatch]") {
  Fixture f;
  for (int m : {250, 251, 252, 253, 254}) {
    add_winner(f.db, fake_gpu(), {"nn", m, 256, 256}, "gemmtune_sgemm_nosuchfamily_nn_bm128_align4", "nosuchfamily",
               R"({"BM":128,"layout":"nn","align":4})");
  }
  add_winner(f.db, fake_gpu(), {"nn", 1024, 1024, 1024}, kLargeWinner);
  const Choice choice = f.select(fake_nn_call(256, 256, 256, 0, true));
  CHECK(choice.selection.reason == Reason::Nearest);
  const std::string& note = choice.selection.note;
  CHECK_THAT(note, Catch::Contains("nn:254x256x256") && Catch::Contains("nn:252x256x256") &&
                       !Catch::Contains("nn:251x256x256") && Catch::Contains("tuned with align4"));
  CHECK_THAT(note, Catch::EndsWith("2 more winners skipped"));
}

TEST_CASE("dispatch: a call no kernel can serve is NotSupported", "[dispatch]") {
  Fixture f;
  try {
    f.select(fake_nn_call(9000000, 4, 4, 0, true));  // misaligned: no persistent TMA kernel; every grid too tall
    FAIL("selection succeeded");
  } catch (const DispatchError& error) {
    CHECK(error.status() == Status::NotSupported);
    CHECK_THAT(error.what(), Catch::Contains("no kernel can serve nn:9000000x4x4"));
  }
}

TEST_CASE("dispatch: cuBLAS serves a call only when asked and measured faster", "[dispatch]") {
  Fixture f;
  add_winner(f.db, fake_gpu(), {"nn", 256, 256, 256}, kSmallWinner, 1.0, 0.5);  // cuBLAS faster
  add_winner(f.db, fake_gpu(), {"nn", 1024, 1024, 1024}, kLargeWinner, 1.0, 1.5);
  const Choice off = f.select(fake_nn_call(256, 256, 256));
  CHECK(off.selection.backend == Backend::Kernel);
  const Choice on = f.select(fake_nn_call(256, 256, 256), fake_gpu(), true);
  CHECK(on.selection.backend == Backend::Cublas);
  CHECK(on.selection.kernel == "cublas");
  CHECK_FALSE(on.config);
  CHECK(on.selection.reason == Reason::Measured);
  CHECK_THAT(on.selection.note, Catch::Contains("cuBLAS was measured faster"));
  const Choice slower = f.select(fake_nn_call(1024, 1024, 1024), fake_gpu(), true);
  CHECK(slower.selection.backend == Backend::Kernel);
  CHECK(slower.selection.kernel == kernel_name(kLargeWinner));
}

TEST_CASE("dispatch: a selection describes itself in one line", "[dispatch]") {
  Fixture f;
  add_winner(f.db, fake_gpu(), {"nn", 256, 256, 256}, kSmallWinner);
  const std::string measured = describe(f.select(fake_nn_call(256, 256, 256)).selection);
  CHECK_THAT(measured, Catch::StartsWith(kernel_name(kSmallWinner) + " for nn:256x256x256 (call align4)"));
  const Selection untuned = f.select(fake_nn_call(512, 256, 256)).selection;
  CHECK_THAT(describe(untuned), Catch::StartsWith(untuned.kernel + " for nn:512x256x256 (call align4)"));
  if (untuned.reason == Reason::Nearest) {
    CHECK_THAT(describe(untuned), Catch::Contains("nearest tuned problem, nn:256x256x256 at distance 1.000"));
  }
}

}  // namespace gemmtune::dispatch
