// Text a user gave, as an error message repeats it: whole when short, else its first characters
// and its length, so that a 10,000-digit size or a 10,000-character line does not come back whole.
// Header-only: the parsers' fuzzers (tests/fuzz) build from their own sources alone.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace gemmtune {

inline constexpr std::size_t kEchoedCharacters = 40;

// "1048577"; "1111111111111111111111111111111111111111... (10000 characters)". The cut never
// splits a UTF-8 sequence.
inline std::string echoed(std::string_view text) {
  if (text.size() <= kEchoedCharacters) return std::string(text);
  std::size_t cut = kEchoedCharacters;
  while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80) --cut;
  return std::string(text.substr(0, cut)) + "... (" + std::to_string(text.size()) + " characters)";
}

// "'nx'"; "'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx...' (10000 characters)".
inline std::string quoted(std::string_view text) {
  if (text.size() <= kEchoedCharacters) return "'" + std::string(text) + "'";
  const std::string cut = echoed(text);
  const std::size_t dots = cut.rfind("... (");
  return "'" + cut.substr(0, dots + 3) + "'" + cut.substr(dots + 3);
}

}  // namespace gemmtune
