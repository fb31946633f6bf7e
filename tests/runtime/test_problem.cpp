#include <catch2/catch.hpp>
#include <cmath>
#include <stdexcept>

#include "problem.hpp"

using namespace gemmtune;

TEST_CASE("problem: to_string gives layout:MxNxK", "[problem]") {
  CHECK(to_string(Problem{Layout::NN, 4096, 4096, 4096}) == "nn:4096x4096x4096");
  CHECK(to_string(Problem{Layout::TN, 1, 20, 300}) == "tn:1x20x300");
}

TEST_CASE("problem: parse_problem inverts to_string", "[problem]") {
  for (Layout layout : {Layout::NN, Layout::NT, Layout::TN, Layout::TT}) {
    for (const auto& [m, n, k] : {std::tuple{1, 1, 1}, {4096, 4096, 4096}, {1048576, 2047, 1}, {3, 1000, 77}}) {
      const Problem problem{layout, m, n, k};
      CHECK(parse_problem(to_string(problem)) == problem);
    }
  }
  CHECK(parse_problem("TT:8X16x32") == Problem{Layout::TT, 8, 16, 32});
}

TEST_CASE("problem: every place reads the same grammar", "[problem]") {
  const Problem square{Layout::NN, 4096, 4096, 4096};
  CHECK(parse_problem("4096x4096x4096") == square);
  CHECK(parse_problem("4096X4096X4096") == square);
  CHECK(parse_problem("nn:4096x4096x4096") == square);
  CHECK(parse_problem("NN:4096X4096x4096") == square);
  CHECK(parse_problem("4096 4096 4096") == square);
  CHECK(parse_problem("4096\t4096  4096 nn") == square);
  CHECK(parse_problem("  4096x4096x4096 TN ") == Problem{Layout::TN, 4096, 4096, 4096});
  CHECK(parse_problem("64 32 16 nt") == Problem{Layout::NT, 64, 32, 16});
  // A problem that names no layout takes the caller's default (gemmbench --layout).
  CHECK(parse_problem("64x32x16", Layout::TT) == Problem{Layout::TT, 64, 32, 16});
  CHECK(parse_problem("nt:64x32x16", Layout::TT) == Problem{Layout::NT, 64, 32, 16});
}

TEST_CASE("problem: parse_problem says what is wrong", "[problem]") {
  CHECK_THROWS_WITH(parse_problem("nq:1x1x1"), "problem 'nq:1x1x1': unknown layout 'nq' (expected nn, nt, tn or tt)");
  CHECK_THROWS_WITH(parse_problem("nn:1x-1x1"), "problem 'nn:1x-1x1': N must be a positive integer, got '-1'");
  CHECK_THROWS_WITH(parse_problem("nn:65536x65536x1"),
                    "problem 'nn:65536x65536x1': C has M*N = 4294967296 elements; the limit is 2^31 - 1 so "
                    "that element indices fit in 32-bit ints");
  CHECK_THROWS_WITH(parse_problem(""), "problem '': no problem given (a problem is 'M N K [layout] [bBATCH]', "
                                       "'MxNxK [layout] [bBATCH]' or '[layout:]MxNxK[:bBATCH]')");
  CHECK_THROWS_WITH(parse_problem("64 64"), "problem '64 64': missing K (a problem is 'M N K [layout] [bBATCH]', "
                                            "'MxNxK [layout] [bBATCH]' or '[layout:]MxNxK[:bBATCH]')");
}

TEST_CASE("problem: the wrong number of dimensions is named as such", "[problem]") {
  CHECK_THROWS_WITH(parse_problem("4096x4096x4096x4096"),
                    "problem '4096x4096x4096x4096': '4096x4096x4096x4096': too many dimensions (4; MxNxK has 3)");
  CHECK_THROWS_WITH(parse_problem("nn:1x1"), "problem 'nn:1x1': '1x1': too few dimensions (2; MxNxK has 3)");
}

TEST_CASE("problem: a size too large says so, and the limit", "[problem]") {
  CHECK_THROWS_WITH(parse_problem("99999999999999999999"),
                    "problem '99999999999999999999': M = 99999999999999999999 is above the maximum 1048576 (2^20)");
  CHECK_THROWS_WITH(parse_problem("nn:99999999999999999999x1x1"),
                    "problem 'nn:99999999999999999999x1x1': M = 99999999999999999999 is above the maximum 1048576 "
                    "(2^20)");
  CHECK_THROWS_WITH(parse_problem("1x1048577x1"), "problem '1x1048577x1': N = 1048577 is above the maximum 1048576 (2^20)");
}

