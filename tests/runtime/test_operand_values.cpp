// The random inputs every measurement uses (operand_sets.hpp): reproducible, in (-1, 1), never
// zero, evenly spread, different for another seed.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>

#include "operand_sets.hpp"

namespace gemmtune {

TEST_CASE("operand values: the same for a seed, other for another, uniform in (-1, 1) and never zero", "[operands]") {
  const std::size_t count = 1 << 20;
  const std::vector<float> a = random_operand(count, 7);
  CHECK(a == random_operand(count, 7));
  const std::vector<float> b = random_operand(count, 8);
  std::size_t equal = 0;
  double sum = 0, squares = 0;
  std::vector<int> histogram(20);
  for (std::size_t i = 0; i < count; ++i) {
    REQUIRE(a[i] > -1.0f);
    REQUIRE(a[i] < 1.0f);
    REQUIRE(a[i] != 0.0f);
    equal += a[i] == b[i];
    sum += a[i];
    squares += static_cast<double>(a[i]) * a[i];
    ++histogram[static_cast<int>((a[i] + 1.0f) * 10.0f)];
  }
  CHECK(equal < 10);
  // Uniform on (-1, 1): mean 0 and variance 1/3, each tenth of the range 1/20 of the values
  // (within 5 standard deviations of the counts).
  CHECK(std::abs(sum / count) < 5 * std::sqrt(1.0 / 3 / count));
  CHECK(squares / count == Approx(1.0 / 3).epsilon(0.01));
  for (int bin : histogram) CHECK(std::abs(bin - static_cast<double>(count) / 20) < 5 * std::sqrt(count / 20.0));
  // A prefix is the same values: a longer operand extends a shorter one.
  const std::vector<float> longer = random_operand(count + 5, 7);
  CHECK(std::equal(a.begin(), a.end(), longer.begin()));
}

}  // namespace gemmtune
