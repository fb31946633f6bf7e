// [gpu] The Runtime end to end on a database the test fills itself (no tuner): three tuned
// problems per layout (one split-K) with their cubins stored; sgemm() in both storage orders and all four transpose
// combinations, for measured, nearest and default selections, aligned and misaligned, against
// cuBLAS and an FP64 reference; cuBLAS preference; eight threads on their own streams.
#include <catch2/catch.hpp>

#include <latch>
#include <limits>
#include <thread>

#include "compare.hpp"
#include "cublas_gemm.hpp"
#include "cuda_handles.hpp"
#include "dispatch_test_support.hpp"
#include "family_registry.hpp"
#include "gemmtune/runtime.hpp"
#include "kernel_export.hpp"
#include "kernel_name.hpp"
#include "kernel_sources.hpp"
#include "nvrtc_compiler.hpp"
#include "row_major_call.hpp"
#include "support/gpu_or_skip.hpp"
#include "support/host_gemm.hpp"

namespace gemmtune::dispatch {
namespace {

using namespace test;

constexpr float kAlpha = 0.7f;
constexpr float kBeta = -1.3f;
constexpr float kPad = -7777.0f;  // C's padding: must survive every call
const float kNaN = std::numeric_limits<float>::quiet_NaN();  // A's and B's padding: must never be read

constexpr Order kOrders[] = {Order::RowMajor, Order::ColMajor};
constexpr Transpose kTransposes[] = {Transpose::No, Transpose::Yes};
constexpr Layout kLayouts[] = {Layout::NN, Layout::NT, Layout::TN, Layout::TT};

// Row-major problems as the kernels see them (odd sizes): three tuned, two not.
struct Shape {
  int M, N, K;
};
constexpr Shape kSmall{45, 77, 33};
constexpr Shape kLarge{300, 200, 150};
constexpr Shape kSplitK{40, 56, 2001};  // small M x N, large K
constexpr Shape kNearSmall{50, 70, 40};  // nearest to kSmall
constexpr Shape kUntuned{61, 37, 29};

// kSmall's winner was tuned on aligned data (align4); kLarge's is align1, and cuBLAS was
// measured faster there (for prefer_cublas).
KernelConfig small_winner(Layout layout) {
  return config_of("vectorized", layout, 4, {{"BM", 64}, {"BN", 64}, {"BK", 16}, {"TM", 4}, {"TN", 4}});
}
KernelConfig large_winner(Layout layout) {
  return config_of("reg2d", layout, 1, {{"BM", 64}, {"BN", 64}, {"TM", 4}, {"TN", 4}});
}
// Needs a workspace, which the Runtime provides a stream.
KernelConfig split_k_winner(Layout layout) { return config_of("warptile", layout, 4, {{"SPLITK", 4}}); }

cache::GpuKey gpu_key(const DeviceInfo& device) {
  return {device.name, device.cc_major, device.cc_minor, device.sm_count};
}

// Stores `config` as the winner of `problem` for the class `tuned_for`, with its cubin under the key
// the runtime looks it up by.
void store_winner(cache::Database& db, const DeviceInfo& device, const cache::Problem& problem,
                  const KernelConfig& config, double cublas_ms, const std::string& tuned_for = "fp32") {
  const CompiledKernel compiled = compile_kernel(config, device.arch());
  cache::Binary binary;
  binary.key = {compiled.kernel_name, kernel_sources_hash(), nvrtc_compile_options(), device.arch(),
                nvrtc_version()};
  binary.lowered_name = compiled.lowered_name;
  binary.cubin = compiled.cubin;
  binary.registers = compiled.resources.registers;
  binary.compile_log = compiled.log;
  db.store_binary(binary);
  add_winner(db, gpu_key(device), problem, config, 1.0, cublas_ms, tuned_for);
}

// The tuning database of this process, filled once: both winners of every layout with their
// cubins.
class TunedDatabase {
 public:
  explicit TunedDatabase(const DeviceInfo& device) {
    cache::Database db = cache::Database::open(path_, cache::OpenMode::ReadWrite);
    for (Layout layout : kLayouts) {
      const std::string letters(layout_name(layout));
      store_winner(db, device, {letters, kSmall.M, kSmall.N, kSmall.K}, small_winner(layout), 2.0);
      store_winner(db, device, {letters, kLarge.M, kLarge.N, kLarge.K}, large_winner(layout), 0.5);
      store_winner(db, device, {letters, kSplitK.M, kSplitK.N, kSplitK.K}, split_k_winner(layout), 2.0);
    }
  }
  const std::string& path() const { return path_; }

