// parse_problem ("nn:4096x4096x4096") and the dimension parser under it: any input either
// parses to a problem within the limits that round-trips through to_string, or is refused with
// std::invalid_argument naming the input; nothing else, and never a crash.
#include <charconv>
#include <cstdint>
#include <exception>
#include <stdexcept>
#include <string>

#include "fuzz_invariant.hpp"
#include "problem.hpp"

using gemmtune::fuzz::require;
using namespace gemmtune;

namespace {

void check_problem(std::string_view text) {
  Problem problem;
  try {
    problem = parse_problem(text);
  } catch (const std::invalid_argument& error) {
    require(std::string_view(error.what()).starts_with("problem '"), "the error names the problem text", text);
    return;
  }
  require(!problem_limit_violation(problem), "a parsed problem is within the limits", text);
  const std::string canonical = to_string(problem);
  Problem again;
  try {
    again = parse_problem(canonical);
  } catch (const std::invalid_argument& error) {
    gemmtune::fuzz::invariant_broken("to_string of a parsed problem parses: " + std::string(error.what()), text);
  }
  require(again == problem, "parse_problem(to_string(p)) == p", text);
  require(to_string(again) == canonical, "to_string is canonical", text);
}

void check_dimension(std::string_view text) {
  int value = 0;
  try {
    value = parse_dimension(text, "M");
  } catch (const std::invalid_argument& error) {
    require(std::string_view(error.what()).starts_with("M "), "the error names the dimension", text);
    return;
  }
  require(value >= 1 && value <= kMaxDimension, "a parsed dimension is in 1..2^20", text);
  require(text.find_first_not_of("0123456789") == std::string_view::npos, "only digits parse", text);
  require(parse_dimension(std::to_string(value), "M") == value, "a dimension round-trips", text);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const unsigned char* data, std::size_t size) {
  const std::string_view text = gemmtune::fuzz::as_text(data, size);
  try {
    check_problem(text);
    check_dimension(text);
  } catch (const std::exception& error) {
    gemmtune::fuzz::invariant_broken("an undocumented exception: " + std::string(error.what()), text);
  }
  return 0;
}
