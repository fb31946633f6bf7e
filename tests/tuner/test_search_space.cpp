#include <catch2/catch.hpp>
#include <functional>
#include <set>

#include "error.hpp"
#include "family_registry.hpp"
#include "kernel_name.hpp"
#include "search_setup.hpp"
#include "search_space.hpp"

using namespace gemmtune;
using namespace gemmtune::tuner;

namespace {

// The number of legal configurations, counted by recursion over the value lists rather than the
// odometer enumerate_space uses.
std::size_t count_legal(const KernelFamily& family, Layout layout, int align) {
  KernelConfig config = family.default_config(layout, align);
  const std::function<std::size_t(std::size_t)> count = [&](std::size_t param) -> std::size_t {
    if (param == config.params.size()) return family.check(config) ? 0 : 1;
    std::size_t total = 0;
    for (int value : family.params()[param].search_values) {
      config.params[param].second = value;
      total += count(param + 1);
    }
    return total;
  };
  return count(0);
}

std::size_t differing_params(const KernelConfig& a, const KernelConfig& b) {
  std::size_t count = 0;
  for (std::size_t i = 0; i < a.params.size(); ++i) count += a.params[i] != b.params[i];
  return count;
}

}  // namespace

TEST_CASE("search space: every enumerated configuration is legal and listed once", "[space]") {
  for (const KernelFamily* family : all_families()) {
    for (Layout layout : {Layout::NN, Layout::NT, Layout::TN, Layout::TT}) {
      for (int align : family->alignments()) {
        const std::vector<KernelConfig> space = enumerate_space(*family, layout, align);
        std::set<std::string> names;
        for (const KernelConfig& config : space) {
          INFO(kernel_name(config));
          CHECK_FALSE(family->check(config));
          CHECK(config.layout == layout);
          CHECK(config.align == align);
          names.insert(kernel_name(config));
        }
        CHECK(names.size() == space.size());
        CHECK(space.size() == count_legal(*family, layout, align));
      }
    }
  }
}

TEST_CASE("search space: counts of the seed families", "[space]") {
  // TILE 8, 16, 32 are all legal for the one-output-per-thread families.
  for (const char* name : {"naive", "coalesced", "smem"}) {
    CHECK(enumerate_space(find_family(name), Layout::NN, 1).size() == 3);
  }
  // reg2d's product is 4 * 4 * 3 * 2 * 2 = 192; it refuses too few threads (32 x 32 with 8 x 8
  // is 16) and more than 48 KB of shared memory (256 x 256 with BK 32).
  const std::vector<KernelConfig> reg2d = enumerate_space(find_family("reg2d"), Layout::NN, 1);
  CHECK(reg2d.size() < 192);
  CHECK(reg2d.size() > 96);
  // Lexicographic order: the first and the last legal configurations.
  CHECK(kernel_name(reg2d.front()) == "gemmtune_sgemm_reg2d_nn_bm32_bn32_bk8_tm4_tn4_align1");
  CHECK(kernel_name(reg2d.back()) == "gemmtune_sgemm_reg2d_nn_bm256_bn256_bk16_tm8_tn8_align1");
}

TEST_CASE("search space: the space does not depend on layout, except in name", "[space]") {
  const KernelFamily& vectorized = find_family("vectorized");
  const std::vector<KernelConfig> nn = enumerate_space(vectorized, Layout::NN, 4);
  const std::vector<KernelConfig> tt = enumerate_space(vectorized, Layout::TT, 4);
  REQUIRE(nn.size() == tt.size());
  for (std::size_t i = 0; i < nn.size(); ++i) CHECK(nn[i].params == tt[i].params);
}

TEST_CASE("search space: enumerate_space refuses an alignment the family does not take", "[space]") {
  CHECK_THROWS_WITH(enumerate_space(find_family("reg2d"), Layout::NN, 4), "reg2d takes ALIGN 1, not 4");
  CHECK_THROWS_WITH(enumerate_space(find_family("vectorized"), Layout::NN, 3),
                    "vectorized takes ALIGN 4, 2, 1, not 3");
}

TEST_CASE("search space: enumerate_all takes every alignment up to the maximum", "[space]") {
  const KernelFamily& vectorized = find_family("vectorized");
  const std::size_t per_align = enumerate_space(vectorized, Layout::NT, 1).size();
  CHECK(enumerate_all(Layout::NT, 1, {"vectorized"}).size() == per_align);
  CHECK(enumerate_all(Layout::NT, 2, {"vectorized"}).size() == 2 * per_align);
  CHECK(enumerate_all(Layout::NT, 4, {"vectorized"}).size() == 3 * per_align);
  for (const KernelConfig& config : enumerate_all(Layout::NT, 2, {"vectorized"})) CHECK(config.align <= 2);
}

TEST_CASE("search space: enumerate_all covers the named families once, all when none is named", "[space]") {
  std::size_t everything = 0;
  for (const KernelFamily* family : all_families()) {
    for (int align : family->alignments()) everything += enumerate_space(*family, Layout::NN, align).size();
  }
  CHECK(enumerate_all(Layout::NN, 4).size() == everything);

  const std::vector<KernelConfig> two = enumerate_all(Layout::NN, 4, {"smem", "naive", "smem"});
  REQUIRE(two.size() == 6);
  CHECK(two.front().family == "smem");
  CHECK(two.back().family == "naive");
  CHECK_THROWS_WITH(enumerate_all(Layout::NN, 1, {"reg2d", "warp"}),
                    Catch::Contains("unknown kernel family 'warp'") && Catch::Contains("reg2d"));
}

