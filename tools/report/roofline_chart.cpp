#include "roofline_chart.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>

#include "chart_frame.hpp"
#include "precision.hpp"
#include "html_text.hpp"

namespace gemmtune::report {
namespace {

constexpr double kChartWidth = 960;
constexpr double kChartHeight = 580;
constexpr double kLabelFont = 11;

struct RooflinePoint {
  double intensity;
  double tflops;
  bool is_cublas;
  std::string label;  // roofline_label of the problem for winners; cuBLAS goes unlabelled
  std::string tooltip;
};

std::vector<RooflinePoint> points_of(const std::vector<cache::ProblemSummary>& problems) {
  std::vector<RooflinePoint> points;
  for (const cache::ProblemSummary& summary : problems) {
    if (!summary.winner) continue;
    const cache::Winner& winner = *summary.winner;
    const double intensity = arithmetic_intensity(summary.problem);
    const std::string name = to_string(summary.problem);
    const std::string where = ", " + fixed(intensity, 1) + " FLOP/byte";
    if (winner.tflops > 0 && std::isfinite(winner.tflops)) {
      points.push_back(
          {intensity, winner.tflops, false, roofline_label(summary.problem),
           name + " (" + winner.precision + "): " + winner.kernel_name + ", " + fixed(winner.tflops, 2) + " TFLOPS" +
               where});
    }
    if (winner.cublas_tflops && *winner.cublas_tflops > 0 && std::isfinite(*winner.cublas_tflops)) {
      points.push_back({intensity, *winner.cublas_tflops, true, "",
                        name + ": cuBLAS, " + fixed(*winner.cublas_tflops, 2) + " TFLOPS" + where});
    }
  }
  return points;
}

// The tensor-core classes' ceilings to draw: those of the classes whose kernels won a problem
// plotted, so that no winner sits above the only ceiling drawn.
std::vector<ClassPeak> drawn_class_peaks(const std::vector<cache::ProblemSummary>& problems, const Ceilings& ceilings) {
  std::vector<ClassPeak> drawn;
  for (const ClassPeak& peak : ceilings.class_peaks) {
    const bool won = std::any_of(problems.begin(), problems.end(), [&](const cache::ProblemSummary& summary) {
      return summary.winner && summary.winner->kernel_precision == precision_name(peak.precision);
    });
    if (won) drawn.push_back(peak);
  }
  return drawn;
}

}  // namespace

std::string roofline_label(const cache::Problem& problem) {
  const std::string shape = problem.m == problem.n && problem.n == problem.k
                                ? std::to_string(problem.m) + "\u00b3"
                                : std::to_string(problem.m) + "x" + std::to_string(problem.n) +
                                      "x" + std::to_string(problem.k);
  const std::string batched = problem.batch == 1 ? shape : shape + " b" + std::to_string(problem.batch);
  return problem.layout == "nn" ? batched : problem.layout + ":" + batched;
}

double ridge_intensity(const Ceilings& ceilings) {
  return ceilings.peak_tflops.value * 1000 / ceilings.bandwidth_gbs.value;
}

std::string roofline_chart_svg(const std::vector<cache::ProblemSummary>& problems,
                               const Ceilings& ceilings) {
  const std::vector<RooflinePoint> points = points_of(problems);
  const std::vector<ClassPeak> class_peaks = drawn_class_peaks(problems, ceilings);
  const double ffma_peak = ceilings.peak_tflops.value;
  const double bandwidth_tbs = ceilings.bandwidth_gbs.value / 1000;
  // The memory roof runs up to the highest compute ceiling drawn.
  double peak = ffma_peak;
  for (const ClassPeak& class_peak : class_peaks) peak = std::max(peak, class_peak.tflops);
  const double ridge = peak / bandwidth_tbs;

  // Over the points and the ridge, then widened to whole decades.
  double x_lo = ridge;
  double x_hi = ridge;
  double y_lo = peak / 100;
  double y_hi = peak;
  for (const RooflinePoint& point : points) {
    x_lo = std::min(x_lo, point.intensity);
    x_hi = std::max(x_hi, point.intensity);
    y_lo = std::min(y_lo, point.tflops);
    y_hi = std::max(y_hi, point.tflops);
  }
  const PlotArea area{90, 40, kChartWidth - 30, kChartHeight - 62};
  const AxisScale x = AxisScale::log(x_lo / 3, x_hi * 3, area.left, area.right);
  const AxisScale y = AxisScale::log(y_lo / 2, y_hi * 1.2, area.bottom, area.top);

  SvgCanvas canvas(kChartWidth, kChartHeight,
                   "Roofline: TFLOPS against arithmetic intensity, with the GPU's ceilings");
  draw_legend(canvas, area.left, 20,
              {{"gemmtune winner", kWinnerColor, Marker::Circle},
               {"cuBLAS", kCublasColor, Marker::Diamond},
               {"ceilings (memory bandwidth, compute peak)", "#444", Marker::Square, true}});
  draw_x_axis(canvas, x, area, "arithmetic intensity (FLOP/byte, bytes = 4(MK + KN + MN))");
  draw_y_axis(canvas, y, area, "TFLOPS (FP32)");

  // The memory roof enters the plot at its left edge or at its bottom, whichever is later.
  const double roof_start = std::max(x.domain().lo, y.domain().lo / bandwidth_tbs);
  const std::pair<double, double> start{x.to_pixel(roof_start),
                                        y.to_pixel(roof_start * bandwidth_tbs)};
  const std::pair<double, double> knee{x.to_pixel(ridge), y.to_pixel(peak)};
  const std::pair<double, double> end{area.right, knee.second};
  canvas.polyline({start, knee, end}, {"#444", 2, false});
  // Each lower compute ceiling from where the memory roof reaches it; named by class where there
  // are several.
  auto draw_peak = [&](double tflops, const std::string& label) {
    const double y_pixel = y.to_pixel(tflops);
    if (tflops < peak) canvas.line(x.to_pixel(tflops / bandwidth_tbs), y_pixel, area.right, y_pixel, {"#444", 1.5, true});
    canvas.text(area.right - 4, y_pixel - 7, label + " " + fixed(tflops, 1) + " TFLOPS",
                {Anchor::End, 12, "#444", 0, false, true});
  };
  draw_peak(ffma_peak, class_peaks.empty() ? "compute peak" : "FFMA (strict) peak");
  for (const ClassPeak& class_peak : class_peaks) {
    draw_peak(class_peak.tflops, class_peak.name + " (" + std::string(precision_name(class_peak.precision)) + ", " +
                                     fixed(class_peak.factor, 1) + "x FFMA) peak");
  }
  const double slope_degrees =
      std::atan2(knee.second - start.second, knee.first - start.first) * 180 / std::numbers::pi;
  const double mid_x = (start.first + knee.first) / 2;
  const double mid_y = (start.second + knee.second) / 2;
  canvas.text(mid_x - 6, mid_y - 6, fixed(ceilings.bandwidth_gbs.value, 0) + " GB/s",
              {Anchor::Middle, 12, "#444", slope_degrees, false, true});

  // Markers first, then labels over them, placed highest first so the top points, usually
  // the interesting ones, get the closest spots.
  constexpr double kMarkerRadius = 5;
  std::vector<LabelRequest> requests;
  std::vector<const RooflinePoint*> labelled;
  std::vector<Box> markers;
  for (const RooflinePoint& point : points) {
    const double px = x.to_pixel(point.intensity);
    const double py = y.to_pixel(point.tflops);
    canvas.marker(point.is_cublas ? Marker::Diamond : Marker::Circle, px, py, kMarkerRadius,
                  point.is_cublas ? kCublasColor : kWinnerColor, point.tooltip);
    markers.push_back(
        {px - kMarkerRadius, py - kMarkerRadius, px + kMarkerRadius, py + kMarkerRadius});
    if (!point.is_cublas) labelled.push_back(&point);
  }
  std::sort(labelled.begin(), labelled.end(),
            [](const RooflinePoint* a, const RooflinePoint* b) { return a->tflops > b->tflops; });
  for (const RooflinePoint* point : labelled) {
    requests.push_back({x.to_pixel(point->intensity), y.to_pixel(point->tflops),
                        estimated_text_width(point->label, kLabelFont), kLabelFont + 3});
  }
  const std::vector<PlacedLabel> placed = place_labels(requests, area, markers);
  for (std::size_t i = 0; i < placed.size(); ++i) {
    if (placed[i].displaced) {
      const bool left_of_point = placed[i].left < requests[i].x;
      const double label_y = placed[i].baseline - kLabelFont * 0.35;
      canvas.line(requests[i].x, requests[i].y,
                  left_of_point ? placed[i].left + requests[i].width : placed[i].left, label_y,
                  {"#999", 0.8, false});
    }
    canvas.text(placed[i].left, placed[i].baseline, labelled[i]->label,
                {Anchor::Start, kLabelFont, "#0b3d63", 0, false, true});
  }
  return canvas.str();
}

}  // namespace gemmtune::report
