// The tuner's use of the compile_outcomes table: what compiling a configuration gave is a
// property of its cubin key (configuration, arch, sources, NVRTC), not of a problem, so it is
// recorded once and read by every later problem and run; a configuration known to fail or to
// spill past the measured limit (spill_limit.hpp) is not compiled again.
#pragma once

#include <optional>
#include <string>

#include "cache_records.hpp"
#include "compile_pool.hpp"
#include "kernel_config.hpp"
#include "tuning_db.hpp"

namespace gemmtune::tuner {

// Why a configuration need not be compiled for `arch`: its recorded compile failed, or it
// spilled more than the tuner measures.
struct KnownCompileFailure {
  cache::Status status = cache::Status::CompileError;  // CompileError or Spills
  std::string reason;                                   // for the measurement's error_text
};

// From the record of `config`'s cubin key, if there is one.
std::optional<KnownCompileFailure> known_compile_failure(const cache::CompileOutcomeRecord& record);
std::optional<KnownCompileFailure> known_compile_failure(const cache::Database& db, const KernelConfig& config,
                                                         const std::string& arch);

// Records what the pool gave for `outcome` (a worker that died says nothing of the
// configuration: not recorded). Throws what the database throws.
void record_compile_outcome(cache::Database& db, const CompileOutcome& outcome, const std::string& arch);

// The mean seconds one compile took over the outcomes recorded for `arch` by this NVRTC, when
// there are enough of them to say (else nullopt).
std::optional<double> recorded_seconds_per_compile(const cache::Database& db, const std::string& arch);

}  // namespace gemmtune::tuner
