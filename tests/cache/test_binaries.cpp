// Compiled kernels: stored and found by their full key, bytes intact.
#include <catch2/catch.hpp>

#include "cache_test_support.hpp"

using namespace gemmtune::cache;
using namespace gemmtune::cache::test;

namespace {

Binary sample_binary() {
  Binary binary;
  binary.key = {reg2d_name(128), "sha256:abc", "-arch=sm_90 -std=c++17", "sm_90", "13.0"};
  binary.lowered_name = "_ZN8gemmtune12reg2d_sgemmILi128EEEvv";
  for (int i = 0; i < 3 * 256; ++i) binary.cubin.push_back(static_cast<char>(i));  // zeros too
  binary.registers = 128;
  binary.spill_bytes = 0;
  binary.compile_log = "warning: something\n";
  binary.compiled_at = "2024-05-01T12:00:00.000Z";
  return binary;
}

}  // namespace

TEST_CASE("cache: a binary round-trips with identical bytes, across a reopen", "[cache]") {
  TempDir dir;
  const std::string path = dir.file("tuned.db");
  const Binary binary = sample_binary();
  Database::open(path, OpenMode::ReadWrite).store_binary(binary);
  const auto found = Database::open(path, OpenMode::ReadOnly).find_binary(binary.key);
  REQUIRE(found);
  CHECK(found->cubin == binary.cubin);
  CHECK(*found == binary);
}

TEST_CASE("cache: a binary is found only under its whole key", "[cache]") {
  Database db = Database::open(":memory:", OpenMode::ReadWrite);
  const Binary binary = sample_binary();
  db.store_binary(binary);
  BinaryKey other_arch = binary.key;
  other_arch.arch = "sm_80";
  BinaryKey other_source = binary.key;
  other_source.source_hash = "sha256:def";
  BinaryKey other_nvrtc = binary.key;
  other_nvrtc.nvrtc_version = "12.9";
  CHECK_FALSE(db.find_binary(other_arch));
  CHECK_FALSE(db.find_binary(other_source));
  CHECK_FALSE(db.find_binary(other_nvrtc));
  CHECK(db.find_binary(binary.key));
}

TEST_CASE("cache: storing a binary again replaces it, and compiled_at defaults to now", "[cache]") {
  Database db = Database::open(":memory:", OpenMode::ReadWrite);
  Binary binary = sample_binary();
  db.store_binary(binary);
  binary.cubin = {'n', 'e', 'w'};
  binary.compiled_at.clear();
  db.store_binary(binary);
  const auto found = db.find_binary(binary.key);
  REQUIRE(found);
  CHECK(found->cubin == std::vector<char>{'n', 'e', 'w'});
  CHECK(found->compiled_at.size() == now_utc_iso8601().size());
  CHECK(count_rows(db, "binaries") == 1);
}
