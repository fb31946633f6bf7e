// Looks into a database file with SQLite directly, not through cache/ (the code under test), as
// someone inspecting the file after a crash would, or edits one into a bad input for tune.
#pragma once

#include <cstdint>
#include <set>
#include <string>
#include <vector>

struct sqlite3;

namespace gemmtune::reliability {

class DatabaseProbe {
 public:
  enum class Use {
    // An existing file, left as found: the write-ahead log is never checkpointed on close, so
    // the next tune run meets the file exactly as a killed run left it.
    Inspect,
    // Created if missing; changes are checkpointed into the file itself on close.
    Edit,
  };
  // Opens read-write (recovering a killed writer's log needs it). Throws std::runtime_error when
  // SQLite cannot open the file.
  DatabaseProbe(const std::string& path, Use use);
  ~DatabaseProbe();
  DatabaseProbe(const DatabaseProbe&) = delete;
  DatabaseProbe& operator=(const DatabaseProbe&) = delete;

  // "ok", or SQLite's list of problems.
  std::string integrity_check() const;
  bool has_table(const std::string& table) const;
  std::int64_t count_rows(const std::string& table) const;
  // Every stored cubin's primary key, "kernel|source hash|options|arch|NVRTC version".
  std::set<std::string> binary_keys() const;
  // The kernel names of the stored cubins.
  std::set<std::string> binary_kernel_names() const;
  // Every stored measurement as "PROBLEM KERNEL" (nn:256x256x256 gemmtune_sgemm_...), once a
  // measurement (the form tune's candidate lines name them in): what two runs doing the same work
  // both measured, whatever the ids and times.
  std::multiset<std::string> measured_candidates() const;
  void exec(const std::string& sql) const;
  // The rows of a query, each its columns as text ("NULL" for NULL).
  std::vector<std::vector<std::string>> query(const std::string& sql) const;

 private:
  std::set<std::string> strings(const std::string& sql) const;

  std::string path_;
  sqlite3* db_ = nullptr;
};

// The measured candidates of the database at `path`, opened as DatabaseProbe::Use::Inspect.
std::multiset<std::string> measured_candidates(const std::string& path);

}  // namespace gemmtune::reliability
