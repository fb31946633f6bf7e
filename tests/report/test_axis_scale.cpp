#include <catch2/catch.hpp>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <utility>
#include <vector>

#include "axis_scale.hpp"

using namespace gemmtune::report;

TEST_CASE("nice_step picks 1, 2 or 5 times a power of ten nearest the raw step", "[report]") {
  CHECK(nice_step(10, 10) == Approx(1));
  CHECK(nice_step(47.3, 6) == Approx(10));  // raw 7.9
  CHECK(nice_step(0.9, 6) == Approx(0.2));  // raw 0.15
  CHECK(nice_step(3e6, 6) == Approx(5e5));  // raw 5e5
  CHECK_THROWS_AS(nice_step(0, 6), std::invalid_argument);
}

TEST_CASE("nice_linear_domain widens to whole steps", "[report]") {
  CHECK(nice_linear_domain(0, 47.3, 6) == Interval{0, 50});
  const Interval speedups = nice_linear_domain(0.83, 1.53, 6);
  CHECK(speedups.lo == Approx(0.8));
  CHECK(speedups.hi == Approx(1.6));
}

TEST_CASE("nice_linear_domain widens an empty interval instead of dividing by zero", "[report]") {
  CHECK(nice_linear_domain(0, 0, 6) == Interval{0, 1});
  const Interval around_three = nice_linear_domain(3, 3, 6);
  CHECK(around_three.lo <= 1.5);
  CHECK(around_three.hi >= 4.5);
  CHECK_THROWS_AS(nice_linear_domain(0, std::numeric_limits<double>::infinity(), 6),
                  std::invalid_argument);
  CHECK_THROWS_AS(nice_linear_domain(std::nan(""), 1, 6), std::invalid_argument);
}

TEST_CASE("nice_linear_domain ends on ticks, even when widening changes the step", "[report]") {
  // [0.77, 1.51] widens to [0.7, 1.6] with step 0.1, but linear_ticks takes 0.2 for that.
  for (const auto& [lo, hi] : {std::pair{0.77, 1.51}, std::pair{0.0, 47.3}, std::pair{2.9, 10.7},
                               std::pair{-3.0, 0.2}, std::pair{1e-6, 3e-6}}) {
    const Interval domain = nice_linear_domain(lo, hi, 6);
    const std::vector<double> ticks = linear_ticks(domain, 6);
    INFO(lo << ".." << hi << " -> " << domain.lo << ".." << domain.hi);
    CHECK(domain.lo <= lo);
    CHECK(domain.hi >= hi);
    REQUIRE(ticks.size() >= 2);
    CHECK(ticks.front() == domain.lo);
    CHECK(ticks.back() == domain.hi);
  }
}

TEST_CASE("linear_ticks are the step's multiples inside the domain, printed exactly", "[report]") {
  CHECK(linear_ticks({0, 50}, 6) == std::vector<double>{0, 10, 20, 30, 40, 50});
  // 0.1 * 3 is 0.30000000000000004 in doubles; the ticks must compare equal to 0.3.
  CHECK(linear_ticks({0, 0.6}, 6) == std::vector<double>{0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6});
}

TEST_CASE("decade_domain widens to whole decades, keeping exact powers of ten", "[report]") {
  CHECK(decade_domain(3, 40) == Interval{1, 100});
  CHECK(decade_domain(10, 1000) == Interval{10, 1000});
  CHECK(decade_domain(5, 5) == Interval{1, 10});
  const Interval tiny = decade_domain(3e-9, 2e-7);
  CHECK(tiny.lo == Approx(1e-9));
  CHECK(tiny.hi == Approx(1e-6));
  const Interval huge = decade_domain(7e11, 3e14);
  CHECK(huge.lo == Approx(1e11));
  CHECK(huge.hi == Approx(1e15));
}

TEST_CASE("decade_domain refuses what a log axis cannot show", "[report]") {
  CHECK_THROWS_AS(decade_domain(0, 10), std::invalid_argument);
  CHECK_THROWS_AS(decade_domain(-1, 10), std::invalid_argument);
  CHECK_THROWS_AS(decade_domain(1, std::numeric_limits<double>::infinity()), std::invalid_argument);
}

TEST_CASE("log_ticks: 1-2-5 over two decades, every decade up to eight, then every few",
          "[report]") {
  CHECK(log_ticks({1, 100}) == std::vector<double>{1, 2, 5, 10, 20, 50, 100});
  const std::vector<double> five_decades = log_ticks({1e-2, 1e3});
  REQUIRE(five_decades.size() == 6);
  CHECK(five_decades.front() == Approx(1e-2));
  CHECK(five_decades.back() == Approx(1e3));
  const std::vector<double> twenty_decades = log_ticks({1e-10, 1e10});
  CHECK(twenty_decades.size() <= 9);
  CHECK(twenty_decades.front() == Approx(1e-10));
  CHECK(twenty_decades[1] == Approx(1e-7));  // every third decade
}

TEST_CASE("AxisScale maps linear and log domains onto pixels, y growing downward", "[report]") {
  const AxisScale linear = AxisScale::linear(0, 47.3, 500, 100);  // a y axis
  CHECK(linear.domain() == Interval{0, 50});
  CHECK(linear.to_pixel(0) == Approx(500));
  CHECK(linear.to_pixel(25) == Approx(300));
  CHECK(linear.to_pixel(50) == Approx(100));

  const AxisScale log = AxisScale::log(2, 900, 0, 300);
  CHECK(log.kind() == ScaleKind::Log);
  CHECK(log.domain() == Interval{1, 1000});
  CHECK(log.to_pixel(1) == Approx(0));
  CHECK(log.to_pixel(10) == Approx(100));
  CHECK(log.to_pixel(std::sqrt(10.0) * 100) == Approx(250));
  CHECK(log.ticks() == std::vector<double>{1, 10, 100, 1000});
  CHECK_THROWS_AS(log.to_pixel(0), std::invalid_argument);
}

TEST_CASE("AxisScale::set_ticks keeps only ticks inside the domain", "[report]") {
  AxisScale scale = AxisScale::log(1024, 65536, 0, 600);
  scale.set_ticks({512, 1024, 4096, 16384, 65536, 1e6});
  CHECK(scale.ticks() == std::vector<double>{1024, 4096, 16384, 65536});
}

TEST_CASE("AxisScale::exact keeps its domain and labels only the given ticks", "[report]") {
  const AxisScale scale =
      AxisScale::exact(ScaleKind::Log, {2000, 100000}, 0, 100, {1024, 4096, 65536});
  CHECK(scale.domain() == Interval{2000, 100000});
  CHECK(scale.ticks() == std::vector<double>{4096, 65536});
  CHECK(scale.to_pixel(2000) == Approx(0));
  CHECK_THROWS_AS(AxisScale::exact(ScaleKind::Log, {0, 10}, 0, 100, {}), std::invalid_argument);
  CHECK_THROWS_AS(AxisScale::exact(ScaleKind::Linear, {3, 3}, 0, 100, {}), std::invalid_argument);
}
