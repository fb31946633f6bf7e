// The families that serve batched calls (warptile, tf32x3, wgmma at SPLITK 1; tmawgmma and tmatf32
// in every schedule, aligned strided batches) against the FP64 reference on the GPU: a batch of 3
// odd-sized products, each entry its own operands, strided with poisoned gaps between the entries
// and given as pointer arrays in shuffled order; every layout, aligned and misaligned (pointer
// arrays: misaligned only, as every such call is align 1), beta != 0 and beta == 0 with C
// poisoned by NaN.
#include <catch2/catch.hpp>

#include <array>
#include <limits>
#include <string>
#include <vector>

#include "cuda_handles.hpp"
#include "family_registry.hpp"
#include "gemm_call.hpp"
#include "kernel_name.hpp"
#include "loaded_kernel.hpp"
#include "nvrtc_compiler.hpp"
#include "support/gpu_or_skip.hpp"
#include "support/host_gemm.hpp"
#include "workspace.hpp"

namespace gemmtune {
namespace {

using testing::HostProblem;

constexpr int kBatch = 3;
constexpr float kPad = -7777.0f;
const float kNaN = std::numeric_limits<float>::quiet_NaN();
constexpr long long kGap = 5;  // floats between entries: poisoned, never read, never written

long long padded_ld(long long minimum, bool aligned) { return aligned ? (minimum + 3) / 4 * 4 + 4 : minimum + 3; }
// An entry's stride: its storage, the gap, rounded to keep aligned entries aligned.
long long entry_stride(std::size_t floats, bool aligned) {
  const long long raw = static_cast<long long>(floats) + kGap;
  return aligned ? (raw + 3) / 4 * 4 : raw;
}

// The batch's entries of one operand in one buffer: entry e at slot[e] * stride (+ offset), the
// rest poisoned with `fill`.
struct BatchBuffer {
  std::vector<float> host;
  long long stride = 0;
};
BatchBuffer place(const std::vector<std::vector<float>>& entries, const std::array<int, kBatch>& slot, bool aligned,
                  float fill) {
  BatchBuffer buffer;
  buffer.stride = entry_stride(entries.front().size(), aligned);
  buffer.host.assign(static_cast<std::size_t>(buffer.stride * kBatch), fill);
  for (int e = 0; e < kBatch; ++e) {
    std::copy(entries[e].begin(), entries[e].end(), buffer.host.begin() + slot[e] * buffer.stride);
  }
  return buffer;
}

// Runs `kernel` on the batch, strided (slot e = e) or through pointer arrays with entry e in slot
// slot[e]; returns the failures of every entry ("" when all is well).
std::string run_batch(const LoadedKernel& kernel, const std::vector<HostProblem>& problems, float alpha, float beta,
                      bool aligned, bool pointer_arrays) {
  const std::array<int, kBatch> slot = pointer_arrays ? std::array<int, kBatch>{2, 0, 1} : std::array<int, kBatch>{0, 1, 2};
  const Layout layout = kernel.config().layout;
  const HostProblem& first = problems.front();
  const bool a_t = a_is_transposed(layout), b_t = b_is_transposed(layout);
  const long long lda = padded_ld(a_t ? first.M : first.K, aligned);
  const long long ldb = padded_ld(b_t ? first.K : first.N, aligned);
  const long long ldc = padded_ld(first.N, aligned);
  const int offset = aligned ? 0 : 1;
  std::vector<std::vector<float>> a, b, c;
  for (const HostProblem& p : problems) {
    a.push_back(testing::store_operand(p.a, p.M, p.K, a_t, lda, offset, kNaN));
    b.push_back(testing::store_operand(p.b, p.K, p.N, b_t, ldb, offset, kNaN));
    c.push_back(testing::store_operand(beta == 0.0f ? std::vector<float>(p.c0.size(), kNaN) : p.c0, p.M, p.N, false,
                                       ldc, offset, kPad));
  }
  const BatchBuffer a_host = place(a, slot, aligned, kNaN), b_host = place(b, slot, aligned, kNaN),
                    c_host = place(c, slot, aligned, kPad);
  DeviceBuffer<float> a_dev(a_host.host.size()), b_dev(b_host.host.size()), c_dev(c_host.host.size());
  a_dev.upload(a_host.host);
  b_dev.upload(b_host.host);
  c_dev.upload(c_host.host);

  GemmParams params{first.M, first.N, first.K, alpha, beta, a_dev.data() + offset, lda, b_dev.data() + offset, ldb,
                    c_dev.data() + offset, ldc, nullptr, 0};
  params.batch = kBatch;
  DeviceBuffer<const float*> a_array(kBatch), b_array(kBatch);
  DeviceBuffer<float*> c_array(kBatch);
  if (pointer_arrays) {
    std::vector<const float*> a_entries, b_entries;
    std::vector<float*> c_entries;
    for (int e = 0; e < kBatch; ++e) {
      a_entries.push_back(a_dev.data() + offset + slot[e] * a_host.stride);
      b_entries.push_back(b_dev.data() + offset + slot[e] * b_host.stride);
      c_entries.push_back(c_dev.data() + offset + slot[e] * c_host.stride);
    }
    a_array.upload(a_entries);
    b_array.upload(b_entries);
    c_array.upload(c_entries);
    params.A_array = a_array.data();
    params.B_array = b_array.data();
    params.C_array = c_array.data();
    params.A = params.B = nullptr;
    params.C = nullptr;
  } else {
    params.stride_a = a_host.stride;
    params.stride_b = b_host.stride;
    params.stride_c = c_host.stride;
  }
  Workspace workspace;
  workspace.attach(kernel, params, nullptr);
  kernel.launch(params, nullptr);
  GT_CUDA(cudaDeviceSynchronize(), kernel.name());
  const std::vector<float> result = c_dev.download();
  std::string failures;
  for (int e = 0; e < kBatch; ++e) {
    const std::vector<float> entry(result.begin() + slot[e] * c_host.stride,
                                   result.begin() + slot[e] * c_host.stride + static_cast<long long>(c[e].size()));
    const std::string entry_failures = testing::check_result(problems[e], alpha, beta, entry, ldc, offset, kPad,
                                                             find_family(kernel.config().family).product_error_units());
    if (!entry_failures.empty()) failures += "entry " + std::to_string(e) + ":\n" + entry_failures;
  }
  // The gaps between entries of C are never written.
  for (int s = 0; s < kBatch; ++s) {
    for (long long i = static_cast<long long>(c.front().size()); i < c_host.stride; ++i) {
      const float got = result[static_cast<std::size_t>(s * c_host.stride + i)];
      if (!(got == kPad)) {
        failures += "gap after slot " + std::to_string(s) + " overwritten\n";
        break;
      }
    }
  }
  return failures;
}

}  // namespace

// The configurations of `family` that serve batches: the grid-z families' default at both
// alignments; the TMA families' (aligned strided batches only) in each of their schedules.
std::vector<KernelConfig> batch_variants(const KernelFamily& family, Layout layout) {
  std::vector<KernelConfig> variants;
  if (family.name() == "tmawgmma" || family.name() == "tmatf32") {
    for (int schedule : {1, 2, 3}) {
      KernelConfig config = family.default_config(layout, 4);
      config.set("SCHEDULE", schedule);
      if (schedule == 2) config.set("SPLITK", 4);
      variants.push_back(config);
    }
    // 3xTF32 told of tiny values by the scan before the GEMM (WATCH 2): its flags an entry.
    if (family.name() == "tmawgmma") {
      KernelConfig scanned = family.default_config(layout, 4);
      scanned.set("WATCH", 2);
      variants.push_back(scanned);
    }
    return variants;
  }
  for (int align : {family.alignments().front(), family.alignments().back()}) {
    KernelConfig config = family.default_config(layout, align);
    config.set("SPLITK", 1);
    variants.push_back(config);
  }
  return variants;
}

TEST_CASE("batch-capable families match an FP64 reference on every entry of strided and pointer-array batches",
          "[gpu]") {
  const auto device = testing::gpu_or_skip();
  if (!device) return;
  struct Shape {
    int M, N, K;
  };
  unsigned seed = 100;
  for (const Shape& shape : {Shape{7, 13, 5}, Shape{129, 257, 65}}) {
    std::vector<HostProblem> problems;
    for (int e = 0; e < kBatch; ++e) problems.push_back(testing::make_host_problem(shape.M, shape.N, shape.K, seed++));
    for (const char* family_name : {"warptile", "tf32x3", "wgmma", "tmawgmma", "tmatf32"}) {
      const KernelFamily& family = find_family(family_name);
      if (!family.compile_arch(device->arch())) {
        WARN(family.name() << " skipped: it does not run on " << device->arch());
        continue;
      }
      for (Layout layout : {Layout::NN, Layout::NT, Layout::TN, Layout::TT}) {
        for (const KernelConfig& config : batch_variants(family, layout)) {
          const int align = config.align;
          const CompiledKernel compiled = compile_kernel(config, device->arch());
          const LoadedKernel kernel(config, compiled.cubin, compiled.lowered_name);
          for (bool pointer_arrays : {false, true}) {
            // The entries' pointers are not known on the host: pointer arrays are align-1 calls.
            if (pointer_arrays && align > 1) continue;
            for (float beta : {-1.3f, 0.0f}) {
              INFO(kernel.name() << " on " << shape.M << "x" << shape.N << "x" << shape.K << " batch " << kBatch
                                 << (pointer_arrays ? ", pointer arrays (shuffled)" : ", strided with gaps")
                                 << ", beta " << beta << (align > 1 ? ", aligned" : ", misaligned"));
              CHECK(run_batch(kernel, problems, 0.7f, beta, align > 1, pointer_arrays) == "");
            }
          }
        }
      }
    }
  }
}

}  // namespace gemmtune
