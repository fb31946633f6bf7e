// How close to FP64 each arithmetic gets as K grows: cuBLAS pedantic FP32, warptile (FFMA),
// tf32x3, wgmma and tmawgmma (3xTF32 on the tensor cores, the last two on Hopper only), on the same random inputs.
// The 3xTF32 families promise FP32-class accuracy, not TF32's (one TF32 rounding of each operand
// gives a normwise error near 3e-4).
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "cublas_gemm.hpp"
#include "cuda_handles.hpp"
#include "family_registry.hpp"
#include "loaded_kernel.hpp"
#include "nvrtc_compiler.hpp"
#include "support/gpu_or_skip.hpp"
#include "support/host_gemm.hpp"
#include "workspace.hpp"

namespace gemmtune {
namespace {

// ||C - AB||_F / ||AB||_F against the FP64 product.
double normwise_error(const testing::HostProblem& p, const std::vector<float>& c) {
  double diff = 0.0, norm = 0.0;
  for (std::size_t i = 0; i < p.ab.size(); ++i) {
    diff += (c[i] - p.ab[i]) * (c[i] - p.ab[i]);
    norm += p.ab[i] * p.ab[i];
  }
  return std::sqrt(diff / norm);
}

std::string scientific(double x) {
  char text[32];
  std::snprintf(text, sizeof text, "%.2e", x);
  return text;
}

}  // namespace

TEST_CASE("tf32x3 stays as close to FP64 as FP32 arithmetic does", "[gpu]") {
  const auto device = testing::gpu_or_skip();
  if (!device) return;
  CublasHandle cublas;
  std::vector<const char*> families = {"warptile", "tf32x3"};
  for (const char* hopper : {"wgmma", "tmawgmma"}) {
    if (find_family(hopper).compile_arch(device->arch())) families.push_back(hopper);
  }
  std::vector<LoadedKernel> kernels;  // compiled once, run on every K
  kernels.reserve(families.size());
  for (const char* family : families) {
    const KernelConfig config = find_family(family).default_config(Layout::NN, 4);
    const CompiledKernel compiled = compile_kernel(config, device->arch());
    kernels.emplace_back(config, compiled.cubin, compiled.lowered_name);
  }
  for (int K : {512, 8192, 65536}) {
    constexpr int M = 128, N = 128;
    const testing::HostProblem problem = testing::make_host_problem(M, N, K, 11);
    DeviceBuffer<float> a(problem.a.size()), b(problem.b.size()), c(problem.c0.size());
    a.upload(problem.a);
    b.upload(problem.b);
    GemmParams params{M, N, K, 1.0f, 0.0f, a.data(), K, b.data(), N, c.data(), N, nullptr, 0};

    cublas_sgemm(cublas.get(), Layout::NN, params, nullptr);
    GT_CUDA(cudaDeviceSynchronize(), "cuBLAS");
    const double cublas_error = normwise_error(problem, c.download());
    std::vector<double> errors(families.size());
    for (std::size_t f = 0; f < families.size(); ++f) {
      const LoadedKernel& kernel = kernels[f];
      Workspace workspace;
      workspace.attach(kernel, params, nullptr);
      kernel.launch(params, nullptr);
      GT_CUDA(cudaDeviceSynchronize(), kernel.name());
      errors[f] = normwise_error(problem, c.download());
    }
    // One unwrapped line each (tools/gpu_run.sh collects them; Catch would wrap a WARN).
    std::string line = "K " + std::to_string(K) + ": normwise error against FP64: cuBLAS " + scientific(cublas_error);
    for (std::size_t f = 0; f < families.size(); ++f) line += std::string(", ") + families[f] + " " + scientific(errors[f]);
    std::printf("%s\n", line.c_str());
    std::fflush(stdout);
    // FP32-class: within a small factor of FFMA's own error, far below TF32's 3e-4.
    for (std::size_t f = 1; f < families.size(); ++f) {
      INFO(families[f] << " at K " << K);
      CHECK(errors[f] < 1e-5);
      CHECK(errors[f] <= 4.0 * std::max(errors[0], cublas_error));
    }
  }
}

}  // namespace gemmtune
