#include "sqlite_statement.hpp"

#include <sqlite3.h>

#include "cache_error.hpp"
#include "sqlite_connection.hpp"

namespace gemmtune::cache {

void Statement::Finalize::operator()(sqlite3_stmt* statement) const noexcept {
  sqlite3_finalize(statement);
}

Statement::Statement(const Connection& connection, std::string_view sql)
    : connection_(&connection), sql_(sql) {
  sqlite3_stmt* statement = nullptr;
  const int rc = sqlite3_prepare_v2(connection.handle(), sql_.data(),
                                    static_cast<int>(sql_.size()), &statement, nullptr);
  statement_.reset(statement);
  check(rc, connection.handle(), sql_, connection.path());
}

void Statement::check_bind(int rc, int index) const {
  if (rc != SQLITE_OK) {
    check(rc, connection_->handle(), "bind ?" + std::to_string(index) + " of " + sql_,
          connection_->path());
  }
}

void Statement::bind(int index, int value) {
  check_bind(sqlite3_bind_int64(statement_.get(), index, value), index);
}

void Statement::bind(int index, std::int64_t value) {
  check_bind(sqlite3_bind_int64(statement_.get(), index, value), index);
}

void Statement::bind(int index, double value) {
  check_bind(sqlite3_bind_double(statement_.get(), index, value), index);
}

void Statement::bind(int index, std::string_view text) {
  // SQLITE_TRANSIENT copies: callers bind temporaries (to_string(...)) that die before step().
  // A default string_view has no data pointer, which would bind NULL instead of ''.
  const char* data = text.data() ? text.data() : "";
  check_bind(sqlite3_bind_text64(statement_.get(), index, data, text.size(),
                                 SQLITE_TRANSIENT, SQLITE_UTF8),
             index);
}

void Statement::bind(int index, BlobRef blob) {
  // A null pointer would bind NULL; an empty blob is still a blob.
  const void* data = blob.data ? blob.data : "";
  check_bind(sqlite3_bind_blob64(statement_.get(), index, data, blob.size, SQLITE_TRANSIENT),
             index);
}

void Statement::bind(int index, std::nullopt_t) {
  check_bind(sqlite3_bind_null(statement_.get(), index), index);
}

bool Statement::step() {
  const int rc = sqlite3_step(statement_.get());
  if (rc == SQLITE_ROW) return true;
  if (rc == SQLITE_DONE) return false;
  check(rc, connection_->handle(), sql_, connection_->path());
  return false;
}

void Statement::run() {
  while (step()) {
  }
}

void Statement::throw_no_row() const {
  throw Error(sql_, "returned no row", connection_->path());
}

void Statement::reset() {
  // reset() repeats the error of the last step, which step() has already reported.
  sqlite3_reset(statement_.get());
  sqlite3_clear_bindings(statement_.get());
}

bool Statement::is_null(int index) const {
  return sqlite3_column_type(statement_.get(), index) == SQLITE_NULL;
}

std::int64_t Statement::column_int64(int index) const {
  return sqlite3_column_int64(statement_.get(), index);
}

double Statement::column_double(int index) const {
  return sqlite3_column_double(statement_.get(), index);
}

std::string Statement::column_text(int index) const {
  const auto* text = sqlite3_column_text(statement_.get(), index);
  const int size = sqlite3_column_bytes(statement_.get(), index);
  return text ? std::string(reinterpret_cast<const char*>(text), size) : std::string();
}

std::vector<char> Statement::column_blob(int index) const {
  const auto* data = static_cast<const char*>(sqlite3_column_blob(statement_.get(), index));
  const int size = sqlite3_column_bytes(statement_.get(), index);
  return data ? std::vector<char>(data, data + size) : std::vector<char>();
}

}  // namespace gemmtune::cache
