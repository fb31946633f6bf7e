// Where the aligned copies of A and B lie in a workspace (core/operand_staging), and that the
// families which stage count them in their workspace.
#include <catch2/catch.hpp>

#include "device.hpp"
#include "family_registry.hpp"
#include "kernel_name.hpp"
#include "operand_staging.hpp"
#include "tiny_scan.h"

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

TEST_CASE("a transposed copy of A for tn is M x K; B is copied only for an unaligned call", "[staging]") {
  StagingRequest transpose_only;
  transpose_only.align_rows = false;
  transpose_only.transpose_a = true;
  // tn: A is stored K x M (777 x 1000); its copy is 1000 rows of K = 777, padded to 780.
  const StagedOperandLayout aligned = staged_operand_layout(Layout::TN, 1000, 999, 777, 33, transpose_only);
  CHECK(aligned.transpose_a);
  CHECK_FALSE(aligned.copy_b);
  CHECK(aligned.a_offset == 64);
  CHECK(aligned.lda == 780);
  CHECK(aligned.end == 64 + 1000LL * 780);

  StagingRequest both = transpose_only;
  both.align_rows = true;
  const StagedOperandLayout unaligned = staged_operand_layout(Layout::TN, 1000, 999, 777, 0, both);
  CHECK(unaligned.copy_b);
  CHECK(unaligned.lda == 780);
  CHECK(unaligned.b_offset == 1000LL * 780);  // already a multiple of 32
  CHECK(unaligned.ldb == 1000);               // B stored K x N: rows of 999
  CHECK(unaligned.end == unaligned.b_offset + 777LL * 1000);
}

TEST_CASE("tmawgmma's ACOPY 2 stages A's transposed copy for tn, aligned or not, and serves plain calls only",
          "[staging]") {
  const KernelFamily& family = find_family("tmawgmma");
  DeviceTraits h200;
  h200.sm_count = 132;
  const Problem problem{Layout::TN, 4096, 4096, 4096};
  for (int align : {4, 1}) {
    KernelConfig copied = family.default_config(Layout::TN, align);
    copied.set("ACOPY", 2);
    REQUIRE_FALSE(family.check(copied).has_value());
    const auto staging = family.operand_staging(copied, problem, h200);
    REQUIRE(staging.has_value());
    CHECK(staging->transpose_a);
    CHECK(staging->copy_b == (align == 1));
    CHECK(staging->lda == 4096);
    CHECK(family.workspace_floats(copied, problem, h200) == static_cast<std::size_t>(staging->end));
    CHECK(family.batch_refusal(copied, false).has_value());
    // The kernel runs as nn: a 64 x 128 tile has nn's two MMA warpgroups (128 rows of B), not
    // tn's one (64 of A).
    KernelConfig narrow = copied, nn = family.default_config(Layout::NN, align), tn = family.default_config(Layout::TN, align);
    for (KernelConfig* c : {&narrow, &nn, &tn}) c->set("BM", 64);
    CHECK(family.launch_shape(narrow, problem, h200).block[0] == family.launch_shape(nn, problem, h200).block[0]);
    CHECK(family.launch_shape(narrow, problem, h200).block[0] != family.launch_shape(tn, problem, h200).block[0]);
  }
  CHECK_FALSE(family.batch_refusal(family.default_config(Layout::TN, 4), false).has_value());
  // Its name carries ACOPY; the default's leaves it out, as names stored before it existed.
  KernelConfig copied = family.default_config(Layout::TN, 4);
  copied.set("ACOPY", 2);
  CHECK(kernel_name(copied).find("_acopy2_") != std::string::npos);
  CHECK(kernel_name(family.default_config(Layout::TN, 4)).find("acopy") == std::string::npos);
  CHECK(parse_kernel_name(kernel_name(copied)) == copied);
}

TEST_CASE("tmawgmma's WATCH 2 plans its tiny-value scan: flags after the kernel's scratch, before any copies",
          "[staging]") {
  const KernelFamily& family = find_family("tmawgmma");
  DeviceTraits h200;
  h200.sm_count = 132;
  // nn: X is B^T (N = 999 rows), Y is A (M = 1000 rows); K = 777 is 7 blocks of 128.
  const Problem problem{Layout::NN, 1000, 999, 777};
  const long long flags = (16 + 16) * 7;
  CHECK(tiny_flags_an_entry(999, 1000, 777) == flags);
  CHECK(tiny_flag_index(0, 15, 6, 999, 777) == 15 * 7 + 6);   // X's last block
  CHECK(tiny_flag_index(1, 0, 0, 999, 777) == 16 * 7);        // Y's first
  CHECK(tiny_flag_index(1, 15, 6, 999, 777) == flags - 1);    // Y's last
  for (int align : {4, 1}) {
    for (auto [schedule, splitk] : {std::pair{1, 1}, {2, 4}, {3, 1}}) {
      KernelConfig plain = family.default_config(Layout::NN, align);
      plain.set("SCHEDULE", schedule);
      plain.set("SPLITK", splitk);
      KernelConfig scanned = plain;
      scanned.set("WATCH", 2);
      REQUIRE_FALSE(family.check(scanned).has_value());
      INFO(kernel_name(scanned));
      CHECK_FALSE(family.prepass(plain, problem, h200).has_value());
      const auto prepass = family.prepass(scanned, problem, h200);
      REQUIRE(prepass.has_value());
      CHECK(std::string(prepass->kernel) == kTinyScanKernelName);
      CHECK(static_cast<long long>(prepass->shape.grid[0]) == flags);  // a block a flag
      CHECK(prepass->shape.block[0] == static_cast<unsigned>(kTinyScanThreads));
      CHECK(prepass->floats_read == (1000.0 + 999.0) * 777.0);  // A and B, once
      // Where the plain kernel's own scratch (counters and partial sums) ends, rounded up to 128
      // bytes: where its staged copies would start.
      const long long scratch = static_cast<long long>(family.workspace_floats(plain, problem, h200));
      CHECK(prepass->workspace_offset == (align == 4 ? (scratch + 31) / 32 * 32
                                                     : family.operand_staging(plain, problem, h200)->a_offset));
      if (align == 4) {
        CHECK(family.workspace_floats(scanned, problem, h200) ==
              static_cast<std::size_t>(prepass->workspace_offset + flags));
      } else {  // the copies follow the flags
        const auto staging = family.operand_staging(scanned, problem, h200);
        REQUIRE(staging.has_value());
        CHECK(staging->a_offset >= prepass->workspace_offset + flags);
        CHECK(family.workspace_floats(scanned, problem, h200) == static_cast<std::size_t>(staging->end));
      }
      // The counters the workspace must zero are the plain kernel's: the scan writes every flag.
      CHECK(family.workspace_counter_floats(scanned, problem, h200) ==
            family.workspace_counter_floats(plain, problem, h200));
    }
  }
  // A batch has flags an entry.
  const Problem batched{Layout::NN, 128, 128, 128, 64};
  KernelConfig scanned = family.default_config(Layout::NN, 4);
  scanned.set("WATCH", 2);
  CHECK(family.prepass(scanned, batched, h200)->shape.grid[0] == 64u * (2 + 2));
  // Its name carries WATCH; the default's leaves it out.
  CHECK(kernel_name(scanned).find("_watch2_") != std::string::npos);
  CHECK(kernel_name(family.default_config(Layout::NN, 4)).find("watch") == std::string::npos);
  CHECK(parse_kernel_name(kernel_name(scanned)) == scanned);
}
