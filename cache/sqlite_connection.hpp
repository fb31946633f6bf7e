// RAII for an SQLite connection (sqlite3*). Knows the file it was opened on, for messages.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

struct sqlite3;

namespace gemmtune::cache {

class Statement;

// The SQLite URI of a file ("file:/path/to/tuned.db?query"), percent-encoding what a URI
// reserves, so that URI parameters such as mode=ro apply whatever the file is called.
std::string file_uri(const std::string& path, std::string_view query = {});

class Connection {
 public:
  // Opens `filename` (a URI where flags have SQLITE_OPEN_URI) with sqlite3_open_v2 flags.
  // `path` is the file as the user named it, used in every error message.
  Connection(const std::string& path, const std::string& filename, int flags);

  sqlite3* handle() const noexcept { return db_.get(); }
  const std::string& path() const noexcept { return path_; }

  // Runs one or more statements that return no rows (schema scripts, pragmas, BEGIN).
  void exec(const std::string& sql) const;
  Statement prepare(std::string_view sql) const;
  // Rows changed by the last INSERT, UPDATE or DELETE.
  std::int64_t changes() const noexcept;

 private:
  struct Close {
    void operator()(sqlite3* db) const noexcept;
  };
  std::unique_ptr<sqlite3, Close> db_;
  std::string path_;
};

}  // namespace gemmtune::cache
