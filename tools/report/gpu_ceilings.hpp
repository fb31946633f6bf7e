// The two ceilings of a roofline (compute peak, memory bandwidth) for a GPU, and where an
// SGEMM problem sits under them (its arithmetic intensity).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "cache_records.hpp"
#include "precision.hpp"

namespace gemmtune::report {

// FLOPs per byte of an SGEMM that reads A and B and writes C once:
// 2*M*N*K / (4 * (M*K + K*N + M*N)). The least traffic any kernel can have.
double arithmetic_intensity(const cache::Problem& problem);

struct Ceiling {
  double value = 0;
  std::string source;  // shown under the chart: where the number comes from
};

// The compute ceiling of the kernels of one precision class above FFMA's.
struct ClassPeak {
  Precision precision;  // Fp32 or Tf32
  std::string name;     // "3xTF32", "TF32"
  double tflops = 0;
  double factor = 1;    // tflops / the FFMA peak
};

struct Ceilings {
  Ceiling peak_tflops;    // FP32 by FFMA, without tensor cores: the strict class's ceiling
  Ceiling bandwidth_gbs;  // DRAM, GB/s (1e9 bytes per second)
  // The tensor-core classes' ceilings, derived from peak_tflops (class_peaks); empty where the
  // FFMA peak is only observed (a lower bound: scaling it would mean nothing).
  std::vector<ClassPeak> class_peaks;
};

// The fp32 and tf32 classes' ceilings on a GPU whose FFMA peak is `ffma_tflops`: it times the
// highest peak_factor among the class's families (KernelFamily::cost_traits, what the cost model
// assumes of them: 2.4 for 3xTF32 on the warpgroup MMA, 7.4 for single-pass TF32), so on the
// H200 (66.9) about 161 and 495 TFLOPS.
std::vector<ClassPeak> class_peaks(double ffma_tflops);

// The built-in table, matched by case-insensitive substring of the device name
// ("NVIDIA H200", "NVIDIA H100 80GB HBM3"); nullopt for a GPU it does not know.
std::optional<Ceilings> table_ceilings(std::string_view gpu_name);

// The fallback for an unknown GPU: the highest TFLOPS measured (ours or cuBLAS's) and the
// highest bandwidth those measurements imply (TFLOPS / intensity). Lower bounds of the real
// ceilings, labelled so; nullopt when nothing was measured.
std::optional<Ceilings> observed_ceilings(const std::vector<cache::ProblemSummary>& problems);

struct CeilingOverrides {
  std::optional<double> peak_tflops;    // --peak-tflops
  std::optional<double> bandwidth_gbs;  // --bandwidth-gbs
};

// Each ceiling from, in order: its override, the table, the observed fallback. nullopt when
// one of them has no source at all (an unknown GPU with no winners and no overrides).
std::optional<Ceilings> choose_ceilings(std::string_view gpu_name,
                                        const std::vector<cache::ProblemSummary>& problems,
                                        const CeilingOverrides& overrides);

}  // namespace gemmtune::report