 private:
  cache::test::TempDir dir_;
  std::string path_ = dir_.file("tuned.db");
};

const TunedDatabase& tuned_database(const DeviceInfo& device) {
  static const TunedDatabase database(device);
  return database;
}

Runtime open_or_fail(const std::string& path, const RuntimeOptions& options) {
  Runtime runtime;
  if (Runtime::open(runtime, path, options) != Status::Success) throw Error(last_error());
  return runtime;
}

// One call in the caller's terms whose row-major problem is `shape`, with its operands on the
// device: leading dimensions above the minimum, the padding poisoned; aligned (leading
// dimensions multiples of 4) or not (every pointer one float past an allocation).
class UserGemm {
 public:
  UserGemm(Order order, Transpose ta, Transpose tb, Shape shape, bool aligned, unsigned seed)
      : column_major_(order == Order::ColMajor),
        M_(column_major_ ? shape.N : shape.M),
        N_(column_major_ ? shape.M : shape.N),
        K_(shape.K),
        offset_(aligned ? 0 : 1),
        host_(testing::make_host_problem(M_, N_, K_, seed)) {
    // A matrix stored column-major is stored row-major transposed.
    const bool a_stored_t = column_major_ != (ta == Transpose::Yes);
    const bool b_stored_t = column_major_ != (tb == Transpose::Yes);
    const long long lda = leading_dimension(a_stored_t ? M_ : K_, aligned);
    const long long ldb = leading_dimension(b_stored_t ? K_ : N_, aligned);
    ldc_ = leading_dimension(column_major_ ? M_ : N_, aligned);
    const std::vector<float> a = testing::store_operand(host_.a, M_, K_, a_stored_t, lda, offset_, kNaN);
    const std::vector<float> b = testing::store_operand(host_.b, K_, N_, b_stored_t, ldb, offset_, kNaN);
    c0_ = testing::store_operand(host_.c0, M_, N_, column_major_, ldc_, offset_, kPad);
    a_ = DeviceBuffer<float>(a.size());
    b_ = DeviceBuffer<float>(b.size());
    c_ = DeviceBuffer<float>(c0_.size());
    a_.upload(a);
    b_.upload(b);
    call_ = {order, ta, tb, M_, N_, K_, kAlpha, a_.data() + offset_, lda, b_.data() + offset_, ldb, kBeta,
             c_.data() + offset_, ldc_};
  }

  const SgemmCall& call() const { return call_; }

  void reset_c(cudaStream_t stream) { c_.upload(c0_, stream); }

  // C as a logical row-major M x N matrix; adds to `failures` where anything outside C changed.
  std::vector<float> logical_c(cudaStream_t stream, std::string& failures) const {
    std::vector<float> stored = c_.download(stream);
    std::vector<float> logical(static_cast<std::size_t>(M_) * N_);
    for (int m = 0; m < M_; ++m) {
      for (int n = 0; n < N_; ++n) {
        const std::size_t index = static_cast<std::size_t>(
            offset_ + (column_major_ ? static_cast<long long>(n) * ldc_ + m : static_cast<long long>(m) * ldc_ + n));
        logical[static_cast<std::size_t>(m) * N_ + n] = stored[index];
        stored[index] = c0_[index];  // what remains must equal what was uploaded
      }
    }
    if (stored != c0_) failures += "an element outside C was overwritten\n";
    return logical;
  }

