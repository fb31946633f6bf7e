// Claims of concurrent dry runs: one holder a key, released on request or when its holder ends,
// and the file beside the database removed by the last holder. Two CompileClaims in one process
// stand for two runs: open-file-description locks conflict between them as between processes.
#include <catch2/catch.hpp>
#include <unistd.h>

#include <filesystem>
#include <optional>
#include <string>

#include "compile_claims.hpp"

using gemmtune::cache::BinaryKey;
using gemmtune::tuner::CompileClaims;
namespace fs = std::filesystem;

namespace {

BinaryKey key(const std::string& kernel) { return {kernel, "hash", "-O3", "sm_90", "13.0"}; }

std::string scratch_database() {
  const fs::path dir = fs::temp_directory_path() / ("gemmtune_claims_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  return (dir / "tuned.db").string();
}

}  // namespace

TEST_CASE("claims: a claimed candidate is another run's to compile until it is released", "[claims]") {
  const std::string db = scratch_database();
  CompileClaims a(db), b(db);
  CHECK(fs::exists(db + "-claims"));
  CHECK(a.try_claim(key("k1")));
  CHECK_FALSE(b.try_claim(key("k1")));
  CHECK(a.try_claim(key("k1")));  // its own claim, again
  CHECK(b.try_claim(key("k2")));  // another key
  CHECK_FALSE(a.try_claim(key("k2")));
  BinaryKey other_arch = key("k1");
  other_arch.arch = "sm_80";
  CHECK(b.try_claim(other_arch));  // the whole key counts, not the name alone
  a.release(key("k1"));
  CHECK(b.try_claim(key("k1")));
  fs::remove_all(fs::path(db).parent_path());
}

TEST_CASE("claims: a run that ends leaves no claim, and the last one removes the file", "[claims]") {
  const std::string db = scratch_database();
  std::optional<CompileClaims> a(std::in_place, db);
  CompileClaims b(db);
  CHECK(a->try_claim(key("k1")));
  CHECK(b.try_claim(key("k2")));
  a.reset();  // ends holding k1, as a killed run would: its locks go with it
  CHECK(fs::exists(db + "-claims"));  // b still holds k2
  CHECK(b.try_claim(key("k1")));
  {
    CompileClaims c(db);
    CHECK_FALSE(c.try_claim(key("k1")));
  }
  CHECK(fs::exists(db + "-claims"));
  fs::remove_all(fs::path(db).parent_path());
}

TEST_CASE("claims: the last run removes the file, and a run after it makes a new one", "[claims]") {
  const std::string db = scratch_database();
  {
    CompileClaims a(db);
    CHECK(a.try_claim(key("k1")));
  }
  CHECK_FALSE(fs::exists(db + "-claims"));
  // A run that opened the file before another removed it claims in the file the path names.
  CompileClaims early(db);
  {
    CompileClaims finishing(db);
  }  // finds no claim held, removes the file early opened
  CHECK_FALSE(fs::exists(db + "-claims"));
  CHECK(early.try_claim(key("k1")));
  CHECK(fs::exists(db + "-claims"));
  CompileClaims late(db);
  CHECK_FALSE(late.try_claim(key("k1")));
  fs::remove_all(fs::path(db).parent_path());
}

TEST_CASE("claims: an in-memory database has no file, and every claim succeeds", "[claims]") {
  CompileClaims a(":memory:"), b(":memory:");
  CHECK(a.try_claim(key("k1")));
  CHECK(b.try_claim(key("k1")));
}
