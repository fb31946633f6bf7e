#include "candidate_scatter.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <nlohmann/json.hpp>
#include <set>

#include "chart_frame.hpp"
#include "html_text.hpp"

namespace gemmtune::report {
namespace {

constexpr double kChartWidth = 960;
constexpr double kChartHeight = 500;

struct ScatterPoint {
  double value;
  double ms;
  const cache::MeasurementRow* row;
};

std::vector<std::string> split_product(std::string_view parameter) {
  std::vector<std::string> names;
  std::size_t start = 0;
  while (start <= parameter.size()) {
    const std::size_t star = std::min(parameter.find('*', start), parameter.size());
    names.emplace_back(parameter.substr(start, star - start));
    start = star + 1;
  }
  return names;
}

// A scale over `values`: logarithmic when they span `log_from` or more and are all positive.
AxisScale scale_over(const std::vector<double>& values, double log_from, double pixel_lo,
                     double pixel_hi) {
  const auto [lo, hi] = std::minmax_element(values.begin(), values.end());
  if (*lo > 0 && *hi / *lo >= log_from) return AxisScale::log(*lo, *hi, pixel_lo, pixel_hi);
  return AxisScale::linear(*lo, *hi, pixel_lo, pixel_hi);
}

// The x axis: few distinct values (the parameter values tried) are the ticks, on a domain a
// little wider than theirs; many values get a scale_over with round ticks.
AxisScale parameter_scale(const std::vector<double>& values, double pixel_lo, double pixel_hi) {
  const std::set<double> distinct(values.begin(), values.end());
  if (distinct.size() > 12) return scale_over(values, 8, pixel_lo, pixel_hi);
  const double lo = *distinct.begin();
  const double hi = *distinct.rbegin();
  std::vector<double> ticks(distinct.begin(), distinct.end());
  if (lo > 0 && hi / lo >= 8) {
    return AxisScale::exact(ScaleKind::Log, {lo / 1.5, hi * 1.5}, pixel_lo, pixel_hi, ticks);
  }
  // 10% of the span each side; a single value gets half its size (or 1) each side.
  const double margin = hi > lo ? (hi - lo) / 10 : lo != 0 ? std::fabs(lo) / 2 : 1;
  return AxisScale::exact(ScaleKind::Linear, {lo - margin, hi + margin}, pixel_lo, pixel_hi, ticks);
}

}  // namespace

std::optional<double> parameter_value(std::string_view params_json, std::string_view parameter) {
  const auto params = nlohmann::json::parse(params_json, nullptr, /*allow_exceptions=*/false);
  if (!params.is_object() || parameter.empty()) return std::nullopt;
  double product = 1;
  for (const std::string& name : split_product(parameter)) {
    const auto found = params.find(name);
    if (found == params.end() || !found->is_number()) return std::nullopt;
    product *= found->get<double>();
  }
  return product;
}

std::string default_parameter(const std::vector<cache::MeasurementRow>& rows) {
  for (const cache::MeasurementRow& row : rows) {
    if (row.status == cache::Status::Ok && parameter_value(row.params_json, "BM*BN"))
      return "BM*BN";
  }
  for (const cache::MeasurementRow& row : rows) {
    if (row.status != cache::Status::Ok) continue;
    // ordered_json keeps the order the parameters were written in: the family's own order.
    const auto params = nlohmann::ordered_json::parse(row.params_json, nullptr, false);
    if (!params.is_object()) continue;
    for (const auto& [name, value] : params.items()) {
      if (value.is_number()) return name;
    }
  }
  return "";
}

std::string parameter_names(const std::vector<cache::MeasurementRow>& rows) {
  for (const cache::MeasurementRow& row : rows) {
    if (row.status != cache::Status::Ok) continue;
    const auto params = nlohmann::ordered_json::parse(row.params_json, nullptr, false);
    if (!params.is_object()) continue;
    std::string names;
    for (const auto& [name, value] : params.items()) {
      if (value.is_number()) names += (names.empty() ? "" : ", ") + name;
    }
    return names;
  }
  return "";
}

ScatterChart candidate_scatter(const std::vector<cache::MeasurementRow>& rows,
                               std::string_view parameter, std::optional<double> cublas_ms) {
  ScatterChart chart;
  std::vector<ScatterPoint> points;
  std::set<std::string> families;
  for (const cache::MeasurementRow& row : rows) {
    if (row.status != cache::Status::Ok || !row.timing || !(row.timing->median_ms > 0)) continue;
    const auto value = parameter_value(row.params_json, parameter);
    if (!value) {
      ++chart.without_parameter;
      continue;
    }
    points.push_back({*value, row.timing->median_ms, &row});
    families.insert(row.family);
  }
  chart.plotted = points.size();
  if (points.empty()) return chart;

  std::vector<double> values;
  std::vector<double> times;
  for (const ScatterPoint& point : points) {
    values.push_back(point.value);
    times.push_back(point.ms);
  }
  const bool has_cublas = cublas_ms && *cublas_ms > 0;
  if (has_cublas) times.push_back(*cublas_ms);
  const PlotArea area{90, 40, kChartWidth - 30, kChartHeight - 62};
  const AxisScale x = parameter_scale(values, area.left, area.right);
  const AxisScale y = scale_over(times, 10, area.bottom, area.top);

  SvgCanvas canvas(kChartWidth, kChartHeight,
                   "Median time of every ok candidate against " + std::string(parameter));
  std::vector<LegendEntry> legend;
  std::map<std::string, std::string> family_colors;
  for (const std::string& family : families) {
    family_colors[family] = palette_color(family_colors.size());
    legend.push_back({family, family_colors[family], Marker::Circle});
  }
  if (has_cublas) legend.push_back({"cuBLAS", kCublasColor, Marker::Square, true, true});
  draw_legend(canvas, area.left, 20, legend);
  draw_x_axis(canvas, x, area, std::string(parameter) + " (configuration parameter)");
  draw_y_axis(canvas, y, area, "median time (ms, lower is better)");

  if (has_cublas) {
    const double cublas_y = y.to_pixel(*cublas_ms);
    canvas.line(area.left, cublas_y, area.right, cublas_y, {kCublasColor, 1.5, true});
    canvas.text(area.right - 4, cublas_y - 5, "cuBLAS " + significant(*cublas_ms, 4) + " ms",
                {Anchor::End, 11, "#8a5a00", 0, false, true});
  }

  // Points of one parameter value that would overlap move sideways (a beeswarm): each takes
  // the nearest free offset, 0, +1, -1, +2 ... half dot widths, at most about 30 px out.
  constexpr double kRadius = 4;
  std::map<double, std::vector<std::pair<double, double>>> placed_by_value;
  const ScatterPoint* fastest = &points.front();
  double fastest_x = 0;
  for (const ScatterPoint& point : points) {
    if (point.ms < fastest->ms) fastest = &point;
  }
  for (const ScatterPoint& point : points) {
    auto& placed = placed_by_value[point.value];
    const double center = x.to_pixel(point.value);
    const double py = y.to_pixel(point.ms);
    double px = center;
    for (int slot = 0; slot <= 14; ++slot) {
      px = center + (slot % 2 == 1 ? 1 : -1) * ((slot + 1) / 2) * (kRadius + 0.5);
      bool free = true;
      for (const auto& [other_x, other_y] : placed) {
        free = free && std::hypot(px - other_x, py - other_y) >= 2 * kRadius;
      }
      if (free) break;
    }
    placed.emplace_back(px, py);
    if (&point == fastest) fastest_x = px;
    canvas.marker(Marker::Circle, px, py, kRadius, family_colors[point.row->family],
                  point.row->kernel_name + ": " + significant(point.ms, 4) + " ms", 0.75);
  }
  const double fastest_y = y.to_pixel(fastest->ms);
  canvas.ring(fastest_x, fastest_y, 7, {"#222", 1.5, false});
  const std::string label = "fastest " + significant(fastest->ms, 4) + " ms";
  const bool fits_right = fastest_x + 10 + estimated_text_width(label, 11) <= area.right;
  canvas.text(fits_right ? fastest_x + 10 : fastest_x - 10, fastest_y - 8, label,
              {fits_right ? Anchor::Start : Anchor::End, 11, "#222", 0, true, true});
  chart.svg = canvas.str();
  return chart;
}

}  // namespace gemmtune::report
