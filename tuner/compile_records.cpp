#include "compile_records.hpp"

#include "binary_store.hpp"
#include "kernel_name.hpp"
#include "spill_limit.hpp"

namespace gemmtune::tuner {
namespace {

constexpr std::string_view kStages = "STAGES";

// The configuration's name with STAGES out of it (its value set to 0), or empty when the family
// has no STAGES.
std::string tile_key(const KernelConfig& config) {
  for (const auto& [name, value] : config.params) {
    if (name != kStages) continue;
    KernelConfig tile = config;
    tile.set(kStages, 0);
    return kernel_name(tile);
  }
  return {};
}

std::optional<KnownCompileFailure> failure_of(const cache::CompileOutcomeRecord& record) {
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

}  // namespace

CompileRecords::CompileRecords(cache::Database& db, std::string arch) : db_(db), arch_(std::move(arch)) {
  for (const cache::CompileOutcomeRecord& record : db_.compile_outcomes(arch_, nvrtc_version())) {
    try {
      // Only records of this build's sources and options: another build's say nothing of ours.
      if (binary_key(record.key.kernel_name, arch_) == record.key) remember(record);
    } catch (const std::exception&) {
      // a kernel of a family this build does not have
    }
  }
}

void CompileRecords::remember(const cache::CompileOutcomeRecord& outcome) {
  by_name_[outcome.key.kernel_name] = outcome;
  if (outcome.compile_seconds) {
    timed_seconds_ += *outcome.compile_seconds;
    ++timed_;
  }
  if (outcome.compiled && spills_too_much(outcome.spill_store_bytes, outcome.spill_load_bytes)) {
    const std::string tile = tile_key(parse_kernel_name(outcome.key.kernel_name));
    if (!tile.empty()) spilled_tile_.emplace(tile, outcome.key.kernel_name);
  }
}

bool CompileRecords::has_record(const KernelConfig& config) const { return by_name_.count(kernel_name(config)) > 0; }

std::optional<KnownCompileFailure> CompileRecords::known_failure(const KernelConfig& config) const {
  if (const auto own = by_name_.find(kernel_name(config)); own != by_name_.end()) return failure_of(own->second);
  const std::string tile = tile_key(config);
  if (tile.empty()) return std::nullopt;
  const auto sibling = spilled_tile_.find(tile);
  if (sibling == spilled_tile_.end()) return std::nullopt;
  const cache::CompileOutcomeRecord& record = by_name_.at(sibling->second);
  return KnownCompileFailure{cache::Status::Spills,
                             "predicted to spill, not compiled: " + sibling->second + " (another STAGES) spilled " +
                                 std::to_string(record.spill_store_bytes) + " bytes stores, " +
                                 std::to_string(record.spill_load_bytes) +
                                 " bytes loads, and STAGES never changed the verdict (tuner/compile_records.hpp)"};
}

void CompileRecords::record(const CompileOutcome& outcome) {
  if (!outcome.compiled && outcome.worker_died) return;
  cache::CompileOutcomeRecord record = outcome.compiled
                                           ? compiled_outcome(*outcome.compiled, outcome.seconds)
                                           : failed_outcome(outcome.config, arch_, outcome.error, outcome.seconds);
  record.compiled_at = cache::now_utc_iso8601();
  db_.store_compile_outcome(record);
  remember(record);
}

void CompileRecords::record_stored(const CompiledKernel& compiled) {
  cache::CompileOutcomeRecord record = compiled_outcome(compiled, std::nullopt);
  record.compiled_at = cache::now_utc_iso8601();
  db_.store_compile_outcome(record);
  remember(record);
}

std::optional<double> CompileRecords::seconds_per_compile() const {
  constexpr std::size_t kEnough = 8;
  if (timed_ < kEnough) return std::nullopt;
  return timed_seconds_ / static_cast<double>(timed_);
}

}  // namespace gemmtune::tuner
