// bandwidth_probe: how fast this GPU streams memory at a given size, timed as gemmbench times a
// GEMM (time_launches: warm-up, events, median, buffers rotated over more than 2x L2). It is the
// ceiling for the bandwidth-bound problems (1 x 4096 x 4096 reads 64 MiB of B and little else):
// a GEMM kernel cannot read B faster than a kernel that does nothing but read.
//
// Three operations a size: a read-only kernel (each thread sums float4 loads, grid-stride, and
// writes nothing unless the sum is NaN, so no load can be optimized away and nothing is
// written), a copy kernel, and cudaMemcpyAsync device to device. The kernels are tried at a few
// launch shapes; every row is printed, so the best is visible and so is the spread.
// A developer's benchmark, not installed.
#include <spdlog/spdlog.h>

#include <CLI/CLI.hpp>

#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include "build_info.hpp"
#include "cuda_handles.hpp"
#include "device.hpp"
#include "exit_codes.hpp"
#include "log_options.hpp"
#include "numeric_options.hpp"
#include "nvrtc_compiler.hpp"
#include "text.hpp"
#include "text_table.hpp"
#include "timing.hpp"

namespace gemmtune {
namespace {

// UNROLL float4 loads in flight per thread and iteration: a memory-bound kernel needs many.
constexpr const char* kProbeSource = R"(
template <int UNROLL>
__global__ void read_probe(const float4* __restrict__ in, long long count, float* out) {
  const long long stride = static_cast<long long>(gridDim.x) * blockDim.x;
  long long i = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  float sum = 0.0f;
  for (; i + (UNROLL - 1) * stride < count; i += UNROLL * stride) {
    float4 v[UNROLL];
#pragma unroll
    for (int u = 0; u < UNROLL; ++u) v[u] = __ldcs(&in[i + u * stride]);
#pragma unroll
    for (int u = 0; u < UNROLL; ++u) sum += v[u].x + v[u].y + v[u].z + v[u].w;
  }
  for (; i < count; i += stride) {
    const float4 v = __ldcs(&in[i]);
    sum += v.x + v.y + v.z + v.w;
  }
  if (sum != sum) out[0] = sum;  // never true for finite inputs; keeps the loads alive
}

template <int UNROLL>
__global__ void copy_probe(const float4* __restrict__ in, long long count, float4* __restrict__ out) {
  const long long stride = static_cast<long long>(gridDim.x) * blockDim.x;
  long long i = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  for (; i + (UNROLL - 1) * stride < count; i += UNROLL * stride) {
    float4 v[UNROLL];
#pragma unroll
    for (int u = 0; u < UNROLL; ++u) v[u] = __ldcs(&in[i + u * stride]);
#pragma unroll
    for (int u = 0; u < UNROLL; ++u) __stcs(&out[i + u * stride], v[u]);
  }
  for (; i < count; i += stride) __stcs(&out[i], __ldcs(&in[i]));
}
)";

struct ProbeKernel {
  std::string expression;  // "read_probe<4>"
  bool copies;
  Library library;
  cudaKernel_t kernel;
};

ProbeKernel load_probe(const std::string& expression, bool copies, const std::string& arch) {
  const CompiledKernel compiled = compile_source(kProbeSource, "bandwidth_probe.cu", expression, arch);
  Library library(compiled.cubin.data(), "loading " + expression);
  const cudaKernel_t kernel = library.kernel(compiled.lowered_name, expression);
  return {expression, copies, std::move(library), kernel};
}

struct Options {
  std::vector<int> mib{64, 256, 1024};
  double target_ms = 100;
};

int run(const Options& options) {
  std::string why_none;
  const std::optional<DeviceInfo> device = first_device(&why_none);
  if (!device) throw BadInput("no usable CUDA device: " + why_none);
  GT_CUDA(cudaSetDevice(device->index));
  std::printf("# bandwidth_probe\n\n- date: %s\n- GPU: %s (%s, %d SMs, L2 %zu MiB)\n- commit: %s\n"
              "- median of timed runs (CUDA events) after warm-up, buffers rotated over more than 2x L2;\n"
              "  TB/s = bytes read (and written, for copies) / time, 1 TB = 1e12 bytes\n\n",
              utc_date_time().c_str(), device->name.c_str(), device->arch().c_str(), device->sm_count,
              device->l2_bytes >> 20, build_commit().c_str());

  std::vector<ProbeKernel> kernels;
  for (const char* expression : {"read_probe<1>", "read_probe<4>", "read_probe<8>"}) {
    kernels.push_back(load_probe(expression, false, device->arch()));
  }
  for (const char* expression : {"copy_probe<1>", "copy_probe<4>"}) {
    kernels.push_back(load_probe(expression, true, device->arch()));
  }
  Stream stream;
  DeviceBuffer<float> sink(1);
  TimingOptions timing;
  timing.target_ms = options.target_ms;
  TextTable table({"MiB", "operation", "blocks x threads", "ms", "TB/s"});
  for (const int mib : options.mib) {
    const std::size_t bytes = static_cast<std::size_t>(mib) << 20;
    // As OperandSets does: enough buffers that one rotation spans twice the L2 (at least 2).
    const int sets = static_cast<int>(std::max<std::size_t>(2, (2 * device->l2_bytes + bytes - 1) / bytes));
    if (static_cast<double>(sets + 1) * bytes > 0.5 * static_cast<double>(device->global_memory_bytes)) {
      throw BadInput(std::to_string(mib) + " MiB: too large for this GPU's memory");
    }
    std::vector<DeviceBuffer<float>> inputs;
    for (int s = 0; s < sets; ++s) {
      inputs.emplace_back(bytes / sizeof(float));
      GT_CUDA(cudaMemsetAsync(inputs.back().data(), 0, bytes, stream.get()), "zeroing a probe buffer");
    }
    DeviceBuffer<float> output(bytes / sizeof(float));
    const long long count = static_cast<long long>(bytes / 16);
    auto add_row = [&](const std::string& operation, const std::string& shape, const TimingStats& time,
                       double moved) {
      table.add_row({std::to_string(mib), operation, shape, fixed(time.median_ms, 4),
                     fixed(moved / (time.median_ms * 1e-3) / 1e12, 2)});
    };
    for (const ProbeKernel& probe : kernels) {
      for (const int blocks_per_sm : {4, 8, 16}) {
        const unsigned blocks = static_cast<unsigned>(blocks_per_sm * device->sm_count);
        const unsigned threads = 256;
        const std::string context = probe.expression + " on " + std::to_string(mib) + " MiB";
        const TimingStats time = time_launches(
            [&](int i) {
              const float4* in = reinterpret_cast<const float4*>(inputs[i].data());
              void* out = probe.copies ? static_cast<void*>(output.data()) : static_cast<void*>(sink.data());
              long long n = count;
              void* args[] = {&in, &n, &out};
              GT_CUDA(cudaLaunchKernel(reinterpret_cast<const void*>(probe.kernel), dim3(blocks), dim3(threads), args, 0,
                                       stream.get()),
                      context);
              GT_CUDA(cudaGetLastError(), context);
            },
            sets, stream.get(), timing);
        add_row(probe.expression, std::to_string(blocks) + " x " + std::to_string(threads), time,
                static_cast<double>(bytes) * (probe.copies ? 2 : 1));
      }
    }
    const TimingStats memcpy_time = time_launches(
        [&](int i) {
          GT_CUDA(cudaMemcpyAsync(output.data(), inputs[i].data(), bytes, cudaMemcpyDeviceToDevice, stream.get()),
                  "cudaMemcpyAsync of " + std::to_string(mib) + " MiB");
        },
        sets, stream.get(), timing);
    add_row("cudaMemcpyAsync", "-", memcpy_time, 2.0 * static_cast<double>(bytes));
  }
  table.print_markdown(std::cout);
  return kExitDone;
}

}  // namespace
}  // namespace gemmtune

int main(int argc, char** argv) {
  using namespace gemmtune;
  Options options;
  LogOptions log_options;
  CLI::App app{
      "bandwidth_probe: the memory bandwidth a kernel that only reads (or only copies) reaches on this GPU,\n"
      "timed as gemmbench times a GEMM: the ceiling for bandwidth-bound problems. Prints a table.\n" +
      exit_codes_help("flags, no GPU, a size too large for the GPU", "a probe failed to compile or run; a CUDA error")};
  prefix_parse_errors(app, "bandwidth_probe");
  app.add_option("--mib", options.mib, "Sizes to stream, in MiB (1 MiB = 2^20 bytes)")
      ->capture_default_str()
      ->check(whole_number(1, 1 << 16))
      ->delimiter(',');
  app.add_option("--target-ms", options.target_ms, "Timed work per row, in ms")
      ->capture_default_str()
      ->check(positive_number());
  add_log_options(app, log_options);
  return parse_and_run(app, argc, argv, "bandwidth_probe", log_options, [&] { return run(options); });
}
