// sanitize_kernels: one launch of every kernel family (the default configuration at each ALIGN it
// takes, and the split-K and stream-K schedules of the families that have them) on small odd
// problems in the four layouts, each checked against an FP64 host reference. Small, so that
// tools/sanitize_kernels.sh can run it under each of compute-sanitizer's tools in a few minutes;
// one line a launch; exit 1 on any mismatch or CUDA error, 0 with "SKIPPED:" where there is no GPU.
//
//   sanitize_kernels [--cubins FILE.db] [--families a,b]
//
// Every operand is its own allocation, ending right after its last element (A and B) or its last
// row's padding (C), so that memcheck sees a read past the end. Leading dimensions are padded; for
// ALIGN 1 they are odd and the pointers one float past the allocation's start. Where beta is 0,
// C's elements are never written before the launch: initcheck reports a kernel that reads them.
#include <CLI/CLI.hpp>

#include <algorithm>
#include <cstdio>
#include <iostream>
#include <limits>
#include <map>
#include <memory>
#include <optional>

#include "binary_store.hpp"
#include "cuda_handles.hpp"
#include "device.hpp"
#include "family_registry.hpp"
#include "kernel_name.hpp"
#include "loaded_kernel.hpp"
#include "nvrtc_compiler.hpp"
#include "support/compile_in_parallel.hpp"
#include "support/host_gemm.hpp"
#include "support/tma_tile_sides.hpp"
#include "tuning_db.hpp"
#include "workspace.hpp"

