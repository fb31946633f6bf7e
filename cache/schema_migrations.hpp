// The versioned schema: a list of steps, step i taking a database from version i-1 to i, where
// the version is PRAGMA user_version (0 for an empty file). docs/schema.md describes the result.
#pragma once

#include <span>
#include <string_view>

namespace gemmtune::cache {

class Connection;

// Whether a step runs with foreign keys enforced (the usual) or off: a step that rebuilds a table
// other tables refer to (copy, drop, rename) cannot run with them on, and its references are
// checked before it commits instead.
enum class ForeignKeys { Enforced, OffDuringStep };

struct Migration {
  int version;  // the version the database has once this step is applied
  std::string_view description;
  std::string_view sql;
  ForeignKeys foreign_keys = ForeignKeys::Enforced;
};

// Every step from an empty database to the schema this code reads and writes, oldest first.
std::span<const Migration> schema_migrations();
// The version this code reads and writes: the last step's.
int latest_schema_version();

int read_user_version(const Connection& connection);

// Applies the steps newer than the database's version, each in its own transaction with the
// new user_version, and returns the version reached. The version is read again inside each
// transaction, so a step that a concurrent opener has just applied is skipped, not repeated.
// `steps` must be numbered 1, 2, 3, ... in order.
int apply_migrations(const Connection& connection, std::span<const Migration> steps);

}  // namespace gemmtune::cache
