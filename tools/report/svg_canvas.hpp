// A minimal SVG writer for inline charts: shapes and text in pixel coordinates, every text
// escaped on the way in, so a chart cannot break out of its <svg> element.
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace gemmtune::report {

struct Stroke {
  std::string color = "#333";
  double width = 1;
  bool dashed = false;
};

enum class Anchor { Start, Middle, End };

struct TextStyle {
  Anchor anchor = Anchor::Start;
  double size = 12;
  std::string color = "#222";
  double rotate_degrees = 0;  // about the anchor point
  bool bold = false;
  bool halo = false;  // a white outline, so that a label over lines and dots stays readable
};

enum class Marker { Circle, Diamond, Square };

// The width of `text` at `font_size` in a proportional sans-serif font, slightly generous:
// enough to keep labels apart without measuring glyphs.
double estimated_text_width(std::string_view text, double font_size);

class SvgCanvas {
 public:
  // `description` becomes the chart's accessible name (aria-label and <title>).
  SvgCanvas(double width, double height, std::string_view description);

  double width() const { return width_; }
  double height() const { return height_; }

  void line(double x1, double y1, double x2, double y2, const Stroke& stroke);
  void polyline(const std::vector<std::pair<double, double>>& points, const Stroke& stroke);
  // `tooltip` (optional) shows on hover: browsers render an SVG <title> child as one.
  void rect(double x, double y, double width, double height, std::string_view fill,
            std::string_view tooltip = {});
  void marker(Marker shape, double x, double y, double radius, std::string_view fill,
              std::string_view tooltip = {}, double opacity = 1);
  void ring(double x, double y, double radius, const Stroke& stroke);  // an unfilled circle
  void text(double x, double y, std::string_view text, const TextStyle& style = {});

  // The complete <svg> element.
  std::string str() const;

 private:
  double width_;
  double height_;
  std::string description_;
  std::string body_;
};

// "12.3": coordinates with one decimal, enough for a screen and short to read.
std::string pixel(double value);

}  // namespace gemmtune::report
