#include "seed_families.hpp"

#include <string>

namespace gemmtune {
namespace {

constexpr int kMaxThreads = 1024;
constexpr int kStaticSmemBytes = 48 * 1024;

std::optional<std::string> refuse(std::string_view family, const std::string& why) {
  return std::string(family) + ": " + why;
}

// naive, coalesced and smem: a TILE x TILE block of threads, one output per thread.
class ThreadPerOutputFamily final : public KernelFamily {
 public:
  ThreadPerOutputFamily(std::string_view name, std::string_view summary, bool rows_along_x)
      : name_(name), summary_(summary), rows_along_x_(rows_along_x),
        source_(std::string(name) + ".cuh"), template_("gemmtune::" + std::string(name) + "_sgemm"),
        params_{{"TILE", 32, {8, 16, 32}}} {}

  std::string_view name() const override { return name_; }
  std::string_view summary() const override { return summary_; }
  std::string_view source_file() const override { return source_; }
  std::string_view kernel_template() const override { return template_; }
  const std::vector<ParamSpec>& params() const override { return params_; }
  bool tuned_by_default() const override { return false; }

  LaunchShape launch_shape(const KernelConfig& config, int M, int N) const override {
    const int tile = config.get("TILE");
    const unsigned along_rows = ceil_div(M, tile);
    const unsigned along_cols = ceil_div(N, tile);
    return {{rows_along_x_ ? along_rows : along_cols, rows_along_x_ ? along_cols : along_rows, 1},
            {static_cast<unsigned>(tile), static_cast<unsigned>(tile), 1},
            0};
  }

 protected:
  std::optional<std::string> check_params(const KernelConfig& config) const override {
    const int tile = config.get("TILE");
    if (tile * tile > kMaxThreads) return refuse(name_, "TILE * TILE threads must be 1..1024");
    return std::nullopt;
  }

 private:
  std::string_view name_;
  std::string_view summary_;
  bool rows_along_x_;
  std::string source_;
  std::string template_;
  std::vector<ParamSpec> params_;
};

class Reg1dFamily final : public KernelFamily {
 public:
  std::string_view name() const override { return "reg1d"; }
  std::string_view summary() const override { return "1D register tiling (TM outputs a thread)"; }
  std::string_view source_file() const override { return "reg1d.cuh"; }
  std::string_view kernel_template() const override { return "gemmtune::reg1d_sgemm"; }
  const std::vector<ParamSpec>& params() const override { return params_; }

  LaunchShape launch_shape(const KernelConfig& config, int M, int N) const override {
    const int bm = config.get("BM"), bn = config.get("BN"), tm = config.get("TM");
    return {{ceil_div(N, bn), ceil_div(M, bm), 1}, {static_cast<unsigned>(bm / tm * bn), 1, 1}, 0};
  }

 protected:
  std::optional<std::string> check_params(const KernelConfig& config) const override {
    const int bm = config.get("BM"), bn = config.get("BN"), bk = config.get("BK"),
              tm = config.get("TM");
    if (bm % tm != 0) return refuse(name(), "BM must be a multiple of TM");
    const int threads = bm / tm * bn;
    if (threads < 32 || threads > kMaxThreads) return refuse(name(), "(BM / TM) * BN threads must be 32..1024");
    if (bm * bk % threads != 0) return refuse(name(), "the A tile (BM * BK) must divide evenly over the threads");
    if (bk * bn % threads != 0) return refuse(name(), "the B tile (BK * BN) must divide evenly over the threads");
    if ((bm * bk + bk * bn) * 4 > kStaticSmemBytes) return refuse(name(), "static shared memory must fit in 48 KB");
    return std::nullopt;
  }

 private:
  std::vector<ParamSpec> params_{{"BM", 64, {32, 64, 128}},
                                 {"BN", 64, {32, 64, 128}},
                                 {"BK", 8, {4, 8, 16}},
                                 {"TM", 8, {4, 8, 16}}};
};

// reg2d and vectorized: a TM x TN thread tile; vectorized adds 128-bit accesses.
class Reg2dFamily final : public KernelFamily {
 public:
  explicit Reg2dFamily(bool vectorized) : vectorized_(vectorized) {}

  std::string_view name() const override { return vectorized_ ? "vectorized" : "reg2d"; }
  std::string_view summary() const override {
    return vectorized_ ? "A transposed in smem, 128-bit loads and stores"
                       : "2D register tiling (TM x TN outputs a thread)";
  }
  std::string_view source_file() const override { return vectorized_ ? "vectorized.cuh" : "reg2d.cuh"; }
  std::string_view kernel_template() const override {
    return vectorized_ ? "gemmtune::vectorized_sgemm" : "gemmtune::reg2d_sgemm";
  }
  const std::vector<ParamSpec>& params() const override { return params_; }
  std::vector<int> alignments() const override {
    return vectorized_ ? std::vector<int>{4, 2, 1} : std::vector<int>{1};
  }

  LaunchShape launch_shape(const KernelConfig& config, int M, int N) const override {
    const int bm = config.get("BM"), bn = config.get("BN"), tm = config.get("TM"),
              tn = config.get("TN");
    return {{ceil_div(N, bn), ceil_div(M, bm), 1},
            {static_cast<unsigned>((bm / tm) * (bn / tn)), 1, 1},
            0};
  }

 protected:
  std::optional<std::string> check_params(const KernelConfig& config) const override {
    const int bm = config.get("BM"), bn = config.get("BN"), bk = config.get("BK"),
              tm = config.get("TM"), tn = config.get("TN");
    if (vectorized_ && (tm % 4 != 0 || tn % 4 != 0)) return refuse(name(), "TM and TN must be multiples of 4");
    if (bm % tm != 0 || bn % tn != 0) return refuse(name(), "BM and BN must be multiples of TM and TN");
    if (vectorized_ && bk % 4 != 0) return refuse(name(), "BK must be a multiple of 4");
    const int threads = (bm / tm) * (bn / tn);
    if (threads < 32 || threads > kMaxThreads) return refuse(name(), "(BM / TM) * (BN / TN) threads must be 32..1024");
    const int vector = vectorized_ ? 4 : 1;  // elements one thread copies at a time
    if (bm * bk / vector % threads != 0) return refuse(name(), "the A tile must divide evenly over the threads");
    if (bk * bn / vector % threads != 0) return refuse(name(), "the B tile must divide evenly over the threads");
    if ((bm * bk + bk * bn) * 4 > kStaticSmemBytes) return refuse(name(), "static shared memory must fit in 48 KB");
    return std::nullopt;
  }

 private:
  bool vectorized_;
  std::vector<ParamSpec> params_{{"BM", 128, {32, 64, 128, 256}},
                                 {"BN", 128, {32, 64, 128, 256}},
                                 {"BK", 8, {8, 16, 32}},
                                 {"TM", 8, {4, 8}},
                                 {"TN", 8, {4, 8}}};
};

}  // namespace

std::vector<const KernelFamily*> seed_families() {
  static const ThreadPerOutputFamily naive("naive", "one thread an output, x along rows (uncoalesced)", true);
  static const ThreadPerOutputFamily coalesced("coalesced", "x along columns: coalesced access", false);
  static const ThreadPerOutputFamily smem("smem", "shared-memory tiling", false);
  static const Reg1dFamily reg1d;
  static const Reg2dFamily reg2d(false);
  static const Reg2dFamily vectorized(true);
  return {&naive, &coalesced, &smem, &reg1d, &reg2d, &vectorized};
}

}  // namespace gemmtune
