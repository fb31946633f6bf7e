#include "database_probe.hpp"

#include <sqlite3.h>

#include <stdexcept>

namespace gemmtune::reliability {
namespace {

// The statement's rows, each as its columns' text.
class Rows {
 public:
  Rows(sqlite3* db, const std::string& sql, const std::string& path) : path_(path) {
    if (sqlite3_prepare_v2(db, sql.c_str(), -1, &statement_, nullptr) != SQLITE_OK) {
      throw std::runtime_error(path + ": " + sql + ": " + sqlite3_errmsg(db));
    }
  }
  ~Rows() { sqlite3_finalize(statement_); }
  Rows(const Rows&) = delete;
  Rows& operator=(const Rows&) = delete;

  bool next(std::vector<std::string>& columns) {
    const int rc = sqlite3_step(statement_);
    if (rc == SQLITE_DONE) return false;
    if (rc != SQLITE_ROW) {
      throw std::runtime_error(path_ + ": " + sqlite3_errmsg(sqlite3_db_handle(statement_)));
    }
    columns.clear();
    for (int column = 0; column < sqlite3_column_count(statement_); ++column) {
      const auto* text = reinterpret_cast<const char*>(sqlite3_column_text(statement_, column));
      columns.emplace_back(text ? text : "NULL");
    }
    return true;
  }
  // The columns joined with '|'.
  bool next(std::string& row) {
    std::vector<std::string> columns;
    if (!next(columns)) return false;
    row.clear();
    for (std::size_t i = 0; i < columns.size(); ++i) row += (i ? "|" : "") + columns[i];
    return true;
  }

 private:
  sqlite3_stmt* statement_ = nullptr;
  std::string path_;
};

}  // namespace

DatabaseProbe::DatabaseProbe(const std::string& path, Use use) : path_(path) {
  const int flags = SQLITE_OPEN_READWRITE | (use == Use::Edit ? SQLITE_OPEN_CREATE : 0);
  if (sqlite3_open_v2(path.c_str(), &db_, flags, nullptr) != SQLITE_OK) {
    const std::string why = db_ ? sqlite3_errmsg(db_) : "out of memory";
    sqlite3_close(db_);
    throw std::runtime_error(path + ": cannot open: " + why);
  }
  sqlite3_busy_timeout(db_, 10'000);
  if (use == Use::Inspect) sqlite3_db_config(db_, SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, 1, nullptr);
}

DatabaseProbe::~DatabaseProbe() { sqlite3_close_v2(db_); }

std::set<std::string> DatabaseProbe::strings(const std::string& sql) const {
  std::set<std::string> values;
  Rows rows(db_, sql, path_);
  for (std::string row; rows.next(row);) values.insert(row);
  return values;
}

std::string DatabaseProbe::integrity_check() const {
  std::string report;
  Rows rows(db_, "PRAGMA integrity_check", path_);
  for (std::string row; rows.next(row);) report += (report.empty() ? "" : "\n") + row;
  return report;
}

bool DatabaseProbe::has_table(const std::string& table) const {
  return !strings("SELECT name FROM sqlite_schema WHERE type = 'table' AND name = '" + table + "'").empty();
}

std::int64_t DatabaseProbe::count_rows(const std::string& table) const {
  Rows rows(db_, "SELECT COUNT(*) FROM " + table, path_);
  std::string row;
  if (!rows.next(row)) throw std::runtime_error(path_ + ": no count of " + table);
  return std::stoll(row);
}

std::set<std::string> DatabaseProbe::binary_keys() const {
  return strings("SELECT kernel_name, source_hash, compile_options, arch, nvrtc_version FROM binaries");
}

std::set<std::string> DatabaseProbe::binary_kernel_names() const {
  return strings("SELECT kernel_name FROM binaries");
}

std::multiset<std::string> DatabaseProbe::measured_candidates() const {
  std::multiset<std::string> stored;
  for (const auto& row : query("SELECT layout || ':' || m || 'x' || n || 'x' || k, kernel_name FROM v_measurements")) {
    stored.insert(row[0] + " " + row[1]);
  }
  return stored;
}

std::multiset<std::string> measured_candidates(const std::string& path) {
  return DatabaseProbe(path, DatabaseProbe::Use::Inspect).measured_candidates();
}

std::vector<std::vector<std::string>> DatabaseProbe::query(const std::string& sql) const {
  std::vector<std::vector<std::string>> result;
  Rows rows(db_, sql, path_);
  for (std::vector<std::string> columns; rows.next(columns);) result.push_back(columns);
  return result;
}

void DatabaseProbe::exec(const std::string& sql) const {
  char* message = nullptr;
  if (sqlite3_exec(db_, sql.c_str(), nullptr, nullptr, &message) != SQLITE_OK) {
    const std::string why = message ? message : "unknown error";
    sqlite3_free(message);
    throw std::runtime_error(path_ + ": " + sql + ": " + why);
  }
}

}  // namespace gemmtune::reliability
