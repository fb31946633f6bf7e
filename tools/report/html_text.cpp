#include "html_text.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

namespace gemmtune::report {

std::string escape_html(std::string_view text) {
  std::string escaped;
  escaped.reserve(text.size());
  for (const char c : text) {
    switch (c) {
      case '&':
        escaped += "&amp;";
        break;
      case '<':
        escaped += "&lt;";
        break;
      case '>':
        escaped += "&gt;";
        break;
      case '"':
        escaped += "&quot;";
        break;
      case '\'':
        escaped += "&#39;";
        break;
      default:
        escaped += c;
    }
  }
  return escaped;
}

std::string significant(double value, int digits) {
  if (value == 0 || !std::isfinite(value)) return fixed(value, digits - 1);
  const int magnitude = static_cast<int>(std::floor(std::log10(std::fabs(value))));
  // Rounding may carry into the next power of ten (9.9996 -> 10.000): one decimal fewer then.
  int decimals = std::max(0, digits - 1 - magnitude);
  if (std::fabs(std::stod(fixed(value, decimals))) >= std::pow(10.0, magnitude + 1)) {
    decimals = std::max(0, decimals - 1);
  }
  return fixed(value, decimals);
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
