// A tuning database's rows by content, for tests that compare two databases holding the same
// work written differently: by one run, or by shards merged (tunedb merge). Row ids, which
// differ with the order rows were written, are replaced by what they refer to (measurements and
// winners are read through v_measurements and v_winners), and the columns that differ between two
// runs doing the same work are left out: when (measured_at, compiled_at), how long
// (compile_seconds, and compile_log, whose ptxas lines end with "Compile time = 71.158 ms") and
// which run (tuner_run). Every table of the file is read, so a table or
// column added later (a migration) is compared too.
#pragma once

#include <algorithm>
#include <set>
#include <string>
#include <vector>

namespace gemmtune::testing {

// `query(sql)` returns the first column of each row of `sql` as text. Returns one line a row,
// "TABLE|'text'|12|X'0A1B'|NULL" (SQLite's quote() of each column, blobs whole), sorted.
template <class Query>
std::vector<std::string> database_content(const Query& query) {
  static const std::set<std::string> leave_out{"id", "measurement_id", "gpu_id", "problem_id", "config_id",
                                               "measured_at", "compiled_at", "compile_seconds", "compile_log",
                                               "tuner_run"};
  std::vector<std::string> rows;
  for (const std::string& table :
       query("SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name")) {
    const std::string source = table == "measurements" ? "v_measurements" : table == "winners" ? "v_winners" : table;
    std::string columns = "'" + table + "'";
    for (const std::string& column : query("SELECT name FROM pragma_table_info('" + source + "') ORDER BY cid")) {
      if (leave_out.count(column) == 0) columns += " || '|' || quote(\"" + column + "\")";
    }
    for (std::string& row : query("SELECT " + columns + " FROM " + source)) rows.push_back(std::move(row));
  }
  std::sort(rows.begin(), rows.end());
  return rows;
}

// The rows of `table` among database_content's.
inline std::vector<std::string> rows_of(const std::vector<std::string>& content, const std::string& table) {
  std::vector<std::string> rows;
  for (const std::string& row : content) {
    if (row.rfind(table + "|", 0) == 0) rows.push_back(row);
  }
  return rows;
}

}  // namespace gemmtune::testing
