#include "axis_scale.hpp"

#include <cmath>
#include <stdexcept>
#include <string>
#include <utility>

namespace gemmtune::report {
namespace {

void require_finite(double lo, double hi, const char* what) {
  if (!std::isfinite(lo) || !std::isfinite(hi)) {
    throw std::invalid_argument(std::string(what) + ": the data interval [" + std::to_string(lo) +
                                ", " + std::to_string(hi) + "] is not finite");
  }
}

// Tick values computed as multiples of a step carry rounding noise (0.30000000000000004);
// rounding to the step's own precision makes them print and compare as written.
double round_to_step(double value, double step) {
  const double exponent = std::floor(std::log10(step)) - 3;
  if (exponent >= 0) {
    const double unit = std::pow(10.0, exponent);
    return std::round(value / unit) * unit;
  }
  // Dividing by an exact power of ten, not multiplying by an inexact 1e-4, rounds correctly.
  const double scale = std::pow(10.0, -exponent);
  return std::round(value * scale) / scale;
}

}  // namespace

double nice_step(double range, int target_count) {
  if (!(range > 0) || !std::isfinite(range) || target_count < 1) {
    throw std::invalid_argument("nice_step: needs a positive finite range and target count, got " +
                                std::to_string(range) + " and " + std::to_string(target_count));
  }
  const double raw = range / target_count;
  const double decade = std::pow(10.0, std::floor(std::log10(raw)));
  // The thresholds are the geometric means of neighbouring candidates: the nearest one wins.
  const double ratio = raw / decade;
  if (ratio < std::sqrt(2.0)) return decade;
  if (ratio < std::sqrt(10.0)) return 2 * decade;
  if (ratio < std::sqrt(50.0)) return 5 * decade;
  return 10 * decade;
}

Interval nice_linear_domain(double lo, double hi, int target_count) {
  require_finite(lo, hi, "nice_linear_domain");
  if (lo > hi) std::swap(lo, hi);
  if (lo == hi) {
    const double half = std::fabs(lo) / 2;
    lo = half == 0 ? 0 : lo - half;
    hi = half == 0 ? 1 : hi + half;
  }
  // Widening can make the domain long enough for linear_ticks to pick a larger step; widen
  // again to that step until the ends are ticks (the step only grows, so this ends quickly).
  Interval domain{lo, hi};
  for (double step = nice_step(hi - lo, target_count);;) {
    domain = {round_to_step(std::floor(lo / step) * step, step),
              round_to_step(std::ceil(hi / step) * step, step)};
    const double next = nice_step(domain.hi - domain.lo, target_count);
    if (next <= step * (1 + 1e-9)) return domain;
    step = next;
  }
}

std::vector<double> linear_ticks(Interval domain, int target_count) {
  const double step = nice_step(domain.hi - domain.lo, target_count);
  std::vector<double> ticks;
  const double first = std::ceil(domain.lo / step - 1e-9);
  for (double i = first;; ++i) {
    const double tick = round_to_step(i * step, step);
    if (tick > domain.hi + step * 1e-9) break;
    ticks.push_back(tick);
  }
  return ticks;
}

Interval decade_domain(double lo, double hi) {
  require_finite(lo, hi, "decade_domain");
  if (!(lo > 0) || lo > hi) {
    throw std::invalid_argument("decade_domain: a log axis needs 0 < lo <= hi, got [" +
                                std::to_string(lo) + ", " + std::to_string(hi) + "]");
  }
  // The small tolerance keeps an exact power of ten (1000) from being widened a decade.
  double low_exponent = std::floor(std::log10(lo) + 1e-9);
  double high_exponent = std::ceil(std::log10(hi) - 1e-9);
  if (high_exponent <= low_exponent) high_exponent = low_exponent + 1;
  return {std::pow(10.0, low_exponent), std::pow(10.0, high_exponent)};
}

std::vector<double> log_ticks(Interval domain) {
  const int low = static_cast<int>(std::lround(std::floor(std::log10(domain.lo) + 1e-9)));
  const int high = static_cast<int>(std::lround(std::ceil(std::log10(domain.hi) - 1e-9)));
  const int decades = high - low;
  std::vector<double> ticks;
  if (decades <= 2) {
    for (int exponent = low; exponent <= high; ++exponent) {
      for (const double multiple : {1.0, 2.0, 5.0}) {
        const double tick = multiple * std::pow(10.0, exponent);
        if (tick >= domain.lo * (1 - 1e-9) && tick <= domain.hi * (1 + 1e-9)) ticks.push_back(tick);
      }
    }
    return ticks;
  }
  const int stride = (decades + 7) / 8;
  for (int exponent = low; exponent <= high; exponent += stride) {
    ticks.push_back(std::pow(10.0, exponent));
  }
  return ticks;
}

AxisScale::AxisScale(ScaleKind kind, Interval domain, double pixel_lo, double pixel_hi,
                     std::vector<double> ticks)
    : kind_(kind),
      domain_(domain),
      pixel_lo_(pixel_lo),
      pixel_hi_(pixel_hi),
      ticks_(std::move(ticks)) {}

AxisScale AxisScale::linear(double data_lo, double data_hi, double pixel_lo, double pixel_hi,
                            int target_ticks) {
  const Interval domain = nice_linear_domain(data_lo, data_hi, target_ticks);
  return AxisScale(ScaleKind::Linear, domain, pixel_lo, pixel_hi,
                   linear_ticks(domain, target_ticks));
}

AxisScale AxisScale::log(double data_lo, double data_hi, double pixel_lo, double pixel_hi) {
  const Interval domain = decade_domain(data_lo, data_hi);
  return AxisScale(ScaleKind::Log, domain, pixel_lo, pixel_hi, log_ticks(domain));
}

AxisScale AxisScale::exact(ScaleKind kind, Interval domain, double pixel_lo, double pixel_hi,
                           std::vector<double> ticks) {
  require_finite(domain.lo, domain.hi, "AxisScale::exact");
  if (!(domain.lo < domain.hi) || (kind == ScaleKind::Log && !(domain.lo > 0))) {
    throw std::invalid_argument("AxisScale::exact: unusable domain [" + std::to_string(domain.lo) +
                                ", " + std::to_string(domain.hi) + "]");
  }
  AxisScale scale(kind, domain, pixel_lo, pixel_hi, {});
  scale.set_ticks(std::move(ticks));
  return scale;
}

double AxisScale::to_pixel(double value) const {
  double fraction = 0;
  if (kind_ == ScaleKind::Log) {
    if (!(value > 0) || !std::isfinite(value)) {
      throw std::invalid_argument("a log axis cannot place " + std::to_string(value));
    }
    fraction = std::log(value / domain_.lo) / std::log(domain_.hi / domain_.lo);
  } else {
    fraction = (value - domain_.lo) / (domain_.hi - domain_.lo);
  }
  return pixel_lo_ + fraction * (pixel_hi_ - pixel_lo_);
}

void AxisScale::set_ticks(std::vector<double> ticks) {
  ticks_.clear();
  for (const double tick : ticks) {
    if (contains(tick)) ticks_.push_back(tick);
  }
}

}  // namespace gemmtune::report
