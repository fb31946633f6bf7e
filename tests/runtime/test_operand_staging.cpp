// Where the aligned copies of A and B lie in a workspace (core/operand_staging), and that the
// families which stage count them in their workspace.
#include <catch2/catch.hpp>

#include "device.hpp"
#include "family_registry.hpp"
#include "kernel_name.hpp"
#include "operand_staging.hpp"

using namespace gemmtune;

TEST_CASE("staged copies start on 128 bytes after the kernel's scratch, rows padded to 4 floats", "[staging]") {
  // nn: A is M x K (rows of K), B is K x N (rows of N).
  const StagedOperandLayout nn = staged_operand_layout(Layout::NN, 1000, 999, 777, 33);
  CHECK(nn.a_offset == 64);
  CHECK(nn.lda == 780);
  CHECK(nn.b_offset % 32 == 0);
  CHECK(nn.b_offset >= nn.a_offset + 1000LL * 780);
  CHECK(nn.ldb == 1000);
  CHECK(nn.end == nn.b_offset + 777LL * 1000);

  // tt: A is K x M, B is N x K.
  const StagedOperandLayout tt = staged_operand_layout(Layout::TT, 5, 6, 7, 0);
  CHECK(tt.a_offset == 0);
  CHECK(tt.lda == 8);   // rows of M = 5
  CHECK(tt.b_offset == 64);  // 7 rows of 8, rounded up to 32 floats
  CHECK(tt.ldb == 8);   // rows of K = 7
  CHECK(tt.end == 64 + 6 * 8);
}

TEST_CASE("tmawgmma's align1 variant counts its copies in the workspace; align4 makes none", "[staging]") {
  const KernelFamily& family = find_family("tmawgmma");
  DeviceTraits h200;
  h200.sm_count = 132;
  const Problem problem{Layout::NN, 1000, 999, 777};
  const KernelConfig aligned = family.default_config(Layout::NN, 4);
  const KernelConfig unaligned = family.default_config(Layout::NN, 1);
  REQUIRE_FALSE(family.check(unaligned).has_value());
  CHECK_FALSE(family.operand_staging(aligned, problem, h200).has_value());
  const auto staging = family.operand_staging(unaligned, problem, h200);
  REQUIRE(staging.has_value());
  CHECK(family.workspace_floats(unaligned, problem, h200) == static_cast<std::size_t>(staging->end));
  CHECK(staging->a_offset >= static_cast<long long>(family.workspace_floats(aligned, problem, h200)));
}
