// Warm start across problems: the nearest tuned problems' winners seed the search, and a problem
// whose neighbours agree on one winner gets a smaller budget.
#include <catch2/catch.hpp>

#include "family_registry.hpp"
#include "kernel_name.hpp"
#include "problem_rows.hpp"
#include "search_setup.hpp"

using namespace gemmtune;
using namespace gemmtune::tuner;

namespace {

const cache::GpuKey kH200{"NVIDIA H200", 9, 0, 132};
const std::string kWinner = "gemmtune_sgemm_vectorized_nn_bm128_bn128_bk8_tm8_tn8_align4";
const std::string kOther = "gemmtune_sgemm_reg2d_nn_bm128_bn128_bk8_tm8_tn8_align1";

void add_winner(cache::Database& db, const Problem& problem, const std::string& kernel,
                const std::string& tuned_for = "fp32") {
  const std::int64_t gpu = db.upsert_gpu({kH200, "", "", ""});
  cache::Measurement measurement;
  measurement.gpu_id = gpu;
  measurement.problem_id = db.upsert_problem(to_row(problem));
  const std::string family = parse_kernel_name(kernel).family;
  measurement.config_id =
      db.upsert_config(kernel, family, "{}", precision_name(find_family(family).precision()));
  measurement.timing = cache::Timing{1, 1, 1, 1, 1};
  measurement.repetitions = 10;
  db.record_measurement(measurement, cache::WinnerUpdate{2.0, cache::WinnerPolicy::IfFaster, tuned_for});
}

}  // namespace

TEST_CASE("warm start: neighbours that agree on a winner give the guided search a smaller budget", "[tuner]") {
  cache::Database db = cache::Database::open(":memory:", cache::OpenMode::ReadWrite);
  const Problem problem{Layout::NN, 2048, 2048, 2048};
  add_winner(db, {Layout::NN, 1536, 2048, 2048}, kWinner);
  add_winner(db, {Layout::NN, 2048, 2048, 3072}, kWinner);
  const WarmStart warm = warm_start(db, kH200, problem, 4, Precision::Fp32);
  REQUIRE(warm.seeds.size() == 1);  // one kernel, seeded once
  CHECK(kernel_name(warm.seeds.front()) == kWinner);
  CHECK(warm.neighbours == 2);
  CHECK(warm.neighbours_agree());
  const std::optional<Budget> budget = warm_budget(warm, {}, 3000);
  REQUIRE(budget);
  CHECK(budget->max_candidates == std::optional<std::size_t>(kWarmMax));
  CHECK(warm_budget(warm, {}, 100)->max_candidates == std::optional<std::size_t>(kWarmMin));
  SECTION("a budget the user gave stays") {
    Budget asked;
    asked.max_candidates = 500;
    CHECK_FALSE(warm_budget(warm, asked, 3000));
  }
}

TEST_CASE("warm start: neighbours that disagree, are far away or alone keep the default budget", "[tuner]") {
  cache::Database db = cache::Database::open(":memory:", cache::OpenMode::ReadWrite);
  const Problem problem{Layout::NN, 2048, 2048, 2048};
  SECTION("disagree") {
    add_winner(db, {Layout::NN, 1536, 2048, 2048}, kWinner);
    add_winner(db, {Layout::NN, 2048, 2048, 3072}, kOther);
    CHECK_FALSE(warm_start(db, kH200, problem, 4, Precision::Fp32).neighbours_agree());
  }
  SECTION("far") {
    add_winner(db, {Layout::NN, 1536, 2048, 2048}, kWinner);
    add_winner(db, {Layout::NN, 64, 2048, 2048}, kWinner);  // 32x fewer rows: distance 5
    CHECK_FALSE(warm_start(db, kH200, problem, 4, Precision::Fp32).neighbours_agree());
  }
  SECTION("alone") {
    add_winner(db, {Layout::NN, 1536, 2048, 2048}, kWinner);
    CHECK_FALSE(warm_start(db, kH200, problem, 4, Precision::Fp32).neighbours_agree());
  }
  SECTION("another layout is no neighbour") {
    add_winner(db, {Layout::TN, 1536, 2048, 2048}, kWinner);
    add_winner(db, {Layout::TN, 2048, 2048, 3072}, kWinner);
    CHECK(warm_start(db, kH200, problem, 4, Precision::Fp32).seeds.empty());
  }
}

TEST_CASE("warm start: a neighbour's winner of each class is one seed; a class seeds only kernels it admits",
          "[tuner]") {
  cache::Database db = cache::Database::open(":memory:", cache::OpenMode::ReadWrite);
  const Problem problem{Layout::NN, 2048, 2048, 2048};
  const std::string tensor_core = kernel_name(find_family("tf32x3").default_config(Layout::NN, 4));
  // One neighbour tuned for two classes with the same winner, another with a tensor-core winner.
  add_winner(db, {Layout::NN, 1536, 2048, 2048}, kWinner, "strict");
  add_winner(db, {Layout::NN, 1536, 2048, 2048}, kWinner, "fp32");
  add_winner(db, {Layout::NN, 2048, 2048, 3072}, tensor_core, "fp32");
  const WarmStart fp32 = warm_start(db, kH200, problem, 4, Precision::Fp32);
  REQUIRE(fp32.seeds.size() == 2);
  CHECK(kernel_name(fp32.seeds[0]) == kWinner);
  CHECK(kernel_name(fp32.seeds[1]) == tensor_core);
  CHECK(fp32.neighbours == 2);
  CHECK_FALSE(fp32.neighbours_agree());  // two problems, two winners
  const WarmStart strict = warm_start(db, kH200, problem, 4, Precision::Strict);
  REQUIRE(strict.seeds.size() == 1);
  CHECK(kernel_name(strict.seeds[0]) == kWinner);
  CHECK(strict.neighbours == 1);  // the tensor-core winner's problem has nothing strict admits
  CHECK_FALSE(strict.neighbours_agree());
}

TEST_CASE("warm start: a winner of misaligned calls seeds an aligned problem with its aligned twin", "[tuner]") {
  cache::Database db = cache::Database::open(":memory:", cache::OpenMode::ReadWrite);
  const Problem problem{Layout::NN, 2048, 2048, 2048};
  KernelConfig copied = find_family("warptile").default_config(Layout::NN, 1);
  copied.set("COPY", 2);  // aligned copies of A and B: for ALIGN 1 and 2 only
  add_winner(db, {Layout::NN, 1536, 2048, 2048}, kernel_name(copied), "strict");
  const WarmStart aligned = warm_start(db, kH200, problem, 4, Precision::Strict);
  REQUIRE(aligned.seeds.size() == 1);
  CHECK(aligned.seeds[0] == find_family("warptile").default_config(Layout::NN, 4));
  const WarmStart misaligned = warm_start(db, kH200, problem, 1, Precision::Strict);
  REQUIRE(misaligned.seeds.size() == 1);
  CHECK(misaligned.seeds[0] == copied);
}
