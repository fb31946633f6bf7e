// The tools' numeric option checks: what they accept, and messages that say what is wanted and
// what was given.
#include <catch2/catch.hpp>

#include <string>

#include "numeric_options.hpp"

namespace {

// What the check says of `text` ("" when it accepts it).
std::string verdict(const CLI::Validator& check, std::string text) { return check(text); }

}  // namespace

TEST_CASE("tools: a positive number is finite and above 0, written as a number and nothing else", "[tools]") {
  const CLI::Validator check = gemmtune::positive_number();
  for (const char* good : {"1", "0.5", "+2", "1e3", "90"}) CHECK(verdict(check, good).empty());
  CHECK(verdict(check, "-1") == "must be a number > 0 (got '-1')");
  for (const char* bad : {"0", "-0", "inf", "nan", "abc", "2x", " 2", "0x10", "+", ""}) {
    INFO(bad);
    CHECK(verdict(check, bad) == "must be a number > 0 (got '" + std::string(bad) + "')");
  }
}

TEST_CASE("tools: a finite number may be 0 or negative", "[tools]") {
  const CLI::Validator check = gemmtune::finite_number();
  for (const char* good : {"0", "-1.5", "+0.7", "1e-3"}) CHECK(verdict(check, good).empty());
  CHECK(verdict(check, "inf") == "must be a finite number (got 'inf')");
  CHECK(verdict(check, "1,5") == "must be a finite number (got '1,5')");
}

TEST_CASE("tools: a whole number lies in its range and has no fraction", "[tools]") {
  const CLI::Validator check = gemmtune::whole_number(1, 65536);
  for (const char* good : {"1", "65536", "+8"}) CHECK(verdict(check, good).empty());
  for (const char* bad : {"0", "65537", "1.5", "1e3", "99999999999999999999", "-3", "many"}) {
    INFO(bad);
    CHECK(verdict(check, bad) == "must be a whole number from 1 to 65536 (got '" + std::string(bad) + "')");
  }
}
