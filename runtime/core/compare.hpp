// Comparison of a GEMM result with a reference (cuBLAS on the GPU, FP64 on the CPU). Pure host
// code, so it is tested without a GPU.
#pragma once

#include <string>
#include <vector>

namespace gemmtune {

struct Comparison {
  double relative_error = 0;   // ||C - ref||_F / ||ref||_F over the M x N outputs
  double max_abs_error = 0;
  long long non_finite = 0;    // outputs that are NaN or Inf where the reference is finite
  bool passed = false;
  std::string summary;         // "rel 3.1e-07, max abs 2.0e-05" or what failed
};

// What a comparison of one result is made of, summed over its outputs: an output that is NaN or
// Inf where the reference is finite counts in non_finite (unless the reference is beyond FLT_MAX
// and the output an infinity of its sign: overflow is right) and in no sum. The host's and the
// device's comparisons (tuner/device_check.hpp) both sum these and judge them with judge().
struct ComparisonSums {
  double diff_squares = 0;
  double ref_squares = 0;
  double max_abs_error = 0;
  long long non_finite = 0;
};

// Passed when no output is wrongly non-finite and ||C - ref||_F / ||ref||_F <= tolerance (a NaN
// in a sum fails it).
Comparison judge(const ComparisonSums& sums, double tolerance);

// Of `batch` entries compared one by one (`compare_entry(i)`), the first that fails, else the one
// furthest from its reference; each summary names its entry ("entry 3: rel ...") when batch > 1.
template <class CompareEntry>
Comparison worst_entry(int batch, CompareEntry&& compare_entry) {
  Comparison worst;
  for (int entry = 0; entry < batch; ++entry) {
    Comparison result = compare_entry(entry);
    if (batch > 1) result.summary = "entry " + std::to_string(entry) + ": " + result.summary;
    if (entry == 0 || !result.passed || result.relative_error > worst.relative_error) worst = std::move(result);
    if (!worst.passed) break;
  }
  return worst;
}

// Compares the M x N outputs of `got` and `ref`, both row-major with leading dimension ldc.
// Elements outside the M x N window (padding) are not compared. The reference is FP32 (cuBLAS)
// or FP64 (fp64_reference.hpp, a CPU GEMM). A batch of `batch` results, entry i at i * `stride`
// floats, is compared entry by entry: the result is the first entry that fails, else the one
// furthest from its reference, its summary naming it ("entry 3: rel ...").
Comparison compare_outputs(const std::vector<float>& got, const std::vector<float>& ref, int M,
                           int N, long long ldc, double tolerance, int batch = 1, long long stride = 0);
Comparison compare_outputs(const std::vector<float>& got, const std::vector<double>& ref, int M,
                           int N, long long ldc, double tolerance, int batch = 1, long long stride = 0);

}  // namespace gemmtune
