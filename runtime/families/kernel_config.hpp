// A kernel configuration: which family, which operand layout, which alignment, which parameter
// values. Its name (kernel_name.hpp) is the one key used in the database, in logs and for NVRTC.
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "gemm_params.h"
#include "problem.hpp"

namespace gemmtune {

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

}  // namespace gemmtune
