// What compiling each configuration gave, as the tuner uses it. A compile outcome is a property
// of the cubin key (configuration, arch, sources, NVRTC), not of a problem: it is recorded once
// (table compile_outcomes) and read by every later problem and run, and a configuration known
// to fail or to spill past the measured limit (spill_limit.hpp) is not compiled again.
//
// The register-pressure rule: a configuration is also predicted to spill when a variant that
// differs from it in STAGES alone spilled past the limit. Fitted to 750 dry-run compiles at
// sm_90 (NVRTC 13.0, every default family; guided, random and exhaustive samples on nn 4096^3,
// 1000^3 and tn 64x3000x800: tests/tuner/data/sm90-compile-outcomes.csv, 80 of them spilling):
// in the 99 groups of configurations that differ only in STAGES the verdict never differed; in
// tmawgmma and tmatf32 (81 groups) the registers never differed either (the stages are shared
// memory and barriers), in warptile and wgmma they did in 8 of 16 groups, by a few registers.
// The spilling configurations follow no simpler rule of the parameters (tmatf32's split-K
// schedule spills at SPLITK 4 and 8 and not at 2 or 16; warptile's depends on the block, warp
// and thread tiles and BK together), so the rule generalizes records rather than guessing from
// the parameters: one compile of a tile settles every depth of its pipeline. Held out half by
// half (tests/tuner_driver/test_compile_records.cpp) it predicts every spilling configuration
// of a group from its siblings and no configuration that compiled without spilling.
#pragma once

#include <optional>
#include <string>
#include <unordered_map>

#include "cache_records.hpp"
#include "compile_pool.hpp"
#include "kernel_config.hpp"
#include "tuning_db.hpp"

namespace gemmtune::tuner {

// Why a configuration need not be compiled: its own compile failed or spilled, or (predicted)
// a STAGES variant of it spilled.
struct KnownCompileFailure {
  cache::Status status = cache::Status::CompileError;  // CompileError or Spills
  std::string reason;                                   // for the measurement's error_text
};

class CompileRecords {
 public:
  // Reads the outcomes recorded in `db` for `arch` by this build (its sources, options, NVRTC).
  CompileRecords(cache::Database& db, std::string arch);

  // The configuration's own record or the register rule's prediction; nullopt when it is worth
  // compiling (or nothing is known).
  std::optional<KnownCompileFailure> known_failure(const KernelConfig& config) const;
  bool has_record(const KernelConfig& config) const;

  // Records what the pool gave (a worker that died says nothing of the configuration: not
  // recorded), in the database and here.
  void record(const CompileOutcome& outcome);
  // Records the figures of a cubin found stored without a record (compiled by an older build).
  void record_stored(const CompiledKernel& compiled);

  // The mean seconds one compile took over the records that timed one, when there are enough
  // of them to say.
  std::optional<double> seconds_per_compile() const;

 private:
  void remember(const cache::CompileOutcomeRecord& outcome);

  cache::Database& db_;
  std::string arch_;
  std::unordered_map<std::string, cache::CompileOutcomeRecord> by_name_;
  // Kernel name with STAGES left out -> a spilling record of that tile, for the register rule.
  std::unordered_map<std::string, std::string> spilled_tile_;
  double timed_seconds_ = 0;
  std::size_t timed_ = 0;
};

}  // namespace gemmtune::tuner
