#include "problem_bar_charts.hpp"

#include <algorithm>
#include <cmath>

#include "chart_frame.hpp"
#include "html_text.hpp"

namespace gemmtune::report {
namespace {

constexpr double kChartWidth = 960;
constexpr double kLabelFont = 12;
constexpr double kValueFont = 10.5;
constexpr double kLegendHeight = 34;
constexpr double kAxisHeight = 56;   // tick labels and the axis title under the plot
constexpr double kValueMargin = 64;  // right of the plot: room for the last bar's value

// The plot area of a chart with one row of `row_height` per problem and the problem names
// on the left, right-aligned against the plot.
PlotArea rows_area(const std::vector<cache::ProblemSummary>& problems, double row_height) {
  double widest = 0;
  for (const auto& summary : problems) {
    widest = std::max(widest, estimated_text_width(problem_row_label(summary), kLabelFont));
  }
  const double left = 34 + widest + 12;  // 34: the rotated axis title
  return {left, kLegendHeight, kChartWidth - kValueMargin,
          kLegendHeight + row_height * static_cast<double>(problems.size())};
}

void draw_problem_labels(SvgCanvas& canvas, const std::vector<cache::ProblemSummary>& problems,
                         const PlotArea& area, double row_height) {
  for (std::size_t row = 0; row < problems.size(); ++row) {
    const double middle = area.top + row_height * (static_cast<double>(row) + 0.5);
    canvas.text(area.left - 8, middle + kLabelFont * 0.35, problem_row_label(problems[row]),
                {Anchor::End, kLabelFont});
  }
  canvas.text(14, (area.top + area.bottom) / 2, "problem (layout:MxNxK)",
              {Anchor::Middle, 13, "#222", -90});
}

void note(SvgCanvas& canvas, double x, double middle, const std::string& text) {
  canvas.text(x, middle + kValueFont * 0.35, text, {Anchor::Start, kValueFont, kMutedTextColor});
}

}  // namespace

std::string problem_row_label(const cache::ProblemSummary& summary) {
  const std::string problem = to_string(summary.problem);
  if (!summary.winner || summary.winner->precision == "fp32") return problem;
  return problem + " (" + summary.winner->precision + ")";
}

std::optional<double> speedup_over_cublas(const cache::Winner& winner) {
  if (!winner.cublas_ms || !(winner.median_ms > 0)) return std::nullopt;
  return *winner.cublas_ms / winner.median_ms;
}

std::string throughput_chart_svg(const std::vector<cache::ProblemSummary>& problems) {
  constexpr double kRowHeight = 38;
  constexpr double kBarHeight = 14;
  const PlotArea area = rows_area(problems, kRowHeight);
  double highest = 0;
  for (const auto& summary : problems) {
    if (!summary.winner) continue;
    highest =
        std::max({highest, summary.winner->tflops, summary.winner->cublas_tflops.value_or(0)});
  }
  const AxisScale x = AxisScale::linear(0, highest > 0 ? highest : 1, area.left, area.right);
  SvgCanvas canvas(kChartWidth, area.bottom + kAxisHeight,
                   "TFLOPS of the tuned winner and of cuBLAS per problem");
  draw_legend(canvas, area.left, 20, {{"gemmtune winner", kWinnerColor}, {"cuBLAS", kCublasColor}});
  draw_x_axis(canvas, x, area, "TFLOPS (FP32, higher is better)");
  draw_problem_labels(canvas, problems, area, kRowHeight);

  for (std::size_t row = 0; row < problems.size(); ++row) {
    const cache::ProblemSummary& summary = problems[row];
    const double top = area.top + kRowHeight * static_cast<double>(row) + 4;
    const std::string name = problem_row_label(summary);
    auto bar = [&](double y, std::optional<double> tflops, std::optional<double> ms,
                   const char* color, const std::string& who, const std::string& missing) {
      if (!tflops || !ms) {
        note(canvas, area.left + 4, y + kBarHeight / 2, missing);
        return;
      }
      const double end = x.to_pixel(*tflops);
      canvas.rect(
          area.left, y, end - area.left, kBarHeight, color,
          name + ": " + who + " " + fixed(*tflops, 2) + " TFLOPS, " + significant(*ms, 4) + " ms");
      canvas.text(end + 4, y + kBarHeight / 2 + kValueFont * 0.35, fixed(*tflops, 1),
                  {Anchor::Start, kValueFont});
    };
    if (!summary.winner) {
      note(canvas, area.left + 4, top + kBarHeight,
           "no winner (" + std::to_string(summary.failed) + " of " +
               std::to_string(summary.measured) + " candidates failed)");
      continue;
    }
    const cache::Winner& winner = *summary.winner;
    bar(top, winner.tflops, winner.median_ms, kWinnerColor, winner.kernel_name, "");
    bar(top + kBarHeight + 2, winner.cublas_tflops, winner.cublas_ms, kCublasColor, "cuBLAS",
        "no cuBLAS time");
  }
  return canvas.str();
}

std::string speedup_chart_svg(const std::vector<cache::ProblemSummary>& problems) {
  constexpr double kRowHeight = 28;
  constexpr double kBarHeight = 16;
  const PlotArea area = rows_area(problems, kRowHeight);
  double lowest = 1;
  double highest = 1;
  for (const auto& summary : problems) {
    if (const auto speedup = summary.winner ? speedup_over_cublas(*summary.winner) : std::nullopt) {
      lowest = std::min(lowest, *speedup);
      highest = std::max(highest, *speedup);
    }
  }
  // Room beyond the longest bars for their values; a speed-up is never below 0.
  const double padding = std::max(0.1, 0.12 * (highest - lowest));
  const AxisScale x =
      AxisScale::linear(std::max(0.0, lowest - padding), highest + padding, area.left, area.right);
  SvgCanvas canvas(kChartWidth, area.bottom + kAxisHeight,
                   "Speed-up of the tuned winner over cuBLAS per problem");
  draw_legend(canvas, area.left, 20,
              {{"faster than cuBLAS", kFasterColor},
               {"slower than cuBLAS", kSlowerColor},
               {"1.0 = cuBLAS", "#222", Marker::Square, true, true}});
  draw_x_axis(canvas, x, area, "speed-up = cuBLAS time / winner time (higher is better)");
  draw_problem_labels(canvas, problems, area, kRowHeight);

  const double one = x.to_pixel(1.0);
  for (std::size_t row = 0; row < problems.size(); ++row) {
    const cache::ProblemSummary& summary = problems[row];
    const double middle = area.top + kRowHeight * (static_cast<double>(row) + 0.5);
    const auto speedup = summary.winner ? speedup_over_cublas(*summary.winner) : std::nullopt;
    if (!speedup) {
      note(canvas, one + 6, middle, summary.winner ? "no cuBLAS time" : "no winner");
      continue;
    }
    const double end = x.to_pixel(*speedup);
    const bool faster = *speedup >= 1;
    canvas.rect(std::min(one, end), middle - kBarHeight / 2, std::max(std::abs(end - one), 1.0),
                kBarHeight, faster ? kFasterColor : kSlowerColor,
                to_string(summary.problem) + ": " + fixed(*speedup, 3) + "x cuBLAS (" +
                    significant(summary.winner->median_ms, 4) + " ms vs " +
                    significant(*summary.winner->cublas_ms, 4) + " ms)");
    // Beyond the bar's end when faster; right of the 1.0 line, clear of the bar, when slower.
    canvas.text((faster ? end : one) + 5, middle + kValueFont * 0.35, fixed(*speedup, 2) + "x",
                {Anchor::Start, kValueFont, "#222", 0, true});
  }
  canvas.line(one, area.top - 4, one, area.bottom, {"#222", 1.5, true});
  return canvas.str();
}

}  // namespace gemmtune::report
