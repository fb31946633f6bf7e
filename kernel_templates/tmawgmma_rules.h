// The legality of a tmawgmma or tmatf32 configuration (tmawgmma.cuh), for the templates'
// static_asserts and the host's check alike (family_rules.h says how), and the shape of a block
// both derive from it. Rules read BM BN STAGES SCHEDULE SPLITK CLUSTER ACOPY PINGPONG WATCH CSPLIT, the
// call's layout L and the layout the kernel reads its operands in, KL (tmawgmma_kernel_layout),
// ALIGN, SMEM_BYTES and PRODUCTS (3 for tmawgmma's 3xTF32, 1 for tmatf32's single pass).
#pragma once

#include "family_rules.h"
#include "tile_schedule.h"
#include "tiny_scan.h"

namespace gemmtune {

constexpr int kTmaTileK = 32;          // k of a tile: one 128-byte swizzle row of floats
constexpr int kTmaCopyThreads = 128;   // the copy warpgroup: one copy lane, three transform warps
constexpr int kTmaTransformThreads = 96;

// ACOPY: where the kernel reads A. 1: as the call stores it (or its aligned copy, ALIGN 1). 2 (tn
// only): from a transposed copy, M x K, that the staged-copy kernel makes in the workspace before
// each call (staged_copy.cuh), so that the kernel runs as nn: tn's Y (B as stored, K x N) needs
// the transform warps to transpose it every stage, nn's Y (A) is read as copied.
constexpr int kAcopyAsStored = 1;
constexpr int kAcopyTransposed = 2;

// WATCH (tiny_scan.h): how 3xTF32 learns which tiles touch a tiny value, whose small part the
// split loses (special_values.cuh). 1: every value is watched in the main loop, X's by the MMA
// warpgroups and Y's by the transform warps. 2: the scan before the GEMM, and each work unit reads
// its own flags. Single-pass TF32 keeps TF32's rounding and watches nothing.

// The kernel's own scratch in the workspace: [arrival counters][partial sums, a tile a slot]
// (none for a schedule without partial tiles), then, from the next 128 bytes, WATCH 2's flags
// (tiny_scan.h). Host and kernel place them by these (the kernel from its own schedule).
GEMMTUNE_HOST_DEVICE constexpr long long tmawgmma_scratch_floats(const TileSchedule& s, int bm, int bn) {
  return s.partial_slots() == 0 ? 0 : s.counter_words() + s.partial_slots() * bm * bn;
}
GEMMTUNE_HOST_DEVICE constexpr long long tmawgmma_tiny_flags_offset(const TileSchedule& s, int bm, int bn) {
  return (tmawgmma_scratch_floats(s, bm, bn) + 31) / 32 * 32;
}

// CSPLIT: blocks of a cluster that each compute a share of a split-K unit's k tiles, their sums
// added in the cluster's shared memory (rank 0 reads the others' by distributed shared memory)
// instead of through L2; SPLITK then counts the units a tile is cut into, and a tile's k tiles are
// cut SPLITK x CSPLIT ways. 1: no such cluster. Each block keeps a tile of partial sums in shared
// memory for rank 0 to read.
constexpr int kCsplitMax = 8;  // the portable cluster size
GEMMTUNE_HOST_DEVICE constexpr long long tmawgmma_share_floats(int bm, int bn, int csplit) {
  return csplit > 1 ? static_cast<long long>(bm) * bn : 0;
}

// The layout the kernel reads its operands in: the call's, or nn for a tn call with ACOPY 2.
GEMMTUNE_HOST_DEVICE constexpr Layout tmawgmma_kernel_layout(Layout call_layout, int acopy) {
  return acopy == kAcopyTransposed && call_layout == Layout::TN ? Layout::NN : call_layout;
}

// Rows of the register operand X in a BM x BN tile: it is op(B)^T for nn (the MMA computes C^T).
GEMMTUNE_HOST_DEVICE constexpr int tmawgmma_rows_x(int bm, int bn, Layout layout) {
  return layout == Layout::NN ? bn : bm;
}
// Rows of the shared-memory operand Y: the wgmma's N.
GEMMTUNE_HOST_DEVICE constexpr int tmawgmma_rows_y(int bm, int bn, Layout layout) {
  return bm + bn - tmawgmma_rows_x(bm, bn, layout);
}
// A narrow Y tile (16 or 32 rows, wgmma m64n16k8 / m64n32k8) serves problems with few rows of
// Y (nn: M; nt, tt: N), such as 16x4096x4096, which stream X once and would waste most of a
// 64-row Y tile's MMAs and shared memory on rows past the matrix.
GEMMTUNE_HOST_DEVICE constexpr bool tmawgmma_narrow_y(int rows_y) { return rows_y == 16 || rows_y == 32; }
// PINGPONG: the tiles the MMA warpgroups hold at once. 1: one, shared (a warpgroup per 64 rows of
// X); 2: two MMA warpgroups take turns, each on its own tile of 64 X rows (tmawgmma.cuh), so that
// one's epilogue overlaps the other's main loop.
constexpr int kPingpongOff = 1;
constexpr int kPingpongTurns = 2;
GEMMTUNE_HOST_DEVICE constexpr int tmawgmma_threads(int bm, int bn, Layout layout, int pingpong) {
  return kTmaCopyThreads + 2 * tmawgmma_rows_x(bm, bn, layout) * pingpong;
}
// Shared memory of one stage in floats: X's tile, Y's tile as copied, Y's small part (3xTF32
// only: `products` is 3, or 1 for single-pass TF32), and for tn Y's transposed big part.
GEMMTUNE_HOST_DEVICE constexpr int tmawgmma_stage_floats(int bm, int bn, Layout layout, int products) {
  return kTmaTileK * (tmawgmma_rows_x(bm, bn, layout) + ((layout == Layout::TN ? 2 : 1) + (products == 3 ? 1 : 0)) *
                                                           (bm + bn - tmawgmma_rows_x(bm, bn, layout)));
}
// The dynamic shared memory a block asks for: the stages, CSPLIT's tile of partial sums after
// them, and the slack that aligns the stages to the 1024 bytes a 128-byte-swizzled tile needs.
GEMMTUNE_HOST_DEVICE constexpr long long tmawgmma_smem_bytes(int bm, int bn, int stages, Layout layout, int products,
                                                             int csplit) {
  return 4LL * (stages * tmawgmma_stage_floats(bm, bn, layout, products) + tmawgmma_share_floats(bm, bn, csplit)) +
         1024;
}

}  // namespace gemmtune

