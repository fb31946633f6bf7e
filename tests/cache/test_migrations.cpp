// The migration mechanism: steps apply in order, each atomically with its version.
#include <catch2/catch.hpp>
#include <sqlite3.h>

#include <vector>

#include "cache_test_support.hpp"
#include "schema_migrations.hpp"

using namespace gemmtune::cache;
using namespace gemmtune::cache::test;

namespace {

bool has_table(const Connection& connection, const std::string& name) {
  Statement row = connection.prepare("SELECT 1 FROM sqlite_schema WHERE name = ?1");
  row.bind_all(name);
  return row.step();
}

std::vector<Migration> real_steps_then(std::initializer_list<Migration> extra) {
  std::vector<Migration> steps(schema_migrations().begin(), schema_migrations().end());
  steps.insert(steps.end(), extra);
  return steps;
}

}  // namespace

TEST_CASE("cache: the shipped migrations are numbered 1, 2, ... and end at the latest version",
          "[cache]") {
  const auto steps = schema_migrations();
  REQUIRE_FALSE(steps.empty());
  for (std::size_t i = 0; i < steps.size(); ++i) CHECK(steps[i].version == int(i) + 1);
  CHECK(latest_schema_version() == steps.back().version);
}

TEST_CASE("cache: a database of the current version migrates to a newer step, keeping its data",
          "[cache]") {
  TempDir dir;
  const std::string path = dir.file("tuned.db");
  const auto gpu_id = Database::open(path, OpenMode::ReadWrite).upsert_gpu(h200());

  const int next = latest_schema_version() + 1;
  const auto steps = real_steps_then(
      {{next, "add notes", "CREATE TABLE notes (text TEXT); INSERT INTO notes VALUES ('hi')"}});
  const Connection connection(path, path, SQLITE_OPEN_READWRITE);
  CHECK(apply_migrations(connection, steps) == next);
  CHECK(read_user_version(connection) == next);
  CHECK(connection.prepare("SELECT text FROM notes").single_value<std::string>() == "hi");
  CHECK(connection.prepare("SELECT id FROM gpus").single_value<std::int64_t>() == gpu_id);
  // Applying again changes nothing: the step is not repeated.
  CHECK(apply_migrations(connection, steps) == next);
  CHECK(connection.prepare("SELECT COUNT(*) FROM notes").single_value<int>() == 1);
}

TEST_CASE("cache: a failing migration step leaves the database at the previous version", "[cache]") {
  const Connection connection(":memory:", ":memory:", SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE);
  const int latest = latest_schema_version();
  const auto steps = real_steps_then(
      {{latest + 1, "half-done", "CREATE TABLE half (x); CREATE TABLE gpus (x)"}});
  CHECK_THROWS_WITH(apply_migrations(connection, steps),
                    Catch::Contains("table gpus already exists"));
  CHECK(read_user_version(connection) == latest);
  CHECK_FALSE(has_table(connection, "half"));
}

TEST_CASE("cache: misnumbered migration steps are a programming error", "[cache]") {
  const Connection connection(":memory:", ":memory:", SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE);
  const std::vector<Migration> steps = {{2, "skips 1", "CREATE TABLE x (y)"}};
  CHECK_THROWS_AS(apply_migrations(connection, steps), std::logic_error);
  CHECK_FALSE(has_table(connection, "x"));
}
