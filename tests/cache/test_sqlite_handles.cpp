// The RAII handles: statements bind and read every type; errors carry context; transactions
// roll back unless committed.
#include <catch2/catch.hpp>
#include <sqlite3.h>

#include <stdexcept>

#include "cache_error.hpp"
#include "sqlite_connection.hpp"
#include "sqlite_statement.hpp"
#include "sqlite_transaction.hpp"

using namespace gemmtune::cache;

namespace {

Connection memory_connection() {
  Connection connection(":memory:", ":memory:", SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE);
  connection.exec("CREATE TABLE t (i INTEGER, r REAL, s TEXT, b BLOB, maybe REAL)");
  return connection;
}

std::int64_t count(const Connection& connection) {
  return connection.prepare("SELECT COUNT(*) FROM t").single_value<std::int64_t>();
}

}  // namespace

TEST_CASE("cache: a statement binds and reads back integers, reals, text, blobs and NULL", "[cache]") {
  const Connection connection = memory_connection();
  const std::vector<char> blob = {'\0', 'a', '\xff', '\0'};
  connection.prepare("INSERT INTO t VALUES (?1, ?2, ?3, ?4, ?5)")
      .bind_all(std::int64_t{1} << 40, 2.5, std::string("text, with 'quotes'"),
                BlobRef{blob.data(), blob.size()}, std::optional<double>())
      .run();
  Statement row = connection.prepare("SELECT i, r, s, b, maybe, r FROM t");
  REQUIRE(row.step());
  CHECK(row.column<std::int64_t>(0) == (std::int64_t{1} << 40));
  CHECK(row.column<double>(1) == 2.5);
  CHECK(row.column<std::string>(2) == "text, with 'quotes'");
  CHECK(row.column<std::vector<char>>(3) == blob);
  CHECK(row.column<std::optional<double>>(4) == std::nullopt);
  CHECK(row.column<std::optional<double>>(5) == 2.5);
  CHECK_FALSE(row.step());
}

TEST_CASE("cache: an SQL error names the statement, SQLite's message and the database", "[cache]") {
  const Connection connection = memory_connection();
  try {
    connection.prepare("SELECT no_such_column FROM t");
    FAIL("prepare of a bad statement succeeded");
  } catch (const Error& error) {
    const std::string message = error.what();
    CHECK_THAT(message, Catch::Contains("SELECT no_such_column FROM t"));
    CHECK_THAT(message, Catch::Contains("no such column"));
    CHECK_THAT(message, Catch::StartsWith(":memory:"));
    CHECK(error.db_path() == ":memory:");
    CHECK((error.code() & 0xff) == SQLITE_ERROR);
  }
}

TEST_CASE("cache: single_value throws when the statement gives no row", "[cache]") {
  const Connection connection = memory_connection();
  CHECK_THROWS_WITH(connection.prepare("SELECT i FROM t").single_value<int>(),
                    Catch::Contains("returned no row"));
}

TEST_CASE("cache: a transaction left by an exception rolls back", "[cache]") {
  const Connection connection = memory_connection();
  try {
    Transaction transaction(connection);
    connection.exec("INSERT INTO t (i) VALUES (1)");
    REQUIRE(count(connection) == 1);
    throw std::runtime_error("interrupted");
  } catch (const std::runtime_error&) {
  }
  CHECK(count(connection) == 0);
}

TEST_CASE("cache: a committed transaction persists, and the next one can start", "[cache]") {
  const Connection connection = memory_connection();
  {
    Transaction transaction(connection);
    connection.exec("INSERT INTO t (i) VALUES (1)");
    transaction.commit();
  }
  {
    Transaction transaction(connection);  // throws if the first were still open
    connection.exec("INSERT INTO t (i) VALUES (2)");
  }
  CHECK(count(connection) == 1);
}

TEST_CASE("cache: file_uri escapes what a URI reserves and keeps absolute paths absolute", "[cache]") {
  CHECK(file_uri("/tmp/a b?#%.db", "mode=ro") == "file:///tmp/a%20b%3F%23%25.db?mode=ro");
  CHECK(file_uri("tuned.db") == "file:tuned.db");
}
