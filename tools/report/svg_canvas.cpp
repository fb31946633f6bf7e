#include "svg_canvas.hpp"

#include <cstdio>

#include "html_text.hpp"

namespace gemmtune::report {
namespace {

std::string stroke_attributes(const Stroke& stroke) {
  std::string attributes =
      " stroke=\"" + escape_html(stroke.color) + "\" stroke-width=\"" + pixel(stroke.width) + "\"";
  if (stroke.dashed) attributes += " stroke-dasharray=\"6 4\"";
  return attributes;
}

std::string title_element(std::string_view tooltip) {
  return tooltip.empty() ? "" : "<title>" + escape_html(tooltip) + "</title>";
}

// A shape with an optional tooltip: <tag .../> or <tag ...><title>..</title></tag>.
std::string element(std::string_view tag, const std::string& attributes, std::string_view tooltip) {
  const std::string open = "<" + std::string(tag) + attributes;
  if (tooltip.empty()) return open + "/>\n";
  return open + ">" + title_element(tooltip) + "</" + std::string(tag) + ">\n";
}

}  // namespace

std::string pixel(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%.1f", value);
  return text;
}

double estimated_text_width(std::string_view text, double font_size) {
  // 0.6 em is a wide average for sans-serif digits and lower case; the labels here are
  // mostly digits, 'x' and ':'.
  return 0.6 * font_size * static_cast<double>(text.size());
}

SvgCanvas::SvgCanvas(double width, double height, std::string_view description)
    : width_(width), height_(height), description_(description) {}

void SvgCanvas::line(double x1, double y1, double x2, double y2, const Stroke& stroke) {
  body_ += "<line x1=\"" + pixel(x1) + "\" y1=\"" + pixel(y1) + "\" x2=\"" + pixel(x2) +
           "\" y2=\"" + pixel(y2) + "\"" + stroke_attributes(stroke) + "/>\n";
}

void SvgCanvas::polyline(const std::vector<std::pair<double, double>>& points,
                         const Stroke& stroke) {
  std::string coordinates;
  for (const auto& [x, y] : points) {
    coordinates += (coordinates.empty() ? "" : " ") + pixel(x) + "," + pixel(y);
  }
  body_ +=
      "<polyline points=\"" + coordinates + "\" fill=\"none\"" + stroke_attributes(stroke) + "/>\n";
}

void SvgCanvas::rect(double x, double y, double width, double height, std::string_view fill,
                     std::string_view tooltip) {
  body_ += element("rect",
                   " x=\"" + pixel(x) + "\" y=\"" + pixel(y) + "\" width=\"" + pixel(width) +
                       "\" height=\"" + pixel(height) + "\" fill=\"" + escape_html(fill) + "\"",
                   tooltip);
}

void SvgCanvas::marker(Marker shape, double x, double y, double radius, std::string_view fill,
                       std::string_view tooltip, double opacity) {
  const std::string paint = " fill=\"" + escape_html(fill) + "\"" +
                            (opacity < 1 ? " fill-opacity=\"" + fixed(opacity, 2) + "\"" : "") +
                            " stroke=\"#fff\" stroke-width=\"0.8\"";
  switch (shape) {
    case Marker::Circle:
      body_ += element(
          "circle",
          " cx=\"" + pixel(x) + "\" cy=\"" + pixel(y) + "\" r=\"" + pixel(radius) + "\"" + paint,
          tooltip);
      break;
    case Marker::Square:
      body_ += element("rect",
                       " x=\"" + pixel(x - radius) + "\" y=\"" + pixel(y - radius) + "\" width=\"" +
                           pixel(2 * radius) + "\" height=\"" + pixel(2 * radius) + "\"" + paint,
                       tooltip);
      break;
    case Marker::Diamond: {
      const double r = radius * 1.3;  // same visual weight as a circle of `radius`
      body_ += element("polygon",
                       " points=\"" + pixel(x) + "," + pixel(y - r) + " " + pixel(x + r) + "," +
                           pixel(y) + " " + pixel(x) + "," + pixel(y + r) + " " + pixel(x - r) +
                           "," + pixel(y) + "\"" + paint,
                       tooltip);
      break;
    }
  }
}

void SvgCanvas::ring(double x, double y, double radius, const Stroke& stroke) {
  body_ += "<circle cx=\"" + pixel(x) + "\" cy=\"" + pixel(y) + "\" r=\"" + pixel(radius) +
           "\" fill=\"none\"" + stroke_attributes(stroke) + "/>\n";
}

void SvgCanvas::text(double x, double y, std::string_view text, const TextStyle& style) {
  const char* anchor = style.anchor == Anchor::Start    ? "start"
                       : style.anchor == Anchor::Middle ? "middle"
                                                        : "end";
  std::string attributes = " x=\"" + pixel(x) + "\" y=\"" + pixel(y) + "\" font-size=\"" +
                           pixel(style.size) + "\" fill=\"" + escape_html(style.color) +
                           "\" text-anchor=\"" + anchor + "\"";
  if (style.bold) attributes += " font-weight=\"bold\"";
  if (style.halo) attributes += " stroke=\"#fff\" stroke-width=\"3\" paint-order=\"stroke\"";
  if (style.rotate_degrees != 0) {
    attributes += " transform=\"rotate(" + pixel(style.rotate_degrees) + " " + pixel(x) + " " +
                  pixel(y) + ")\"";
  }
  body_ += "<text" + attributes + ">" + escape_html(text) + "</text>\n";
}

std::string SvgCanvas::str() const {
  const std::string description = escape_html(description_);
  // width and height give the natural size; with the viewBox, CSS may shrink it to the page.
  return "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" + pixel(width_) + "\" height=\"" +
         pixel(height_) + "\" viewBox=\"0 0 " + pixel(width_) + " " + pixel(height_) +
         "\" role=\"img\" aria-label=\"" + description + "\" font-family=\"sans-serif\">\n<title>" +
         description + "</title>\n" + body_ + "</svg>\n";
}

}  // namespace gemmtune::report
