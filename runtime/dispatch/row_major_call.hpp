// A public sgemm call, checked in the caller's terms and mapped onto the one problem the kernels
// solve: row-major C = op(A) op(B) with a layout letter per operand. Pure functions, no CUDA.
#pragma once

#include <optional>
#include <string>

#include "gemm_params.h"
#include "gemmtune/types.hpp"

namespace gemmtune::dispatch {

struct RowMajorCall {
  Layout layout = Layout::NN;
  GemmParams params{};
};

// Why the call is invalid ("lda 3 is below its minimum 5", in the caller's terms: their order,
// their lda), or nullopt. Cheap when the call is valid: it builds a message only on failure.
std::optional<std::string> invalid_argument(const SgemmCall& call);

// The row-major problem of a (valid) call. Row-major C = op(A) op(B) is itself, with 't' for a
// transposed operand. Column-major C = op(A) op(B) is, read row-major, C^T = op(B)^T op(A)^T:
// a column-major matrix read row-major is its transpose, so the operands swap (A <-> B,
// lda <-> ldb, M <-> N) and each keeps its own transpose letter; so do a batch's strides and
// pointer arrays.
RowMajorCall to_row_major(const SgemmCall& call);

// The layout letters of a call: "nn", "nt", "tn", "tt" after the mapping above.
Layout layout_of(bool a_transposed, bool b_transposed);

// "(col-major, A^T, B, M=5, N=7, K=3)": the call as the caller wrote it, for messages.
std::string describe_call(const SgemmCall& call);

}  // namespace gemmtune::dispatch