TEST_CASE("search space: neighbours are legal, one parameter away, the nearest legal value", "[space]") {
  std::size_t neighbour_count = 0;
  for (const KernelConfig& config : enumerate_all(Layout::NN, 4)) {
    const KernelFamily& family = find_family(config.family);
    const std::vector<KernelConfig> found = neighbours(config);
    for (const KernelConfig& neighbour : found) {
      INFO(kernel_name(config) << " -> " << kernel_name(neighbour));
      CHECK_FALSE(family.check(neighbour));
      CHECK(neighbour.family == config.family);
      CHECK(neighbour.layout == config.layout);
      CHECK(neighbour.align == config.align);
      CHECK(differing_params(config, neighbour) == 1);
    }
    // Per parameter and direction: a neighbour exactly when some listed value that way is legal,
    // and then the nearest such value.
    for (std::size_t p = 0; p < config.params.size(); ++p) {
      for (const int direction : {-1, +1}) {
        std::optional<int> nearest;
        for (int value : family.params()[p].search_values) {
          if ((value - config.params[p].second) * direction <= 0) continue;
          KernelConfig candidate = config;
          candidate.params[p].second = value;
          if (family.check(candidate)) continue;
          if (!nearest || (value - *nearest) * direction < 0) nearest = value;
        }
        std::size_t matches = 0;
        for (const KernelConfig& neighbour : found) {
          const int delta = neighbour.params[p].second - config.params[p].second;
          if (delta * direction > 0) {
            ++matches;
            CHECK(neighbour.params[p].second == nearest);
          }
        }
        INFO(kernel_name(config) << " parameter " << config.params[p].first << " direction " << direction);
        CHECK(matches == (nearest ? 1u : 0u));
      }
    }
    neighbour_count += found.size();
  }
  CHECK(neighbour_count > 0);
}

TEST_CASE("search space: neighbours of a value off the list step to the listed values around it", "[space]") {
  KernelConfig config = find_family("reg2d").default_config();  // 128 x 128, BK 8, 8 x 8
  config.set("BK", 12);  // between 8 and 16; legal for reg2d
  REQUIRE_FALSE(find_family("reg2d").check(config));
  std::vector<int> bk_values;
  for (const KernelConfig& neighbour : neighbours(config)) {
    if (neighbour.get("BK") != 12) bk_values.push_back(neighbour.get("BK"));
  }
  CHECK(bk_values == std::vector<int>{8, 16});
}

TEST_CASE("candidate space: wgmma only on Hopper; naming it for another GPU is an error", "[tuner]") {
  const Problem problem{Layout::NN, 4096, 4096, 4096};
  auto families_in = [](const std::vector<KernelConfig>& space) {
    std::set<std::string> names;
    for (const KernelConfig& config : space) names.insert(config.family);
    return names;
  };
  CHECK(families_in(candidate_space(problem, 4, {}, Precision::Fp32, 132, "sm_90")).count("wgmma") == 1);
  const std::set<std::string> on_ampere = families_in(candidate_space(problem, 4, {}, Precision::Fp32, 108, "sm_80"));
  CHECK(on_ampere.count("wgmma") == 0);
  CHECK(on_ampere.count("tf32x3") == 1);
  // No arch: everything the class admits.
  CHECK(families_in(candidate_space(problem, 4, {}, Precision::Fp32, 0)).count("wgmma") == 1);
  CHECK_THROWS_WITH(candidate_space(problem, 4, {"tf32x3", "wgmma"}, Precision::Fp32, 108, "sm_80"),
                    "kernel family 'wgmma' does not run on sm_80 GPUs");
}

TEST_CASE("candidate space: a precision class holds only the families it admits", "[tuner]") {
  const Problem problem{Layout::NN, 4096, 4096, 4096};
  auto classes_in = [](const std::vector<KernelConfig>& space) {
    std::set<Precision> classes;
    std::set<std::string> families;
    for (const KernelConfig& config : space) {
      classes.insert(find_family(config.family).precision());
      families.insert(config.family);
    }
    return std::pair(classes, families);
  };
  const auto [strict, strict_families] = classes_in(candidate_space(problem, 4, {}, Precision::Strict, 132, "sm_90"));
  CHECK(strict == std::set<Precision>{Precision::Strict});
  CHECK(strict_families.count("warptile") == 1);
  const auto [fp32, fp32_families] = classes_in(candidate_space(problem, 4, {}, Precision::Fp32, 132, "sm_90"));
  CHECK(fp32 == std::set<Precision>{Precision::Strict, Precision::Fp32});
  CHECK(fp32_families.count("tmatf32") == 0);
  const auto [tf32, tf32_families] = classes_in(candidate_space(problem, 4, {}, Precision::Tf32, 132, "sm_90"));
  CHECK(tf32 == std::set<Precision>{Precision::Strict, Precision::Fp32, Precision::Tf32});
  CHECK(tf32_families.count("tmatf32") == 1);

  CHECK_THROWS_AS(candidate_space(problem, 4, {"reg2d", "wgmma"}, Precision::Strict, 132, "sm_90"), InputError);
  CHECK_THROWS_WITH(candidate_space(problem, 4, {"tmatf32"}, Precision::Fp32, 132, "sm_90"),
                    "kernel family 'tmatf32' is of the tf32 class, which --precision fp32 does not admit "
                    "(--precision tf32 does)");
  CHECK(classes_in(candidate_space(problem, 4, {"reg2d", "tmatf32"}, Precision::Tf32, 132, "sm_90")).second ==
        std::set<std::string>{"reg2d", "tmatf32"});
}
