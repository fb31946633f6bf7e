// The persistent kernels' tile schedule (kernel_templates/tile_schedule.h) on the CPU: every k
// tile of every output tile is computed exactly once, pieces of a tile agree on their count and
// slots, slots never collide, and the kernel's own call (the grid in place of the SM count)
// reproduces the host's schedule.
#include <catch2/catch.hpp>

#include <algorithm>
#include <map>
#include <set>
#include <tuple>
#include <vector>

#include "tile_schedule.h"

namespace gemmtune {
namespace {

struct Covered {
  std::vector<int> k_owner;  // per k tile: how many units computed it
  std::set<int> pieces_seen;
  int pieces = -1;
  long long slot_base = -1;
};

void check_schedule(long long rows, long long cols, long long depth, int sm_count, Schedule schedule, int splitk,
                    int batch = 1) {
  const TileSchedule s = make_tile_schedule(rows, cols, depth, 128, 128, 32, sm_count, schedule, splitk, batch);
  INFO(rows << "x" << cols << "x" << depth << " batch " << batch << " on " << sm_count << " SMs, schedule "
            << static_cast<int>(schedule) << ", split " << splitk << ": " << s.tiles() << " tiles, grid " << s.grid
            << ", stream-K tiles " << s.sk_tiles);
  REQUIRE(s.tiles() == s.entry_tiles() * batch);
  REQUIRE(s.grid >= 1);
  REQUIRE(s.grid <= sm_count);
  const TileSchedule in_kernel = make_tile_schedule(rows, cols, depth, 128, 128, 32, s.grid, schedule, splitk, batch);
  CHECK(in_kernel.grid == s.grid);
  CHECK(in_kernel.sk_tiles == s.sk_tiles);
  CHECK(in_kernel.partial_slots() == s.partial_slots());

  std::map<int, Covered> tiles;
  std::set<long long> slots;
  std::set<std::tuple<int, int, int>> places;  // (entry, tile_r, tile_s)
  for (int cta = 0; cta < s.grid; ++cta) {
    TileWalk walk(s, cta);
    WorkUnit unit{};
    int guard = 0;
    while (walk.next(unit)) {
      REQUIRE(++guard <= s.tiles() * s.splitk);  // no walk runs on forever
      REQUIRE(unit.tile >= 0);
      REQUIRE(unit.tile < s.tiles());
      REQUIRE(unit.entry >= 0);
      REQUIRE(unit.entry < batch);
      REQUIRE(unit.tile_r >= 0);
      REQUIRE(unit.tile_r < s.tiles_r);
      REQUIRE(unit.tile_s >= 0);
      REQUIRE(unit.tile_s < s.tiles_s);
      REQUIRE(unit.k_begin >= 0);
      REQUIRE(unit.k_begin <= unit.k_end);
      REQUIRE(unit.k_end <= s.k_tiles);
      Covered& covered = tiles[unit.tile];
      if (covered.k_owner.empty()) {
        covered.k_owner.assign(s.k_tiles, 0);
        places.insert({unit.entry, unit.tile_r, unit.tile_s});
      }
      for (int k = unit.k_begin; k < unit.k_end; ++k) ++covered.k_owner[k];
      CHECK(covered.pieces_seen.insert(unit.piece).second);  // each piece once
      if (covered.pieces < 0) covered.pieces = unit.pieces, covered.slot_base = unit.slot_base;
      CHECK(covered.pieces == unit.pieces);
      CHECK(covered.slot_base == unit.slot_base);
      if (unit.pieces > 1) {
        const long long slot = unit.slot_base + unit.piece;
        CHECK(slot >= 0);
        CHECK(slot < s.partial_slots());
        CHECK(slots.insert(slot).second);  // no two pieces share a slot
      }
    }
  }
  CHECK(static_cast<int>(tiles.size()) == s.tiles());
  CHECK(static_cast<int>(places.size()) == s.tiles());  // the visiting order is a permutation
  for (const auto& [tile, covered] : tiles) {
    INFO("tile " << tile);
    for (int k = 0; k < s.k_tiles; ++k) CHECK(covered.k_owner[k] == 1);
    CHECK(static_cast<int>(covered.pieces_seen.size()) == covered.pieces);
    CHECK(*covered.pieces_seen.rbegin() == covered.pieces - 1);
    // The two-level sum's counters: the tile's own and its groups' lie inside counter_words(),
    // apart from every other tile's.
    CHECK(covered.pieces <= s.max_pieces());
    if (covered.pieces > 1) {
      const int groups = TileSchedule::piece_groups(covered.pieces);
      CHECK(groups <= s.groups_a_tile());
      CHECK(tile < s.counter_words());
      if (groups > 0) CHECK(s.tiles() + static_cast<long long>(tile) * s.groups_a_tile() + groups - 1 < s.counter_words());
    }
  }
  CHECK(s.counter_words() % 4 == 0);
}

}  // namespace

TEST_CASE("the tile schedule covers every k tile of every tile exactly once", "[schedule]") {
  const std::tuple<long long, long long, long long> shapes[] = {
      {1, 1, 1},         {33, 65, 17},       {1000, 999, 777},  {4096, 4096, 4096}, {8192, 8192, 64},
      {64, 64, 65536},   {128, 4096, 4096},  {2000, 1500, 300}, {1000, 1056, 999},  {16896, 128, 100},
      {128 * 132, 128, 33}, {4096, 11008, 4096}};
  for (const auto& [rows, cols, depth] : shapes) {
    for (int sm_count : {1, 7, 132}) {
      check_schedule(rows, cols, depth, sm_count, Schedule::DataParallel, 1);
      check_schedule(rows, cols, depth, sm_count, Schedule::StreamK, 1);
      for (int splitk : {2, 4, 16, 128}) check_schedule(rows, cols, depth, sm_count, Schedule::SplitK, splitk);
    }
  }
}

TEST_CASE("a batch is one schedule over every entry's tiles, each tile of each entry once", "[schedule]") {
  const std::tuple<long long, long long, long long, int> shapes[] = {
      {128, 128, 128, 64}, {512, 512, 64, 32}, {1024, 1024, 1024, 8}, {7, 13, 5, 3}, {129, 257, 65, 3}, {1, 1, 1, 200}};
  for (const auto& [rows, cols, depth, batch] : shapes) {
    for (int sm_count : {1, 7, 132}) {
      check_schedule(rows, cols, depth, sm_count, Schedule::DataParallel, 1, batch);
      check_schedule(rows, cols, depth, sm_count, Schedule::StreamK, 1, batch);
      for (int splitk : {2, 16}) check_schedule(rows, cols, depth, sm_count, Schedule::SplitK, splitk, batch);
    }
  }
  // Entry by entry: a walk meets the entries in order, so that the blocks running at one time
  // share an entry's operands in L2.
  const TileSchedule s = make_tile_schedule(256, 256, 256, 128, 128, 32, 4, Schedule::DataParallel, 1, 3);
  int last_entry = 0;
  for (int round = 0; round < s.tiles() / s.grid; ++round) {
    for (int cta = 0; cta < s.grid; ++cta) {
      TileWalk walk(s, cta);
      WorkUnit unit{};
      for (int r = 0; r <= round; ++r) REQUIRE(walk.next(unit));
      CHECK(unit.entry == round);
      CHECK(unit.entry >= last_entry);
      last_entry = unit.entry;
    }
  }
}

TEST_CASE("a tile of more than kPieceGroup pieces is added in groups of kPieceGroup", "[schedule]") {
  CHECK(TileSchedule::piece_groups(1) == 0);
  CHECK(TileSchedule::piece_groups(kPieceGroup) == 0);
  CHECK(TileSchedule::piece_groups(kPieceGroup + 1) == 2);
  CHECK(TileSchedule::piece_groups(128) == 128 / kPieceGroup);
  const TileSchedule split = make_tile_schedule(64, 64, 65536, 64, 64, 32, 132, Schedule::SplitK, 128, 1);
  CHECK(split.max_pieces() == 128);
  CHECK(split.counter_words() == (1 + 128 / kPieceGroup + 3) / 4 * 4);
  const TileSchedule data_parallel = make_tile_schedule(4096, 4096, 4096, 128, 128, 32, 132, Schedule::DataParallel, 1, 1);
  CHECK(data_parallel.counter_words() == 0);
}

TEST_CASE("stream-K gives every SM the same number of k iterations, to within one", "[schedule]") {
  const TileSchedule s = make_tile_schedule(1000, 999, 777, 128, 128, 32, 132, Schedule::StreamK, 1, 1);
  REQUIRE(s.sk_tiles == s.tiles());  // 64 tiles: fewer than SMs, all of them stream-K
  long long fewest = 1 << 30, most = 0;
  for (int cta = 0; cta < s.grid; ++cta) {
    TileWalk walk(s, cta);
    WorkUnit unit{};
    long long iterations = 0;
    while (walk.next(unit)) iterations += unit.k_end - unit.k_begin;
    fewest = std::min(fewest, iterations);
    most = std::max(most, iterations);
  }
  CHECK(most - fewest <= 1);
  CHECK(most * s.grid >= static_cast<long long>(s.tiles()) * s.k_tiles);
}
}  // namespace gemmtune