  // Failures of `c` against the FP64 reference ("" when within the rounding bound, widened by
  // the kernel's product_error_units).
  std::string check(const std::vector<float>& c, int product_error_units = 0) const {
    return testing::check_result(host_, kAlpha, kBeta, c, N_, /*offset=*/0, kPad, product_error_units);
  }
  // `c` against the FP64 reference, normwise, within the tolerance of `precision`.
  Comparison check_normwise(const std::vector<float>& c, Precision precision) const {
    std::vector<double> reference(host_.ab.size());
    for (std::size_t i = 0; i < reference.size(); ++i) reference[i] = kAlpha * host_.ab[i] + kBeta * host_.c0[i];
    return compare_outputs(c, reference, M_, N_, N_, gemm_tolerance(precision, K_));
  }

  // Failures where two results differ by more than twice the rounding bound (each may be off
  // the exact result by the bound, in opposite directions).
  std::string agree(const std::vector<float>& ours, const std::vector<float>& reference) const {
    const double u = std::ldexp(1.0, -24);
    for (std::size_t i = 0; i < ours.size(); ++i) {
      const double bound = 2 * (K_ + 4) * u * (std::abs(kAlpha) * host_.abs_ab[i] + std::abs(kBeta * host_.c0[i]));
      if (!(std::abs(static_cast<double>(ours[i]) - reference[i]) <= bound)) {
        return "element " + std::to_string(i) + ": " + std::to_string(ours[i]) + " against cuBLAS's " +
               std::to_string(reference[i]) + "\n";
      }
    }
    return "";
  }

 private:
  static long long leading_dimension(int minimum, bool aligned) {
    return aligned ? (minimum + 3) / 4 * 4 + 4 : minimum + 1;
  }

