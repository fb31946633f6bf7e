// Which output tiles, and which k tiles of each, the blocks of a persistent kernel compute: the
// tile scheduler, shared by host code (grid and workspace sizes) and kernels (the walk), so the
// two cannot disagree. Plain C++ (CUDA qualifiers only under NVRTC/nvcc), no includes.
//
// A persistent kernel launches at most one block an SM; each block walks its own list of work
// units, and every role in the block (the copy warp, the transform warps, the MMA warpgroups)
// walks the same list independently. A work unit is some k tiles of one output tile:
// - data-parallel: a unit is a whole tile, tiles dealt round-robin to the blocks;
// - split-K: each tile is cut into SPLITK slices of k tiles, the units dealt round-robin;
// - stream-K: the k iterations of the first `sk_tiles` tiles (the last partial wave and one full
//   wave before it, or all tiles when there are fewer than blocks) are cut into `grid` equal
//   contiguous ranges, one a block (one iteration each for the first blocks when there are fewer
//   iterations than blocks), so every block gets the same work however the tiles divide;
//   the remaining tiles follow data-parallel, whole waves of them.
// A tile computed in several units ("pieces") is finished by the last of them to arrive: it adds
// every piece's partial sums in k order (its own from registers, the others' from the
// workspace), so the bits do not depend on which piece arrived last.
//
// A tile of more than kPieceGroup pieces is added in two levels, so that its finisher does not
// wait for every piece's load in turn: the last of each group of kPieceGroup consecutive pieces to
// arrive adds the group's pieces into the group's first slot, and the last group to finish adds
// the groups. The order of the additions is fixed either way (in k order within a group, then the
// groups in k order).
//
// Tiles are visited in bands of kTileBandRows rows of tiles, column by column within a band, so
// that the blocks running at one time share operand rows and columns in L2.
//
// A strided batched call is one schedule over the tiles of all its entries, entry by entry: the
// tiles of a small entry fill the SMs together, and stream-K and split-K balance the whole batch.
#pragma once

#include "gemm_params.h"

namespace gemmtune {

// The values are the SCHEDULE template parameter of the kernels (parameters are 1 or more).
enum class Schedule : int { DataParallel = 1, SplitK = 2, StreamK = 3 };

constexpr int kTileBandRows = 8;
constexpr int kPieceGroup = 8;

struct TileSchedule {
  int tiles_r;    // tiles along the rows of the X operand (the MMA's M)
  int tiles_s;    // ... and along the Y operand (the MMA's N)
  int k_tiles;    // k tiles of the whole K
  int grid;       // blocks launched (at most one an SM)
  Schedule schedule;
  int splitk;     // slices a tile (SplitK only; 1 otherwise)
  int sk_tiles;   // tiles cut by stream-K (StreamK only; 0 otherwise)
  int batch;      // entries of a batched call (1: a plain call)

  GEMMTUNE_HOST_DEVICE constexpr int entry_tiles() const { return tiles_r * tiles_s; }
  GEMMTUNE_HOST_DEVICE constexpr int tiles() const { return entry_tiles() * batch; }
  GEMMTUNE_HOST_DEVICE constexpr long long sk_iterations() const {
    return static_cast<long long>(sk_tiles) * k_tiles;
  }
  // Blocks that take part in stream-K: all of them, unless there are fewer iterations than blocks
  // (then one iteration each, and the rest have no stream-K work). The grid does not depend on K.
  GEMMTUNE_HOST_DEVICE constexpr int sk_blocks() const {
    return sk_iterations() < grid ? static_cast<int>(sk_iterations()) : grid;
  }
  // First stream-K iteration of block `cta` < sk_blocks() (sk_blocks() gives the end).
  GEMMTUNE_HOST_DEVICE constexpr long long sk_begin(int cta) const { return sk_iterations() * cta / sk_blocks(); }
  // The block whose stream-K range holds iteration g.
  GEMMTUNE_HOST_DEVICE constexpr int sk_owner(long long g) const {
    return static_cast<int>(((g + 1) * sk_blocks() - 1) / sk_iterations());
  }
  // The most pieces a tile can have: the slices of split-K; for stream-K, the blocks that share
  // its iterations (at most all that take part).
  GEMMTUNE_HOST_DEVICE constexpr int max_pieces() const {
    if (schedule == Schedule::SplitK && splitk > 1) return splitk;
    if (schedule == Schedule::StreamK && sk_tiles > 0) return sk_blocks();
    return 1;
  }
  // Groups of a tile of `pieces` pieces; 0: added in one level.
  GEMMTUNE_HOST_DEVICE static constexpr int piece_groups(int pieces) {
    return pieces > kPieceGroup ? (pieces + kPieceGroup - 1) / kPieceGroup : 0;
  }
  GEMMTUNE_HOST_DEVICE constexpr int groups_a_tile() const { return piece_groups(max_pieces()); }
  // Arrival counters (32-bit words) in the workspace: one a tile, then groups_a_tile() a tile;
  // rounded up to 4 so that the partial slots after them stay 16-byte aligned. None without pieces.
  GEMMTUNE_HOST_DEVICE constexpr long long counter_words() const {
    if (partial_slots() == 0) return 0;
    const long long words = static_cast<long long>(tiles()) * (1 + groups_a_tile());
    return (words + 3) / 4 * 4;
  }
  // Workspace slots of partial sums (one output tile's worth each) the schedule can fill.
  GEMMTUNE_HOST_DEVICE constexpr long long partial_slots() const {
    if (schedule == Schedule::SplitK && splitk > 1) return static_cast<long long>(tiles()) * splitk;
    if (schedule == Schedule::StreamK && sk_tiles > 0) return sk_tiles + grid;
    return 0;
  }
};

// The schedule of `batch` R x S outputs (in tiles of tile_r x tile_s) over K (k tiles of tile_k)
// on a GPU with `sm_count` SMs.
GEMMTUNE_HOST_DEVICE constexpr TileSchedule make_tile_schedule(long long rows, long long cols, long long depth,
                                                               int tile_r, int tile_s, int tile_k, int sm_count,
                                                               Schedule schedule, int splitk, int batch) {
  TileSchedule s{};
  s.batch = batch < 1 ? 1 : batch;
  s.tiles_r = static_cast<int>((rows + tile_r - 1) / tile_r);
  s.tiles_s = static_cast<int>((cols + tile_s - 1) / tile_s);
  s.k_tiles = static_cast<int>((depth + tile_k - 1) / tile_k);
  s.schedule = schedule;
  s.splitk = schedule == Schedule::SplitK ? splitk : 1;
  const long long tiles = s.tiles();
  long long units = tiles;
  if (schedule == Schedule::SplitK) units = tiles * s.splitk;
  if (schedule == Schedule::StreamK) {
    const long long rest = tiles % sm_count;
    s.sk_tiles = static_cast<int>(tiles <= sm_count ? tiles : (rest == 0 ? 0 : rest + sm_count));
    if (s.sk_tiles > 0) units = sm_count;  // every SM takes a share of the stream-K iterations
  }
  s.grid = static_cast<int>(units < sm_count ? units : sm_count);
  if (s.grid < 1) s.grid = 1;
  return s;
}

// A unit of work: k tiles [k_begin, k_end) of output tile (tile_r, tile_s) of batch entry `entry`.
// pieces > 1: the tile is shared with other units; this one is piece `piece` in k order, and
// piece p keeps its partial sums in workspace slot slot_base + p.
struct WorkUnit {
  int entry;
  int tile_r;
  int tile_s;
  int tile;  // index of the tile in visiting order (its arrival counter)
  int k_begin;
  int k_end;
  int piece;
  int pieces;
  long long slot_base;
};

// The walk of one block through its units.
class TileWalk {
 public:
  GEMMTUNE_HOST_DEVICE constexpr TileWalk(const TileSchedule& s, int cta) : s_(s), cta_(cta) {
    if (s.schedule == Schedule::StreamK && s.sk_tiles > 0 && cta < s.sk_blocks()) {
      sk_next_ = s.sk_begin(cta);
      sk_end_ = s.sk_begin(cta + 1);
    }
  }

