#include "sqlite_transaction.hpp"

#include <sqlite3.h>

#include "sqlite_connection.hpp"

namespace gemmtune::cache {

Transaction::Transaction(const Connection& connection) : connection_(connection) {
  connection_.exec("BEGIN IMMEDIATE");
}

Transaction::~Transaction() {
  if (open_) {
    // Destructors never throw; a failed rollback leaves SQLite to roll back when it closes.
    sqlite3_exec(connection_.handle(), "ROLLBACK", nullptr, nullptr, nullptr);
  }
}

void Transaction::commit() {
  connection_.exec("COMMIT");
  open_ = false;
}

}  // namespace gemmtune::cache