namespace gemmtune {
namespace {

constexpr float kAlpha = 0.7f;
constexpr float kPad = -7777.0f;  // C's padding; must survive every launch

struct Shape {
  int M, N, K;
  float beta;
};
// Odd sizes below and above one block tile, K = 1, and a skinny M <= 4; beta 0 on two of them.
// {5, 68, 301} has N % 4 == 0, where the split-K sums read four outputs' terms at a time; the
// last holds a whole 128 x 128 block with k tiles to spare, so warptile's unchecked steady loop
// runs too.
constexpr Shape kShapes[] = {{1, 1, 1, -1.3f},    {37, 45, 29, 0.0f},   {67, 129, 131, -1.3f},
                             {3, 77, 133, 0.0f},  {5, 68, 301, -1.3f},  {130, 131, 67, -1.3f}};

// Every family that runs on `arch`: its default configuration at each ALIGN it takes, warptile, tf32x3
// and wgmma split over K, tmawgmma and tmatf32 split over K, stream-K and in clusters of two, and
// tmatf32's 256-wide tiles, two MMA warpgroups taking turns (PINGPONG 2), a narrow Y tile, split-K
// summed in a cluster (CSPLIT), tmawgmma's scan for tiny values (WATCH 2), in the four layouts; and
// tmawgmma's and tmatf32's tn from a transposed copy of A.
std::vector<KernelConfig> configs_under_test(const std::vector<std::string>& families, const std::string& arch) {
  std::vector<KernelConfig> bases;
  std::vector<KernelConfig> tn_only;  // variants of one layout, not spread over the four
  for (const KernelFamily* family : all_families()) {
    if (!families.empty() && std::find(families.begin(), families.end(), family->name()) == families.end()) continue;
    if (!family->compile_arch(arch)) {
      std::cout << family->name() << " skipped: it does not run on " << arch << std::endl;
      continue;
    }
    for (int align : family->alignments()) {
      const KernelConfig config = family->default_config(Layout::NN, align);
      bases.push_back(config);
      if (family->name() == "warptile" || family->name() == "tf32x3" || family->name() == "wgmma") {
        KernelConfig split = config;
        split.set("SPLITK", 4);
        bases.push_back(split);
        // tf32x3's watch out of the loop (WATCH 2): the scan kernel and its flags after split-K's.
        if (family->name() == "tf32x3") {
          split.set("WATCH", 2);
          bases.push_back(split);
        }
      }
      // No register cap: the epilogue keeps 8 runs of C in flight instead of 4.
      if (family->name() == "warptile") {
        KernelConfig uncapped = config;
        uncapped.set("REGS", 2);
        bases.push_back(uncapped);
      }
      // The persistent kernels' other schedules: their workspace, flags and the finisher's sums.
      if (family->name() == "tmawgmma" || family->name() == "tmatf32") {
        KernelConfig split = config, stream = config;
        split.set("SCHEDULE", 2);
        split.set("SPLITK", 4);
        stream.set("SCHEDULE", 3);
        bases.push_back(split);
        bases.push_back(stream);
        // Clusters of two blocks: multicast copies and stages released from the other block.
        KernelConfig cluster = config;
        cluster.set("CLUSTER", 2);
        bases.push_back(cluster);
        // tn from a transposed copy of A (ACOPY 2): the staging kernel's tiled transpose.
        KernelConfig copied = family->default_config(Layout::TN, align);
        copied.set("ACOPY", 2);
        tn_only.push_back(copied);
        // Two MMA warpgroups taking turns (PINGPONG 2) on tiles of 64 rows on the side read from
        // registers (BN for nn; swapped below for the other layouts), data-parallel and split-K.
        KernelConfig turns = config;
        turns.set("BN", 64);
        turns.set("PINGPONG", 2);
        bases.push_back(turns);
        turns.set("SCHEDULE", 2);
        turns.set("SPLITK", 4);
        bases.push_back(turns);
        // A narrow Y tile (32 rows read from shared memory; swapped below as PINGPONG's) split
        // over K, and split-K summed in clusters of four through distributed shared memory
        // (CSPLIT 4), its shares handed between the blocks by mbarriers.
        KernelConfig narrow = split;
        narrow.set("BM", 32);
        bases.push_back(narrow);
        KernelConfig shared_sums = split;
        shared_sums.set("SPLITK", 2);
        shared_sums.set("CSPLIT", 4);
        shared_sums.set("STAGES", 2);  // tn's stages and 64 KB of sums in 227 KB
        bases.push_back(shared_sums);
        // 3xTF32 told of tiny values by a scan before the GEMM (WATCH 2): the scan kernel, and
        // the flags after split-K's partial sums.
        if (family->name() == "tmawgmma") {
          KernelConfig scanned = config;
          scanned.set("WATCH", 2);
          bases.push_back(scanned);
          scanned.set("SCHEDULE", 2);
          scanned.set("SPLITK", 4);
          bases.push_back(scanned);
        }
      }
      // tmatf32's 256-wide tiles, alone and in clusters (256 on A's side for nn, B's otherwise).
      if (family->name() == "tmatf32") {
        for (int cluster : {1, 2}) {
          KernelConfig wide = config;
          wide.set("BM", 256);
          wide.set("STAGES", 2);
          wide.set("CLUSTER", cluster);
          bases.push_back(wide);
        }
      }
    }
  }
  std::vector<KernelConfig> configs;
  for (Layout layout : {Layout::NN, Layout::NT, Layout::TN, Layout::TT}) {
    for (KernelConfig config : bases) {
      config.layout = layout;
      configs.push_back(testing::tma_sides_in_layout(config));
    }
  }
  configs.insert(configs.end(), tn_only.begin(), tn_only.end());
  return configs;
}

// Compiles (or finds in `cubins`, when given) every configuration for `arch`; the compiles run on
// every core (support/compile_in_parallel.hpp).
std::map<std::string, CompiledKernel> compile_all(const std::vector<KernelConfig>& configs, const std::string& arch,
                                                  cache::Database* cubins) {
  std::map<std::string, CompiledKernel> compiled;
  std::vector<KernelConfig> missing;
  for (const KernelConfig& config : configs) {
    const std::string name = kernel_name(config);
    if (compiled.count(name)) continue;
    if (cubins) {
      if (std::optional<cache::Binary> binary = cubins->find_binary(binary_key(name, arch))) {
        compiled.emplace(name, from_binary(*binary));
        continue;
      }
    }
    missing.push_back(config);
  }
  const std::size_t reused = compiled.size();
  std::map<std::string, CompiledKernel> fresh = testing::compile_in_parallel(missing, arch);
  const std::size_t compiled_now = fresh.size();
  for (auto& [name, kernel] : fresh) {
    if (cubins) cubins->store_binary(to_binary(kernel));
    compiled.emplace(name, std::move(kernel));
  }
  std::cout << configs.size() << " kernels for " << arch << ": " << compiled_now << " compiled, " << reused
            << " from " << (cubins ? cubins->path() : "(no cubin database)") << std::endl;
  return compiled;
}

// A leading dimension above the minimum: with ALIGN > 1 the next multiple of 4 plus 4, else the
// minimum plus 3 (odd, so that no wide access is aligned by chance).
long long padded_ld(long long minimum, bool aligned) { return aligned ? (minimum + 3) / 4 * 4 + 4 : minimum + 3; }

// `host` on the device in an allocation of exactly its size.
DeviceBuffer<float> exact_copy(const std::vector<float>& host) {
  DeviceBuffer<float> buffer(host.size());
  buffer.upload(host);
  return buffer;
}

// One launch of `kernel` on `p`; "" when the result matches the reference, else why not.
std::string launch_and_check(const LoadedKernel& kernel, const testing::HostProblem& p, float beta, bool aligned,
                             long long* ld) {
  const Layout layout = kernel.config().layout;
  const bool a_t = a_is_transposed(layout), b_t = b_is_transposed(layout);
  const long long lda = padded_ld(a_t ? p.M : p.K, aligned);
  const long long ldb = padded_ld(b_t ? p.K : p.N, aligned);
  const long long ldc = padded_ld(p.N, aligned);
  ld[0] = lda, ld[1] = ldb, ld[2] = ldc;
  const int offset = aligned ? 0 : 1;
  const float nan = std::numeric_limits<float>::quiet_NaN();
  // A and B end right after their last element (the last stored row's padding is cut off).
  std::vector<float> a = testing::store_operand(p.a, p.M, p.K, a_t, lda, offset, nan);
  a.resize(static_cast<std::size_t>(offset + ((a_t ? p.K : p.M) - 1) * lda + (a_t ? p.M : p.K)));
  std::vector<float> b = testing::store_operand(p.b, p.K, p.N, b_t, ldb, offset, nan);
  b.resize(static_cast<std::size_t>(offset + ((b_t ? p.N : p.K) - 1) * ldb + (b_t ? p.K : p.N)));
  const std::vector<float> c = testing::store_operand(p.c0, p.M, p.N, false, ldc, offset, kPad);
  const DeviceBuffer<float> a_dev = exact_copy(a), b_dev = exact_copy(b);
  DeviceBuffer<float> c_dev(c.size());
  if (beta != 0.0f) {
    c_dev.upload(c);
  } else {  // only the leading offset and each row's padding: C itself stays unwritten
    if (offset > 0) {
      GT_CUDA(cudaMemcpy(c_dev.data(), c.data(), static_cast<std::size_t>(offset) * sizeof(float),
                         cudaMemcpyHostToDevice));
    }
    const std::size_t pitch = static_cast<std::size_t>(ldc) * sizeof(float);
    const std::size_t padding = static_cast<std::size_t>(ldc - p.N) * sizeof(float);
    GT_CUDA(cudaMemcpy2D(c_dev.data() + offset + p.N, pitch, c.data() + offset + p.N, pitch, padding,
                         static_cast<std::size_t>(p.M), cudaMemcpyHostToDevice));
  }
  GemmParams params{p.M, p.N, p.K, kAlpha, beta, a_dev.data() + offset, lda, b_dev.data() + offset, ldb,
                    c_dev.data() + offset, ldc, nullptr, 0};
  Workspace workspace;
  workspace.attach(kernel, params, nullptr);
  kernel.launch(params, nullptr);
  GT_CUDA(cudaDeviceSynchronize(), kernel.name());
  return testing::check_result(p, kAlpha, beta, c_dev.download(), ldc, offset, kPad,
                               find_family(kernel.config().family).product_error_units());
}

// Prints one launch's line, and why it failed.
void report(const KernelConfig& config, const Shape& shape, const long long* ld, const std::string& failure) {
  char line[128];
  const std::string size = std::to_string(shape.M) + "x" + std::to_string(shape.N) + "x" + std::to_string(shape.K);
  std::snprintf(line, sizeof line, "%-4s %-12s beta %4.1f  ld %lld/%lld/%lld  ", failure.empty() ? "ok" : "FAIL",
                size.c_str(), static_cast<double>(shape.beta), ld[0], ld[1], ld[2]);
  std::cout << line << kernel_name(config) << std::endl;
  if (!failure.empty()) std::cout << failure << (failure.back() == '\n' ? "" : "\n") << std::flush;
}

// Each kernel is loaded once (a sanitizer instruments every load) and launched on every shape.
int run(const std::vector<KernelConfig>& configs, const std::map<std::string, CompiledKernel>& compiled) {
  std::vector<testing::HostProblem> problems;
  unsigned seed = 1;
  for (const Shape& shape : kShapes) problems.push_back(testing::make_host_problem(shape.M, shape.N, shape.K, seed++));
  std::size_t launches = 0, failures = 0;
  for (const KernelConfig& config : configs) {
    const CompiledKernel& kernel = compiled.at(kernel_name(config));
    std::unique_ptr<LoadedKernel> loaded;
    std::string load_failure;
    try {
      loaded = std::make_unique<LoadedKernel>(config, kernel.cubin, kernel.lowered_name);
    } catch (const std::exception& error) {
      load_failure = error.what();
    }
    for (std::size_t i = 0; i < problems.size(); ++i) {
      long long ld[3] = {0, 0, 0};
      std::string failure = load_failure;
      if (loaded) {
        try {
          failure = launch_and_check(*loaded, problems[i], kShapes[i].beta, config.align > 1, ld);
        } catch (const std::exception& error) {
          failure = error.what();
        }
      }
      ++launches;
      failures += failure.empty() ? 0 : 1;
      report(config, kShapes[i], ld, failure);
    }
  }
  std::cout << launches << " launches, " << failures << " failed" << std::endl;
  return failures == 0 ? 0 : 1;
}

}  // namespace
}  // namespace gemmtune

