// The compile_outcomes table (schema 3): a database written by schema 2 migrates keeping its
// data, outcomes are stored and found by their cubin key, replaced by a later record, listed by
// arch and NVRTC version, and merged without replacing the target's.
#include <catch2/catch.hpp>
#include <sqlite3.h>

#include <vector>

#include "cache_test_support.hpp"
#include "sample_databases.hpp"
#include "schema_migrations.hpp"
#include "tuning_db_merge.hpp"

using namespace gemmtune::cache;
using namespace gemmtune::cache::test;

namespace {

CompileOutcomeRecord spilling(const std::string& name, const std::string& arch = "sm_90") {
  CompileOutcomeRecord outcome;
  outcome.key = {name, "h", "-std=c++17", arch, "13.0"};
  outcome.compiled = true;
  outcome.registers = 255;
  outcome.spill_store_bytes = 140;
  outcome.spill_load_bytes = 148;
  outcome.static_smem_bytes = 0;
  outcome.compile_seconds = 2.5;
  outcome.compiled_at = "2026-12-02T01:00:00.000Z";
  return outcome;
}

}  // namespace

TEST_CASE("cache: a schema 2 database gains compile_outcomes and keeps its binaries and measurements",
          "[cache]") {
  TempDir dir;
  const std::string path = dir.file("v1.db");
  {
    // Written by the previous schema: steps 1 and 2 only, then rows as that code wrote them.
    const Connection connection(path, path, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE);
    REQUIRE(apply_migrations(connection, schema_migrations().first(2)) == 2);
    connection.exec(
        "INSERT INTO binaries VALUES ('k', 'h', '-std=c++17', 'sm_90', '13.0', 'lowered', x'00', 64, 0, 'log',"
        " '2026-01-01T00:00:00.000Z')");
    connection.exec("INSERT INTO gpus (name, cc_major, cc_minor, sm_count) VALUES ('NVIDIA H200', 9, 0, 132)");
  }
  Database db = Database::open(path, OpenMode::ReadWrite);
  CHECK(read_user_version(db.connection()) == latest_schema_version());
  CHECK(count_rows(db, "compile_outcomes") == 0);
  CHECK(count_rows(db, "binaries") == 1);
  CHECK(db.has_binary({"k", "h", "-std=c++17", "sm_90", "13.0"}));
  CHECK(db.gpus().size() == 1);
  db.store_compile_outcome(spilling("k"));
  CHECK(db.find_compile_outcome({"k", "h", "-std=c++17", "sm_90", "13.0"}) == spilling("k"));
}

TEST_CASE("cache: compile outcomes are found by the whole key, replaced by a later record, listed by arch",
          "[cache]") {
  Database db = Database::open(":memory:", OpenMode::ReadWrite);
  db.store_compile_outcome(spilling("a"));
  db.store_compile_outcome(spilling("b", "sm_80"));
  CompileOutcomeRecord failed = spilling("c");
  failed.compiled = false;
  failed.registers = failed.spill_store_bytes = failed.spill_load_bytes = failed.static_smem_bytes = -1;
  failed.compile_seconds.reset();
  failed.error_text = "nvrtc: error: too many resources";
  db.store_compile_outcome(failed);
  CHECK(db.find_compile_outcome({"c", "h", "-std=c++17", "sm_90", "13.0"}) == failed);
  CHECK_FALSE(db.find_compile_outcome({"a", "other sources", "-std=c++17", "sm_90", "13.0"}));
  CHECK_FALSE(db.find_compile_outcome({"a", "h", "-std=c++17", "sm_90", "12.8"}));
  const std::vector<CompileOutcomeRecord> sm90 = db.compile_outcomes("sm_90", "13.0");
  REQUIRE(sm90.size() == 2);
  CHECK(sm90[0].key.kernel_name == "a");
  CHECK(sm90[1].key.kernel_name == "c");
  CompileOutcomeRecord again = spilling("a");
  again.compile_seconds = 1.0;
  db.store_compile_outcome(again);
  CHECK(db.find_compile_outcome(again.key)->compile_seconds == 1.0);
  CHECK(count_rows(db, "compile_outcomes") == 3);
}

TEST_CASE("cache: merge copies compile outcomes and keeps the target's of the same key", "[cache]") {
  TempDir dir;
  const std::string into_path = dir.file("into.db"), from_path = dir.file("from.db");
  {
    Database from = Database::open(from_path, OpenMode::ReadWrite);
    from.store_compile_outcome(spilling("a"));
    CompileOutcomeRecord other = spilling("b");
    other.registers = 100;
    from.store_compile_outcome(other);
  }
  Database into = Database::open(into_path, OpenMode::ReadWrite);
  CompileOutcomeRecord mine = spilling("b");
  mine.registers = 200;
  into.store_compile_outcome(mine);
  const std::vector<std::string> sources{from_path};
  const MergeCounts added = merge_databases(into, sources);
  CHECK(added.compile_outcomes == 1);
  CHECK(into.find_compile_outcome(spilling("a").key) == spilling("a"));
  CHECK(into.find_compile_outcome(mine.key)->registers == 200);
}
