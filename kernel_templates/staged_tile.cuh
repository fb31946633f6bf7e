// Operand tiles staged in shared memory as they are stored, by cp.async: the copy of a tile with
// zero fill at the matrix edges, and the tile's layout (staged_tile.h gives its size). tf32x3 and
// wgmma stage their operands so; the paddings keep their MMA fragment loads conflict-free.
#pragma once

#include "common.cuh"
#include "cp_async.cuh"
#include "staged_tile.h"

namespace gemmtune {

// Copies ROWS x COLS floats, row r at src + r * ld, to dst[r * LD + c], ALIGN floats a copy;
// rows at or past rows_left and columns at or past cols_left become zeros. CHECKED false: the
// caller knows the whole tile is inside the matrix. src must be a valid address (the zero-filled
// copies read nothing but take it as their source).
template <int ROWS, int COLS, int LD, int THREADS, int ALIGN, bool CHECKED>
__device__ __forceinline__ void copy_tile_async(float* dst, const float* src, long long ld, int rows_left,
                                                int cols_left, int tid) {
  constexpr int CHUNKS_PER_ROW = COLS / ALIGN;
  constexpr int CHUNKS = ROWS * CHUNKS_PER_ROW;
  // Where the threads cover whole rows, a thread keeps its column and steps ROW_STEP rows a copy:
  // its addresses are one pointer plus multiples of one stride, rather than a 64-bit offset per
  // copy held across the main loop (which made 64 x 64 warp tiles spill).
  constexpr bool WHOLE_ROWS = THREADS % CHUNKS_PER_ROW == 0;
  constexpr int ROW_STEP = WHOLE_ROWS ? THREADS / CHUNKS_PER_ROW : 0;
  const int first_row = tid / CHUNKS_PER_ROW;
  const int column = tid % CHUNKS_PER_ROW * ALIGN;
  const float* thread_src = src + first_row * ld + column;
  const long long row_step_floats = ROW_STEP * ld;
#pragma unroll
  for (int i = 0; i < (CHUNKS + THREADS - 1) / THREADS; ++i) {
    const int chunk = i * THREADS + tid;
    if (CHUNKS % THREADS != 0 && chunk >= CHUNKS) break;
    const int r = WHOLE_ROWS ? first_row + i * ROW_STEP : chunk / CHUNKS_PER_ROW;
    const int c = WHOLE_ROWS ? column : chunk % CHUNKS_PER_ROW * ALIGN;
    const float* from = WHOLE_ROWS ? thread_src + i * row_step_floats : src + r * ld + c;
    if (!CHECKED) {
      cp_async_floats<ALIGN>(&dst[r * LD + c], from, ALIGN);
    } else {
      const int valid = r < rows_left ? min(max(cols_left - c, 0), ALIGN) : 0;
      cp_async_floats<ALIGN>(&dst[r * LD + c], valid > 0 ? from : src, valid);
    }
  }
}

// One operand's BK-deep tile in shared memory: ROWS rows of op(A) (m) or columns of op(B) (n),
// kept as stored. Element (r, k) is at(r, k), which is linear in r and k, so a lane's fragment
// offsets are constants from one base.
template <int ROWS, int BK, bool K_CONTIGUOUS>
struct StagedTile {
  static constexpr int LD = staged_tile_ld(ROWS, BK, K_CONTIGUOUS);
  static constexpr int FLOATS = staged_tile_floats(ROWS, BK, K_CONTIGUOUS);

  __host__ __device__ static constexpr int at(int r, int k) { return K_CONTIGUOUS ? r * LD + k : k * LD + r; }

  // Fills the tile with rows row0.. and k0.. of the operand at `base` (ld: its leading dimension;
  // `rows`: how many it has); rows past `rows` and k at or past k_end read as zero.
  template <int THREADS, int ALIGN, bool CHECKED>
  __device__ __forceinline__ static void load(float* dst, const float* base, long long ld, int row0, int rows,
                                              int k0, int k_end, int tid) {
    if (K_CONTIGUOUS) {
      copy_tile_async<ROWS, BK, LD, THREADS, ALIGN, CHECKED>(dst, base + row0 * ld + k0, ld, rows - row0,
                                                             k_end - k0, tid);
    } else {
      copy_tile_async<BK, ROWS, LD, THREADS, ALIGN, CHECKED>(dst, base + k0 * ld + row0, ld, k_end - k0,
                                                             rows - row0, tid);
    }
  }
};

}  // namespace gemmtune