  bool column_major_;
  int M_, N_, K_;
  int offset_;
  testing::HostProblem host_;
  long long ldc_ = 0;
  std::vector<float> c0_;
  DeviceBuffer<float> a_, b_, c_;
  SgemmCall call_;
};

// cuBLAS on the caller's call, by cuBLAS's own conventions (independent of to_row_major):
// column-major calls go as they are, row-major ones through cublas_sgemm.
void cublas_reference(cublasHandle_t handle, const SgemmCall& call, cudaStream_t stream) {
  const bool a_t = call.trans_a == Transpose::Yes, b_t = call.trans_b == Transpose::Yes;
  if (call.order == Order::RowMajor) {
    const Layout layout = a_t ? (b_t ? Layout::TT : Layout::TN) : (b_t ? Layout::NT : Layout::NN);
    cublas_sgemm(handle, layout,
                 {call.M, call.N, call.K, call.alpha, call.beta, call.A, call.lda, call.B, call.ldb, call.C, call.ldc,
                  nullptr, 0},
                 stream);
    return;
  }
  GT_CUBLAS(cublasSetStream(handle, stream));
  GT_CUBLAS(cublasGemmEx(handle, a_t ? CUBLAS_OP_T : CUBLAS_OP_N, b_t ? CUBLAS_OP_T : CUBLAS_OP_N, call.M, call.N,
                         call.K, &call.alpha, call.A, CUDA_R_32F, static_cast<int>(call.lda), call.B, CUDA_R_32F,
                         static_cast<int>(call.ldb), &call.beta, call.C, CUDA_R_32F, static_cast<int>(call.ldc),
                         CUBLAS_COMPUTE_32F_PEDANTIC, CUBLAS_GEMM_DEFAULT));
}

// Runs the call through `runtime` and through cuBLAS; "" when both match the FP64 reference and
// each other and nothing outside C changed.
std::string run_against_cublas(const Runtime& runtime, UserGemm& gemm, cublasHandle_t cublas, const Stream& stream) {
  gemm.reset_c(stream.get());
  if (runtime.sgemm(gemm.call(), stream.get()) != Status::Success) return "sgemm failed: " + last_error();
  std::string failures;
  const std::vector<float> ours = gemm.logical_c(stream.get(), failures);
  failures += gemm.check(ours);
  gemm.reset_c(stream.get());
  cublas_reference(cublas, gemm.call(), stream.get());
  const std::vector<float> reference = gemm.logical_c(stream.get(), failures);
  failures += gemm.check(reference);
  failures += gemm.agree(ours, reference);
  return failures;
}

Layout row_major_layout(const SgemmCall& call) { return to_row_major(call).layout; }

}  // namespace

TEST_CASE("dispatch: sgemm matches cuBLAS for measured, nearest and default kernels in every order and transpose",
          "[gpu]") {
  const auto device = testing::gpu_or_skip();
  if (!device) return;
  const Runtime tuned = open_or_fail(tuned_database(*device).path(), {});
  const Runtime untuned = open_or_fail("", {.device = 0, .allow_untuned = true, .prefer_cublas = false});
  const CublasHandle cublas;
  const Stream stream;
  struct Case {
    const Runtime* runtime;
    Shape shape;
    Reason reason;
  };
  const Case cases[] = {{&tuned, kSmall, Reason::Measured},
                        {&tuned, kLarge, Reason::Measured},
                        {&tuned, kSplitK, Reason::Measured},
                        {&tuned, kNearSmall, Reason::Nearest},
                        {&untuned, kUntuned, Reason::Default}};
  unsigned seed = 1;
  for (Order order : kOrders) {
    for (Transpose ta : kTransposes) {
      for (Transpose tb : kTransposes) {
        for (bool aligned : {true, false}) {
          for (const Case& c : cases) {
            UserGemm gemm(order, ta, tb, c.shape, aligned, seed++);
            const Layout layout = row_major_layout(gemm.call());
            const int align = aligned ? 4 : 1;
            Selection planned;
            REQUIRE(c.runtime->plan(gemm.call(), planned) == Status::Success);
            INFO(describe(planned) << (aligned ? ", aligned" : ", misaligned"));
            CHECK(planned.problem == ProblemShape{std::string(layout_name(layout)), c.shape.M, c.shape.N, c.shape.K});
            if (c.reason == Reason::Measured) {
              KernelConfig expected = c.shape.M == kLarge.M    ? large_winner(layout)
                                      : c.shape.M == kSplitK.M ? split_k_winner(layout)
                                                               : small_winner(layout);
              expected.align = std::min(expected.align, align);
              CHECK(planned.reason == Reason::Measured);
              CHECK(planned.kernel == kernel_name(expected));
            } else {
              // Untuned: whatever the ranking picks (select_kernel's CPU tests say how), for this
              // layout at an alignment the call allows; a database-less runtime has only defaults.
              CHECK(planned.reason != Reason::Measured);
              if (c.runtime == &untuned) CHECK(planned.reason == Reason::Default);
              const KernelConfig chosen = parse_kernel_name(planned.kernel);
              CHECK(chosen.layout == layout);
              CHECK(chosen.align <= align);
            }
            CHECK(run_against_cublas(*c.runtime, gemm, cublas.get(), stream) == "");
            const std::optional<Selection> last = c.runtime->last_selection();
            REQUIRE(last);
            CHECK(last->kernel == planned.kernel);
          }
        }
      }
    }
  }
  // Per layout, the stored cubins of the three winners were loaded (and the align4 winners at
  // align1 compiled); without a database, every kernel was compiled.
  CHECK(tuned.stats().kernels_from_database >= 12);
  CHECK(untuned.stats().kernels_from_database == 0);
  CHECK(untuned.stats().kernels_compiled >= 4);
}

TEST_CASE("dispatch: with prefer_cublas, cuBLAS serves where it was measured faster, with correct results", "[gpu]") {
  const auto device = testing::gpu_or_skip();
  if (!device) return;
  const Runtime runtime =
      open_or_fail(tuned_database(*device).path(), {.device = 0, .allow_untuned = false, .prefer_cublas = true});
  const CublasHandle cublas;
  const Stream stream;
  unsigned seed = 100;
  for (Order order : kOrders) {
    for (Transpose ta : kTransposes) {
      for (Transpose tb : kTransposes) {
        for (const Shape& shape : {kLarge, kSmall}) {
          UserGemm gemm(order, ta, tb, shape, true, seed++);
          Selection planned;
          REQUIRE(runtime.plan(gemm.call(), planned) == Status::Success);
          INFO(describe(planned));
          CHECK(planned.backend == (shape.M == kLarge.M ? Backend::Cublas : Backend::Kernel));
          CHECK(run_against_cublas(runtime, gemm, cublas.get(), stream) == "");
        }
      }
    }
  }
}

TEST_CASE("dispatch: eight threads calling sgemm on their own streams get correct results", "[gpu]") {
  const auto device = testing::gpu_or_skip();
  if (!device) return;
  // Fresh Runtimes, so that the threads also race to make the routes and load the kernels.
  const Runtime kernels_only = open_or_fail(tuned_database(*device).path(), {});
  const Runtime with_cublas =
      open_or_fail(tuned_database(*device).path(), {.device = 0, .allow_untuned = false, .prefer_cublas = true});
  constexpr int kThreads = 8;
  constexpr int kRounds = 3;
  std::vector<std::string> failures(kThreads);
  std::latch start(kThreads);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      bool arrived = false;  // a thread that fails early must still release the others
      try {
        const Stream stream;
        const Order order = kOrders[t % 2];
        const Transpose ta = kTransposes[t / 2 % 2];
        const Transpose tb = kTransposes[t / 4 % 2];
        std::vector<UserGemm> gemms;
        unsigned seed = 1000 + 10 * static_cast<unsigned>(t);
        for (const Shape& shape : {kSmall, kLarge, kSplitK, kNearSmall, kUntuned}) {
          gemms.emplace_back(order, ta, tb, shape, true, seed++);
          gemms.emplace_back(order, ta, tb, shape, false, seed++);
        }
        arrived = true;
        start.arrive_and_wait();
        for (int round = 0; round < kRounds; ++round) {
          for (UserGemm& gemm : gemms) {
            const Runtime& runtime = (round + t) % 2 == 0 ? kernels_only : with_cublas;
            gemm.reset_c(stream.get());
            if (runtime.sgemm(gemm.call(), stream.get()) != Status::Success) {
              failures[t] += "sgemm failed: " + last_error() + "\n";
              continue;
            }
            const std::vector<float> c = gemm.logical_c(stream.get(), failures[t]);
            failures[t] += gemm.check(c);
          }
        }
      } catch (const std::exception& error) {
        failures[t] += std::string("exception: ") + error.what() + "\n";
        if (!arrived) start.count_down();
      }
    });
  }
  for (std::thread& thread : threads) thread.join();
  for (int t = 0; t < kThreads; ++t) {
    INFO("thread " << t);
    CHECK(failures[t] == "");
  }
}

