#include "sqlite_connection.hpp"

#include <sqlite3.h>

#include <cstdio>

#include "cache_error.hpp"
#include "sqlite_statement.hpp"

namespace gemmtune::cache {

std::string file_uri(const std::string& path, std::string_view query) {
  // An absolute path gets an empty authority ("file:///..."), so "//host" is never misread.
  std::string uri = path.starts_with('/') ? "file://" : "file:";
  for (unsigned char c : path) {
    if (c == '%' || c == '?' || c == '#' || c <= ' ' || c >= 0x7f) {
      char escaped[4];
      std::snprintf(escaped, sizeof escaped, "%%%02X", c);
      uri += escaped;
    } else {
      uri += static_cast<char>(c);
    }
  }
  if (!query.empty()) {
    uri += '?';
    uri += query;
  }
  return uri;
}

void Connection::Close::operator()(sqlite3* db) const noexcept {
  // close_v2 defers the close until outstanding statements finish, so it cannot fail here.
  sqlite3_close_v2(db);
}

Connection::Connection(const std::string& path, const std::string& filename, int flags)
    : path_(path) {
  sqlite3* db = nullptr;
  const int rc = sqlite3_open_v2(filename.c_str(), &db, flags, nullptr);
  db_.reset(db);  // sqlite3_open_v2 hands back a handle even on failure; it must be closed
  if (rc != SQLITE_OK) {
    check(rc, db, "sqlite3_open_v2", path_);
  }
  sqlite3_extended_result_codes(db, 1);
}

void Connection::exec(const std::string& sql) const {
  check(sqlite3_exec(handle(), sql.c_str(), nullptr, nullptr, nullptr), handle(), sql, path_);
}

Statement Connection::prepare(std::string_view sql) const { return Statement(*this, sql); }

std::int64_t Connection::changes() const noexcept { return sqlite3_changes64(handle()); }

}  // namespace gemmtune::cache
