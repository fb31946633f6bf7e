#include "integrity_check.hpp"

#include <sqlite3.h>

#include <string>
#include <vector>

#include "cache_error.hpp"
#include "sqlite_connection.hpp"
#include "sqlite_statement.hpp"

namespace gemmtune::cache {
namespace {

constexpr std::size_t kFindingsShown = 3;

// The rows of a quick_check: "ok", or one line a problem found.
std::vector<std::string> quick_check(const Connection& connection, const std::string& pragma) {
  std::vector<std::string> rows;
  Statement statement = connection.prepare(pragma);
  while (statement.step()) rows.push_back(statement.column<std::string>(0));
  return rows;
}

std::string quoted_identifier(const std::string& name) {
  std::string quoted = "\"";
  for (char c : name) quoted += c == '"' ? std::string("\"\"") : std::string(1, c);
  return quoted + "\"";
}

// What quick_check says is wrong, within the time kWholeFileCheckBytes explains; empty when
// nothing is.
std::vector<std::string> findings(const Connection& connection, std::int64_t whole_file_check_bytes) {
  const std::int64_t bytes =
      connection.prepare("SELECT page_count * page_size FROM pragma_page_count, pragma_page_size")
          .single_value<std::int64_t>();
  std::vector<std::string> pragmas;
  if (bytes <= whole_file_check_bytes) {
    pragmas.push_back("PRAGMA quick_check(" + std::to_string(kFindingsShown) + ")");
  } else {
    Statement tables = connection.prepare(
        "SELECT name FROM sqlite_schema WHERE type = 'table' AND name <> 'binaries'"
        " AND name NOT LIKE 'sqlite%' ORDER BY name");
    while (tables.step()) {
      pragmas.push_back("PRAGMA quick_check(" + quoted_identifier(tables.column<std::string>(0)) + ")");
    }
  }
  std::vector<std::string> found;
  for (const std::string& pragma : pragmas) {
    for (std::string& row : quick_check(connection, pragma)) {
      if (row != "ok" && found.size() < kFindingsShown) found.push_back(std::move(row));
    }
  }
  return found;
}

}  // namespace

void refuse_if_damaged(const Connection& connection, std::int64_t whole_file_check_bytes) {
  std::vector<std::string> found;
  try {
    found = findings(connection, whole_file_check_bytes);
  } catch (const Error& error) {
    // A page the check itself cannot read (the schema's, a table's root) stops it with an error.
    const int primary = error.code() & 0xff;
    if (primary != SQLITE_CORRUPT && primary != SQLITE_NOTADB) throw;
    found.push_back(sqlite3_errstr(error.code()));
  }
  if (found.empty()) return;
  std::string what;
  for (const std::string& finding : found) what += (what.empty() ? "" : "; ") + finding;
  const std::string& path = connection.path();
  throw Error("open",
              "the database is damaged (SQLite's quick_check: " + what +
                  "); left unchanged. Restore it from a copy, or copy what SQLite can still read "
                  "into a new file: sqlite3 " + path + " .recover | sqlite3 recovered.db",
              path, SQLITE_CORRUPT);
}

}  // namespace gemmtune::cache