TEST_CASE("dispatch: an ahead-of-time export serves every call as the database does, without compiling", "[gpu]") {
  const auto device = testing::gpu_or_skip();
  if (!device) return;
  cache::test::TempDir dir;
  const std::string exported = dir.file("kernels");
  {
    const cache::Database db = cache::Database::open(tuned_database(*device).path(), cache::OpenMode::ReadOnly);
    export_kernels(db, gpu_key(*device), exported);
  }
  Runtime from_export;
  REQUIRE(Runtime::open_manifest(from_export, exported, {}) == Status::Success);
  const Runtime from_database = open_or_fail(tuned_database(*device).path(), {});
  const CublasHandle cublas;
  const Stream stream;
  unsigned seed = 100;
  for (Order order : kOrders) {
    for (Transpose ta : kTransposes) {
      for (Transpose tb : kTransposes) {
        for (bool aligned : {true, false}) {
          for (const Shape& shape : {kSmall, kLarge, kSplitK, kNearSmall, kUntuned}) {
            UserGemm gemm(order, ta, tb, shape, aligned, seed++);
            Selection expected, served;
            REQUIRE(from_database.plan(gemm.call(), expected) == Status::Success);
            REQUIRE(from_export.plan(gemm.call(), served) == Status::Success);
            INFO(describe(served));
            INFO("the database's choice: " << describe(expected));
            CHECK(served.reason == expected.reason);
            // An untuned call ranks the same contenders from both sources, and takes one whose
            // cubin is stored when it is about as fast. The export stores every serving variant
            // of the winners (align1 of an align4 winner too); the database only what was tuned.
            // So the two may part there, but only for a kernel the database also ranked.
            if (expected.reason == Reason::Measured) {
              CHECK(served.kernel == expected.kernel);
            } else {
              CHECK((served.kernel == expected.kernel || expected.note.find(served.kernel) != std::string::npos));
            }
            CHECK(run_against_cublas(from_export, gemm, cublas.get(), stream).empty());
          }
        }
      }
    }
  }
  CHECK(from_export.stats().kernels_compiled == 0);
  CHECK(from_export.stats().kernels_from_database > 0);
  CHECK_THAT(from_export.describe(), Catch::Contains("from the export " + exported));
}

