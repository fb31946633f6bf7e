// Axis scales of the report's charts: a data interval mapped onto a pixel interval, linear or
// logarithmic, widened to round values, with the tick values to label.
#pragma once

#include <vector>

namespace gemmtune::report {

struct Interval {
  double lo = 0;
  double hi = 1;
  bool operator==(const Interval&) const = default;
};

// The 1, 2 or 5 times a power of ten nearest to range / target_count, so that about
// target_count steps cover the range. range > 0 and target_count >= 1.
double nice_step(double range, int target_count);
// [lo, hi] widened to multiples of the step linear_ticks picks for the result, so that both
// ends are ticks; an empty interval (lo == hi) is widened first (to [0, 1] at zero, else by
// half its value on each side). Throws std::invalid_argument for non-finite ends.
Interval nice_linear_domain(double lo, double hi, int target_count);
// The multiples of nice_step(hi - lo, target_count) inside [lo, hi].
std::vector<double> linear_ticks(Interval domain, int target_count);

// [lo, hi] widened to whole decades, at least one: [3, 40] -> [1, 100], [5, 5] -> [1, 10].
// Throws std::invalid_argument unless 0 < lo <= hi and both are finite.
Interval decade_domain(double lo, double hi);
// Ticks of a log axis over a decade domain: 1-2-5 in each decade when it spans at most two,
// every decade up to eight, and every second, third... decade beyond, so the labels stay apart.
std::vector<double> log_ticks(Interval domain);

enum class ScaleKind { Linear, Log };

class AxisScale {
 public:
  // pixel_lo is where the domain's low end is drawn; for a y axis it is the larger pixel value.
  static AxisScale linear(double data_lo, double data_hi, double pixel_lo, double pixel_hi,
                          int target_ticks = 6);
  static AxisScale log(double data_lo, double data_hi, double pixel_lo, double pixel_hi);
  // Exactly `domain`, labelled at `ticks` (those inside it): for a few discrete values, such
  // as the parameter values tried, where widening to round numbers only wastes room.
  // Throws std::invalid_argument for an empty domain, or a log one that is not positive.
  static AxisScale exact(ScaleKind kind, Interval domain, double pixel_lo, double pixel_hi,
                         std::vector<double> ticks);

  // Throws std::invalid_argument for a value a log scale cannot place (<= 0, not finite).
  double to_pixel(double value) const;
  bool contains(double value) const { return value >= domain_.lo && value <= domain_.hi; }
  ScaleKind kind() const { return kind_; }
  Interval domain() const { return domain_; }
  const std::vector<double>& ticks() const { return ticks_; }
  // Labels only these values (inside the domain), e.g. the few parameter values tried.
  void set_ticks(std::vector<double> ticks);

 private:
  AxisScale(ScaleKind kind, Interval domain, double pixel_lo, double pixel_hi,
            std::vector<double> ticks);

  ScaleKind kind_;
  Interval domain_;
  double pixel_lo_;
  double pixel_hi_;
  std::vector<double> ticks_;
};

}  // namespace gemmtune::report
