// Host side of kernel_templates/tmawgmma.cuh, for its two kernels: tmawgmma (3xTF32, the fp32
// precision class) and tmatf32 (single-pass TF32, the tf32 class). Parameters, legality (the
// template's static_asserts, rule for rule), the persistent grid and workspace of its tile
// schedule (tile_schedule.h, the same code the kernel runs), and the tensor maps each call needs.
#include <cuda_runtime_api.h>

#include <array>
#include <cstring>
#include <mutex>
#include <string>

#include "gemm_call.hpp"
#include "tensor_map.hpp"
#include "tile_schedule.h"
#include "tmawgmma_shape.h"
#include "tuned_families.hpp"

namespace gemmtune {
namespace {

constexpr long long kMaxSmemBytes = 227 * 1024;  // sm_90's opt-in limit
// The SM count a persistent grid is sized for where no GPU can be asked (the cost model on a
// machine without one): an H100's or H200's.
constexpr int kAssumedSmCount = 132;

// SMs of the current device (cached per device), or kAssumedSmCount where there is none.
int current_sm_count() {
  static std::mutex mutex;
  static std::array<int, 64> counts{};
  int device = 0;
  if (cudaGetDevice(&device) != cudaSuccess || device < 0 || device >= static_cast<int>(counts.size())) {
    cudaGetLastError();  // clear the sticky "no device" error
    return kAssumedSmCount;
  }
  std::lock_guard<std::mutex> lock(mutex);
  if (counts[device] == 0) {
    int sms = 0;
    if (cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device) != cudaSuccess || sms < 1) {
      cudaGetLastError();
      return kAssumedSmCount;
    }
    counts[device] = sms;
  }
  return counts[device];
}

class TmaWgmmaFamily final : public KernelFamily {
 public:
  // products: 3 (3xTF32) or 1 (single-pass TF32).
  explicit TmaWgmmaFamily(int products) : products_(products) {}

  std::string_view name() const override { return products_ == 3 ? "tmawgmma" : "tmatf32"; }
  std::string_view summary() const override {
    return products_ == 3 ? "tensor cores: 3xTF32 warpgroup MMA (Hopper), TMA + mbarrier pipeline, warp-specialized, "
                            "persistent data-parallel / split-K / stream-K"
                          : "tensor cores: single-pass TF32 warpgroup MMA (Hopper, tf32 precision only), TMA + "
                            "mbarrier pipeline, warp-specialized, persistent";
  }
  std::string_view source_file() const override { return "tmawgmma.cuh"; }
  std::string_view kernel_template() const override {
    return products_ == 3 ? "gemmtune::tmawgmma_sgemm" : "gemmtune::tmatf32_sgemm";
  }
  const std::vector<ParamSpec>& params() const override { return params_; }
  std::vector<int> alignments() const override { return {4}; }  // TMA: 16-byte rows
  int product_error_units() const override { return products_ == 3 ? k3xTf32ErrorUnits : kTf32ErrorUnits; }
  Precision precision() const override { return products_ == 3 ? Precision::Fp32 : Precision::Tf32; }
  std::optional<std::string> compile_arch(const std::string& device_arch) const override {
    if (device_arch != "sm_90") return std::nullopt;
    return std::string("sm_90a");
  }

  bool worth_searching(const KernelConfig& c, int M, int N, int K, int sm_count) const override {
    const TileSchedule s = schedule(c, M, N, K, sm_count);
    switch (static_cast<Schedule>(c.get("SCHEDULE"))) {
      case Schedule::SplitK:  // only while the tiles alone leave SMs idle, with K to split
        return s.tiles() < sm_count && s.k_tiles >= 2 * c.get("SPLITK");
      case Schedule::StreamK:  // differs from data-parallel only where the tiles do not divide the SMs
        return s.sk_tiles > 0;
      case Schedule::DataParallel:
        return true;
    }
    return true;
  }

  LaunchShape launch_shape(const KernelConfig& c, int M, int N) const override {
    const TileSchedule s = schedule(c, M, N, 1, current_sm_count());
    const unsigned threads = static_cast<unsigned>(tmawgmma_threads(c.get("BM"), c.get("BN"), c.layout));
    return {{static_cast<unsigned>(s.grid), 1, 1},
            {threads, 1, 1},
            static_cast<std::size_t>(tmawgmma_smem_bytes(c.get("BM"), c.get("BN"), c.get("STAGES"), c.layout, products_))};
  }

  // [arrival counters, one a tile, rounded up to 4][partial slots of one tile each].
  std::size_t workspace_floats(const KernelConfig& c, int M, int N) const override {
    const TileSchedule s = schedule(c, M, N, 1, current_sm_count());
    if (s.partial_slots() == 0) return 0;
    const long long counters = (static_cast<long long>(s.tiles()) + 3) / 4 * 4;
    return static_cast<std::size_t>(counters + s.partial_slots() * c.get("BM") * c.get("BN"));
  }