TEST_CASE("dispatch: a strict call runs an FFMA kernel where only tensor-core winners are tuned; fp32 and tf32 "
          "calls run theirs, each within its class's error",
          "[gpu]") {
  const auto device = testing::gpu_or_skip();
  if (!device) return;
  const bool hopper = find_family("tmatf32").compile_arch(device->arch()).has_value();
  const cache::test::TempDir dir;
  const std::string path = dir.file("classes.db");
  const cache::Problem problem{"nn", kLarge.M, kLarge.N, kLarge.K};
  const KernelConfig fp32_winner = find_family("tf32x3").default_config(Layout::NN, 4);
  const KernelConfig tf32_winner = find_family("tmatf32").default_config(Layout::NN, 4);
  {
    cache::Database db = cache::Database::open(path, cache::OpenMode::ReadWrite);
    store_winner(db, *device, problem, fp32_winner, 2.0, "fp32");
    if (hopper) store_winner(db, *device, problem, tf32_winner, 2.0, "tf32");
  }
  const Runtime strict = open_or_fail(path, {.device = 0, .allow_untuned = false, .prefer_cublas = false,
                                             .precision = Precision::Strict});
  const CublasHandle cublas;
  const Stream stream;
  UserGemm gemm(Order::RowMajor, Transpose::No, Transpose::No, kLarge, true, 7);

  Selection planned;
  REQUIRE(strict.plan(gemm.call(), planned) == Status::Success);
  INFO(describe(planned));
  CHECK(planned.reason == Reason::Default);
  CHECK(planned.precision == Precision::Strict);
  CHECK(run_against_cublas(strict, gemm, cublas.get(), stream) == "");
  REQUIRE(strict.last_selection());
  CHECK(find_family(parse_kernel_name(strict.last_selection()->kernel).family).precision() == Precision::Strict);

  SgemmCall fp32_call = gemm.call();
  fp32_call.precision = Precision::Fp32;
  gemm.reset_c(stream.get());
  REQUIRE(strict.sgemm(fp32_call, stream.get()) == Status::Success);
  CHECK(strict.last_selection()->kernel == kernel_name(fp32_winner));
  CHECK(strict.last_selection()->precision == Precision::Fp32);
  std::string failures;
  const std::vector<float> fp32_result = gemm.logical_c(stream.get(), failures);
  CHECK(failures == "");
  CHECK(gemm.check(fp32_result, find_family("tf32x3").product_error_units()) == "");

  if (!hopper) {
    WARN("tmatf32 needs Hopper: the tf32 call is not run on " << device->name);
    return;
  }
  SgemmCall tf32_call = gemm.call();
  tf32_call.precision = Precision::Tf32;
  gemm.reset_c(stream.get());
  REQUIRE(strict.sgemm(tf32_call, stream.get()) == Status::Success);
  CHECK(strict.last_selection()->kernel == kernel_name(tf32_winner));
  const std::vector<float> tf32_result = gemm.logical_c(stream.get(), failures);
  CHECK(failures == "");
  const Comparison tf32_check = gemm.check_normwise(tf32_result, Precision::Tf32);
  INFO(tf32_check.summary);
  CHECK(tf32_check.passed);
  CHECK(tf32_check.relative_error > gemm.check_normwise(fp32_result, Precision::Strict).relative_error);
}

