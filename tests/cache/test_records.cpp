// Problem rows as printed, statuses as stored, timestamps.
#include <catch2/catch.hpp>

#include <regex>

#include "cache_records.hpp"

using namespace gemmtune::cache;

TEST_CASE("cache: a problem row prints as layout:MxNxK", "[cache]") {
  CHECK(to_string(Problem{"tt", 7, 8, 9}) == "tt:7x8x9");
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
