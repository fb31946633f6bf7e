// A kernel configuration: which family, which operand layout, which alignment, which parameter
// values. Its name (kernel_name) is the one key used in the database, in logs and for NVRTC.
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "gemm_params.h"

namespace gemmtune {

std::string_view layout_name(Layout layout);  // "nn", "nt", "tn", "tt"
// Parses "nn"/"nt"/"tn"/"tt" (case-insensitive); throws std::invalid_argument otherwise.
Layout parse_layout(std::string_view text);

struct KernelConfig {
  std::string family;
  Layout layout = Layout::NN;
  // Floats the call guarantees for pointers and leading dimensions (1, 2 or 4); families without
  // vector access take 1 only.
  int align = 1;
  // Parameter values in the order the family declares them, e.g. {{"BM", 128}, {"BN", 128}, ...}.
  std::vector<std::pair<std::string, int>> params;

  // The value of one parameter; throws std::out_of_range naming it when absent.
  int get(std::string_view param) const;
  void set(std::string_view param, int value);

  bool operator==(const KernelConfig&) const = default;
};

// "gemmtune_sgemm_<family>_<layout>_<param><value>..._align<n>", for instance
// "gemmtune_sgemm_reg2d_nn_bm128_bn128_bk8_tm8_tn8_align1". Pure: the same config, the same name.
std::string kernel_name(const KernelConfig& config);

// The inverse of kernel_name. Throws std::invalid_argument saying what is wrong for a name that
// is malformed, names an unknown family, or does not list exactly the family's parameters.
KernelConfig parse_kernel_name(std::string_view name);

}  // namespace gemmtune
