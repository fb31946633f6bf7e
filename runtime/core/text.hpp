// Small text helpers every layer shares: case folding, numbers with fixed decimals, and input
// echoed in messages cut to a readable length.
#pragma once

#include <string>
#include <string_view>

namespace gemmtune {

// ASCII lower case.
std::string lower(std::string_view text);

// printf's "%.*f": "3.142" for fixed(3.14159, 3).
std::string fixed(double value, int decimals);
// printf's "%.*e": "3.1e-07" for scientific(3.14e-7, 1), for errors.
std::string scientific(double value, int decimals);

// Input echoed in a message: `text` itself, or, longer than kEchoedLength characters, its start
// and how long it is ("999999... (10000 characters)"), so that a line of garbage does not fill
// the screen. The cut never splits a UTF-8 character. quoted() puts the text in single quotes: "'999999...' (10000 characters)".
inline constexpr std::size_t kEchoedLength = 40;
std::string shortened(std::string_view text);
std::string quoted(std::string_view text);

}  // namespace gemmtune
