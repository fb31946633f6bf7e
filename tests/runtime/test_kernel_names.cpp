// A kernel's name is a pure function of its configuration, and parse_kernel_name inverts it.
#include <catch2/catch.hpp>

#include "family_registry.hpp"
#include "kernel_name.hpp"

namespace gemmtune {
namespace {

// Every combination of a family's search values (legal or not: naming does not judge).
std::vector<KernelConfig> all_combinations(const KernelFamily& family, Layout layout, int align) {
  std::vector<KernelConfig> configs{family.default_config(layout, align)};
  for (std::size_t i = 0; i < family.params().size(); ++i) {
    std::vector<KernelConfig> grown;
    for (const KernelConfig& config : configs) {
      for (int value : family.params()[i].search_values) {
        KernelConfig next = config;
        next.params[i].second = value;
        grown.push_back(next);
      }
    }
    configs = std::move(grown);
  }
  return configs;
}

}  // namespace

TEST_CASE("kernel names round-trip for every family, layout, alignment and search value", "[names]") {
  std::size_t count = 0;
  for (const KernelFamily* family : all_families()) {
    for (Layout layout : {Layout::NN, Layout::NT, Layout::TN, Layout::TT}) {
      for (int align : family->alignments()) {
        for (const KernelConfig& config : all_combinations(*family, layout, align)) {
          const std::string name = kernel_name(config);
          INFO(name);
          REQUIRE(parse_kernel_name(name) == config);
          REQUIRE(kernel_name(parse_kernel_name(name)) == name);
          ++count;
        }
      }
    }
  }
  CHECK(count > 1000);
}

TEST_CASE("kernel names spell the family, layout, tiles and alignment", "[names]") {
  KernelConfig config = find_family("vectorized").default_config(Layout::TN, 4);
  CHECK(kernel_name(config) == "gemmtune_sgemm_vectorized_tn_bm128_bn128_bk8_tm8_tn8_align4");
  config.set("BK", 16);
  CHECK(kernel_name(config) == "gemmtune_sgemm_vectorized_tn_bm128_bn128_bk16_tm8_tn8_align4");
  CHECK(kernel_name(find_family("naive").default_config()) == "gemmtune_sgemm_naive_nn_tile32_align1");
}

TEST_CASE("a parameter added later is left out of names at its default, so older names still parse", "[names]") {
  // warptile's FRAGBUF, then ORDER, then COPY came after warptile names were stored in databases.
  const std::string older = "gemmtune_sgemm_warptile_nn_bm128_bn128_bk8_wm32_wn64_tm8_tn8_stages3_splitk1_align4";
  const KernelConfig config = parse_kernel_name(older);
  CHECK(config.get("FRAGBUF") == 1);
  CHECK(config.get("ORDER") == 1);
  CHECK(config == find_family("warptile").default_config(Layout::NN, 4));
  CHECK(kernel_name(config) == older);
  KernelConfig double_buffered = config;
  double_buffered.set("FRAGBUF", 2);
  const std::string name = kernel_name(double_buffered);
  CHECK(name == "gemmtune_sgemm_warptile_nn_bm128_bn128_bk8_wm32_wn64_tm8_tn8_stages3_splitk1_fragbuf2_align4");
  CHECK(parse_kernel_name(name) == double_buffered);
  KernelConfig by_columns = config;
  by_columns.set("ORDER", 2);
  CHECK(kernel_name(by_columns) == "gemmtune_sgemm_warptile_nn_bm128_bn128_bk8_wm32_wn64_tm8_tn8_stages3_splitk1_order2_align4");
  by_columns.set("FRAGBUF", 2);
  const std::string both = kernel_name(by_columns);
  CHECK(both == "gemmtune_sgemm_warptile_nn_bm128_bn128_bk8_wm32_wn64_tm8_tn8_stages3_splitk1_fragbuf2_order2_align4");
  CHECK(parse_kernel_name(both) == by_columns);
  KernelConfig copied = find_family("warptile").default_config(Layout::NN, 1);
  copied.set("COPY", 2);
  CHECK(kernel_name(copied) == "gemmtune_sgemm_warptile_nn_bm128_bn128_bk8_wm32_wn64_tm8_tn8_stages3_splitk1_copy2_align1");
  CHECK(parse_kernel_name(kernel_name(copied)) == copied);
  using Catch::Contains;
  // One spelling a kernel: the default named outright is refused, as is a field out of place.
  CHECK_THROWS_WITH(parse_kernel_name("gemmtune_sgemm_warptile_nn_bm128_bn128_bk8_wm32_wn64_tm8_tn8_stages3_splitk1_fragbuf1_align4"),
                    Contains("'fragbuf1' is the default, which names leave out"));
  CHECK_THROWS_WITH(parse_kernel_name("gemmtune_sgemm_warptile_nn_bm128_bn128_bk8_wm32_wn64_tm8_tn8_stages3_splitk1_order1_align4"),
                    Contains("'order1' is the default, which names leave out"));
  CHECK_THROWS_WITH(parse_kernel_name("gemmtune_sgemm_warptile_nn_bm128_bn128_bk8_wm32_wn64_tm8_tn8_fragbuf2_stages3_splitk1_align4"),
                    Contains("expected field 'stages"));
  CHECK_THROWS_WITH(parse_kernel_name("gemmtune_sgemm_warptile_nn_bm128_bn128_bk8_wm32_wn64_tm8_tn8_stages3_align4"),
                    Contains("takes 13 parameters, the name has 8"));
}

TEST_CASE("malformed kernel names are refused with the reason", "[names]") {
  using Catch::Contains;
  CHECK_THROWS_WITH(parse_kernel_name("cutlass_sgemm_reg2d_nn_bm128_bn128_bk8_tm8_tn8_align1"),
                    Contains("does not start with"));
  CHECK_THROWS_WITH(parse_kernel_name("gemmtune_sgemm_magic_nn_bm128_align1"), Contains("unknown kernel family 'magic'"));
  CHECK_THROWS_WITH(parse_kernel_name("gemmtune_sgemm_reg2d_nn_bm128_bn128_bk8_tm8_align1"), Contains("takes 5 parameters"));
  CHECK_THROWS_WITH(parse_kernel_name("gemmtune_sgemm_reg2d_nn_bn128_bm128_bk8_tm8_tn8_align1"), Contains("expected field 'bm"));
  CHECK_THROWS_WITH(parse_kernel_name("gemmtune_sgemm_reg2d_nn_bm0128_bn128_bk8_tm8_tn8_align1"), Contains("positive whole number"));
  CHECK_THROWS_WITH(parse_kernel_name("gemmtune_sgemm_reg2d_nn_bm12x_bn128_bk8_tm8_tn8_align1"), Contains("positive whole number"));
  CHECK_THROWS_WITH(parse_kernel_name("gemmtune_sgemm_reg2d_nn_bm_bn128_bk8_tm8_tn8_align1"), Contains("positive whole number"));
  CHECK_THROWS_WITH(parse_kernel_name("gemmtune_sgemm_reg2d_xx_bm128_bn128_bk8_tm8_tn8_align1"), Contains("unknown layout"));
  CHECK_THROWS_WITH(parse_kernel_name("gemmtune_sgemm_reg2d_NN_bm128_bn128_bk8_tm8_tn8_align1"), Contains("lower case"));
  CHECK_THROWS_WITH(parse_kernel_name("gemmtune_sgemm_reg2d_nn_bm128_bn128_bk8_tm8_tn8_alignx"), Contains("positive whole number"));
}

TEST_CASE("layouts parse in either case and nothing else parses", "[names]") {
  CHECK(parse_layout("nt") == Layout::NT);
  CHECK(parse_layout("TT") == Layout::TT);
  CHECK_THROWS_WITH(parse_layout("n"), Catch::Contains("expected nn, nt, tn or tt"));
  CHECK_THROWS(parse_layout("nnn"));
}

}  // namespace gemmtune
