#include "text.hpp"

#include <algorithm>
#include <cctype>
#include <cstdio>

namespace gemmtune {

std::string lower(std::string_view text) {
  std::string out(text);
  std::transform(out.begin(), out.end(), out.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return out;
}

std::string fixed(double value, int decimals) {
  char text[64];
  std::snprintf(text, sizeof text, "%.*f", decimals, value);
  return text;
}

std::string scientific(double value, int decimals) {
  char text[64];
  std::snprintf(text, sizeof text, "%.*e", decimals, value);
  return text;
}

namespace {

constexpr std::size_t kShown = kEchoedLength - 8;  // room for "..." and the count

std::string length_note(std::string_view text) { return " (" + std::to_string(text.size()) + " characters)"; }

// The first kShown bytes of text, one fewer for each UTF-8 continuation byte the cut would split.
std::string_view shown_part(std::string_view text) {
  std::size_t cut = kShown;
  while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80) --cut;
  return text.substr(0, cut);
}

}  // namespace

std::string shortened(std::string_view text) {
  if (text.size() <= kEchoedLength) return std::string(text);
  return std::string(shown_part(text)) + "..." + length_note(text);
}

std::string quoted(std::string_view text) {
  if (text.size() <= kEchoedLength) return "'" + std::string(text) + "'";
  return "'" + std::string(shown_part(text)) + "...'" + length_note(text);
}

}  // namespace gemmtune
