#include "compile_records.hpp"

#include "binary_store.hpp"
#include "spill_limit.hpp"

namespace gemmtune::tuner {

std::optional<KnownCompileFailure> known_compile_failure(const cache::CompileOutcomeRecord& record) {
  if (!record.compiled) {
    return KnownCompileFailure{cache::Status::CompileError,
                               "compile failed before (" + record.compiled_at + ", not compiled again): " +
                                   record.error_text.substr(0, record.error_text.find('\n'))};
  }
  if (spills_too_much(record.spill_store_bytes, record.spill_load_bytes)) {
    return KnownCompileFailure{cache::Status::Spills,
                               "ptxas: " + std::to_string(record.spill_store_bytes) + " bytes spill stores, " +
                                   std::to_string(record.spill_load_bytes) + " bytes spill loads (more than " +
                                   std::to_string(kMeasuredSpillBytes) + " are not measured; recorded " +
                                   record.compiled_at + ", not compiled again)"};
  }
  return std::nullopt;
}

std::optional<KnownCompileFailure> known_compile_failure(const cache::Database& db, const KernelConfig& config,
                                                         const std::string& arch) {
  const std::optional<cache::CompileOutcomeRecord> record = db.find_compile_outcome(binary_key(config, arch));
  if (!record) return std::nullopt;
  return known_compile_failure(*record);
}

void record_compile_outcome(cache::Database& db, const CompileOutcome& outcome, const std::string& arch) {
  if (outcome.compiled) {
    db.store_compile_outcome(compiled_outcome(*outcome.compiled, outcome.seconds));
  } else if (!outcome.worker_died) {
    db.store_compile_outcome(failed_outcome(outcome.config, arch, outcome.error, outcome.seconds));
  }
}

std::optional<double> recorded_seconds_per_compile(const cache::Database& db, const std::string& arch) {
  constexpr std::size_t kEnough = 8;
  double total = 0;
  std::size_t timed = 0;
  for (const cache::CompileOutcomeRecord& record : db.compile_outcomes(arch, nvrtc_version())) {
    if (!record.compile_seconds) continue;
    total += *record.compile_seconds;
    ++timed;
  }
  if (timed < kEnough) return std::nullopt;
  return total / static_cast<double>(timed);
}

}  // namespace gemmtune::tuner