TEST_CASE("problem: echoed input is cut to a readable length", "[problem]") {
  const std::string digits(10000, '9');
  CHECK_THROWS_WITH(parse_problem("1x" + digits + "x1"),
                    "problem '1x999999999999999999999999999999...' (10004 characters): N = "
                    "99999999999999999999999999999999... (10000 characters) is above the maximum 1048576 (2^20)");
  const std::string letters(5000, 'q');
  try {
    parse_problem("nn:1x1x" + letters);
    FAIL("parsed");
  } catch (const ProblemSyntaxError& error) {
    CHECK(error.reason() == "K must be a positive integer, got 'qqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqq...' (5000 characters)");
    CHECK(std::string(error.what()).size() < 200);
  }
}

TEST_CASE("problem: limits are checked on every size and matrix", "[problem]") {
  CHECK_FALSE(problem_limit_violation({Layout::NN, kMaxDimension, 2047, 1024}));
  CHECK(problem_limit_violation({Layout::NN, 0, 1, 1}) == "M = 0 is outside 1..1048576");
  CHECK(problem_limit_violation({Layout::NN, 1, kMaxDimension + 1, 1}) == "N = 1048577 is outside 1..1048576");
  CHECK(problem_limit_violation({Layout::NN, 1, 1, -5}) == "K = -5 is outside 1..1048576");
  CHECK(problem_limit_violation({Layout::NN, 46341, 1, 46341})->starts_with("A has M*K = 2147488281"));
  CHECK(problem_limit_violation({Layout::NN, 1, 46341, 46341})->starts_with("B has K*N"));
  CHECK(problem_limit_violation({Layout::NN, 46341, 46341, 1})->starts_with("C has M*N"));
}

TEST_CASE("problem: flops and minimum bytes", "[problem]") {
  const Problem square{Layout::NN, 4096, 4096, 4096};
  CHECK(square.flops() == 2.0 * 4096 * 4096 * 4096);
  CHECK(square.min_bytes() == 3 * 4.0 * 4096 * 4096);
  const Problem skinny{Layout::NT, 1048576, 1024, 2047};  // 2^52 flops-ish: no int overflow
  CHECK(skinny.flops() == 2.0 * 1048576.0 * 1024.0 * 2047.0);
  CHECK(skinny.min_bytes() == 4.0 * (1048576.0 * 2047 + 2047.0 * 1024 + 1048576.0 * 1024));
}

TEST_CASE("problem: log distance is zero for equal problems and one per doubling", "[problem]") {
  const Problem base{Layout::NN, 1024, 1024, 1024};
  CHECK(log_distance(base, base) == 0.0);
  CHECK(log_distance(base, {Layout::NN, 2048, 1024, 1024}) == Approx(1.0));
  CHECK(log_distance(base, {Layout::NN, 1024, 512, 1024}) == Approx(1.0));
  CHECK(log_distance(base, {Layout::NN, 2048, 2048, 2048}) == Approx(std::sqrt(3.0)));
  CHECK(log_distance(base, {Layout::NN, 4096, 1024, 256}) == Approx(std::sqrt(8.0)));
}

TEST_CASE("problem: log distance is symmetric, scale free and a metric", "[problem]") {
  const std::vector<Problem> problems = {{Layout::TN, 1, 1, 1},        {Layout::TN, 4096, 4096, 4096},
                                         {Layout::TN, 128, 8192, 64},  {Layout::TN, 3, 5, 7},
                                         {Layout::TN, 1000, 10, 100000}};
  for (const Problem& a : problems) {
    for (const Problem& b : problems) {
      CHECK(log_distance(a, b) == Approx(log_distance(b, a)));
      CHECK((log_distance(a, b) == 0.0) == (a == b));
      // Scaling both problems alike leaves their distance alone.
      const Problem a2{a.layout, a.M * 4, a.N * 4, a.K * 4}, b2{b.layout, b.M * 4, b.N * 4, b.K * 4};
      CHECK(log_distance(a2, b2) == Approx(log_distance(a, b)));
      for (const Problem& c : problems) CHECK(log_distance(a, c) <= log_distance(a, b) + log_distance(b, c) + 1e-12);
    }
  }
}

