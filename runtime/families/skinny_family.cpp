// Host side of kernel_templates/skinny.cuh: parameters, legality (the template's static_asserts),
// launch shape and split-K workspace.
#include <algorithm>
#include <string>

#include "tuned_families.hpp"

namespace gemmtune {
namespace {

constexpr long long kMaxSmemBytes = 227 * 1024;

class SkinnyFamily final : public KernelFamily {
 public:
  std::string_view name() const override { return "skinny"; }
  std::string_view summary() const override { return "few rows (M <= 32): B streamed once, bandwidth-bound"; }
  std::string_view source_file() const override { return "skinny.cuh"; }
  std::string_view kernel_template() const override { return "gemmtune::skinny_sgemm"; }
  const std::vector<ParamSpec>& params() const override { return params_; }
  std::vector<int> alignments() const override { return {4, 2, 1}; }

  static long long smem_bytes(const KernelConfig& c) {
    const long long nt = c.get("NT"), kg = c.get("KG"), mt = c.get("MT"), kc = c.get("KC");
    return 4 * std::max(kc * mt, kg * mt * 4 * nt);
  }

  LaunchShape launch_shape(const KernelConfig& c, int M, int N) const override {
    return {{ceil_div(N, 4 * c.get("NT")), static_cast<unsigned>(c.get("SPLITK")), ceil_div(M, c.get("MT"))},
            {static_cast<unsigned>(c.get("NT") * c.get("KG")), 1, 1},
            static_cast<std::size_t>(smem_bytes(c))};
  }

  std::size_t workspace_floats(const KernelConfig& c, int M, int N) const override {
    const long long tiles = static_cast<long long>(ceil_div(N, 4 * c.get("NT"))) * ceil_div(M, c.get("MT"));
    return splitk_workspace_floats(tiles, c.get("SPLITK"), M, N);
  }

  // Only where every row fits one block (B read once) and the rows fill at least half of it.
  bool worth_searching(const KernelConfig& c, int M, int /*N*/, int K, int /*sm_count*/) const override {
    const int mt = c.get("MT");
    return M <= mt && 2 * M > mt - (mt == 1 ? 1 : 0) && K >= c.get("SPLITK") * c.get("KG");
  }

 protected:
  std::optional<std::string> check_params(const KernelConfig& c) const override {
    auto refuse = [](const std::string& why) { return std::optional<std::string>("skinny: " + why); };
    const int threads = c.get("NT") * c.get("KG");
    if (threads % 32 != 0 || threads > 1024) return refuse("NT * KG threads must be a multiple of 32 and at most 1024");
    if (c.get("MT") > 32) return refuse("MT must be 1..32");
    if (smem_bytes(c) > kMaxSmemBytes) return refuse("shared memory must fit in 227 KB");
    if (auto why = check_splitk(c.get("SPLITK"))) return refuse(*why);
    return std::nullopt;
  }

 private:
  std::vector<ParamSpec> params_{{"NT", 32, {16, 32, 64}},
                                 {"KG", 8, {4, 8, 16}},
                                 {"MT", 16, {1, 2, 4, 8, 16, 32}},
                                 {"KC", 128, {128, 512, 2048}},
                                 {"U", 2, {2, 4, 8}},
                                 {"SPLITK", 8, {1, 2, 4, 8, 16, 32}}};
};

}  // namespace

const KernelFamily& skinny_family() {
  static const SkinnyFamily skinny;
  return skinny;
}

std::vector<const KernelFamily*> tuned_families() { return {&warptile_family(), &tf32x3_family(), &wgmma_family(), &tmawgmma_family(), &tmatf32_family(), &skinny_family()}; }

}  // namespace gemmtune
