// Selection by precision class: a call is served only by winners tuned for a class it admits and
// only by kernels whose family's class it admits (a strict call never gets a tensor-core kernel,
// whatever the database says); the Runtime's class and a call's own. CPU only.
#include <catch2/catch.hpp>

#include <set>
#include <string>

#include "dispatch_test_support.hpp"
#include "family_registry.hpp"
#include "kernel_name.hpp"
#include "runtime_impl.hpp"
#include "select_kernel.hpp"
#include "selection_fixture.hpp"

namespace gemmtune::dispatch {
namespace {

using namespace test;

struct Fixture : SelectionFixture {
  Choice select(const SgemmCall& call, Precision precision, bool prefer_cublas = false) const {
    return select_with(call, {prefer_cublas, precision, {}});
  }
};

const KernelConfig kStrictWinner =
    config_of("vectorized", Layout::NN, 4, {{"BM", 64}, {"BN", 64}, {"BK", 16}, {"TM", 4}, {"TN", 4}});
const KernelConfig kFp32Winner = find_family("tf32x3").default_config(Layout::NN, 4);
const KernelConfig kTf32Winner = find_family("tmatf32").default_config(Layout::NN, 4);
// Winners the cost model ranks first of their class for the untuned calls below (as their
// families' defaults), so that a neighbour's winner is taken over a default (kWinnerMargin).
const KernelConfig kStrictFavourite = find_family("warptile").default_config(Layout::NN, 4);
const KernelConfig kFp32Favourite = find_family("tmawgmma").default_config(Layout::NN, 4);

}  // namespace

TEST_CASE("dispatch: each class is served by the winner tuned for it", "[dispatch]") {
  Fixture f;
  const cache::Problem problem{"nn", 1024, 1024, 1024};
  add_winner(f.db, fake_gpu(), problem, kStrictWinner, 2.0, 2.5, "strict");
  add_winner(f.db, fake_gpu(), problem, kFp32Winner, 1.0, 2.5, "fp32");
  add_winner(f.db, fake_gpu(), problem, kTf32Winner, 0.4, 0.8, "tf32");
  const SgemmCall call = fake_nn_call(1024, 1024, 1024);

  const Choice strict = f.select(call, Precision::Strict);
  CHECK(strict.selection.kernel == kernel_name(kStrictWinner));
  CHECK(strict.selection.reason == Reason::Measured);
  CHECK(strict.selection.requested == Precision::Strict);
  CHECK(strict.selection.precision == Precision::Strict);
  const Choice fp32 = f.select(call, Precision::Fp32);
  CHECK(fp32.selection.kernel == kernel_name(kFp32Winner));
  CHECK(fp32.selection.precision == Precision::Fp32);
  const Choice tf32 = f.select(call, Precision::Tf32);
  CHECK(tf32.selection.kernel == kernel_name(kTf32Winner));
  CHECK(tf32.selection.precision == Precision::Tf32);
  CHECK_THAT(describe(tf32.selection), Catch::Contains("a tf32 kernel for a tf32 call"));
}

TEST_CASE("dispatch: a class without a winner of its own takes a stricter class's", "[dispatch]") {
  Fixture f;
  add_winner(f.db, fake_gpu(), {"nn", 1024, 1024, 1024}, kStrictWinner, 2.0, 2.5, "strict");
  add_winner(f.db, fake_gpu(), {"nn", 4096, 4096, 4096}, kFp32Favourite, 1.0, 2.5, "fp32");
  // The exact problem's strict winner before the fp32 winner of a farther problem.
  const Choice exact = f.select(fake_nn_call(1024, 1024, 1024), Precision::Tf32);
  CHECK(exact.selection.kernel == kernel_name(kStrictWinner));
  CHECK(exact.selection.reason == Reason::Measured);
  CHECK(exact.selection.precision == Precision::Strict);
  const Choice near = f.select(fake_nn_call(4000, 4000, 4000), Precision::Fp32);
  CHECK(near.selection.kernel == kernel_name(kFp32Favourite));
  CHECK(near.selection.reason == Reason::Nearest);
}

TEST_CASE("dispatch: a strict call never gets a tensor-core kernel: the nearest strict winner, then a default",
          "[dispatch]") {
  Fixture f;
  add_winner(f.db, fake_gpu(), {"nn", 1024, 1024, 1024}, kFp32Winner, 1.0, 2.5, "fp32");
  add_winner(f.db, fake_gpu(), {"nn", 1024, 1024, 1024}, kTf32Winner, 0.4, 0.8, "tf32");
  const Choice fallback = f.select(fake_nn_call(1024, 1024, 1024), Precision::Strict);
  CHECK(fallback.selection.reason == Reason::Default);
  CHECK(fallback.selection.precision == Precision::Strict);
  REQUIRE(fallback.config);
  CHECK(find_family(fallback.config->family).precision() == Precision::Strict);
  CHECK_THAT(fallback.selection.note, Catch::Contains("no tuned nn problem for this GPU in a class strict admits"));

  add_winner(f.db, fake_gpu(), {"nn", 256, 256, 256}, kStrictFavourite, 0.1, 0.2, "strict");
  const Choice nearest = f.select(fake_nn_call(1024, 1024, 1024), Precision::Strict);
  CHECK(nearest.selection.reason == Reason::Nearest);
  CHECK(nearest.selection.kernel == kernel_name(kStrictFavourite));
  CHECK(nearest.selection.tuned_problem == ProblemShape{"nn", 256, 256, 256});
}

TEST_CASE("dispatch: a kernel whose family's class the call does not admit is skipped, whatever its row says",
          "[dispatch]") {
  Fixture f;
  // A database that calls a tensor-core winner strict (written by hand, or by a bug).
  add_winner(f.db, fake_gpu(), {"nn", 1024, 1024, 1024}, kFp32Winner, 1.0, 2.5, "strict");
  const Choice choice = f.select(fake_nn_call(1024, 1024, 1024), Precision::Strict);
  CHECK(choice.selection.reason == Reason::Default);
  CHECK(choice.selection.precision == Precision::Strict);
  CHECK_THAT(choice.selection.note, Catch::Contains("is a fp32 kernel, which strict does not admit"));
}

TEST_CASE("dispatch: cuBLAS preferred for a tf32 winner runs as FAST_TF32, for others as pedantic", "[dispatch]") {
  Fixture f;
  const cache::Problem problem{"nn", 1024, 1024, 1024};
  add_winner(f.db, fake_gpu(), problem, kFp32Winner, 1.0, 0.5, "fp32");
  add_winner(f.db, fake_gpu(), problem, kTf32Winner, 0.4, 0.3, "tf32");
  const Choice tf32 = f.select(fake_nn_call(1024, 1024, 1024), Precision::Tf32, true);
  CHECK(tf32.selection.backend == Backend::Cublas);
  CHECK(tf32.selection.precision == Precision::Tf32);
  const Choice fp32 = f.select(fake_nn_call(1024, 1024, 1024), Precision::Fp32, true);
  CHECK(fp32.selection.backend == Backend::Cublas);
  CHECK(fp32.selection.precision == Precision::Strict);
}

TEST_CASE("dispatch: an untuned call ranks only the defaults its class admits; tmatf32 only for tf32",
          "[dispatch]") {
  Fixture f;  // no winner at all: every pick is a family default ranked by the cost model
  for (Precision precision : {Precision::Strict, Precision::Fp32, Precision::Tf32}) {
    for (const SgemmCall& call :
         {fake_nn_call(4096, 4096, 4096), fake_nn_call(64, 64, 64), fake_nn_call(12, 4096, 4096)}) {
      const Choice choice = f.select(call, precision);
      REQUIRE(choice.config);
      CHECK(choice.selection.reason == Reason::Default);
      const Precision served = find_family(choice.config->family).precision();
      CHECK(admits(precision, served));
      CHECK(choice.selection.precision == served);
      CHECK(choice.selection.requested == precision);
      // The ranking in the note names every contender shown: none of a class the call does not admit.
      if (precision != Precision::Tf32) CHECK_THAT(choice.selection.note, !Catch::Contains("tmatf32"));
      if (precision == Precision::Strict) {
        CHECK_THAT(choice.selection.note, !Catch::Contains("wgmma") && !Catch::Contains("tf32x3"));
      }
    }
  }
  // A large square tf32 call has the single-pass family among its contenders.
  CHECK_THAT(f.select(fake_nn_call(4096, 4096, 4096), Precision::Tf32).selection.note, Catch::Contains("tmatf32"));
}

TEST_CASE("dispatch: selectable_configs holds whatever an untuned call of any class may get", "[dispatch]") {
  Fixture f;
  add_winner(f.db, fake_gpu(), {"nn", 1024, 1024, 1024}, kStrictWinner, 2.0, 2.5, "strict");
  const TuningTable table(f.db.all_winners(), fake_gpu());
  std::set<std::string> exported;
  for (const KernelConfig& config : selectable_configs(table, "sm_90")) exported.insert(kernel_name(config));
  for (Precision precision : {Precision::Strict, Precision::Fp32, Precision::Tf32}) {
    for (int size : {16, 64, 333, 1000, 4096}) {
      for (const SgemmCall& call : {fake_nn_call(size, size, size), fake_nn_call(size, 4096, 512),
                                    fake_nn_call(4096, size, 512), fake_nn_call(size, size, size, 1, true)}) {
        const Choice choice = f.select(call, precision);
        REQUIRE(choice.config);
        CHECK(exported.count(kernel_name(*choice.config)) == 1);
      }
    }
  }
}

TEST_CASE("dispatch: the Runtime's class serves calls that name none; a call's own class overrides it",
          "[dispatch]") {
  Fixture f;
  const cache::Problem problem{"nn", 1024, 1024, 1024};
  add_winner(f.db, fake_gpu(), problem, kStrictWinner, 2.0, 2.5, "strict");
  add_winner(f.db, fake_gpu(), problem, kFp32Winner, 1.0, 2.5, "fp32");
  RuntimeOptions options;
  options.precision = Precision::Strict;
  const Runtime runtime = open_on_device(fake_device(), f.db.path(), options);
  SgemmCall call = fake_nn_call(1024, 1024, 1024);
  Selection selection;
  REQUIRE(runtime.plan(call, selection) == Status::Success);
  CHECK(selection.kernel == kernel_name(kStrictWinner));
  CHECK(selection.requested == Precision::Strict);
  call.precision = Precision::Fp32;
  REQUIRE(runtime.plan(call, selection) == Status::Success);
  CHECK(selection.kernel == kernel_name(kFp32Winner));
  CHECK(selection.requested == Precision::Fp32);

  call.precision = static_cast<Precision>(7);
  CHECK(runtime.plan(call, selection) == Status::InvalidValue);
  CHECK_THAT(last_error(), Catch::Contains("precision 7 is none of Strict, Fp32, Tf32"));
  options.precision = static_cast<Precision>(-1);
  CHECK_THROWS_WITH(open_on_device(fake_device(), f.db.path(), options),
                    Catch::Contains("RuntimeOptions::precision -1"));
}

}  // namespace gemmtune::dispatch