TEST_CASE("problem: problems of different layouts are infinitely far apart", "[problem]") {
  const double distance = log_distance({Layout::NN, 64, 64, 64}, {Layout::NT, 64, 64, 64});
  CHECK(std::isinf(distance));
  CHECK(distance > 0);
}

TEST_CASE("problem: a batch is written ':bBATCH' after the sizes, and a batch of 1 not at all", "[problem]") {
  CHECK(to_string(Problem{Layout::NN, 128, 128, 128, 64}) == "nn:128x128x128:b64");
  CHECK(to_string(Problem{Layout::TN, 1, 2, 3, 1}) == "tn:1x2x3");
  for (const int batch : {1, 2, 3, 64, kMaxBatch}) {
    const Problem problem{Layout::NT, 512, 512, 64, batch};
    CHECK(parse_problem(to_string(problem)) == problem);
  }
}

TEST_CASE("problem: every form takes an optional batch field", "[problem]") {
  const Problem batched{Layout::NN, 128, 128, 128, 64};
  CHECK(parse_problem("nn:128x128x128:b64") == batched);
  CHECK(parse_problem("128x128x128:B64") == batched);
  CHECK(parse_problem("128x128x128 b64") == batched);
  CHECK(parse_problem("128x128x128 nn b64") == batched);
  CHECK(parse_problem("128 128 128 b64") == batched);
  CHECK(parse_problem("128 128 128 nn b64") == batched);
  CHECK(parse_problem("nn:128x128x128 b64") == batched);
  CHECK(parse_problem("512 512 64 tn b32") == Problem{Layout::TN, 512, 512, 64, 32});
  CHECK(parse_problem("8x8x8 b1") == Problem{Layout::NN, 8, 8, 8});
  CHECK(parse_problem("128 128 128").batch == 1);
}

TEST_CASE("problem: a bad batch is named as the batch, with its limit", "[problem]") {
  CHECK_THROWS_WITH(parse_problem("1 1 1 b0"), "problem '1 1 1 b0': batch must be a positive integer, got '0'");
  CHECK_THROWS_WITH(parse_problem("1 1 1 nn b"), Catch::Contains("batch must be a positive integer, got ''"));
  CHECK_THROWS_WITH(parse_problem("1x1x1:b-3"), Catch::Contains("batch must be a positive integer, got '-3'"));
  CHECK_THROWS_WITH(parse_problem("1 1 1 bx"), Catch::Contains("batch must be a positive integer, got 'x'"));
  CHECK_THROWS_WITH(parse_problem("1 1 1 b65536"),
                    Catch::Contains("batch = 65536 is above the maximum 65535 (a grid dimension's limit)"));
  CHECK_THROWS_WITH(parse_problem("nn:1x1x1:b2 b3"), Catch::Contains("the batch is given twice"));
  CHECK_THROWS_WITH(parse_problem("1 1 1 b2 nn"), Catch::Contains("the batch 'b2' must be the last field"));
  CHECK_THROWS_WITH(parse_problem("1 1 1 nn b2 b3"), Catch::Contains("the batch 'b2' must be the last field"));
  CHECK(problem_limit_violation(Problem{Layout::NN, 1, 1, 1, 0}) == "batch = 0 is outside 1..65535");
  CHECK(problem_limit_violation(Problem{Layout::NN, 1, 1, 1, kMaxBatch + 1}) == "batch = 65536 is outside 1..65535");
  CHECK_FALSE(problem_limit_violation(Problem{Layout::NN, 1, 1, 1, kMaxBatch}));
}

TEST_CASE("problem: a batch multiplies flops and bytes, and is a term of the distance", "[problem]") {
  const Problem one{Layout::NN, 128, 128, 128};
  const Problem many{Layout::NN, 128, 128, 128, 64};
  CHECK(many.flops() == 64 * one.flops());
  CHECK(many.min_bytes() == 64 * one.min_bytes());
  CHECK(log_distance(one, many) == Approx(6.0));
  CHECK(log_distance(many, Problem{Layout::NN, 128, 128, 128, 32}) == Approx(1.0));
  // The same batch of another size is nearer than the same size of another batch.
  CHECK(log_distance(many, Problem{Layout::NN, 256, 128, 128, 64}) < log_distance(many, one));
}
