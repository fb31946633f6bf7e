// Opening: what is created, what is refused, and that refused files are left byte-for-byte.
#include <catch2/catch.hpp>
#include <sqlite3.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <random>

#include "cache_test_support.hpp"
#include "integrity_check.hpp"
#include "schema_migrations.hpp"

using namespace gemmtune::cache;
using namespace gemmtune::cache::test;
namespace fs = std::filesystem;

namespace {

std::string journal_mode(const Database& db) {
  return db.connection().prepare("PRAGMA journal_mode").single_value<std::string>();
}

// Writes an SQLite database with this code's schema but another user_version.
void write_database_with_version(const std::string& path, int version) {
  Database::open(path, OpenMode::ReadWrite).upsert_gpu(h200());
  Connection raw(path, path, SQLITE_OPEN_READWRITE);
  raw.exec("PRAGMA user_version = " + std::to_string(version));
}

// Every open of `path` is refused with a message containing `reason`, and the file's bytes
// stay as they were.
void require_refused_untouched(const std::string& path, const std::string& reason) {
  const std::string before = read_bytes(path);
  for (OpenMode mode : {OpenMode::ReadOnly, OpenMode::ReadWrite}) {
    CHECK_THROWS_WITH(Database::open(path, mode), Catch::Contains(reason));
    CHECK(read_bytes(path) == before);
  }
}

std::string random_bytes(std::size_t size) {
  std::mt19937 generator(42);
  std::string bytes(size, '\0');
  for (char& c : bytes) c = static_cast<char>(generator());
  return bytes;
}

}  // namespace

TEST_CASE("cache: opening read-write creates the whole schema at the latest version in WAL", "[cache]") {
  TempDir dir;
  const Database db = Database::open(dir.file("tuned.db"), OpenMode::ReadWrite);
  CHECK(read_user_version(db.connection()) == latest_schema_version());
  CHECK(journal_mode(db) == "wal");
  Statement names = db.connection().prepare(
      "SELECT group_concat(name, ' ') FROM (SELECT name FROM sqlite_schema"
      " WHERE type IN ('table', 'view') ORDER BY name)");
  CHECK(names.single_value<std::string>() ==
        "binaries compile_outcomes configs gpus measurements problems v_failures v_measurements "
        "v_progress v_winners winners");
}

TEST_CASE("cache: opening twice is idempotent and keeps the data", "[cache]") {
  TempDir dir;
  const std::string path = dir.file("tuned.db");
  const auto id = Database::open(path, OpenMode::ReadWrite).upsert_gpu(h200());
  const Database again = Database::open(path, OpenMode::ReadWrite);
  CHECK(read_user_version(again.connection()) == latest_schema_version());
  REQUIRE(again.find_gpu(h200().key));
  CHECK(again.find_gpu(h200().key)->id == id);
  CHECK(count_rows(again, "gpus") == 1);
}

TEST_CASE("cache: an in-memory database opens with the schema", "[cache]") {
  const Database db = Database::open(":memory:", OpenMode::ReadWrite);
  CHECK(read_user_version(db.connection()) == latest_schema_version());
  CHECK(db.gpus().empty());
}

TEST_CASE("cache: a database from newer code is refused and left untouched", "[cache]") {
  TempDir dir;
  const std::string path = dir.file("future.db");
  write_database_with_version(path, latest_schema_version() + 1);
  require_refused_untouched(path, "is newer than this program's");
}

TEST_CASE("cache: a file that is not a database is refused and left untouched", "[cache]") {
  TempDir dir;
  const std::string path = dir.file("garbage.db");
  SECTION("random bytes") { write_bytes(path, random_bytes(8192)); }
  SECTION("text") { write_bytes(path, "layout,m,n,k\nnn,1,2,3\n"); }
  require_refused_untouched(path, "not an SQLite database");
}

