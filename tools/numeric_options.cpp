#include "numeric_options.hpp"

#include <charconv>
#include <cmath>
#include <optional>
#include <string>

namespace gemmtune {
namespace {

// The whole text as a finite double ("1e3" and "+2" are; "2x", " 2", "0x10" and "inf" are not),
// or nullopt.
std::optional<double> as_number(const std::string& text) {
  const char* begin = text.data() + (text.starts_with('+') ? 1 : 0);  // from_chars takes no '+'
  double value = 0;
  const auto [end, error] = std::from_chars(begin, text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size() || begin == end || !std::isfinite(value)) {
    return std::nullopt;
  }
  return value;
}

std::string got(const std::string& text) { return " (got '" + text + "')"; }

}  // namespace

CLI::Validator finite_number() {
  return CLI::Validator(
      [](std::string& text) { return as_number(text) ? std::string() : "must be a finite number" + got(text); },
      "NUMBER");
}

CLI::Validator positive_number() {
  return CLI::Validator(
      [](std::string& text) {
        const std::optional<double> value = as_number(text);
        return value && *value > 0 ? std::string() : "must be a number > 0" + got(text);
      },
      "NUMBER > 0");
}

CLI::Validator whole_number(long long least, long long most) {
  const std::string range = std::to_string(least) + " to " + std::to_string(most);
  return CLI::Validator(
      [least, most, range](std::string& text) {
        const char* begin = text.data() + (text.starts_with('+') ? 1 : 0);
        long long value = 0;
        const auto [end, error] = std::from_chars(begin, text.data() + text.size(), value);
        const bool whole = error == std::errc() && end == text.data() + text.size() && begin != end;
        return whole && value >= least && value <= most ? std::string()
                                                        : "must be a whole number from " + range + got(text);
      },
      "INT " + range);
}

}  // namespace gemmtune
