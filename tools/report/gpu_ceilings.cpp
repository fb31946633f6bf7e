#include "gpu_ceilings.hpp"

#include <algorithm>
#include <array>

#include "family_registry.hpp"
#include "text.hpp"

namespace gemmtune::report {
namespace {

struct KnownGpu {
  const char* name_part;
  double peak_tflops;
  const char* peak_source;
  double bandwidth_gbs;
  const char* bandwidth_source;
};

// FP32 peak: 132 SMs x 128 FP32 lanes x 2 FLOPs x 1.98 GHz boost. H200's bandwidth is a
// measured device-to-device copy (4.8 TB/s on the data sheet); H100 SXM (named "H100 80GB
// HBM3" by the driver) has a different memory: 3.35 TB/s on its data sheet, and a measured
// copy is lower still, so its roof is optimistic until someone measures one.
constexpr std::array<KnownGpu, 3> kKnownGpus = {{
    {"H200", 66.9, "H200 FP32 peak at boost clock", 4300, "H200 measured copy bandwidth"},
    {"H100 80GB HBM3", 66.9, "H100 SXM FP32 peak at boost clock", 3350,
     "H100 SXM data-sheet bandwidth (not measured)"},
    {"H100 SXM", 66.9, "H100 SXM FP32 peak at boost clock", 3350,
     "H100 SXM data-sheet bandwidth (not measured)"},
}};

}  // namespace

double arithmetic_intensity(const cache::Problem& problem) {
  const double m = static_cast<double>(problem.m);
  const double n = static_cast<double>(problem.n);
  const double k = static_cast<double>(problem.k);
  // The batch multiplies flops and bytes alike.
  return 2 * m * n * k / (4 * (m * k + k * n + m * n));
}

std::vector<ClassPeak> class_peaks(double ffma_tflops) {
  std::vector<ClassPeak> peaks = {{Precision::Fp32, "3xTF32"}, {Precision::Tf32, "TF32"}};
  for (ClassPeak& peak : peaks) {
    for (const KernelFamily* family : all_families()) {
      if (family->precision() != peak.precision) continue;
      peak.factor = std::max(peak.factor, family->cost_traits(family->default_config(Layout::NN, family->alignments().front())).peak_factor);
    }
    peak.tflops = ffma_tflops * peak.factor;
  }
  return peaks;
}

std::optional<Ceilings> table_ceilings(std::string_view gpu_name) {
  const std::string name = lower(gpu_name);
  for (const KnownGpu& gpu : kKnownGpus) {
    if (name.find(lower(gpu.name_part)) != std::string::npos) {
      return Ceilings{{gpu.peak_tflops, gpu.peak_source},
                      {gpu.bandwidth_gbs, gpu.bandwidth_source},
                      class_peaks(gpu.peak_tflops)};
    }
  }
  return std::nullopt;
}

std::optional<Ceilings> observed_ceilings(const std::vector<cache::ProblemSummary>& problems) {
  double peak_tflops = 0;
  double bandwidth_gbs = 0;
  for (const cache::ProblemSummary& summary : problems) {
    if (!summary.winner) continue;
    const double intensity = arithmetic_intensity(summary.problem);
    for (const auto tflops :
         {std::optional(summary.winner->tflops), summary.winner->cublas_tflops}) {
      if (!tflops || !(*tflops > 0)) continue;
      peak_tflops = std::max(peak_tflops, *tflops);
      bandwidth_gbs = std::max(bandwidth_gbs, *tflops * 1000 / intensity);
    }
  }
  if (peak_tflops == 0) return std::nullopt;
  const std::string hint = " (a lower bound, not the GPU's limit: pass ";
  return Ceilings{
      {peak_tflops, "highest TFLOPS measured" + hint + "--peak-tflops)"},
      {bandwidth_gbs, "highest bandwidth the measurements imply" + hint + "--bandwidth-gbs)"},
      {}};
}

std::optional<Ceilings> choose_ceilings(std::string_view gpu_name,
                                        const std::vector<cache::ProblemSummary>& problems,
                                        const CeilingOverrides& overrides) {
  std::optional<Ceilings> known = table_ceilings(gpu_name);
  if (!known) known = observed_ceilings(problems);
  if (overrides.peak_tflops && overrides.bandwidth_gbs) known.emplace();
  if (!known) return std::nullopt;
  if (overrides.peak_tflops) {
    known->peak_tflops = {*overrides.peak_tflops, "given with --peak-tflops"};
    known->class_peaks = class_peaks(*overrides.peak_tflops);
  }
  if (overrides.bandwidth_gbs) {
    known->bandwidth_gbs = {*overrides.bandwidth_gbs, "given with --bandwidth-gbs"};
  }
  return known;
}

}  // namespace gemmtune::report
