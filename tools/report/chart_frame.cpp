#include "chart_frame.hpp"

#include <array>
#include <cmath>

#include "html_text.hpp"

namespace gemmtune::report {
namespace {

constexpr double kTickLength = 5;
constexpr double kTickFont = 11;
constexpr double kTitleFont = 13;
const Stroke kAxisStroke{"#333", 1, false};
const Stroke kGridStroke{"#e3e3e3", 1, false};

}  // namespace

std::string palette_color(std::size_t index) {
  static constexpr std::array<const char*, 7> kPalette = {
      "#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9", "#D55E00", "#000000"};
  return kPalette[index % kPalette.size()];
}

void draw_x_axis(SvgCanvas& canvas, const AxisScale& scale, const PlotArea& area,
                 std::string_view title) {
  for (const double tick : scale.ticks()) {
    const double x = scale.to_pixel(tick);
    canvas.line(x, area.top, x, area.bottom, kGridStroke);
    canvas.line(x, area.bottom, x, area.bottom + kTickLength, kAxisStroke);
    canvas.text(x, area.bottom + kTickLength + kTickFont + 2, tick_label(tick),
                {Anchor::Middle, kTickFont});
  }
  canvas.line(area.left, area.bottom, area.right, area.bottom, kAxisStroke);
  canvas.text((area.left + area.right) / 2, area.bottom + kTickLength + kTickFont + kTitleFont + 14,
              title, {Anchor::Middle, kTitleFont});
}

void draw_y_axis(SvgCanvas& canvas, const AxisScale& scale, const PlotArea& area,
                 std::string_view title) {
  double widest_label = 0;
  for (const double tick : scale.ticks()) {
    const double y = scale.to_pixel(tick);
    const std::string label = tick_label(tick);
    widest_label = std::max(widest_label, estimated_text_width(label, kTickFont));
    canvas.line(area.left, y, area.right, y, kGridStroke);
    canvas.line(area.left - kTickLength, y, area.left, y, kAxisStroke);
    canvas.text(area.left - kTickLength - 3, y + kTickFont * 0.35, label, {Anchor::End, kTickFont});
  }
  canvas.line(area.left, area.top, area.left, area.bottom, kAxisStroke);
  const double title_x = area.left - kTickLength - 3 - widest_label - 10;
  canvas.text(title_x, (area.top + area.bottom) / 2, title,
              {Anchor::Middle, kTitleFont, "#222", -90});
}

void draw_legend(SvgCanvas& canvas, double x, double y, const std::vector<LegendEntry>& entries) {
  constexpr double kFont = 12;
  for (const LegendEntry& entry : entries) {
    const double middle = y - kFont * 0.35;
    if (entry.line) {
      canvas.line(x, middle, x + 22, middle, {entry.color, 2, entry.dashed});
      x += 28;
    } else {
      canvas.marker(entry.marker, x + 5, middle, 5, entry.color);
      x += 15;
    }
    canvas.text(x, y, entry.label, {Anchor::Start, kFont});
    x += estimated_text_width(entry.label, kFont) + 18;
  }
}

std::vector<PlacedLabel> place_labels(const std::vector<LabelRequest>& requests,
                                      const PlotArea& area, const std::vector<Box>& obstacles) {
  constexpr double kGap = 6;  // between a point and its label
  std::vector<Box> placed = obstacles;
  std::vector<PlacedLabel> result;
  for (const LabelRequest& request : requests) {
    auto box_at = [&](bool right_side, double shift) {
      const double left = right_side ? request.x + kGap : request.x - kGap - request.width;
      const double top = request.y - request.height / 2 + shift;
      return Box{left, top, left + request.width, top + request.height};
    };
    Box chosen = box_at(true, 0);
    bool found = false;
    bool displaced = false;
    for (int step = 0; step <= 8 && !found; ++step) {
      // 0, then +1, -1, +2, -2 ... label heights away from the point.
      for (const double sign : {1.0, -1.0}) {
        const double shift = sign * step * request.height;
        for (const bool right_side : {true, false}) {
          const Box box = box_at(right_side, shift);
          const bool inside = box.left >= area.left && box.right <= area.right &&
                              box.top >= area.top && box.bottom <= area.bottom;
          bool free = inside;
          for (const Box& other : placed) free = free && !box.overlaps(other);
          if (free) {
            chosen = box;
            found = true;
            displaced = step > 0;
            break;
          }
        }
        if (found || step == 0) break;
      }
    }
    placed.push_back(chosen);
    // The baseline sits a quarter of the height above the box's bottom: room for descenders.
    result.push_back({chosen.left, chosen.bottom - request.height * 0.25, displaced});
  }
  return result;
}

}  // namespace gemmtune::report