TEST_CASE("cache: a truncated database is refused and left untouched", "[cache]") {
  TempDir dir;
  const std::string path = dir.file("truncated.db");
  {
    Database db = Database::open(path, OpenMode::ReadWrite);
    db.store_binary({{"k", "h", "", "sm_90", "13.0"}, "k", std::vector<char>(256 * 1024, 'x'),
                     1, 0, "", ""});
  }
  const std::string whole = read_bytes(path);
  REQUIRE(whole.size() > 256 * 1024);
  SECTION("to half its pages") { write_bytes(path, whole.substr(0, whole.size() / 2)); }
  SECTION("to less than its header") { write_bytes(path, whole.substr(0, 50)); }
  require_refused_untouched(path, "truncated");
}

TEST_CASE("cache: an SQLite database of another program is refused and left untouched", "[cache]") {
  TempDir dir;
  const std::string path = dir.file("other.db");
  Connection(path, path, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE)
      .exec("CREATE TABLE invoices (id INTEGER PRIMARY KEY)");
  require_refused_untouched(path, "not a gemmtune one");
}

TEST_CASE("cache: a read-only open never creates a file", "[cache]") {
  TempDir dir;
  const std::string path = dir.file("missing.db");
  CHECK_THROWS_AS(Database::open(path, OpenMode::ReadOnly), NotFoundError);
  CHECK_THROWS_WITH(Database::open(path, OpenMode::ReadOnly),
                    Catch::Contains("no such database file"));
  CHECK_FALSE(fs::exists(path));
}

TEST_CASE("cache: a read-only open reads a read-only file and refuses writes", "[cache]") {
  TempDir dir;
  const std::string path = dir.file("tuned.db");
  Database::open(path, OpenMode::ReadWrite).upsert_gpu(h200());
  fs::permissions(path, fs::perms::owner_read | fs::perms::group_read | fs::perms::others_read);
  const std::string before = read_bytes(path);
  {
    Database db = Database::open(path, OpenMode::ReadOnly);
    CHECK(db.gpus().size() == 1);
    CHECK_THROWS_WITH(db.upsert_gpu(a100()), Catch::Contains("readonly"));
    CHECK_THROWS_AS(db.upsert_problem({"nn", 1, 1, 1}), Error);
  }
  CHECK(read_bytes(path) == before);
}

TEST_CASE("cache: a read-only open refuses an empty file or an older schema", "[cache]") {
  TempDir dir;
  const std::string path = dir.file("tuned.db");
  SECTION("empty file") {
    write_bytes(path, "");
    CHECK_THROWS_WITH(Database::open(path, OpenMode::ReadOnly),
                      Catch::Contains("no gemmtune schema"));
    CHECK(read_bytes(path).empty());
  }
  SECTION("older schema") {
    write_database_with_version(path, latest_schema_version() - 1);
    if (latest_schema_version() > 1) {
      CHECK_THROWS_WITH(Database::open(path, OpenMode::ReadOnly), Catch::Contains("is older"));
    } else {
      // user_version 0 with tables: nothing this code could have written
      CHECK_THROWS_WITH(Database::open(path, OpenMode::ReadOnly),
                        Catch::Contains("not a gemmtune one"));
    }
  }
}

TEST_CASE("cache: a WAL database in a read-only directory opens read-only", "[cache]") {
  TempDir dir;
  const std::string path = dir.file("tuned.db");
  Database::open(path, OpenMode::ReadWrite).upsert_gpu(h200());
  REQUIRE_FALSE(fs::exists(path + "-wal"));  // the last close checkpoints and removes it
  fs::permissions(dir.path(), fs::perms::owner_read | fs::perms::owner_exec |
                                  fs::perms::group_read | fs::perms::group_exec |
                                  fs::perms::others_read | fs::perms::others_exec);
  // root writes anywhere, so as root the open runs in a child that becomes "nobody"
  const bool as_root = geteuid() == 0;
  const pid_t child = as_root ? fork() : 0;
  REQUIRE(child >= 0);
  if (child == 0) {
    int failed = 0;
    if (as_root && (setgid(65534) != 0 || setuid(65534) != 0)) failed = 3;
    try {
      if (!failed) failed = Database::open(path, OpenMode::ReadOnly).gpus().size() == 1 ? 0 : 1;
    } catch (const std::exception& error) {
      std::fprintf(stderr, "%s\n", error.what());
      failed = 2;
    }
    if (as_root) _exit(failed);
    CHECK(failed == 0);
    return;
  }
  int status = 0;
  REQUIRE(waitpid(child, &status, 0) == child);
  REQUIRE(WIFEXITED(status));
  CHECK(WEXITSTATUS(status) == 0);
  CHECK_FALSE(fs::exists(path + "-shm"));
}

