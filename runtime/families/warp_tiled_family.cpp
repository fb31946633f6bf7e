#include "warp_tiled_family.hpp"

namespace gemmtune {

int WarpTiledFamily::threads(const KernelConfig& c) const {
  return 32 * (c.get("BM") / c.get("WM")) * (c.get("BN") / c.get("WN"));
}

long long WarpTiledFamily::staged_stage_floats(const KernelConfig& c) {
  auto tile_floats = [bk = c.get("BK")](int rows, bool k_contiguous) {
    return k_contiguous ? 1LL * rows * (bk + 4) : 1LL * bk * (rows + 8);
  };
  return tile_floats(c.get("BM"), !a_is_transposed(c.layout)) + tile_floats(c.get("BN"), b_is_transposed(c.layout));
}

long long WarpTiledFamily::output_tiles(const KernelConfig& c, int M, int N) {
  return static_cast<long long>(ceil_div(N, c.get("BN"))) * ceil_div(M, c.get("BM"));
}

LaunchShape WarpTiledFamily::launch_shape(const KernelConfig& c, int M, int N) const {
  return {{ceil_div(N, c.get("BN")), ceil_div(M, c.get("BM")), static_cast<unsigned>(c.get("SPLITK"))},
          {static_cast<unsigned>(threads(c)), 1, 1},
          static_cast<std::size_t>(smem_bytes(c))};
}

bool WarpTiledFamily::worth_searching(const KernelConfig& c, int M, int N, int K, int sm_count) const {
  const int splitk = c.get("SPLITK");
  if (splitk == 1) return true;
  return output_tiles(c, M, N) < sm_count && K >= 2 * splitk * c.get("BK");
}

std::size_t WarpTiledFamily::workspace_floats(const KernelConfig& c, int M, int N) const {
  return splitk_workspace_floats(output_tiles(c, M, N), c.get("SPLITK"), M, N);
}

}  // namespace gemmtune