TEST_CASE("dispatch: strided batched calls, row- and column-major, run a batch-capable kernel that matches FP64 on "
          "every entry", "[gpu]") {
  const auto device = testing::gpu_or_skip();
  if (!device) return;
  const Runtime untuned = open_or_fail("", {.device = 0, .allow_untuned = true, .prefer_cublas = false});
  constexpr int M = 33, N = 65, K = 17, kBatch = 3;
  std::vector<testing::HostProblem> entries;
  for (int e = 0; e < kBatch; ++e) entries.push_back(testing::make_host_problem(M, N, K, 300 + e));
  const float alpha = 0.7f;
  for (Order order : {Order::RowMajor, Order::ColMajor}) {
    // Row-major C = A B entry by entry; column-major, the same numbers as C^T = B^T A^T: the
    // caller's column-major A is the row-major B^T, so the logical row-major operands swap.
    const bool rows = order == Order::RowMajor;
    const int call_m = rows ? M : N, call_n = rows ? N : M;
    const long long stride_a = M * K + 3, stride_b = K * N + 3, stride_c = M * N + 3;  // gaps between entries
    std::vector<float> a(stride_a * kBatch, std::nanf("")), b(stride_b * kBatch, std::nanf("")),
        c(stride_c * kBatch, std::nanf(""));  // beta 0: C is poisoned, and only written
    for (int e = 0; e < kBatch; ++e) {
      std::copy(entries[e].a.begin(), entries[e].a.end(), a.begin() + e * stride_a);
      std::copy(entries[e].b.begin(), entries[e].b.end(), b.begin() + e * stride_b);
    }
    DeviceBuffer<float> a_dev(a.size()), b_dev(b.size()), c_dev(c.size());
    a_dev.upload(a);
    b_dev.upload(b);
    c_dev.upload(c);
    // Row-major: A (M x K, lda K) and B (K x N, ldb N). Column-major C^T (N x M) = B^T A^T: the
    // caller's A is our B read column-major (N x K, lda N), its B our A (K x M, ldb K).
    const Status status =
        rows ? untuned.sgemm_strided_batched(order, Transpose::No, Transpose::No, call_m, call_n, K, alpha, a_dev.data(),
                                             K, stride_a, b_dev.data(), N, stride_b, 0.0f, c_dev.data(), N, stride_c,
                                             kBatch)
             : untuned.sgemm_strided_batched(order, Transpose::No, Transpose::No, call_m, call_n, K, alpha, b_dev.data(),
                                             N, stride_b, a_dev.data(), K, stride_a, 0.0f, c_dev.data(), N, stride_c,
                                             kBatch);
    REQUIRE(status == Status::Success);
    GT_CUDA(cudaDeviceSynchronize());
    const std::optional<Selection> selection = untuned.last_selection();
    REQUIRE(selection);
    INFO(describe(*selection));
    CHECK(selection->problem.batch == kBatch);
    const KernelConfig chosen = parse_kernel_name(selection->kernel);
    const KernelFamily& family = find_family(chosen.family);
    CHECK_FALSE(family.batch_refusal(chosen, false));
    const std::vector<float> result = c_dev.download();
    for (int e = 0; e < kBatch; ++e) {
      INFO((rows ? "row-major" : "column-major") << " entry " << e);
      const std::vector<float> entry(result.begin() + e * stride_c, result.begin() + e * stride_c + M * N);
      CHECK(testing::check_result(entries[e], alpha, 0.0f, entry, N, 0, 0.0f, family.product_error_units()) == "");
    }
    // The gaps between entries of C stay as they were.
    for (int e = 0; e + 1 < kBatch; ++e) CHECK(std::isnan(result[e * stride_c + M * N]));
  }
}

}  // namespace gemmtune::dispatch
