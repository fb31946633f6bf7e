// What every chart of the report shares: the plot area, labelled axes with grid lines, a
// legend, and data labels that do not overlap.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "axis_scale.hpp"
#include "svg_canvas.hpp"

namespace gemmtune::report {

// The pixel box the data is drawn in; axes and their labels go outside it.
struct PlotArea {
  double left = 0;
  double top = 0;
  double right = 0;
  double bottom = 0;
  double width() const { return right - left; }
  double height() const { return bottom - top; }
};

// Okabe and Ito's colour-blind-safe palette; kWinnerColor and kCublasColor are two of it.
inline constexpr const char* kWinnerColor = "#0072B2";
inline constexpr const char* kCublasColor = "#E69F00";
inline constexpr const char* kFasterColor = "#009E73";
inline constexpr const char* kSlowerColor = "#D55E00";
inline constexpr const char* kMutedTextColor = "#666";
// The i-th colour of the palette, cycling.
std::string palette_color(std::size_t index);

// Tick marks, tick labels and grid lines of `scale` along the bottom (x) or left (y) of
// `area`, and the axis title centred beside them.
void draw_x_axis(SvgCanvas& canvas, const AxisScale& scale, const PlotArea& area,
                 std::string_view title);
void draw_y_axis(SvgCanvas& canvas, const AxisScale& scale, const PlotArea& area,
                 std::string_view title);

struct LegendEntry {
  std::string label;
  std::string color;
  Marker marker = Marker::Square;
  bool line = false;  // a stroke sample (a ceiling) instead of a marker
  bool dashed = false;
};
// One row of entries starting at (x, y), y being the text baseline.
void draw_legend(SvgCanvas& canvas, double x, double y, const std::vector<LegendEntry>& entries);

// A label to place beside the point (x, y).
struct LabelRequest {
  double x = 0;
  double y = 0;
  double width = 0;
  double height = 0;
};
// Where a label went: the box's left and its text baseline, and whether it moved away from its
// point (draw a leader line then).
struct PlacedLabel {
  double left = 0;
  double baseline = 0;
  bool displaced = false;
};
// Something a label must not cover, such as a data marker.
struct Box {
  double left = 0;
  double top = 0;
  double right = 0;
  double bottom = 0;
  bool overlaps(const Box& other) const {
    return left < other.right && other.left < right && top < other.bottom && other.top < bottom;
  }
};
// Greedy placement in request order: right of the point, left of it, then further up and
// down on both sides, taking the first position that stays inside `area` and overlaps
// neither an obstacle nor a label placed before. A label that fits nowhere goes right of its
// point regardless.
std::vector<PlacedLabel> place_labels(const std::vector<LabelRequest>& requests,
                                      const PlotArea& area, const std::vector<Box>& obstacles = {});

}  // namespace gemmtune::report
