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
