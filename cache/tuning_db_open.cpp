// Opening: every check that can refuse a file runs before anything is written to it.
#include <sqlite3.h>
#include <unistd.h>

#include <array>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <thread>

#include "integrity_check.hpp"
#include "schema_migrations.hpp"
#include "sqlite_statement.hpp"
#include "tuning_db.hpp"

namespace gemmtune::cache {
namespace {

constexpr int kBusyTimeoutMs = 10'000;

bool is_in_memory(const std::string& path) { return path == ":memory:"; }

// The folder a database file is in ("." for a bare name).
std::filesystem::path folder_of(const std::string& path) {
  const std::filesystem::path parent = std::filesystem::path(path).parent_path();
  return parent.empty() ? std::filesystem::path(".") : parent;
}

// SQLite can take a file shorter than a page for an empty database (PRAGMA user_version reads 0)
// and a migration would then write a schema over it, so the header is checked before SQLite
// opens anything; SQLite's first read catches later damage (NOTADB, CORRUPT).
void refuse_unless_sqlite_file(const std::string& path, OpenMode mode) {
  namespace fs = std::filesystem;
  std::error_code error;
  // Decided by this one stat: another process may create the file a moment later.
  const fs::file_status status = fs::status(path, error);
  if (status.type() == fs::file_type::not_found) {
    if (mode == OpenMode::ReadOnly) {
      throw NotFoundError("open", "no such database file (read-only opens never create one)",
                          path, SQLITE_CANTOPEN);
    }
    if (!fs::is_directory(folder_of(path))) {
      throw Error("open",
                  "the folder " + folder_of(path).string() +
                      " does not exist, so the database cannot be created in it; create the folder "
                      "first (mkdir -p) or name a file in an existing one",
                  path, SQLITE_CANTOPEN);
    }
    return;  // created by the open
  }
  if (error) throw Error("stat", error.message(), path, SQLITE_CANTOPEN);
  if (fs::is_directory(status)) {
    throw Error("open",
                "is a directory, not a database file; name a file in it, e.g. " +
                    (fs::path(path) / "tuned.db").string(),
                path, SQLITE_CANTOPEN);
  }
  if (!fs::is_regular_file(status)) {
    throw Error("open",
                "is not a regular file (a device, a pipe or a socket), so it cannot hold a database; "
                "name a file, e.g. tuned.db",
                path, SQLITE_CANTOPEN);
  }
  const auto size = fs::file_size(path, error);
  if (error) throw Error("stat", error.message(), path, SQLITE_CANTOPEN);
  if (size == 0) return;  // an empty file is an empty database
  constexpr std::string_view kMagic{"SQLite format 3\0", 16};
  constexpr std::uintmax_t kMinimumPageSize = 512;
  const auto not_a_database = [&] {
    return Error("open", "not an SQLite database, or truncated (left unchanged)", path,
                 SQLITE_NOTADB);
  };
  // Checked before reading, so that a short text file is called what it is, not unreadable.
  if (size < kMinimumPageSize) throw not_a_database();
  std::array<char, kMagic.size()> header{};
  std::ifstream file(path, std::ios::binary);
  if (!file.read(header.data(), header.size())) {
    throw Error("read header", "cannot read the file", path, SQLITE_CANTOPEN);
  }
  if (std::string_view(header.data(), header.size()) != kMagic) throw not_a_database();
}

// SQLite quietly opens a file it may not write read-only even when asked for read-write; the
// first write would then fail mid-run (after a tuner's first compilations), so it is refused here.
void refuse_if_read_only(const Connection& connection) {
  if (sqlite3_db_readonly(connection.handle(), "main") == 1) {
    throw Error("open", "the file is read-only and this program writes to it (left unchanged)",
                connection.path(), SQLITE_READONLY);
  }
}

// Why a new database file could not be created, in the user's terms where the folder says it.
[[noreturn]] void explain_cannot_create(const std::string& path, const Error& error) {
  const std::filesystem::path folder = folder_of(path);
  if (::access(folder.c_str(), W_OK) != 0) {
    throw Error("open",
                "the folder " + folder.string() +
                    " is not writable, so the database cannot be created in it; name a file in a "
                    "folder you may write to",
                path, error.code());
  }
  throw error;
}

Connection connect(const std::string& path, OpenMode mode, std::string_view uri_query = {}) {
  if (is_in_memory(path)) {
    // URI on, as for files, so that merge's ATTACH of "file:...?mode=ro" is read-only here too.
    return Connection(path, path, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_URI);
  }
  const int access = mode == OpenMode::ReadOnly ? SQLITE_OPEN_READONLY
                                                : SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE;
  Connection connection(path, file_uri(path, uri_query), access | SQLITE_OPEN_URI);
  check(sqlite3_busy_timeout(connection.handle(), kBusyTimeoutMs), connection.handle(),
        "sqlite3_busy_timeout", path);
  return connection;
}

struct FileState {
  int version = 0;
  bool has_tables = false;
};

// The first read of the file: it also proves the file is a readable, undamaged database. One
// statement, so a concurrent first open's migration is seen entirely or not at all.
FileState read_state(const Connection& connection) {
  try {
    Statement statement = connection.prepare(
        "SELECT (SELECT user_version FROM pragma_user_version),"
        " EXISTS (SELECT 1 FROM sqlite_schema)");
    statement.step();
    return {statement.column<int>(0), statement.column<int>(1) != 0};
  } catch (const Error& error) {
    const int primary = error.code() & 0xff;
    if (primary == SQLITE_NOTADB || primary == SQLITE_CORRUPT) {
      throw Error("open", "not an SQLite database, or truncated or damaged (left unchanged)",
                  connection.path(), error.code());
    }
    throw;
  }
}

void check_state(const Connection& connection, FileState state, OpenMode mode) {
  const int latest = latest_schema_version();
  if (state.version > latest) {
    throw Error("open",
                "schema version " + std::to_string(state.version) +
                    " is newer than this program's " + std::to_string(latest) +
                    "; use a newer gemmtune (file left unchanged)",
                connection.path());
  }
  if (state.version == 0 && state.has_tables) {
    throw Error("open", "an SQLite database, but not a gemmtune one (left unchanged)",
                connection.path());
  }
  if (mode == OpenMode::ReadOnly && state.version < latest) {
    throw Error("open",
                state.version == 0
                    ? std::string("no gemmtune schema in this database")
                    : "schema version " + std::to_string(state.version) + " is older than " +
                          std::to_string(latest) +
                          "; open it read-write once (tune, tunedb merge) to migrate",
                connection.path());
  }
}

void use_wal(const Connection& connection) {
  // WAL lets the runtime and tunedb read while a tuner writes. The mode is stored in the file,
  // so it is set only when missing: switching needs an exclusive lock. Two processes opening a
  // new file at once can both ask for it, and SQLite then answers SQLITE_BUSY at once rather
  // than waiting (the busy handler is not called where waiting could deadlock): retry until the
  // other one's switch is seen, within the busy timeout.
  // (A switch that cannot happen may also leave the mode as it was without an error: the mode
  // is read again after each try.)
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(kBusyTimeoutMs);
  auto is_wal = [&] { return connection.prepare("PRAGMA journal_mode").single_value<std::string>() == "wal"; };
  while (!is_wal()) {
    if (std::chrono::steady_clock::now() > deadline) {
      throw Error("open", "could not switch the database to WAL mode: another process holds it",
                  connection.path(), SQLITE_BUSY);
    }
    try {
      connection.exec("PRAGMA journal_mode = WAL");
      if (is_wal()) return;
    } catch (const Error& error) {
      if ((error.code() & 0xff) != SQLITE_BUSY) throw;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
}

}  // namespace

Database::Database(Connection connection, OpenMode mode)
    : connection_(std::move(connection)), mode_(mode) {}

Database Database::open(const std::string& path, OpenMode mode) {
  if (!is_in_memory(path)) refuse_unless_sqlite_file(path, mode);
  Connection connection = [&] {
    try {
      return connect(path, mode);
    } catch (const Error& error) {
      if ((error.code() & 0xff) == SQLITE_CANTOPEN && mode == OpenMode::ReadWrite &&
          !std::filesystem::exists(path)) {
        explain_cannot_create(path, error);
      }
      throw;
    }
  }();
  if (mode == OpenMode::ReadWrite) refuse_if_read_only(connection);
  FileState state;
  try {
    state = read_state(connection);
  } catch (const Error& error) {
    if (error.code() != SQLITE_READONLY_DIRECTORY) throw;
    if (mode == OpenMode::ReadWrite) {
      throw Error("open",
                  "the directory is read-only, and writing a WAL database needs its -wal and "
                  "-shm files beside it (left unchanged)",
                  path, error.code());
    }
    // A WAL database in a read-only directory cannot get its -shm index; without a -wal file
    // there is nothing beyond the main file, which immutable=1 then reads without an index.
    if (std::filesystem::exists(path + "-wal")) throw;
    connection = connect(path, mode, "immutable=1");
    state = read_state(connection);
  }
  check_state(connection, state, mode);
  refuse_if_damaged(connection);
  connection.exec("PRAGMA foreign_keys = ON");
  if (mode == OpenMode::ReadWrite) {
    if (!is_in_memory(path)) use_wal(connection);
    apply_migrations(connection, schema_migrations());
  }
  return Database(std::move(connection), mode);
}

}  // namespace gemmtune::cache
