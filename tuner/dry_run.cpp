// tune --dry-run: the strategy's plan for each problem (dry_run_plan.hpp), compiled by the pool
// and stored, shared with concurrent dry runs through claims.
#include <spdlog/spdlog.h>

#include <chrono>
#include <deque>
#include <filesystem>
#include <set>
#include <thread>

#include "binary_store.hpp"
#include "compile_claims.hpp"
#include "compile_pool.hpp"
#include "compile_records.hpp"
#include "dry_run_plan.hpp"
#include "kernel_name.hpp"
#include "search_setup.hpp"
#include "tuning_run.hpp"

namespace gemmtune::tuner {
namespace {

using SteadyClock = std::chrono::steady_clock;

double seconds_since(SteadyClock::time_point start) {
  return std::chrono::duration<double>(SteadyClock::now() - start).count();
}

// Seconds one compile worker takes a cubin, for the estimate logged before a dry run starts:
// 357 cubins of every default family took 5 minutes with 2 workers on a 2-core machine (issue 20).
constexpr double kSecondsPerCompile = 1.7;

// The GPU the plan is made for: the arch's compute capability, an H200's size otherwise (the
// space and the cost model's ranking depend on the SM count only through wave quantization).
DeviceModel dry_run_device(const std::string& arch) {
  DeviceModel device;
  try {
    device.arch = std::stoi(arch.substr(arch.find('_') + 1));
  } catch (const std::exception&) {
    // canonical_arch has checked the form; keep the default
  }
  return device;
}

// Every problem's plan, each candidate once, in the order the problems come.
std::vector<KernelConfig> plan_dry_run(const TuneOptions& options, const std::vector<ProblemSpec>& problems,
                                       const CompileRecords* records, RunReport& run) {

  const DeviceModel device = dry_run_device(options.arch);
  std::vector<KernelConfig> candidates;
  std::set<std::string> seen;
  for (const ProblemSpec& problem : problems) {
    SearchSetup setup;
    setup.problem = problem;
    setup.space = candidate_space(problem, natural_alignment(problem), options.families, options.precision,
                                  device.sm_count, options.arch);
    // As on a GPU: what is known or predicted to fail or spill is not in the space.
    if (records) std::erase_if(setup.space, [&](const KernelConfig& c) { return records->known_failure(c).has_value(); });
    setup.seeds = family_defaults(setup.space);
    setup.budget = options.budget;
    setup.device = device;
    ProblemReport report;
    report.problem = problem;
    report.space = setup.space.size();
    for (KernelConfig& config : plan_problem(options.strategy, std::move(setup))) {
      ++report.candidates;
      if (seen.insert(kernel_name(config)).second) candidates.push_back(std::move(config));
    }
    run.problems.push_back(report);
  }
  return candidates;
}

}  // namespace

RunReport run_dry(const TuneOptions& options, const std::vector<ProblemSpec>& problems, const ProgressCallback& progress) {
  const auto started = SteadyClock::now();
  RunReport run;
  run.gpu_name = "(dry run for " + options.arch + ")";
  require_families_run_on(options.families, options.arch);
  require_families_admitted(options.families, options.precision);
  if (options.list_only) {
    // Reads what the database knows, if there is one; never creates or migrates it.
    std::optional<cache::Database> db;
    std::optional<CompileRecords> records;
    if (std::filesystem::exists(options.db_path)) {
      db = open_tuning_database(options.db_path, cache::OpenMode::ReadOnly);
      records.emplace(*db, options.arch);
    }
    for (const KernelConfig& config : plan_dry_run(options, problems, records ? &*records : nullptr, run)) {
      run.planned.push_back(kernel_name(config));
    }
    return run;
  }
  cache::Database db = open_tuning_database(options.db_path, cache::OpenMode::ReadWrite);
  CompileRecords records(db, options.arch);
  const std::vector<KernelConfig> candidates = plan_dry_run(options, problems, &records, run);
  for (const KernelConfig& config : candidates) run.planned.push_back(kernel_name(config));
  std::size_t to_compile = 0;
  for (const KernelConfig& config : candidates) {
    const cache::BinaryKey key = binary_key(config, options.arch);
    if (options.retune || (!db.has_binary(key) && !records.known_failure(config))) ++to_compile;
  }
  CompilePool pool(options.jobs, options.arch);
  const double seconds_per_compile = records.seconds_per_compile().value_or(kSecondsPerCompile);
  spdlog::info("dry run ({} search{}): {} candidate(s) for {} problem(s), {} not yet in {}: about {:.0f} s with {} worker(s)",
               options.strategy, options.budget.max_candidates ? ", budget " + std::to_string(*options.budget.max_candidates)
                                                                : std::string(),
               candidates.size(), problems.size(), to_compile, options.db_path,
               seconds_per_compile * static_cast<double>(to_compile) / pool.workers(), pool.workers());
  // A time budget is per problem, as on a GPU: problems times it for the whole dry run.
  std::optional<double> deadline_seconds;
  if (options.budget.max_seconds) deadline_seconds = *options.budget.max_seconds * static_cast<double>(problems.size());

  // Concurrent dry runs on this database compile each candidate once between them: one claims
  // it first, the others wait for its cubin (and take the candidate over if it ends without one).
  CompileClaims claims(options.db_path);
  std::deque<const KernelConfig*> claimed_elsewhere;
  std::size_t next = 0, done = 0;
  std::size_t failures = 0;
  const auto compiling_started = SteadyClock::now();
  auto report_progress = [&](const std::string& message) {
    if (progress) {
      progress(Progress{0, 1, "all problems", done, candidates.size() - run.left_by_budget, run.cubins_reused,
                        seconds_since(compiling_started), message});
    }
  };
  // Submits `config` to the pool, or settles it: stored already (now, or by another run), or
  // claimed by another run (then false: try again later).
  auto compile_or_settle = [&](const KernelConfig& config, bool retried) {
    const cache::BinaryKey key = binary_key(config, options.arch);
    const auto stored = [&](bool meanwhile) {
      if (options.retune || !db.has_binary(key)) return false;
      ++run.cubins_reused;
      if (meanwhile) ++run.cubins_stored_concurrently;
      ++done;
      return true;
    };
    if (stored(retried)) return true;
    // Known or predicted to fail or spill (compile_records.hpp): settled without compiling.
    if (!options.retune && records.known_failure(config)) {
      ++run.compiles_avoided;
      ++done;
      return true;
    }
    if (!claims.try_claim(key)) return false;
    if (stored(true)) {  // by the run whose claim this one follows
      claims.release(key);
      return true;
    }
    pool.submit(config);
    return true;
  };
  // Out of time: what is not started yet is left uncompiled (what is compiling finishes).
  auto stop_for_budget = [&] {
    if (!deadline_seconds || seconds_since(compiling_started) < *deadline_seconds) return;
    run.left_by_budget += candidates.size() - next + claimed_elsewhere.size();
    next = candidates.size();
    claimed_elsewhere.clear();
    deadline_seconds.reset();
  };
  while (done < candidates.size() - run.left_by_budget) {
    stop_for_budget();
    bool submitted_or_settled = false;
    while (next < candidates.size() && pool.has_idle_worker()) {
      const KernelConfig& config = candidates[next++];
      if (!compile_or_settle(config, false)) claimed_elsewhere.push_back(&config);
      submitted_or_settled = true;
    }
    // The candidates another run claimed, once this run has nothing else to start.
    for (std::size_t i = claimed_elsewhere.size(); i > 0 && next == candidates.size() && pool.has_idle_worker(); --i) {
      const KernelConfig* config = claimed_elsewhere.front();
      claimed_elsewhere.pop_front();
      if (compile_or_settle(*config, true)) {
        submitted_or_settled = true;
      } else {
        claimed_elsewhere.push_back(config);
      }
    }
    if (pool.in_flight() == 0 && !submitted_or_settled) {
      if (done >= candidates.size() - run.left_by_budget) break;  // the budget ended it
      std::this_thread::sleep_for(std::chrono::milliseconds(200));  // only others' claims are left
    }
    const std::vector<CompileOutcome> outcomes = pool.collect(std::chrono::milliseconds(200));
    if (outcomes.empty()) report_progress("");  // time passes
    for (const CompileOutcome& outcome : outcomes) {
      ++done;
      std::string message = kernel_name(outcome.config);
      records.record(outcome);
      if (outcome.compiled) {
        db.store_binary(to_binary(*outcome.compiled));  // before the claim goes: others find it stored
        message += outcome.compiled->resources.spills() ? ": compiled (spills)" : ": compiled";
      } else {
        ++failures;
        message += ": " + outcome.error.substr(0, outcome.error.find('\n'));
        spdlog::warn("{}", message);
      }
      claims.release(binary_key(outcome.config, options.arch));
      report_progress(message);
    }
  }
  if (run.left_by_budget > 0) {
    spdlog::info("dry run: the time budget left {} of {} candidate(s) uncompiled", run.left_by_budget,
                 candidates.size());
  }
  if (failures > 0) throw Error(std::to_string(failures) + " candidate(s) failed to compile (see the warnings above)");
  run.cubins_compiled = pool.compiled_count();
  run.wall_seconds = seconds_since(started);
  return run;
}

}  // namespace gemmtune::tuner