#define GEMMTUNE_TMAWGMMA_RULES(RULE, FAMILY)                                                          \
  RULE(FAMILY, tmawgmma_rows_x(BM, BN, KL) == 64 || tmawgmma_rows_x(BM, BN, KL) == 128,                \
       "the tile's side read from registers (BN for nn, BM otherwise) must be 64 or 128: a MMA "        \
       "warpgroup holds 64 of its rows, and a block has one or two")                                   \
  RULE(FAMILY, tmawgmma_narrow_y(tmawgmma_rows_y(BM, BN, KL)) || tmawgmma_rows_y(BM, BN, KL) == 64 ||   \
                   tmawgmma_rows_y(BM, BN, KL) == 128 ||                                                \
                   (tmawgmma_rows_y(BM, BN, KL) == 256 && PRODUCTS == 1 && SCHEDULE == 1),             \
       "the tile's side read from shared memory (BM for nn, BN otherwise) must be 16, 32, 64 or 128, "  \
       "or 256 for single-pass TF32's data-parallel schedule: 3xTF32's tile sum, or a split tile's "   \
       "partial sums, would not fit in registers beside 256 columns of accumulators")                 \
  RULE(FAMILY, KL != Layout::TN || tmawgmma_rows_y(BM, BN, KL) >= 32,                                 \
       "tn read as stored (ACOPY 1) needs a side read from shared memory (BN) of at least 32: the "    \
       "copies and the transform move Y in blocks of 32 x 32")                                         \
  RULE(FAMILY, CLUSTER == 1 || !tmawgmma_narrow_y(tmawgmma_rows_y(BM, BN, KL)),                         \
       "CLUSTER 2 needs a side read from shared memory of 64 or more: a narrow Y tile has too little "  \
       "to share")                                                                                     \
  RULE(FAMILY, CLUSTER == 1 || CLUSTER == 2, "CLUSTER must be 1 or 2")                                \
  RULE(FAMILY, CLUSTER == 1 || SCHEDULE == 1,                                                          \
       "CLUSTER 2 needs SCHEDULE 1 (data-parallel): the blocks of a cluster walk their tiles in step")  \
  RULE(FAMILY, STAGES >= 2, "STAGES must be at least 2 (one stage computes while the next loads)")    \
  RULE(FAMILY, SCHEDULE >= 1 && SCHEDULE <= 3,                                                         \
       "SCHEDULE must be 1 (data-parallel), 2 (split-K) or 3 (stream-K)")                              \
  RULE(FAMILY, SCHEDULE == 2 || SPLITK == 1, "SPLITK must be 1 unless SCHEDULE is 2 (split-K)")        \
  RULE(FAMILY, ACOPY == kAcopyAsStored || (ACOPY == kAcopyTransposed && L == Layout::TN),           \
       "ACOPY must be 1 (A read as stored), or 2 for tn (A read from a transposed copy: runs as nn)")     \
  RULE(FAMILY, PINGPONG == kPingpongOff || PINGPONG == kPingpongTurns,                              \
       "PINGPONG must be 1 (one tile at a time) or 2 (two warpgroups taking turns)")                  \
  RULE(FAMILY, PINGPONG == kPingpongOff || (tmawgmma_rows_x(BM, BN, KL) == 64 && CLUSTER == 1),      \
       "PINGPONG 2 needs a side read from registers (BN for nn, BM otherwise) of 64, a tile a MMA "  \
       "warpgroup, and CLUSTER 1")                                                                     \
  RULE(FAMILY, WATCH == kWatchInLoop || (WATCH == kWatchByScan && PRODUCTS == 3),                    \
       "WATCH must be 1 (values watched in the main loop), or 2 for 3xTF32 (a scan of A and B before "  \
       "the GEMM): single-pass TF32 watches nothing")                                                   \
  RULE(FAMILY, CSPLIT == 1 || CSPLIT == 2 || CSPLIT == 4 || CSPLIT == kCsplitMax,                      \
       "CSPLIT must be 1, 2, 4 or 8 (blocks of a cluster sharing each split-K unit's k tiles)")          \
  RULE(FAMILY, CSPLIT == 1 || (SCHEDULE == 2 && CLUSTER == 1 && PINGPONG == kPingpongOff),             \
       "CSPLIT above 1 needs SCHEDULE 2 (split-K), CLUSTER 1 and PINGPONG 1: its cluster is the blocks " \
       "sharing a unit's k tiles")                                                                      \
  RULE(FAMILY, ALIGN == 4 || ALIGN == 1,                                                               \
       "ALIGN must be 4, or 1 (TMA reads 16-byte rows: ALIGN 1 reads aligned copies of A and B)")      \
  RULE(FAMILY, SMEM_BYTES <= 227 * 1024, "shared memory must fit in 227 KB")
