// Problems as written on command lines, statuses as stored, timestamps.
#include <catch2/catch.hpp>

#include <regex>

#include "cache_records.hpp"

using namespace gemmtune::cache;

TEST_CASE("cache: problems parse with or without a layout and print back", "[cache]") {
  CHECK(parse_problem("nt:128x256x512") == Problem{"nt", 128, 256, 512});
  CHECK(parse_problem("TN:1x2x3") == Problem{"tn", 1, 2, 3});
  CHECK(parse_problem("4096x4096x4096") == Problem{"nn", 4096, 4096, 4096});
  CHECK(to_string(Problem{"tt", 7, 8, 9}) == "tt:7x8x9");
  CHECK(parse_problem(to_string(Problem{"nt", 3, 1, 4})) == Problem{"nt", 3, 1, 4});
}

TEST_CASE("cache: malformed problems are refused saying why", "[cache]") {
  CHECK_THROWS_WITH(parse_problem("xy:1x2x3"), Catch::Contains("layout 'xy'"));
  CHECK_THROWS_WITH(parse_problem("1x2"), Catch::Contains("expected [layout:]MxNxK"));
  CHECK_THROWS_WITH(parse_problem("1x0x3"), Catch::Contains("'0' is not a positive integer"));
  CHECK_THROWS_WITH(parse_problem("1x2x3x4"), Catch::Contains("'3x4'"));
  CHECK_THROWS_AS(parse_problem("nn:1xax3"), std::invalid_argument);
}

TEST_CASE("cache: every status round-trips through its stored name", "[cache]") {
  for (Status status : {Status::Ok, Status::CompileError, Status::ResourceLimit, Status::Spills,
                        Status::LaunchFailure, Status::Crash, Status::Timeout,
                        Status::WrongResult}) {
    CHECK(parse_status(to_string(status)) == status);
  }
  CHECK(to_string(Status::WrongResult) == "wrong_result");
  CHECK_THROWS_WITH(parse_status("exploded"), Catch::Contains("known: ok, compile_error"));
}

TEST_CASE("cache: now_utc_iso8601 is UTC ISO-8601 with milliseconds", "[cache]") {
  const std::string now = now_utc_iso8601();
  CHECK(std::regex_match(now, std::regex(R"(20\d\d-\d\d-\d\dT\d\d:\d\d:\d\d\.\d\d\dZ)")));
  CHECK(now_utc_iso8601() >= now);
}
