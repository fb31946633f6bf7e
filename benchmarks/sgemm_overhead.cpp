// sgemm_overhead: the host time of one warm Runtime::sgemm() on a tiny problem, against a bare
// cudaLaunchKernel of the kernel it selects (same grid, block, shared memory and arguments),
// against that kernel's planned launch (LoadedKernel::launch with its LaunchPlan, what a warm
// route does) and against cublasSgemm, as a small table. The target (issue 17): sgemm() at most
// 0.2 us above the bare launch. A benchmark for developers, not installed; its exit codes are the
// tools' (docs/cli.md).
//
//   sgemm_overhead [--db tuned.db] [--size 16]
#include <algorithm>
#include <charconv>
#include <chrono>
#include <cstdio>
#include <functional>
#include <iostream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "cuda_handles.hpp"
#include "device.hpp"
#include "gemmtune/runtime.hpp"
#include "kernel_config.hpp"
#include "kernel_name.hpp"
#include "loaded_kernel.hpp"
#include "nvrtc_compiler.hpp"

namespace {

using namespace gemmtune;

constexpr int kExitDone = 0, kExitBadInput = 2, kExitFailure = 3;  // as every tool's (tools/exit_codes.hpp)
constexpr const char* kHelp =
    "sgemm_overhead: the host time of one warm Runtime::sgemm() on a tiny problem, against a bare\n"
    "cudaLaunchKernel of the kernel it selects and against cublasSgemm. Needs a GPU.\n"
    "Exit codes: 0 done, 2 bad input (arguments, a database the runtime cannot open, no GPU),\n"
    "3 failure while running (the call cannot be planned, a CUDA or cuBLAS error).\n"
    "Usage: sgemm_overhead [--db tuned.db] [--size 16]\n"
    "  --db PATH   tuning database (default: none, default kernels)\n"
    "  --size N    M = N = K (default 16)\n"
    "  -h,--help   print this help and exit\n";

// Arguments a user got wrong: exit kExitBadInput.
class BadInput : public std::invalid_argument {
 public:
  using std::invalid_argument::invalid_argument;
};

constexpr int kBatches = 50;
constexpr int kCallsPerBatch = 200;  // well below the launch queue's depth, so no call waits
constexpr double kTargetMicroseconds = 0.2;

struct Arguments {
  std::string db_path;  // empty: no database, default kernels
  int size = 16;
  bool help = false;
};

Arguments parse_arguments(int argc, char** argv) {
  Arguments arguments;
  for (int i = 1; i < argc; ++i) {
    const std::string_view argument = argv[i];
    const auto value = [&]() -> std::string_view {
      if (i + 1 == argc) throw BadInput(std::string(argument) + " needs a value");
      return argv[++i];
    };
    if (argument == "--help" || argument == "-h") {
      arguments.help = true;
    } else if (argument == "--db") {
      arguments.db_path = value();
    } else if (argument == "--size") {
      const std::string_view text = value();
      const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), arguments.size);
      if (error != std::errc() || end != text.data() + text.size() || arguments.size < 1) {
        throw BadInput("--size: '" + std::string(text) + "' is not a positive whole number");
      }
    } else {
      throw BadInput("unknown argument '" + std::string(argument) +
                     "'; usage: sgemm_overhead [--db tuned.db] [--size 16] (--help for more)");
    }
  }
  return arguments;
}

// Median host microseconds a call of each contender takes to return. Batches of calls, each
// waited for before the next so that the GPU's queue never fills, and the contenders' batches
// interleaved, so that drift (clocks, other load) falls on all of them alike.
std::vector<double> host_microseconds(const Stream& stream, const std::vector<std::function<void()>>& contenders) {
  std::vector<std::vector<double>> per_call(contenders.size());
  for (const auto& launch : contenders) {  // warm: routes made, kernels loaded, caches filled
    for (int i = 0; i < kCallsPerBatch; ++i) launch();
  }
  stream.synchronize();
  for (int batch = 0; batch < kBatches; ++batch) {
    for (std::size_t c = 0; c < contenders.size(); ++c) {
      const auto start = std::chrono::steady_clock::now();
      for (int i = 0; i < kCallsPerBatch; ++i) contenders[c]();
      const auto stop = std::chrono::steady_clock::now();
      stream.synchronize();
      per_call[c].push_back(std::chrono::duration<double, std::micro>(stop - start).count() / kCallsPerBatch);
    }
  }
  std::vector<double> medians;
  for (std::vector<double>& times : per_call) {
    std::sort(times.begin(), times.end());
    medians.push_back(times[times.size() / 2]);
  }
  return medians;
}