namespace {

// A database with a row in every table and a cubin, closed (its WAL checkpointed into the file).
void write_populated_database(const std::string& path) {
  Database db = Database::open(path, OpenMode::ReadWrite);
  const auto gpu = db.upsert_gpu(h200());
  const auto problem = db.upsert_problem({"nn", 512, 512, 512});
  const auto config = add_reg2d_config(db, 128);
  db.record_measurement(ok_measurement(gpu, problem, config, 1.0), WinnerUpdate{1.2});
  db.store_binary({{reg2d_name(128), "h", "", "sm_90", "13.0"}, "lowered", std::vector<char>(20000, 'c'), 64,
                   0, "", ""});
}

// Overwrites pages first..last (1-based, as SQLite counts them) with random bytes, as a failing
// disk or a stray write would.
void overwrite_pages(const std::string& path, int first, int last) {
  std::string bytes = read_bytes(path);
  const std::size_t page = 4096;
  REQUIRE(bytes.size() >= last * page);
  const std::string noise = random_bytes((last - first + 1) * page);
  bytes.replace((first - 1) * page, noise.size(), noise);
  write_bytes(path, bytes);
}

int root_page(const std::string& path, const std::string& table) {
  Connection raw(path, path, SQLITE_OPEN_READONLY);
  Statement statement = raw.prepare("SELECT rootpage FROM sqlite_schema WHERE name = ?1");
  statement.bind_all(table);
  return statement.single_value<int>();
}

}  // namespace

TEST_CASE("cache: a database with damaged pages is refused in both modes and left untouched", "[cache]") {
  TempDir dir;
  const std::string path = dir.file("damaged.db");
  write_populated_database(path);
  // Pages 5 to 7 are b-tree pages of the schema's tables (problems' index, configs and its
  // index): the header and the schema on page 1 stay readable, so only a check of the pages
  // themselves sees the damage.
  overwrite_pages(path, 5, 7);
  require_refused_untouched(path, "the database is damaged (SQLite's quick_check: ");
  CHECK_THROWS_WITH(Database::open(path, OpenMode::ReadOnly), Catch::Contains("sqlite3 " + path + " .recover"));
  CHECK_THROWS_AS(Database::open(path, OpenMode::ReadWrite), Error);
  CHECK_FALSE(fs::exists(path + "-wal"));
  CHECK_FALSE(fs::exists(path + "-shm"));
}

TEST_CASE("cache: above the whole-file size the check covers every table but the cubins", "[cache]") {
  TempDir dir;
  const std::string path = dir.file("large.db");
  write_populated_database(path);
  const std::string table = GENERATE(as<std::string>{}, "measurements", "winners", "binaries");
  const int root = root_page(path, table);
  overwrite_pages(path, root, root);
  const Connection connection(path, path, SQLITE_OPEN_READONLY);
  INFO(table << " (root page " << root << ")");
  // 0 bytes: every file is "large"; the whole-file check finds each damage.
  CHECK_THROWS_WITH(refuse_if_damaged(connection), Catch::Contains("the database is damaged"));
  if (table == "binaries") {
    CHECK_NOTHROW(refuse_if_damaged(connection, 0));  // left to SQLite's reads of that cubin
  } else {
    CHECK_THROWS_WITH(refuse_if_damaged(connection, 0), Catch::Contains("the database is damaged"));
  }
}

TEST_CASE("cache: an undamaged database passes the check in both of its forms", "[cache]") {
  TempDir dir;
  const std::string path = dir.file("fine.db");
  write_populated_database(path);
  const Connection connection(path, path, SQLITE_OPEN_READONLY);
  CHECK_NOTHROW(refuse_if_damaged(connection));
  CHECK_NOTHROW(refuse_if_damaged(connection, 0));
}