  // The next unit, or false when the block is done.
  GEMMTUNE_HOST_DEVICE constexpr bool next(WorkUnit& unit) {
    if (sk_next_ < sk_end_) {  // stream-K first
      const long long g = sk_next_;
      const int tile = static_cast<int>(g / s_.k_tiles);
      const long long tile_first = static_cast<long long>(tile) * s_.k_tiles;
      unit.k_begin = static_cast<int>(g - tile_first);
      const long long end_in_tile = sk_end_ - tile_first;
      unit.k_end = static_cast<int>(end_in_tile < s_.k_tiles ? end_in_tile : s_.k_tiles);
      const int first_cta = s_.sk_owner(tile_first);
      unit.piece = cta_ - first_cta;
      unit.pieces = s_.sk_owner(tile_first + s_.k_tiles - 1) - first_cta + 1;
      unit.slot_base = tile + first_cta;
      sk_next_ = tile_first + unit.k_end;
      place(unit, tile);
      return true;
    }
    const long long index = cta_ + static_cast<long long>(round_) * s_.grid;
    if (s_.schedule == Schedule::SplitK && s_.splitk > 1) {
      if (index >= static_cast<long long>(s_.tiles()) * s_.splitk) return false;
      ++round_;
      const int tile = static_cast<int>(index / s_.splitk);
      const int slice = static_cast<int>(index % s_.splitk);
      const int per_slice = (s_.k_tiles + s_.splitk - 1) / s_.splitk;
      unit.k_begin = min_int(s_.k_tiles, slice * per_slice);
      unit.k_end = min_int(s_.k_tiles, unit.k_begin + per_slice);
      unit.piece = slice;
      unit.pieces = s_.splitk;
      unit.slot_base = static_cast<long long>(tile) * s_.splitk;
      place(unit, tile);
      return true;
    }
    const long long tile = s_.sk_tiles + index;
    if (tile >= s_.tiles()) return false;
    ++round_;
    unit.k_begin = 0;
    unit.k_end = s_.k_tiles;
    unit.piece = 0;
    unit.pieces = 1;
    unit.slot_base = 0;
    place(unit, static_cast<int>(tile));
    return true;
  }

 private:
  GEMMTUNE_HOST_DEVICE static constexpr int min_int(int a, int b) { return a < b ? a : b; }

  // Tile number `tile` in visiting order: entry by entry; in an entry, bands of kTileBandRows tile
  // rows, down each column.
  GEMMTUNE_HOST_DEVICE constexpr void place(WorkUnit& unit, int tile) const {
    unit.entry = s_.batch > 1 ? tile / s_.entry_tiles() : 0;  // (no division for a plain call)
    const int in_entry = tile - unit.entry * s_.entry_tiles();
    const int band_tiles = kTileBandRows * s_.tiles_s;
    const int band = in_entry / band_tiles;
    const int in_band = in_entry % band_tiles;
    const int rows_left = s_.tiles_r - band * kTileBandRows;
    const int band_rows = rows_left < kTileBandRows ? rows_left : kTileBandRows;
    unit.tile = tile;
    unit.tile_r = band * kTileBandRows + in_band % band_rows;
    unit.tile_s = in_band / band_rows;
  }

  TileSchedule s_;
  int cta_;
  int round_ = 0;
  long long sk_next_ = 0;
  long long sk_end_ = 0;
};

}  // namespace gemmtune
