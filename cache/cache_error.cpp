#include "cache_error.hpp"

#include <sqlite3.h>

namespace gemmtune::cache {
namespace {

// Migration scripts are long; the first line or so is enough to recognise the statement.
std::string shorten(std::string_view call) {
  constexpr std::size_t kMaxCall = 160;
  std::string text(call.substr(0, kMaxCall));
  for (char& c : text) {
    if (c == '\n') c = ' ';
  }
  if (call.size() > kMaxCall) text += "...";
  return text;
}

}  // namespace

Error::Error(std::string_view call, std::string_view message, const std::string& db_path,
             int code)
    : std::runtime_error(db_path + ": " + shorten(call) + ": " + std::string(message)),
      code_(code),
      db_path_(db_path) {}

void check(int rc, sqlite3* db, std::string_view call, const std::string& db_path) {
  if (rc == SQLITE_OK) return;
  if (db == nullptr) throw Error(call, sqlite3_errstr(rc), db_path, rc);
  throw Error(call, sqlite3_errmsg(db), db_path, sqlite3_extended_errcode(db));
}

}  // namespace gemmtune::cache
