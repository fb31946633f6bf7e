// What a fuzzer asserts: a broken invariant prints what broke, for which input, and aborts, which
// libFuzzer reports as a crash and saves the input for.
#pragma once

#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

namespace gemmtune::fuzz {

[[noreturn]] inline void invariant_broken(std::string_view what, std::string_view input) {
  std::fprintf(stderr, "invariant broken: %.*s\ninput (%zu bytes): '%.*s'\n", static_cast<int>(what.size()),
               what.data(), input.size(), static_cast<int>(input.size()), input.data());
  std::abort();
}

inline void require(bool holds, std::string_view what, std::string_view input) {
  if (!holds) invariant_broken(what, input);
}

inline std::string_view as_text(const unsigned char* data, std::size_t size) {
  return {reinterpret_cast<const char*>(data), size};
}

}  // namespace gemmtune::fuzz
