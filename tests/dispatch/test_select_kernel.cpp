// The selection rules on a database the test fills for a made-up GPU: exact, nearest, layouts
// never crossed, default, alignment fallback, other GPUs, cuBLAS preference. CPU only.
#include <catch2/catch.hpp>

#include "dispatch_error.hpp"
#include "dispatch_test_support.hpp"
#include "family_registry.hpp"
#include "kernel_name.hpp"
#include "problem.hpp"
#include "select_kernel.hpp"

namespace gemmtune::dispatch {
namespace {

using namespace test;

// A tuning database in a temporary file, and selection over its winners.
struct Fixture {
  cache::test::TempDir dir;
  cache::Database db = cache::Database::open(dir.file("tuned.db"), cache::OpenMode::ReadWrite);

  Choice select(const SgemmCall& call, const cache::GpuKey& gpu = fake_gpu(), bool prefer_cublas = false) const {
    return select_kernel(TuningTable(db.all_winners(), gpu), to_row_major(call), DeviceTraits{gpu.sm_count, gpu.cc_major * 10 + gpu.cc_minor},
                         {prefer_cublas});
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

TEST_CASE("dispatch: an untuned shape gets the winner of the closer tuned problem", "[dispatch]") {
  Fixture f;
  add_winner(f.db, fake_gpu(), {"nn", 256, 256, 256}, kSmallWinner);
  add_winner(f.db, fake_gpu(), {"nn", 1024, 1024, 1024}, kLargeWinner);
  const Choice near_small = f.select(fake_nn_call(300, 200, 260));
  CHECK(near_small.selection.reason == Reason::Nearest);
  CHECK(near_small.selection.kernel == kernel_name(kSmallWinner));
  CHECK(near_small.selection.tuned_problem == ProblemShape{"nn", 256, 256, 256});
  const double expected = log_distance({Layout::NN, 300, 200, 260}, {Layout::NN, 256, 256, 256});
  CHECK(near_small.selection.distance == Approx(expected));
  CHECK(near_small.selection.distance > 0.0);

  const Choice near_large = f.select(fake_nn_call(900, 1100, 700));
  CHECK(near_large.selection.reason == Reason::Nearest);
  CHECK(near_large.selection.kernel == kernel_name(kLargeWinner));
  CHECK(near_large.selection.tuned_problem == ProblemShape{"nn", 1024, 1024, 1024});
}

TEST_CASE("dispatch: selection never crosses layouts", "[dispatch]") {
  Fixture f;
  add_winner(f.db, fake_gpu(), {"nt", 256, 256, 256}, kNtWinner);
  // Same sizes, another layout: the nt winner says nothing about nn.
  const Choice nn = f.select(fake_nn_call(256, 256, 256));
  CHECK(nn.selection.reason == Reason::Default);
  CHECK(nn.selection.kernel == kernel_name(find_family("vectorized").default_config(Layout::NN, 4)));
  CHECK_FALSE(nn.selection.tuned_problem);
  CHECK_THAT(nn.selection.note, Catch::Contains("no tuned nn problem"));

  // A far nn problem still beats an exact problem of another layout.
  add_winner(f.db, fake_gpu(), {"nn", 4096, 16, 4096}, kLargeWinner);
  const Choice far = f.select(fake_nn_call(256, 256, 256));
  CHECK(far.selection.reason == Reason::Nearest);
  CHECK(far.selection.tuned_problem == ProblemShape{"nn", 4096, 16, 4096});

  const Choice nt = f.select(fake_call(Order::RowMajor, Transpose::No, Transpose::Yes, 256, 256, 256, 256, 256, 256));
  CHECK(nt.selection.reason == Reason::Measured);
  CHECK(nt.selection.kernel == kernel_name(kNtWinner));
}

TEST_CASE("dispatch: with nothing tuned the default takes the widest alignment the call allows", "[dispatch]") {
  Fixture f;
  const KernelFamily& vectorized = find_family("vectorized");
  const Choice aligned = f.select(fake_nn_call(100, 100, 100, 4));  // lds 104
  CHECK(aligned.selection.reason == Reason::Default);
  CHECK(aligned.selection.kernel == kernel_name(vectorized.default_config(Layout::NN, 4)));
  const Choice even = f.select(fake_nn_call(100, 100, 100, 2));  // lds 102: pairs only
  CHECK(even.selection.call_align == 2);
  CHECK(even.selection.kernel == kernel_name(vectorized.default_config(Layout::NN, 2)));
  const Choice misaligned = f.select(fake_nn_call(100, 100, 100, 4, true));
  CHECK(misaligned.selection.call_align == 1);
  CHECK(misaligned.selection.kernel == kernel_name(vectorized.default_config(Layout::NN, 1)));
  // A column-major call's default is for its swapped, row-major problem.
  const Choice column = f.select(fake_call(Order::ColMajor, Transpose::Yes, Transpose::No, 8, 12, 16, 16, 16, 8));
  CHECK(column.selection.problem == ProblemShape{"nt", 12, 8, 16});
  CHECK(column.selection.kernel == kernel_name(vectorized.default_config(Layout::NT, 4)));
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
    f.select(fake_nn_call(9000000, 4, 4));  // every default's grid is too tall
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
  const std::string nearest = describe(f.select(fake_nn_call(512, 256, 256)).selection);
  CHECK_THAT(nearest, Catch::StartsWith(kernel_name(kSmallWinner) + " for nn:512x256x256 (call align4)"));
  CHECK_THAT(nearest, Catch::Contains("nearest tuned problem, nn:256x256x256 at distance 1.000"));
}

}  // namespace gemmtune::dispatch
