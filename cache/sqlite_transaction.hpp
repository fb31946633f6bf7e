// RAII for a write transaction: BEGIN IMMEDIATE on construction, ROLLBACK in the destructor
// unless commit() was called, so an exception between the two leaves the database as it was.
#pragma once

namespace gemmtune::cache {

class Connection;

class Transaction {
 public:
  // IMMEDIATE takes the write lock now (waiting up to the busy timeout), so two writers never
  // both read and then fail to upgrade, which SQLite reports as "database is locked" at once.
  explicit Transaction(const Connection& connection);
  ~Transaction();
  Transaction(const Transaction&) = delete;
  Transaction& operator=(const Transaction&) = delete;

  void commit();

 private:
  const Connection& connection_;
  bool open_ = true;
};

}  // namespace gemmtune::cache
