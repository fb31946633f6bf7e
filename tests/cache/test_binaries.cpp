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

TEST_CASE("cache: the stored cubins are listed without their bytes and counted by arch and NVRTC", "[cache]") {
  Database db = Database::open(":memory:", OpenMode::ReadWrite);
  CHECK(db.binaries().empty());
  CHECK(to_string(db.binary_counts()) == "no cubins");
  Binary binary = sample_binary();
  db.store_binary(binary);
  CHECK(to_string(db.binary_counts()) == "1 cubin for sm_90 (NVRTC 13.0)");
  binary.key.kernel_name = reg2d_name(64);
  db.store_binary(binary);
  binary.key.arch = "sm_80";
  db.store_binary(binary);
  const std::vector<BinaryInfo> all = db.binaries();
  REQUIRE(all.size() == 3);
  CHECK(all[0].key.arch == "sm_80");  // by arch, then name
  CHECK(all[1].key.kernel_name == reg2d_name(128));
  CHECK(all[2].key.kernel_name == reg2d_name(64));
  CHECK(all[1].cubin_bytes == 3 * 256);
  CHECK(all[1].registers == 128);
  CHECK(all[1].compile_log == "warning: something\n");
  CHECK(all[1].compiled_at == "2024-05-01T12:00:00.000Z");
  CHECK(to_string(db.binary_counts()) == "3 cubins: 1 for sm_80 (NVRTC 13.0), 2 for sm_90 (NVRTC 13.0)");
}