int main(int argc, char** argv) {
  using namespace gemmtune;
  std::string cubins_path;
  std::vector<std::string> families;
  CLI::App app{"sanitize_kernels: one launch of every kernel family on small odd problems, checked against FP64;\n"
               "for compute-sanitizer (tools/sanitize_kernels.sh). Exit 0 all correct, 1 a mismatch or CUDA error.",
               "sanitize_kernels"};
  app.add_option("--cubins", cubins_path, "SQLite database (the tuner's format) to keep compiled kernels in between runs");
  app.add_option("--families", families, "Only these families, comma-separated (default: all)")->delimiter(',');
  CLI11_PARSE(app, argc, argv);
  try {
    for (const std::string& family : families) find_family(family);  // unknown: throws
    std::string why;
    const std::optional<DeviceInfo> device = first_device(&why);
    if (!device) {
      std::cout << "SKIPPED: no usable CUDA device: " << why << std::endl;
      return 0;
    }
    std::cout << "device " << device->index << ": " << device->name << " (" << device->arch() << ")" << std::endl;
    const std::vector<KernelConfig> configs = configs_under_test(families, device->arch());
    int status = 0;
    {
      std::optional<cache::Database> cubins;
      if (!cubins_path.empty()) cubins.emplace(cache::Database::open(cubins_path, cache::OpenMode::ReadWrite));
      const std::map<std::string, CompiledKernel> compiled = compile_all(configs, device->arch(), cubins ? &*cubins : nullptr);
      status = run(configs, compiled);
    }
    // Everything is freed: a reset lets memcheck's leak check see the context end.
    cudaDeviceReset();
    return status;
  } catch (const std::exception& error) {
    std::cerr << "sanitize_kernels: " << error.what() << std::endl;
    return 2;
  }
}
