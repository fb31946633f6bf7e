#include <catch2/catch.hpp>
#include <cmath>
#include <stdexcept>

#include "problem.hpp"

using gemmtune::Layout;
using namespace gemmtune::tuner;

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

TEST_CASE("problem: parse_problem says what is wrong", "[problem]") {
  CHECK_THROWS_WITH(parse_problem("4096x4096x4096"),
                    "problem '4096x4096x4096': expected 'layout:MxNxK', e.g. 'nn:4096x4096x4096'");
  CHECK_THROWS_WITH(parse_problem("nq:1x1x1"), "problem 'nq:1x1x1': unknown layout 'nq' (expected nn, nt, tn or tt)");
  CHECK_THROWS_WITH(parse_problem("nn:1x1"), "problem 'nn:1x1': '1x1' has 2 sizes, MxNxK needs 3");
  CHECK_THROWS_WITH(parse_problem("nn:1x-1x1"), "problem 'nn:1x-1x1': N must be a positive integer, got '-1'");
  CHECK_THROWS_WITH(parse_problem("nn:65536x65536x1"),
                    "problem 'nn:65536x65536x1': C has M*N = 4294967296 elements; the limit is 2^31 - 1 so "
                    "that element indices fit in 32-bit ints");
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
