// The arch names users type map to the one key of the GPU they mean: the arch the device reports.
#include <catch2/catch.hpp>

#include "arch_name.hpp"

using gemmtune::canonical_arch;

TEST_CASE("arch names: every way of writing Hopper is sm_90", "[arch]") {
  for (const char* typed : {"sm_90", "SM_90", "sm90", "sm_90a", "compute_90", "compute_90a", "9.0", "90", " sm_90 "}) {
    INFO(typed);
    CHECK(canonical_arch(typed) == "sm_90");
  }
}

TEST_CASE("arch names: other generations keep their number", "[arch]") {
  CHECK(canonical_arch("sm_80") == "sm_80");
  CHECK(canonical_arch("8.6") == "sm_86");
  CHECK(canonical_arch("sm_100a") == "sm_100");
  CHECK(canonical_arch("sm_100f") == "sm_100");
  CHECK(canonical_arch("10.0") == "sm_100");
  CHECK(canonical_arch("120") == "sm_120");
  CHECK(canonical_arch("sm_75") == "sm_75");
}

TEST_CASE("arch names: anything else is refused, naming the forms accepted", "[arch]") {
  for (const char* typed : {"", "hopper", "sm_", "9", "9.", ".0", "9.00", "sm_9.0", "1000", "sm_090", "90a", "sm_90b",
                            "compute_", "h200"}) {
    INFO(typed);
    CHECK_THROWS_WITH(canonical_arch(typed), Catch::Contains("is not a GPU arch: write it as sm_90"));
  }
}
