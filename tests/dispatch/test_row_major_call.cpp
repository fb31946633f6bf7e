// The mapping of public calls onto the kernels' row-major problem, and the argument checks made
// in the caller's terms. CPU only.
#include <catch2/catch.hpp>

#include <random>
#include <vector>

#include "dispatch_test_support.hpp"
#include "row_major_call.hpp"

namespace gemmtune::dispatch {
namespace {

using test::fake_call;

constexpr Order kRow = Order::RowMajor;
constexpr Order kCol = Order::ColMajor;
constexpr Transpose kN = Transpose::No;
constexpr Transpose kT = Transpose::Yes;

// The user's semantics, written independently of the mapping: X(i, j) of a matrix stored in
// `order`, and C = alpha op(A) op(B) + beta C by definition.
float element(Order order, const std::vector<float>& x, std::int64_t ld, int i, int j) {
  return order == kRow ? x[static_cast<std::size_t>(i * ld + j)] : x[static_cast<std::size_t>(j * ld + i)];
}

std::vector<float> user_reference(Order order, Transpose ta, Transpose tb, int M, int N, int K, float alpha,
                                  const std::vector<float>& a, std::int64_t lda, const std::vector<float>& b,
                                  std::int64_t ldb, float beta, std::vector<float> c, std::int64_t ldc) {
  for (int i = 0; i < M; ++i) {
    for (int j = 0; j < N; ++j) {
      double sum = 0;
      for (int k = 0; k < K; ++k) {
        const float op_a = ta == kT ? element(order, a, lda, k, i) : element(order, a, lda, i, k);
        const float op_b = tb == kT ? element(order, b, ldb, j, k) : element(order, b, ldb, k, j);
        sum += static_cast<double>(op_a) * op_b;
      }
      float& out = order == kRow ? c[static_cast<std::size_t>(i * ldc + j)] : c[static_cast<std::size_t>(j * ldc + i)];
      out = static_cast<float>(alpha * sum + beta * out);
    }
  }
  return c;
}

// What a kernel computes from a row-major problem (gemm_params.h), on host memory.
void run_row_major(const RowMajorCall& call) {
  const GemmParams& p = call.params;
  for (int m = 0; m < p.M; ++m) {
    for (int n = 0; n < p.N; ++n) {
      double sum = 0;
      for (int k = 0; k < p.K; ++k) {
        const float a = a_is_transposed(call.layout) ? p.A[k * p.lda + m] : p.A[m * p.lda + k];
        const float b = b_is_transposed(call.layout) ? p.B[n * p.ldb + k] : p.B[k * p.ldb + n];
        sum += static_cast<double>(a) * b;
      }
      float& out = p.C[m * p.ldc + n];
      out = static_cast<float>(p.alpha * sum + p.beta * out);
    }
  }
}

}  // namespace

TEST_CASE("dispatch: every order and transpose maps onto the row-major problem as specified", "[dispatch]") {
  struct Expected {
    Order order;
    Transpose ta, tb;
    Layout layout;
    bool swapped;  // A <-> B, lda <-> ldb, M <-> N
  };
  // Column-major calls swap the operands, and each keeps its own letter: B's comes first.
  const Expected table[] = {
      {kRow, kN, kN, Layout::NN, false}, {kRow, kN, kT, Layout::NT, false}, {kRow, kT, kN, Layout::TN, false},
      {kRow, kT, kT, Layout::TT, false}, {kCol, kN, kN, Layout::NN, true},  {kCol, kN, kT, Layout::TN, true},
      {kCol, kT, kN, Layout::NT, true},  {kCol, kT, kT, Layout::TT, true},
  };
  for (const Expected& e : table) {
    const SgemmCall call = fake_call(e.order, e.ta, e.tb, 5, 7, 3, 11, 13, 17);
    INFO("order " << static_cast<int>(e.order) << ", trans_a " << static_cast<int>(e.ta) << ", trans_b "
                  << static_cast<int>(e.tb));
    const RowMajorCall mapped = to_row_major(call);
    CHECK(mapped.layout == e.layout);
    CHECK(mapped.params.M == (e.swapped ? 7 : 5));
    CHECK(mapped.params.N == (e.swapped ? 5 : 7));
    CHECK(mapped.params.K == 3);
    CHECK(mapped.params.A == (e.swapped ? call.B : call.A));
    CHECK(mapped.params.lda == (e.swapped ? 13 : 11));
    CHECK(mapped.params.B == (e.swapped ? call.A : call.B));
    CHECK(mapped.params.ldb == (e.swapped ? 11 : 13));
    CHECK(mapped.params.C == call.C);
    CHECK(mapped.params.ldc == 17);
    CHECK(mapped.params.workspace == nullptr);
  }
}

TEST_CASE("dispatch: the mapped row-major problem computes what the caller asked for", "[dispatch]") {
  const int M = 5, N = 4, K = 3;
  const float alpha = 0.7f, beta = -1.3f;
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> uniform(-1.0f, 1.0f);
  const auto random_matrix = [&](std::size_t count) {
    std::vector<float> values(count);
    for (float& value : values) value = uniform(rng);
    return values;
  };
  for (Order order : {kRow, kCol}) {
    for (Transpose ta : {kN, kT}) {
      for (Transpose tb : {kN, kT}) {
        // Leading dimensions above the minimum, with room for either storage.
        const std::int64_t lda = 9, ldb = 8, ldc = 7;
        const std::vector<float> a = random_matrix(lda * 9), b = random_matrix(ldb * 9);
        std::vector<float> c = random_matrix(ldc * 9);
        const std::vector<float> expected =
            user_reference(order, ta, tb, M, N, K, alpha, a, lda, b, ldb, beta, c, ldc);
        SgemmCall call = fake_call(order, ta, tb, M, N, K, lda, ldb, ldc);
        call.alpha = alpha;
        call.beta = beta;
        call.A = a.data();
        call.B = b.data();
        call.C = c.data();
        REQUIRE_FALSE(invalid_argument(call));
        run_row_major(to_row_major(call));
        INFO("order " << static_cast<int>(order) << ", trans_a " << static_cast<int>(ta) << ", trans_b "
                      << static_cast<int>(tb));
        for (std::size_t i = 0; i < c.size(); ++i) REQUIRE(c[i] == Approx(expected[i]).epsilon(1e-6));
      }
    }
  }
}

TEST_CASE("dispatch: leading dimensions are checked against the caller's storage", "[dispatch]") {
  struct Case {
    Order order;
    Transpose ta, tb;
    std::int64_t min_lda, min_ldb, min_ldc;  // for M = 5, N = 7, K = 3
  };
  const Case cases[] = {
      {kRow, kN, kN, 3, 7, 7}, {kRow, kT, kT, 5, 3, 7}, {kCol, kN, kN, 5, 3, 5}, {kCol, kT, kT, 3, 7, 5},
      {kRow, kN, kT, 3, 3, 7}, {kCol, kT, kN, 3, 3, 5},
  };
  for (const Case& c : cases) {
    INFO("order " << static_cast<int>(c.order) << ", trans_a " << static_cast<int>(c.ta) << ", trans_b "
                  << static_cast<int>(c.tb));
    CHECK_FALSE(invalid_argument(fake_call(c.order, c.ta, c.tb, 5, 7, 3, c.min_lda, c.min_ldb, c.min_ldc)));
    CHECK(invalid_argument(fake_call(c.order, c.ta, c.tb, 5, 7, 3, c.min_lda - 1, c.min_ldb, c.min_ldc)) ==
          "lda " + std::to_string(c.min_lda - 1) + " is below its minimum " + std::to_string(c.min_lda));
    CHECK(invalid_argument(fake_call(c.order, c.ta, c.tb, 5, 7, 3, c.min_lda, c.min_ldb - 1, c.min_ldc)) ==
          "ldb " + std::to_string(c.min_ldb - 1) + " is below its minimum " + std::to_string(c.min_ldb));
    CHECK(invalid_argument(fake_call(c.order, c.ta, c.tb, 5, 7, 3, c.min_lda, c.min_ldb, c.min_ldc - 1)) ==
          "ldc " + std::to_string(c.min_ldc - 1) + " is below its minimum " + std::to_string(c.min_ldc));
  }
}

TEST_CASE("dispatch: null pointers, sizes below 1 and unknown enumerators are invalid", "[dispatch]") {
  const SgemmCall valid = fake_call(kRow, kN, kN, 5, 7, 3, 3, 7, 7);
  REQUIRE_FALSE(invalid_argument(valid));
  SgemmCall call = valid;
  call.A = nullptr;
  CHECK(invalid_argument(call) == "A is null");
  call = valid;
  call.B = nullptr;
  CHECK(invalid_argument(call) == "B is null");
  call = valid;
  call.C = nullptr;
  CHECK(invalid_argument(call) == "C is null");
  for (int bad : {0, -1}) {
    for (int* size : {&call.M, &call.N, &call.K}) {
      call = valid;
      *size = bad;
      CHECK(invalid_argument(call) == "M, N and K must be at least 1");
    }
  }
  call = valid;
  call.order = static_cast<Order>(7);
  CHECK_THAT(*invalid_argument(call), Catch::Contains("order 7"));
  call = valid;
  call.trans_b = static_cast<Transpose>(-1);
  CHECK_THAT(*invalid_argument(call), Catch::Contains("trans_b -1"));
}

TEST_CASE("dispatch: a batched call's batch, strides and pointer arrays are checked in the caller's terms",
          "[dispatch]") {
  SgemmCall valid = fake_call(kRow, kN, kN, 5, 7, 3, 3, 7, 9);
  valid.batch = 4;
  valid.stride_a = 15;
  valid.stride_b = 0;   // one B for every entry
  valid.stride_c = 43;  // (M - 1) * ldc + N = 4 * 9 + 7: entries just apart
  REQUIRE_FALSE(invalid_argument(valid));
  SgemmCall call = valid;
  call.stride_c = 42;
  CHECK(invalid_argument(call) == "stride_c 42 is below 43, one entry of C: the entries would overlap");
  call.order = kCol;  // column-major C: (N - 1) * ldc + M = 6 * 9 + 5
  call.lda = 5;
  call.ldb = 3;
  call.stride_c = 58;
  CHECK(invalid_argument(call) == "stride_c 58 is below 59, one entry of C: the entries would overlap");
  call = valid;
  call.stride_a = -1;
  CHECK(invalid_argument(call) == "stride_a -1 is negative");
  for (int bad : {0, -3, 65536}) {
    call = valid;
    call.batch = bad;
    CHECK(invalid_argument(call) == "batch " + std::to_string(bad) + " is outside 1..65535");
  }
  call = valid;
  call.batch = 1;
  call.stride_c = 0;  // a batch of 1 has no second entry
  CHECK_FALSE(invalid_argument(call));

  const float* entries[4] = {};
  float* outputs[4] = {};
  SgemmCall arrays = fake_call(kRow, kN, kN, 5, 7, 3, 3, 7, 7);
  arrays.A = arrays.B = nullptr;
  arrays.C = nullptr;
  arrays.batch = 4;
  arrays.A_array = entries;
  arrays.B_array = entries;
  arrays.C_array = outputs;
  CHECK_FALSE(invalid_argument(arrays));
  arrays.C_array = nullptr;
  CHECK(invalid_argument(arrays) == "C_array is null");
}

TEST_CASE("dispatch: a column-major batch swaps A's and B's strides and arrays with the operands", "[dispatch]") {
  SgemmCall call = fake_call(kCol, kT, kN, 5, 7, 3, 3, 3, 5);
  call.batch = 3;
  call.stride_a = 100;
  call.stride_b = 200;
  call.stride_c = 300;
  const RowMajorCall row = to_row_major(call);
  CHECK(row.params.batch == 3);
  CHECK(row.params.A == call.B);
  CHECK(row.params.stride_a == 200);
  CHECK(row.params.stride_b == 100);
  CHECK(row.params.stride_c == 300);
  CHECK(describe_call(call) == "(col-major, A^T, B, M=5, N=7, K=3, batch=3)");
  call.batch = 1;  // a batch of 1: its strides are not the kernels' business
  CHECK(to_row_major(call).params.stride_c == 0);

  const float* a_entries[3] = {};
  const float* b_entries[3] = {};
  float* c_entries[3] = {};
  SgemmCall arrays = fake_call(kCol, kN, kN, 5, 7, 3, 5, 3, 5);
  arrays.batch = 3;
  arrays.A_array = a_entries;
  arrays.B_array = b_entries;
  arrays.C_array = c_entries;
  const RowMajorCall mapped = to_row_major(arrays);
  CHECK(mapped.params.A_array == b_entries);
  CHECK(mapped.params.B_array == a_entries);
  CHECK(mapped.params.C_array == c_entries);
}

TEST_CASE("dispatch: a call is described in the caller's terms", "[dispatch]") {
  CHECK(describe_call(fake_call(kCol, kT, kN, 5, 7, 3, 3, 3, 5)) == "(col-major, A^T, B, M=5, N=7, K=3)");
  CHECK(describe_call(fake_call(kRow, kN, kT, 1, 2, 3, 3, 3, 2)) == "(row-major, A, B^T, M=1, N=2, K=3)");
}

}  // namespace gemmtune::dispatch
