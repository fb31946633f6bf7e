// Text that goes into the report: HTML escaping and the number formats of tables and axes.
#pragma once

#include <string>
#include <string_view>

#include "text.hpp"

namespace gemmtune::report {

// Escapes & < > " ' so that any text (kernel names, GPU names, compile errors) is safe both
// as element content and inside a quoted attribute value, in HTML and in inline SVG.
std::string escape_html(std::string_view text);

// fixed(2.7, 3) is "2.700": gemmtune::fixed (runtime/core/text.hpp), every tool's one.
using gemmtune::fixed;

// Fixed-point with `digits` significant digits, trailing zeros kept: significant(2.9, 4) is
// "2.900", significant(0.0192, 4) "0.01920", significant(23.1, 4) "23.10". For times, whose
// magnitudes range from microseconds to seconds.
std::string significant(double value, int digits);

// A short label for an axis tick: "0.01", "2.5", "1000", "1e6", "1e-5" (no trailing zeros,
// exponent form from 1e6 up and below 1e-3).
std::string tick_label(double value);

}  // namespace gemmtune::report
