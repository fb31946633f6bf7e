#include "html_text.hpp"

#include <cmath>
#include <cstdio>

namespace gemmtune::report {

std::string escape_html(std::string_view text) {
  std::string escaped;
  escaped.reserve(text.size());
  for (const char c : text) {
    switch (c) {
      case '&': escaped += "&amp;"; break;
      case '<': escaped += "&lt;"; break;
      case '>': escaped += "&gt;"; break;
      case '"': escaped += "&quot;"; break;
      case '\'': escaped += "&#39;"; break;
      default: escaped += c;
    }
  }
  return escaped;
}

std::string fixed(double value, int decimals) {
  char text[64];
  std::snprintf(text, sizeof text, "%.*f", decimals, value);
  return text;
}

std::string tick_label(double value) {
  if (value == 0) return "0";
  char text[64];
  const double magnitude = std::fabs(value);
  if (magnitude >= 1e6 || magnitude < 1e-3) {
    // "1e6" rather than printf's "1e+06": tick values are round, so the mantissa is short.
    const int exponent = static_cast<int>(std::floor(std::log10(magnitude) + 1e-9));
    const double mantissa = value / std::pow(10.0, exponent);
    std::snprintf(text, sizeof text, "%.3ge%d", mantissa, exponent);
  } else {
    std::snprintf(text, sizeof text, "%.6g", value);
  }
  return text;
}

}  // namespace gemmtune::report