  void kernel_arguments(const KernelConfig& c, const GemmParams& p, KernelArguments& out) const override {
    static_assert(sizeof(TmaGemmParams) <= sizeof(KernelArguments::bytes), "TmaGemmParams must fit KernelArguments");
    const int x_rows = tmawgmma_rows_x(c.get("BM"), c.get("BN"), c.layout);
    const int y_rows = c.get("BM") + c.get("BN") - x_rows;
    const std::string call = describe_call(p, c.layout);
    TmaGemmParams args{};
    args.gemm = p;
    // Stored shapes (rows x cols, ld) of A and B, and which is X and which is Y (tmawgmma.cuh).
    const long long a_rows = a_is_transposed(c.layout) ? p.K : p.M, a_cols = a_is_transposed(c.layout) ? p.M : p.K;
    const long long b_rows = b_is_transposed(c.layout) ? p.N : p.K, b_cols = b_is_transposed(c.layout) ? p.K : p.N;
    switch (c.layout) {
      case Layout::NT:  // X = A (M x K), Y = B (N x K): both K-contiguous, one box a tile each
        args.x = encode_matrix_tensor_map(p.A, a_rows, a_cols, p.lda, x_rows, kTmaTileK, "A of " + call);
        args.y = encode_matrix_tensor_map(p.B, b_rows, b_cols, p.ldb, y_rows, kTmaTileK, "B of " + call);
        break;
      case Layout::TT:  // X = A (K x M): 32 x 32 boxes; Y = B (N x K)
        args.x = encode_matrix_tensor_map(p.A, a_rows, a_cols, p.lda, kTmaTileK, 32, "A of " + call);
        args.y = encode_matrix_tensor_map(p.B, b_rows, b_cols, p.ldb, y_rows, kTmaTileK, "B of " + call);
        break;
      case Layout::NN:  // X = B (K x N): 32 x 32 boxes; Y = A (M x K)
        args.x = encode_matrix_tensor_map(p.B, b_rows, b_cols, p.ldb, kTmaTileK, 32, "B of " + call);
        args.y = encode_matrix_tensor_map(p.A, a_rows, a_cols, p.lda, y_rows, kTmaTileK, "A of " + call);
        break;
      case Layout::TN:  // X = A (K x M), Y = B (K x N): both in 32 x 32 boxes
        args.x = encode_matrix_tensor_map(p.A, a_rows, a_cols, p.lda, kTmaTileK, 32, "A of " + call);
        args.y = encode_matrix_tensor_map(p.B, b_rows, b_cols, p.ldb, kTmaTileK, 32, "B of " + call);
        break;
    }
    std::memcpy(out.bytes, &args, sizeof args);
  }

 protected:
  std::optional<std::string> check_params(const KernelConfig& c) const override {
    auto refuse = [](const std::string& why) { return std::optional<std::string>("tmawgmma: " + why); };
    const int bm = c.get("BM"), bn = c.get("BN"), schedule = c.get("SCHEDULE");
    if (bm != 64 && bm != 128) return refuse("BM must be 64 or 128");
    if (bn != 64 && bn != 128) return refuse("BN must be 64 or 128");
    if (c.get("STAGES") < 2) return refuse("STAGES must be at least 2 (one stage computes while the next loads)");
    if (schedule > 3) return refuse("SCHEDULE must be 1 (data-parallel), 2 (split-K) or 3 (stream-K)");
    if (schedule != 2 && c.get("SPLITK") != 1) return refuse("SPLITK must be 1 unless SCHEDULE is 2 (split-K)");
    if (c.align != 4) return refuse("ALIGN must be 4 (TMA needs 16-byte aligned rows)");
    if (tmawgmma_smem_bytes(bm, bn, c.get("STAGES"), c.layout, products_) > kMaxSmemBytes) {
      return refuse("shared memory must fit in 227 KB");
    }
    return std::nullopt;
  }

 private:
  static TileSchedule schedule(const KernelConfig& c, int M, int N, int K, int sm_count) {
    const int x_rows = tmawgmma_rows_x(c.get("BM"), c.get("BN"), c.layout);
    const bool swap = c.layout == Layout::NN;
    return make_tile_schedule(swap ? N : M, swap ? M : N, K, x_rows, c.get("BM") + c.get("BN") - x_rows, kTmaTileK,
                              sm_count, static_cast<Schedule>(c.get("SCHEDULE")), c.get("SPLITK"));
  }

  // The truncating split (tmawgmma.cuh): 2^-21 |a b| for each rounded small part and 2^-20 for
  // the dropped a_small b_small, 32 units; plus the tensor cores' truncating accumulation within a
  // tile, as for wgmma (12 truncations of at most 2 units), 24.
  static constexpr int k3xTf32ErrorUnits = 56;
  // Single-pass TF32: each operand truncated by less than 2^-10 of itself, 2^-9 |a b| (2^15
  // units), and the tensor cores' truncating accumulation over all of K (up to 2 units an add of
  // the running sum, covered for K up to 2^15).
  static constexpr int kTf32ErrorUnits = 3 << 15;

  int products_;

  std::vector<ParamSpec> params_{{"BM", 128, {64, 128}},
                                 {"BN", 128, {64, 128}},
                                 {"STAGES", 3, {2, 3, 4, 5, 6}},
                                 {"SCHEDULE", 1, {1, 2, 3}},
                                 {"SPLITK", 1, {1, 2, 4, 8, 16, 32}}};
};

}  // namespace

const KernelFamily& tmawgmma_family() {
  static const TmaWgmmaFamily tmawgmma(3);
  return tmawgmma;
}

const KernelFamily& tmatf32_family() {
  static const TmaWgmmaFamily tmatf32(1);
  return tmatf32;
}

}  // namespace gemmtune
