// Opening: the policy for a missing database, an unreadable one and an untuned GPU; a Runtime
// opened on a made-up device; the status and message of every kind of failure, returned
// before any CUDA call. CPU only.
#include <catch2/catch.hpp>

#include "dispatch_error.hpp"
#include "dispatch_test_support.hpp"
#include "gemmtune/runtime.hpp"
#include "kernel_name.hpp"
#include "runtime_impl.hpp"
#include "tuning_source.hpp"

namespace gemmtune::dispatch {
namespace {

using namespace test;

// The Status and message load_tuning fails with.
std::pair<Status, std::string> load_failure(const std::string& path, const cache::GpuKey& gpu, bool allow_untuned) {
  try {
    load_tuning(path, gpu, allow_untuned);
  } catch (const DispatchError& error) {
    return {error.status(), error.what()};
  }
  return {Status::Success, ""};
}

// A database with one nn winner for the fake GPU, in a temporary directory.
struct TunedFile {
  cache::test::TempDir dir;
  std::string path = dir.file("tuned.db");
  TunedFile() {
    cache::Database db = cache::Database::open(path, cache::OpenMode::ReadWrite);
    add_winner(db, fake_gpu(), {"nn", 256, 256, 256}, config_of("reg2d", Layout::NN, 1));
  }
};

}  // namespace

TEST_CASE("dispatch: a missing database fails open unless untuned running is allowed", "[dispatch]") {
  cache::test::TempDir dir;
  const std::string missing = dir.file("missing.db");
  const auto [status, message] = load_failure(missing, fake_gpu(), false);
  CHECK(status == Status::DatabaseNotFound);
  CHECK_THAT(message, Catch::Contains(missing) && Catch::Contains("allow_untuned"));
  CHECK(load_failure("", fake_gpu(), false).first == Status::DatabaseNotFound);

  const TuningSource untuned = load_tuning(missing, fake_gpu(), true);
  CHECK_FALSE(untuned.database);
  CHECK(untuned.table.size() == 0);
  CHECK_THAT(untuned.description, Catch::Contains("default kernels only"));
  CHECK_FALSE(std::filesystem::exists(missing));  // read-only: never created
}

TEST_CASE("dispatch: a file that is not a tuning database fails open even with allow_untuned", "[dispatch]") {
  cache::test::TempDir dir;
  const std::string garbage = dir.file("garbage.db");
  cache::test::write_bytes(garbage, std::string(4096, 'x'));
  for (bool allow_untuned : {false, true}) {
    const auto [status, message] = load_failure(garbage, fake_gpu(), allow_untuned);
    CHECK(status == Status::DatabaseError);
    CHECK_THAT(message, Catch::Contains(garbage));
  }
}

TEST_CASE("dispatch: a database tuned on another GPU fails open with UntunedGpu, naming what it has",
          "[dispatch]") {
  TunedFile file;
  const auto [status, message] = load_failure(file.path, other_gpu(), false);
  CHECK(status == Status::UntunedGpu);
  CHECK_THAT(message, Catch::Contains("no tuned problem for Other GPU (sm_86, 10 SMs)") &&
                          Catch::Contains("it has winners for Fake GPU 9000 (sm_90, 7 SMs)"));

  // Allowed: default kernels, but the database stays open for its cubins (keyed by arch).
  const TuningSource untuned = load_tuning(file.path, other_gpu(), true);
  CHECK(untuned.database);
  CHECK(untuned.table.size() == 0);

  const TuningSource tuned = load_tuning(file.path, fake_gpu(), false);
  CHECK(tuned.table.size() == 1);
  CHECK(tuned.description == "1 tuned problems from " + file.path);
}

TEST_CASE("dispatch: Runtime::open refuses with NoDevice where the device is not there", "[dispatch]") {
  TunedFile file;
  Runtime runtime;
  RuntimeOptions options;
  const bool has_gpu = first_device().has_value();
  if (has_gpu) options.device = 99;
  CHECK(Runtime::open(runtime, file.path, options) == Status::NoDevice);
  CHECK_FALSE(runtime.is_open());
  CHECK_THAT(last_error(), Catch::StartsWith("Runtime::open: ") &&
                               Catch::Contains(has_gpu ? "device 99 does not exist" : "no usable CUDA device"));
}

TEST_CASE("dispatch: a Runtime on a made-up device plans from its database without a GPU", "[dispatch]") {
  TunedFile file;
  const Runtime runtime = open_on_device(fake_device(), file.path, {});
  REQUIRE(runtime.is_open());
  CHECK(runtime.describe() == "Fake GPU 9000 (sm_90, 7 SMs), 1 tuned problems from " + file.path);
  Selection selection;
  // Column-major 256 x 256 x 256 with A^T and B^T is row-major tt: no tuned tt problem.
  REQUIRE(runtime.plan(fake_call(Order::ColMajor, Transpose::Yes, Transpose::Yes, 256, 256, 256, 256, 256, 256),
                       selection) == Status::Success);
  CHECK(selection.reason == Reason::Default);
  REQUIRE(runtime.plan(fake_nn_call(256, 256, 256), selection) == Status::Success);
  CHECK(selection.reason == Reason::Measured);
  CHECK(selection.kernel == kernel_name(config_of("reg2d", Layout::NN, 1)));
  CHECK(runtime.stats().routes == 0);  // planning makes no route and loads nothing
  CHECK(runtime.stats().kernels_compiled == 0);
}

TEST_CASE("dispatch: invalid arguments are refused with InvalidValue before any CUDA call", "[dispatch]") {
  TunedFile file;
  const Runtime runtime = open_on_device(fake_device(), file.path, {});
  const SgemmCall valid = fake_call(Order::ColMajor, Transpose::No, Transpose::Yes, 5, 7, 3, 5, 7, 5);
  SgemmCall call = valid;
  call.B = nullptr;
  CHECK(runtime.sgemm(call) == Status::InvalidValue);
  CHECK(last_error() == "Runtime::sgemm(col-major, A, B^T, M=5, N=7, K=3): B is null");
  call = valid;
  call.lda = 4;
  CHECK(runtime.sgemm(call) == Status::InvalidValue);
  CHECK(last_error() == "Runtime::sgemm(col-major, A, B^T, M=5, N=7, K=3): lda 4 is below its minimum 5");
  call = valid;
  call.M = 0;
  CHECK(runtime.sgemm(call) == Status::InvalidValue);
  CHECK_THAT(last_error(), Catch::EndsWith("M, N and K must be at least 1"));
  // The positional form checks the same way.
  CHECK(runtime.sgemm(Order::RowMajor, Transpose::No, Transpose::No, 4, 4, 4, 1.0f, valid.A, 4, valid.B, 3,
                      0.0f, valid.C, 4) == Status::InvalidValue);
  CHECK_THAT(last_error(), Catch::EndsWith("ldb 3 is below its minimum 4"));
  Selection selection;
  CHECK(runtime.plan(call, selection) == Status::InvalidValue);
  CHECK_THAT(last_error(), Catch::StartsWith("Runtime::plan(col-major"));
  // Nothing was selected, loaded or launched.
  CHECK(runtime.stats().routes == 0);
  CHECK(runtime.stats().kernels_compiled == 0);
  CHECK(runtime.stats().kernels_from_database == 0);
  CHECK_FALSE(runtime.last_selection());
}

TEST_CASE("dispatch: an empty Runtime answers NotInitialized", "[dispatch]") {
  const Runtime empty;
  CHECK_FALSE(empty.is_open());
  CHECK(empty.sgemm(fake_nn_call(4, 4, 4)) == Status::NotInitialized);
  CHECK_THAT(last_error(), Catch::Contains("not open"));
  Selection selection;
  CHECK(empty.plan(fake_nn_call(4, 4, 4), selection) == Status::NotInitialized);
  CHECK_FALSE(empty.last_selection());
  Runtime moved_from = open_on_device(fake_device(), "", {.device = 0, .allow_untuned = true, .prefer_cublas = false});
  const Runtime moved_to = std::move(moved_from);
  CHECK(moved_to.is_open());
  CHECK(moved_from.sgemm(fake_nn_call(4, 4, 4)) == Status::NotInitialized);  // NOLINT(bugprone-use-after-move)
}

TEST_CASE("dispatch: each kind of internal failure maps to its Status with context", "[dispatch]") {
  const SgemmCall call = fake_nn_call(4, 4, 4);
  const auto status_of = [&](auto&& thrower) {
    try {
      thrower();
    } catch (...) {
      return fail_from_current_exception("Runtime::sgemm", &call);
    }
    return Status::Success;
  };
  CHECK(status_of([] { throw DispatchError(Status::NotSupported, "too tall"); }) == Status::NotSupported);
  CHECK(last_error() == "Runtime::sgemm(row-major, A, B, M=4, N=4, K=4): too tall");
  CHECK(status_of([] { check_cuda(cudaErrorLaunchFailure, "cudaLaunchKernel(...)", "kernel x"); }) ==
        Status::ExecutionFailed);
  CHECK_THAT(last_error(), Catch::Contains("cudaErrorLaunchFailure") && Catch::Contains("kernel x"));
  CHECK(status_of([] { check_cublas(CUBLAS_STATUS_EXECUTION_FAILED, "cublasGemmEx(...)"); }) ==
        Status::ExecutionFailed);
  CHECK(status_of([] { throw NvrtcError(NVRTC_ERROR_COMPILATION, "nvrtcCompileProgram", "x<1>", "log", {}); }) ==
        Status::KernelError);
  CHECK(status_of([] { throw Error("x: 1024 threads a block, but it can launch at most 256"); }) ==
        Status::KernelError);
  CHECK(status_of([] { throw std::bad_alloc(); }) == Status::InternalError);
  CHECK_THAT(last_error(), Catch::EndsWith("out of host memory"));
  CHECK(status_of([] { throw 42; }) == Status::InternalError);
  CHECK(last_error() == "Runtime::sgemm");
}

TEST_CASE("dispatch: every status has a name", "[dispatch]") {
  CHECK(std::string(to_string(Status::Success)) == "success");
  CHECK(std::string(to_string(Status::UntunedGpu)) == "untuned_gpu");
  CHECK(std::string(to_string(static_cast<Status>(99))) == "unknown_status");
  CHECK(std::string(to_string(Reason::Nearest)) == "nearest");
}

}  // namespace gemmtune::dispatch
