#include "warp_tiled_family.hpp"

#include <string>

#include "splitk_workspace.h"

namespace gemmtune {

long long WarpTiledFamily::output_tiles(const KernelConfig& c, const Problem& problem) {
  return static_cast<long long>(ceil_div(problem.N, c.get("BN"))) * ceil_div(problem.M, c.get("BM"));
}

std::optional<std::string> WarpTiledFamily::batch_refusal(const KernelConfig& c, bool /*pointer_arrays*/) const {
  if (c.get("SPLITK") == 1) return std::nullopt;
  return std::string(name()) + " with SPLITK " + std::to_string(c.get("SPLITK")) +
         " serves plain calls only (its grid z holds the K slices a batch would need)";
}

LaunchShape WarpTiledFamily::launch_shape(const KernelConfig& c, const Problem& problem, const DeviceTraits&) const {
  const int splitk = c.get("SPLITK");
  const unsigned z = static_cast<unsigned>(splitk > 1 ? splitk : problem.batch);
  return {{ceil_div(problem.N, c.get("BN")), ceil_div(problem.M, c.get("BM")), z},
          {static_cast<unsigned>(threads(c)), 1, 1},
          dynamic_smem_bytes(c)};
}

bool WarpTiledFamily::worth_searching(const KernelConfig& c, const Problem& problem, int sm_count) const {
  const int splitk = c.get("SPLITK");
  if (splitk == 1) return true;
  return output_tiles(c, problem) < sm_count && problem.K >= 2 * splitk * c.get("BK");
}

std::size_t WarpTiledFamily::workspace_floats(const KernelConfig& c, const Problem& problem, const DeviceTraits&) const {
  return static_cast<std::size_t>(splitk_workspace_floats(output_tiles(c, problem), c.get("SPLITK"), problem.M, problem.N));
}

std::size_t WarpTiledFamily::workspace_counter_floats(const KernelConfig& c, const Problem& problem,
                                                      const DeviceTraits&) const {
  if (c.get("SPLITK") == 1) return 0;
  return static_cast<std::size_t>(splitk_counter_floats(output_tiles(c, problem), c.get("SPLITK")));
}

}  // namespace gemmtune
