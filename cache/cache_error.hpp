// Errors of the SQLite store. Each names the failed call (an API function or the SQL text),
// SQLite's message and the database file, so that the message alone says what failed where.
#pragma once

#include <stdexcept>
#include <string>
#include <string_view>

struct sqlite3;

namespace gemmtune::cache {

class Error : public std::runtime_error {
 public:
  // `code` is SQLite's extended result code, 0 for errors this layer detects itself.
  Error(std::string_view call, std::string_view message, const std::string& db_path, int code = 0);

  int code() const noexcept { return code_; }
  const std::string& db_path() const noexcept { return db_path_; }

 private:
  int code_;
  std::string db_path_;
};

// The database file does not exist and the open mode may not create it.
class NotFoundError : public Error {
 public:
  using Error::Error;
};

// Throws Error unless rc is SQLITE_OK; the message comes from `db` when there is one.
void check(int rc, sqlite3* db, std::string_view call, const std::string& db_path);

}  // namespace gemmtune::cache