int run(const Arguments& arguments) {
  std::string why_none;
  const std::optional<DeviceInfo> device = first_device(&why_none);
  if (!device) {
    std::cerr << "sgemm_overhead: needs a GPU, and there is none: " << why_none << "\n";
    return kExitBadInput;
  }
  RuntimeOptions options;
  options.allow_untuned = true;
  Runtime runtime;
  if (Runtime::open(runtime, arguments.db_path, options) != Status::Success) {
    std::cerr << "sgemm_overhead: " << last_error() << "\n";
    return kExitBadInput;
  }

  const int n = arguments.size;
  const std::vector<float> ones(static_cast<std::size_t>(n) * n, 1.0f);
  DeviceBuffer<float> a(ones.size()), b(ones.size()), c(ones.size());
  a.upload(ones);
  b.upload(ones);
  c.upload(ones);
  const Stream stream;
  const SgemmCall call{Order::RowMajor, Transpose::No, Transpose::No, n, n, n, 1.0f, a.data(), n, b.data(), n,
                       0.0f, c.data(), n};
  Selection selection;
  if (runtime.plan(call, selection) != Status::Success || selection.backend != Backend::Kernel) {
    std::cerr << "sgemm_overhead: cannot plan the call: " << last_error() << "\n";
    return kExitFailure;
  }
  const KernelConfig config = parse_kernel_name(selection.kernel);
  const CompiledKernel compiled = compile_kernel(config, device->arch());
  const LoadedKernel kernel(config, compiled.cubin, compiled.lowered_name);
  GemmParams params{n, n, n, 1.0f, 0.0f, a.data(), n, b.data(), n, c.data(), n, nullptr, 0};
  const LaunchPlan plan = kernel.plan(Problem{config.layout, n, n, n});
  DeviceBuffer<float> workspace(plan.workspace_floats);  // zero-filled, as the runtime's
  if (plan.workspace_floats > 0) {
    GT_CUDA(cudaMemset(workspace.data(), 0, plan.workspace_floats * sizeof(float)));
    params.workspace = workspace.data();
    params.workspace_floats = static_cast<long long>(plan.workspace_floats);
  }
  const dim3 grid(plan.shape.grid[0], plan.shape.grid[1], plan.shape.grid[2]);
  const dim3 block(plan.shape.block[0], plan.shape.block[1], plan.shape.block[2]);
  const CublasHandle cublas;
  GT_CUBLAS(cublasSetStream(cublas.get(), stream.get()));
  const float alpha = 1.0f, beta = 0.0f;

  const std::vector<double> times = host_microseconds(
      stream, {[&] {
                 // The kernel's argument is GemmParams: what every family but a registered one
                 // with build_arguments of its own passes.
                 GemmParams args = params;
                 void* pointers[] = {&args};
                 if (cudaLaunchKernel(kernel.handle(), grid, block, pointers, plan.shape.dynamic_smem_bytes,
                                      stream.get()) != cudaSuccess) {
                   throw std::runtime_error("cudaLaunchKernel failed");
                 }
               },
               [&] { kernel.launch(plan, params, stream.get()); },
               [&] {
                 if (runtime.sgemm(call, stream.get()) != Status::Success) throw std::runtime_error(last_error());
               },
               [&] {
                 // Row-major C = A B is column-major C^T = B^T A^T: B first.
                 GT_CUBLAS(cublasSgemm(cublas.get(), CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &alpha, b.data(), n,
                                       a.data(), n, &beta, c.data(), n));
               }});
  const double bare = times[0], planned = times[1], dispatched = times[2], cublas_us = times[3];

  std::printf("%s, %dx%dx%d, %s\n", device->name.c_str(), n, n, n, describe(selection).c_str());
  std::printf("| %-28s | %14s | %16s |\n", "call", "host us / call", "vs bare launch");
  std::printf("|%s|%s|%s|\n", std::string(30, '-').c_str(), std::string(16, '-').c_str(),
              std::string(18, '-').c_str());
  const auto row = [&](const char* what, double us) {
    std::printf("| %-28s | %14.3f | %+16.3f |\n", what, us, us - bare);
  };
  row("cudaLaunchKernel (bare)", bare);
  row("LoadedKernel::launch(plan)", planned);
  row("Runtime::sgemm", dispatched);
  row("cublasSgemm", cublas_us);
  const double overhead = dispatched - bare;
  std::printf("sgemm() overhead %.3f us: %s the %.1f us target\n", overhead,
              overhead <= kTargetMicroseconds ? "within" : "ABOVE", kTargetMicroseconds);
  return kExitDone;
}

}  // namespace

int main(int argc, char** argv) {
  Arguments arguments;
  try {
    arguments = parse_arguments(argc, argv);
  } catch (const BadInput& error) {
    std::cerr << "sgemm_overhead: " << error.what() << "\n";
    return kExitBadInput;
  }
  if (arguments.help) {
    std::cout << kHelp;
    return kExitDone;
  }
  try {
    return run(arguments);
  } catch (const std::exception& error) {
    std::cerr << "sgemm_overhead: " << error.what() << "\n";
    return kExitFailure;
  }
}
