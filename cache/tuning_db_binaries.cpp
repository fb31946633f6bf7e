// Compiled kernels, so that the runtime never compiles what the tuner already compiled.
#include "sqlite_statement.hpp"
#include "tuning_db.hpp"

namespace gemmtune::cache {

void Database::store_binary(const Binary& binary) {
  Statement statement = connection_.prepare(
      "INSERT OR REPLACE INTO binaries (kernel_name, source_hash, compile_options, arch,"
      " nvrtc_version, lowered_name, cubin, registers, spill_bytes, compile_log, compiled_at)"
      " VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)");
  const BinaryKey& key = binary.key;
  statement.bind_all(key.kernel_name, key.source_hash, key.compile_options, key.arch,
                     key.nvrtc_version, binary.lowered_name,
                     BlobRef{binary.cubin.data(), binary.cubin.size()}, binary.registers,
                     binary.spill_bytes, binary.compile_log,
                     binary.compiled_at.empty() ? now_utc_iso8601() : binary.compiled_at);
  statement.run();
}

std::optional<Binary> Database::find_binary(const BinaryKey& key) const {
  Statement row = connection_.prepare(
      "SELECT lowered_name, cubin, registers, spill_bytes, compile_log, compiled_at"
      " FROM binaries WHERE kernel_name = ?1 AND source_hash = ?2 AND compile_options = ?3"
      " AND arch = ?4 AND nvrtc_version = ?5");
  row.bind_all(key.kernel_name, key.source_hash, key.compile_options, key.arch,
               key.nvrtc_version);
  if (!row.step()) return std::nullopt;
  return Binary{key,
                row.column<std::string>(0),
                row.column<std::vector<char>>(1),
                row.column<int>(2),
                row.column<int>(3),
                row.column<std::string>(4),
                row.column<std::string>(5)};
}

bool Database::has_binary(const BinaryKey& key) const {
  Statement row = connection_.prepare(
      "SELECT 1 FROM binaries WHERE kernel_name = ?1 AND source_hash = ?2 AND compile_options = ?3"
      " AND arch = ?4 AND nvrtc_version = ?5");
  row.bind_all(key.kernel_name, key.source_hash, key.compile_options, key.arch, key.nvrtc_version);
  return row.step();
}

std::vector<BinaryInfo> Database::binaries() const {
  Statement rows = connection_.prepare(
      "SELECT kernel_name, source_hash, compile_options, arch, nvrtc_version, registers, spill_bytes,"
      " length(cubin), compile_log, compiled_at FROM binaries"
      " ORDER BY arch, nvrtc_version, kernel_name, compiled_at");
  std::vector<BinaryInfo> all;
  while (rows.step()) {
    all.push_back({{rows.column<std::string>(0), rows.column<std::string>(1), rows.column<std::string>(2),
                    rows.column<std::string>(3), rows.column<std::string>(4)},
                   rows.column<int>(5),
                   rows.column<int>(6),
                   rows.column<std::int64_t>(7),
                   rows.column<std::string>(8),
                   rows.column<std::string>(9)});
  }
  return all;
}

std::vector<BinaryCount> Database::binary_counts() const {
  Statement rows = connection_.prepare(
      "SELECT arch, nvrtc_version, COUNT(*) FROM binaries GROUP BY arch, nvrtc_version"
      " ORDER BY arch, nvrtc_version");
  std::vector<BinaryCount> counts;
  while (rows.step()) {
    counts.push_back({rows.column<std::string>(0), rows.column<std::string>(1), rows.column<std::int64_t>(2)});
  }
  return counts;
}

}  // namespace gemmtune::cache
