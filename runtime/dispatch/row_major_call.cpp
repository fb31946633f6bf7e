#include "row_major_call.hpp"

#include "precision.hpp"
#include "problem.hpp"

namespace gemmtune::dispatch {
namespace {

bool is_transposed(Transpose transpose) { return transpose == Transpose::Yes; }

// The stored matrix of a `rows` x `cols` operand in `order`, used as stored or transposed, has
// rows of this many elements: the least leading dimension.
std::int64_t min_leading_dimension(Order order, bool transposed, int rows, int cols) {
  const bool stored_as_rows = (order == Order::RowMajor) != transposed;
  return stored_as_rows ? cols : rows;
}

}  // namespace

std::string describe_call(const SgemmCall& call) {
  const auto operand = [](const char* name, Transpose transpose) {
    return std::string(name) + (is_transposed(transpose) ? "^T" : "");
  };
  const char* order = call.order == Order::RowMajor   ? "row-major"
                      : call.order == Order::ColMajor ? "col-major"
                                                      : "bad order";
  return std::string("(") + order + ", " +
         operand("A", call.trans_a) + ", " + operand("B", call.trans_b) + ", M=" + std::to_string(call.M) +
         ", N=" + std::to_string(call.N) + ", K=" + std::to_string(call.K) +
         (call.batch == 1 ? std::string() : ", batch=" + std::to_string(call.batch)) + ")";
}

std::optional<std::string> invalid_argument(const SgemmCall& call) {
  const auto known = [](auto value, auto first, auto second) { return value == first || value == second; };
  if (!known(call.order, Order::RowMajor, Order::ColMajor)) {
    return "order " + std::to_string(static_cast<int>(call.order)) + " is neither RowMajor nor ColMajor";
  }
  if (!known(call.trans_a, Transpose::No, Transpose::Yes) || !known(call.trans_b, Transpose::No, Transpose::Yes)) {
    return "trans_a " + std::to_string(static_cast<int>(call.trans_a)) + " or trans_b " +
           std::to_string(static_cast<int>(call.trans_b)) + " is neither No nor Yes";
  }
  if (call.precision && !is_precision(*call.precision)) {
    return "precision " + std::to_string(static_cast<int>(*call.precision)) + " is none of Strict, Fp32, Tf32";
  }
  if (call.M < 1 || call.N < 1 || call.K < 1) return "M, N and K must be at least 1";
  if (call.batch < 1 || call.batch > kMaxBatch) {
    return "batch " + std::to_string(call.batch) + " is outside 1.." + std::to_string(kMaxBatch);
  }
  const bool arrays = call.A_array != nullptr || call.B_array != nullptr || call.C_array != nullptr;
  if (arrays) {
    if (call.A_array == nullptr) return "A_array is null";
    if (call.B_array == nullptr) return "B_array is null";
    if (call.C_array == nullptr) return "C_array is null";
  } else {
    if (call.A == nullptr) return "A is null";
    if (call.B == nullptr) return "B is null";
    if (call.C == nullptr) return "C is null";
  }
  const std::int64_t min_lda = min_leading_dimension(call.order, is_transposed(call.trans_a), call.M, call.K);
  const std::int64_t min_ldb = min_leading_dimension(call.order, is_transposed(call.trans_b), call.K, call.N);
  const std::int64_t min_ldc = min_leading_dimension(call.order, false, call.M, call.N);
  const auto below = [&](const char* name, std::int64_t ld, std::int64_t minimum) {
    return std::string(name) + " " + std::to_string(ld) + " is below its minimum " +
           std::to_string(minimum);
  };
  if (call.lda < min_lda) return below("lda", call.lda, min_lda);
  if (call.ldb < min_ldb) return below("ldb", call.ldb, min_ldb);
  if (call.ldc < min_ldc) return below("ldc", call.ldc, min_ldc);
  if (!arrays && call.batch > 1) {
    if (call.stride_a < 0) return "stride_a " + std::to_string(call.stride_a) + " is negative";
    if (call.stride_b < 0) return "stride_b " + std::to_string(call.stride_b) + " is negative";
    // One entry of C: its last stored row (or column) starts (count - 1) * ldc elements in.
    const bool rows = call.order == Order::RowMajor;
    const std::int64_t c_span = (static_cast<std::int64_t>(rows ? call.M : call.N) - 1) * call.ldc + (rows ? call.N : call.M);
    if (call.stride_c < c_span) {
      return "stride_c " + std::to_string(call.stride_c) + " is below " + std::to_string(c_span) +
             ", one entry of C: the entries would overlap";
    }
  }
  return std::nullopt;
}

Layout layout_of(bool a_transposed, bool b_transposed) {
  if (a_transposed) return b_transposed ? Layout::TT : Layout::TN;
  return b_transposed ? Layout::NT : Layout::NN;
}

RowMajorCall to_row_major(const SgemmCall& call) {
  const bool a_t = is_transposed(call.trans_a);
  const bool b_t = is_transposed(call.trans_b);
  const bool batched = call.batch > 1;  // a batch of 1 ignores its strides, as cuBLAS does
  if (call.order == Order::RowMajor) {
    return {layout_of(a_t, b_t),
            {call.M, call.N, call.K, call.alpha, call.beta, call.A, call.lda, call.B, call.ldb, call.C, call.ldc,
             nullptr, 0, call.batch, batched ? call.stride_a : 0, batched ? call.stride_b : 0,
             batched ? call.stride_c : 0, call.A_array, call.B_array, call.C_array}};
  }
  return {layout_of(b_t, a_t),
          {call.N, call.M, call.K, call.alpha, call.beta, call.B, call.ldb, call.A, call.lda, call.C, call.ldc,
           nullptr, 0, call.batch, batched ? call.stride_b : 0, batched ? call.stride_a : 0,
           batched ? call.stride_c : 0, call.B_array, call.A_array, call.C_array}};
}

}  // namespace gemmtune::dispatch
