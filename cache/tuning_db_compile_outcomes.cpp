// What compiling each cubin key gave, failures included: reused by every problem and run.
#include "sqlite_statement.hpp"
#include "tuning_db.hpp"

namespace gemmtune::cache {
namespace {

constexpr const char* kColumns =
    "kernel_name, source_hash, compile_options, arch, nvrtc_version, compiled, registers, spill_store_bytes,"
    " spill_load_bytes, static_smem_bytes, compile_seconds, error_text, compiled_at";

CompileOutcomeRecord read_outcome(const Statement& row) {
  CompileOutcomeRecord outcome;
  outcome.key = {row.column<std::string>(0), row.column<std::string>(1), row.column<std::string>(2),
                 row.column<std::string>(3), row.column<std::string>(4)};
  outcome.compiled = row.column<int>(5) != 0;
  outcome.registers = row.column<int>(6);
  outcome.spill_store_bytes = row.column<int>(7);
  outcome.spill_load_bytes = row.column<int>(8);
  outcome.static_smem_bytes = row.column<int>(9);
  outcome.compile_seconds = row.column<std::optional<double>>(10);
  outcome.error_text = row.column<std::string>(11);
  outcome.compiled_at = row.column<std::string>(12);
  return outcome;
}

}  // namespace

void Database::store_compile_outcome(const CompileOutcomeRecord& outcome) {
  Statement statement = connection_.prepare(std::string("INSERT OR REPLACE INTO compile_outcomes (") + kColumns +
                                            ") VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13)");
  const BinaryKey& key = outcome.key;
  statement.bind_all(key.kernel_name, key.source_hash, key.compile_options, key.arch, key.nvrtc_version,
                     outcome.compiled ? 1 : 0, outcome.registers, outcome.spill_store_bytes, outcome.spill_load_bytes,
                     outcome.static_smem_bytes, outcome.compile_seconds, outcome.error_text,
                     outcome.compiled_at.empty() ? now_utc_iso8601() : outcome.compiled_at);
  statement.run();
}

std::optional<CompileOutcomeRecord> Database::find_compile_outcome(const BinaryKey& key) const {
  Statement row = connection_.prepare(std::string("SELECT ") + kColumns +
                                      " FROM compile_outcomes WHERE kernel_name = ?1 AND source_hash = ?2"
                                      " AND compile_options = ?3 AND arch = ?4 AND nvrtc_version = ?5");
  row.bind_all(key.kernel_name, key.source_hash, key.compile_options, key.arch, key.nvrtc_version);
  if (!row.step()) return std::nullopt;
  return read_outcome(row);
}

std::vector<CompileOutcomeRecord> Database::compile_outcomes(const std::string& arch,
                                                             const std::string& nvrtc_version) const {
  Statement rows = connection_.prepare(std::string("SELECT ") + kColumns +
                                       " FROM compile_outcomes WHERE arch = ?1 AND nvrtc_version = ?2"
                                       " ORDER BY kernel_name, source_hash, compile_options");
  rows.bind_all(arch, nvrtc_version);
  std::vector<CompileOutcomeRecord> all;
  while (rows.step()) all.push_back(read_outcome(rows));
  return all;
}

}  // namespace gemmtune::cache
