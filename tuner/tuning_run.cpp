#include "tuning_run.hpp"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <chrono>
#include <deque>
#include <limits>
#include <map>
#include <mutex>
#include <set>
#include <thread>

#include "binary_store.hpp"
#include "compile_claims.hpp"
#include "compile_records.hpp"
#include "cost_model.hpp"
#include "device.hpp"
#include "family_registry.hpp"
#include "kernel_family.hpp"
#include "kernel_name.hpp"
#include "make_strategy.hpp"
#include "measure_worker.hpp"
#include "problem_queue.hpp"
#include "problem_rows.hpp"
#include "search_setup.hpp"
#include "search_space.hpp"
#include "shared_compile_pool.hpp"
#include "spill_limit.hpp"
#include "tuning_db.hpp"

namespace gemmtune::tuner {
namespace {

using SteadyClock = std::chrono::steady_clock;

double seconds_since(SteadyClock::time_point start) {
  return std::chrono::duration<double>(SteadyClock::now() - start).count();
}

std::string params_json(const KernelConfig& config) {
  nlohmann::json json = nlohmann::json::object();
  for (const auto& [name, value] : config.params) json[name] = value;
  json["layout"] = std::string(layout_name(config.layout));
  json["align"] = config.align;
  return json.dump();
}

std::string new_run_id() { return "tune-" + cache::now_utc_iso8601(); }

class ProblemTuner {
 public:
  // `run` takes this tuner's counters (a RunReport of its own where several tune side by side).
  ProblemTuner(const TuneOptions& options, cache::Database& db, MeasureWorker& measurer, CompileClient pool,
               const DeviceInfo& device, std::int64_t gpu_id, const cache::GpuKey& gpu_key, std::string run_id,
               RunReport& run)
      : options_(options), db_(db), measurer_(measurer), pool_(pool), device_(device), gpu_id_(gpu_id),
        gpu_key_(gpu_key), run_id_(std::move(run_id)), run_(run), records_(db, device.arch()) {}

  // The run's --time-limit, on monotonic_seconds()'s clock (infinity: none).
  void set_deadline(double deadline) { deadline_ = deadline; }

  // tick(done, planned, resumed, message), as Progress has them.
  ProblemReport tune(const Problem& problem,
                     const std::function<void(std::size_t, std::size_t, std::size_t, const std::string&)>& tick) {
    const auto started = SteadyClock::now();
    ProblemReport report;
    report.problem = problem;
    report.device_index = device_.index;
    if (past_deadline()) {
      report.time_limit = TimeLimitEffect::NotStarted;
      return report;
    }
    const std::int64_t problem_id = db_.upsert_problem(to_row(problem));
    auto measuring_started = SteadyClock::now();
    const TimingStats cublas = measurer_.set_problem(problem, options_.precision);
    run_.measuring_seconds += seconds_since(measuring_started);
    report.cublas_ms = cublas.median_ms;
    const int alignment = measurer_.problem_alignment();

    SearchSetup setup;
    setup.space = candidate_space(problem, alignment, options_.families, options_.precision, device_.sm_count,
                                  device_.arch());
    setup.problem = problem;
    setup.budget = options_.budget;
    // Seeds: the nearest tuned problems' winners, then every family's default configuration, so
    // that a search misled by the cost model still never ends worse than a default.
    const WarmStart warm = warm_start(db_, gpu_key_, problem, alignment, options_.precision);
    setup.seeds = warm.seeds;
    for (const KernelConfig& config : family_defaults(setup.space)) setup.seeds.push_back(config);
    setup.device.sm_count = device_.sm_count;
    setup.device.l2_bytes = static_cast<double>(device_.l2_bytes);
    const auto stored = options_.retune ? std::map<std::string, CandidateResult>{} : stored_results(db_, gpu_id_, problem_id);
    // Configurations known or predicted to fail or spill (compile_records.hpp) are left out of
    // the space, so that the search spends its budget on ones that can launch; those this
    // problem has results for stay, so that a re-run replays its search and measures nothing new.
    report.pruned = static_cast<std::size_t>(std::erase_if(setup.space, [&](const KernelConfig& c) {
      return stored.count(kernel_name(c)) == 0 && records_.known_failure(c).has_value();
    }));
    report.space = setup.space.size();
    const std::optional<Budget> smaller =
        options_.strategy == "guided" ? warm_budget(warm, options_.budget, setup.space.size()) : std::nullopt;
    if (smaller) {
      setup.budget = *smaller;
      spdlog::info("{}: the winners of its {} nearest tuned problems agree ({}, the farthest at distance {:.2f}): "
                   "budget {} candidates instead of the strategy's default",
                   to_string(problem), warm.neighbours, kernel_name(warm.seeds.front()), warm.farthest,
                   *smaller->max_candidates);
    }
    std::unique_ptr<Strategy> strategy = make_strategy(options_.strategy, setup);
    bool replace_winner = options_.retune;
    // What runs of other classes measured here is this class's too where it admits their
    // kernels; the search below skips them as measured.
    if (!options_.retune) db_.offer_stored_winner(gpu_id_, problem_id, admitted_classes(), winner_update(cublas.median_ms, false));

    // A candidate may take this long before it is killed as hung: generous for a kernel a
    // hundred times slower than cuBLAS, never below the floor.
    const auto timeout = std::chrono::milliseconds(static_cast<long long>(
        1000.0 * std::max(options_.timeout_floor_seconds,
                          (2 * (options_.timing.warmup_ms + options_.timing.target_ms) + 1000 * cublas.median_ms) / 1000)));

    // Compiled candidates waiting for the measuring process, each with its configuration.
    std::deque<std::pair<KernelConfig, CompiledKernel>> ready;
    bool search_over = false;
    auto finish = [&](const KernelConfig& config, const CandidateResult& result, const std::string& message) {
      strategy->report(config, result);
      tick(strategy->reported_count(), strategy->planned_count(), report.resumed, message);
    };
    // --time-limit: past it nothing more is handed out or measured, and the problem is cut (this is
    // asked only while something is left: the search, compiles in flight or compiled candidates);
    // the compiles in flight are still collected below, their cubins stored for a later run.
    auto stop_at_deadline = [&] {
      if (!past_deadline()) return;
      report.time_limit = TimeLimitEffect::Cut;
      search_over = true;
      ready.clear();
    };
    while (!search_over || pool_.in_flight() > 0 || !ready.empty()) {
      stop_at_deadline();
      // Keep the compile workers busy, a little ahead of the measurements.
      while (!search_over && pool_.has_idle_worker() && ready.size() < 2 * static_cast<std::size_t>(pool_.workers())) {
        std::optional<KernelConfig> config = strategy->next();
        if (!config) {
          search_over = strategy->pending_count() == 0;
          break;
        }
        ++report.candidates;
        const std::string name = kernel_name(*config);
        if (auto found = stored.find(name); found != stored.end()) {
          ++report.resumed;
          finish(*config, found->second, name + ": already measured");
          continue;
        }
        // Compiled before, for another problem or run: a known (or predicted) failure is
        // recorded without compiling it, a stored cubin is measured as it is.
        if (const std::optional<KnownCompileFailure> known = records_.known_failure(*config)) {
          MeasureResult failure;
          failure.status = known->status;
          failure.error_text = known->reason;
          record(problem_id, *config, failure, replace_winner);
          ++report.failed;
          ++run_.compiles_avoided;
          finish(*config, CandidateResult::failed(),
                 name + ": " + std::string(cache::to_string(known->status)) + " (known, not compiled)");
          continue;
        }
        if (auto binary = db_.find_binary(binary_key(*config, device_.arch()))) {
          ++run_.cubins_reused;
          CompiledKernel compiled = from_binary(*binary);
          if (!records_.has_record(*config)) records_.record_stored(compiled);
          ready.emplace_back(*config, std::move(compiled));
          continue;
        }
        pool_.submit(*config);
      }
      // With nothing compiled to measure, the measuring process waits for the pool.
      const auto collecting_started = SteadyClock::now();
      std::vector<CompileOutcome> outcomes =
          pool_.collect(ready.empty() ? std::chrono::milliseconds(200) : std::chrono::milliseconds(0));
      if (ready.empty()) run_.waiting_for_compiles_seconds += seconds_since(collecting_started);
      for (CompileOutcome& outcome : outcomes) {
        if (!outcome.joined) run_.compile_worker_seconds += outcome.seconds;
        records_.record(outcome);
        if (outcome.compiled) {
          db_.store_binary(to_binary(*outcome.compiled));
          ready.emplace_back(outcome.config, std::move(*outcome.compiled));
        } else {
          MeasureResult failure;
          failure.status = cache::Status::CompileError;
          failure.error_text = outcome.error;
          record(problem_id, outcome.config, failure, replace_winner);
          ++report.failed;
          finish(outcome.config, CandidateResult::failed(), kernel_name(outcome.config) + ": compile error");
        }
      }
      stop_at_deadline();
      if (ready.empty()) {
        tick(strategy->reported_count(), strategy->planned_count(), report.resumed, "");  // time passes
        continue;
      }

      const auto [config, compiled] = std::move(ready.front());
      ready.pop_front();
      MeasureResult result;
      if (spills_too_much(compiled.resources.spill_store_bytes, compiled.resources.spill_load_bytes)) {
        result.status = cache::Status::Spills;
        result.error_text = "ptxas: " + std::to_string(compiled.resources.spill_store_bytes) + " bytes spill stores, " +
                            std::to_string(compiled.resources.spill_load_bytes) + " bytes spill loads (more than " +
                            std::to_string(kMeasuredSpillBytes) + " are not measured)";
      } else {
        std::optional<double> best_ms;
        if (strategy->best()) best_ms = strategy->best()->ms;
        measuring_started = SteadyClock::now();
        result = measurer_.measure(compiled, config, timeout, best_ms);
        run_.measuring_seconds += seconds_since(measuring_started);
        if (result.seconds) {
          run_.loading_seconds += result.seconds->load;
          run_.checking_seconds += result.seconds->check;
          run_.timing_seconds += result.seconds->timing;
        }
        ++report.measured;
        if (result.timing) count_early_cut(*result.timing);
      }
      record(problem_id, config, result, replace_winner, cublas.median_ms);
      if (result.status == cache::Status::Ok) {
        replace_winner = false;
        finish(config, CandidateResult::measured(result.timing->median_ms),
               compiled.kernel_name + ": " + std::to_string(result.timing->median_ms) + " ms");
      } else {
        ++report.failed;
        finish(config, CandidateResult::failed(),
               compiled.kernel_name + ": " + std::string(cache::to_string(result.status)));
      }
    }
    report.winner = db_.winner(gpu_id_, problem_id, precision_name(options_.precision));
    report.seconds = seconds_since(started);
    return report;
  }

 private:
  bool past_deadline() const { return monotonic_seconds() >= deadline_; }

  // The classes of kernels this run's class admits, as stored.
  std::vector<std::string> admitted_classes() const {
    std::vector<std::string> names;
    for (Precision precision : kPrecisions) {
      if (admits(options_.precision, precision)) names.emplace_back(precision_name(precision));
    }
    return names;
  }

  cache::WinnerUpdate winner_update(double cublas_ms, bool replace) const {
    return {cublas_ms, replace ? cache::WinnerPolicy::Replace : cache::WinnerPolicy::IfFaster,
            std::string(precision_name(options_.precision))};
  }

  void count_early_cut(const TimingStats& timing) {
    if (timing.repetitions < timing.planned_repetitions) {
      ++run_.timings_cut;
      run_.timing_seconds_saved += (timing.planned_repetitions - timing.repetitions) * timing.median_ms / 1000;
    } else if (timing.repetitions > timing.planned_repetitions) {
      ++run_.timings_extended;
    }
  }

  void record(std::int64_t problem_id, const KernelConfig& config, const MeasureResult& result, bool replace_winner,
              double cublas_ms = 0) {
    cache::Measurement measurement;
    measurement.gpu_id = gpu_id_;
    measurement.problem_id = problem_id;
    measurement.config_id = db_.upsert_config(kernel_name(config), config.family, params_json(config),
                                              precision_name(find_family(config.family).precision()));
    measurement.status = result.status;
    if (const auto& timing = result.timing) {
      measurement.timing = cache::Timing{timing->median_ms, timing->min_ms, timing->max_ms, timing->p10_ms, timing->p90_ms};
      measurement.repetitions = timing->repetitions;
    }
    measurement.sm_clock_mhz = result.sm_clock_mhz;
    measurement.max_rel_error = result.relative_error;
    measurement.fp64_error = result.fp64_error;
    measurement.error_text = result.error_text;
    measurement.tuner_run = run_id_;
    measurement.device_index = device_.index;
    std::optional<cache::WinnerUpdate> winner;
    if (result.status == cache::Status::Ok) winner = winner_update(cublas_ms, replace_winner);
    db_.record_measurement(measurement, winner);
  }

  const TuneOptions& options_;
  cache::Database& db_;
  MeasureWorker& measurer_;
  CompileClient pool_;
  const DeviceInfo& device_;
  std::int64_t gpu_id_;
  cache::GpuKey gpu_key_;
  std::string run_id_;
  RunReport& run_;
  double deadline_ = std::numeric_limits<double>::infinity();
  CompileRecords records_;
};

// The GPUs to measure on: the first that matches --gpu, or those --devices names.
std::vector<DeviceInfo> choose_devices(const std::vector<DeviceInfo>& visible, const TuneOptions& options) {
  if (options.devices) return select_devices(visible, *options.devices, options.gpu);
  for (const DeviceInfo& device : visible) {
    if (matches_gpu(device, options.gpu)) return {device};
  }
  throw InputError("no visible GPU matches --gpu '" + options.gpu + "' (visible: " + describe_devices(visible) + ")");
}

// ", GPUs 0, 1" for several; nothing for one (the log line of one GPU stays as it was).
std::string several_gpus_text(const std::vector<DeviceInfo>& devices) {
  if (devices.size() < 2) return {};
  std::string text = ", GPUs ";
  for (std::size_t i = 0; i < devices.size(); ++i) text += (i ? ", " : "") + std::to_string(devices[i].index);
  return text + ",";
}

// Adds what one measuring process's tuner counted to the run's figures.
void add_counts(RunReport& run, const RunReport& part) {
  run.cubins_reused += part.cubins_reused;
  run.compiles_avoided += part.compiles_avoided;
  run.measuring_seconds += part.measuring_seconds;
  run.waiting_for_compiles_seconds += part.waiting_for_compiles_seconds;
  run.compile_worker_seconds += part.compile_worker_seconds;
  run.loading_seconds += part.loading_seconds;
  run.checking_seconds += part.checking_seconds;
  run.timing_seconds += part.timing_seconds;
  run.timings_cut += part.timings_cut;
  run.timings_extended += part.timings_extended;
  run.timing_seconds_saved += part.timing_seconds_saved;
}

}  // namespace

cache::Database open_tuning_database(const std::string& path, cache::OpenMode mode) {
  try {
    return cache::Database::open(path, mode);
  } catch (const cache::Error& error) {
    throw DatabaseRefused(error.what());
  }
}

RunReport run_tuning(const TuneOptions& options, const std::vector<ProblemSpec>& problems, const ProgressCallback& progress) {
  const auto started = SteadyClock::now();
  RunReport run;
  // Workers are forked before anything else touches CUDA (the parent never does) and before any
  // thread starts; the first measuring process lists the devices. One measuring process a GPU.
  std::vector<std::unique_ptr<MeasureWorker>> measurers;
  measurers.push_back(std::make_unique<MeasureWorker>(options.timing));
  const std::vector<DeviceInfo> devices = choose_devices(measurers.front()->devices(), options);
  while (measurers.size() < devices.size()) measurers.push_back(std::make_unique<MeasureWorker>(options.timing));
  for (std::size_t slot = 0; slot < devices.size(); ++slot) measurers[slot]->select_device(devices[slot].index);
  const DeviceInfo& device = devices.front();  // of the one model the run tunes for
  run.gpu_name = device.name;
  // A named family this GPU cannot run is the user's mistake: said before anything is stored.
  require_families_run_on(options.families, device.arch());
  require_families_admitted(options.families, options.precision);
  SharedCompilePool pool(options.jobs, device.arch(), devices.size());
  // A connection for each measuring thread (the writers wait for one another: busy timeout).
  std::vector<cache::Database> connections;
  connections.push_back(open_tuning_database(options.db_path, cache::OpenMode::ReadWrite));
  while (connections.size() < devices.size()) {
    connections.push_back(open_tuning_database(options.db_path, cache::OpenMode::ReadWrite));
  }
  const cache::GpuKey gpu_key{device.name, device.cc_major, device.cc_minor, device.sm_count};
  const std::int64_t gpu_id = connections.front().upsert_gpu(cache::GpuInfo{
      gpu_key, cuda_version_string(device.driver_version), cuda_version_string(device.runtime_version), nvrtc_version()});
  spdlog::info("tuning {} problem(s) on {} ({}, {} SMs){} for precision {} into {}; strategy {}, {} compile worker(s)",
               problems.size(), device.name, device.arch(), device.sm_count, several_gpus_text(devices),
               precision_name(options.precision), options.db_path, options.strategy, pool.workers());
  const std::string run_id = new_run_id();
  // --time-limit counts from here: the GPUs are chosen and the database is open.
  const double deadline = options.time_limit_seconds ? monotonic_seconds() + *options.time_limit_seconds
                                                     : std::numeric_limits<double>::infinity();
  std::vector<RunReport> counts(devices.size());  // each tuner's own, summed below
  std::vector<std::unique_ptr<ProblemTuner>> tuners;
  for (std::size_t slot = 0; slot < devices.size(); ++slot) {
    tuners.push_back(std::make_unique<ProblemTuner>(options, connections[slot], *measurers[slot],
                                                    CompileClient(pool, slot), devices[slot], gpu_id, gpu_key, run_id,
                                                    counts[slot]));
    tuners.back()->set_deadline(deadline);
    run.devices.push_back(DeviceShare{devices[slot].index, devices[slot].name});
  }
  const bool several = devices.size() > 1;
  std::vector<std::optional<ProblemReport>> reports(problems.size());
  std::mutex progress_mutex;
  auto tune_one = [&](std::size_t slot, std::size_t i) {
    const Problem& problem = problems[i];
    const auto problem_started = SteadyClock::now();
    auto tick = [&](std::size_t done, std::size_t planned, std::size_t resumed, const std::string& message) {
      if (!progress) return;
      const std::lock_guard lock(progress_mutex);
      progress(Progress{i, problems.size(), to_string(problem), done, planned, resumed, seconds_since(problem_started),
                        message, devices[slot].index, slot, devices.size()});
    };
    ProblemReport done = tuners[slot]->tune(problem, tick);
    const std::string where = several ? " on GPU " + std::to_string(devices[slot].index) : "";
    if (done.time_limit == TimeLimitEffect::NotStarted) {
      spdlog::warn("{}: not tuned: --time-limit reached before it started", to_string(problem));
      reports[i] = std::move(done);
      return;
    }
    if (done.time_limit == TimeLimitEffect::Cut) {
      spdlog::warn("{}: search cut by --time-limit after {} candidate(s)", to_string(problem), done.candidates);
    }
    if (done.winner) {  // logged as each problem ends, so a run cut short still shows its results
      spdlog::info("{}: winner {} {:.4f} ms, cuBLAS {:.4f} ms ({:.3f}x), {:.1f} s{}", to_string(problem),
                   done.winner->kernel_name, done.winner->median_ms, done.cublas_ms,
                   done.cublas_ms / done.winner->median_ms, done.seconds, where);
    } else {
      spdlog::warn("{}: no candidate succeeded ({} failed), {:.1f} s{}", to_string(problem), done.failed, done.seconds,
                   where);
    }
    ++run.devices[slot].problems;  // each slot's own entry, written by its thread alone
    run.devices[slot].seconds += done.seconds;
    reports[i] = std::move(done);
  };
  share_problems(problems.size(), devices.size(), tune_one, [&](std::size_t slot) { pool.leave(slot); });
  for (std::optional<ProblemReport>& report : reports) run.problems.push_back(std::move(*report));
  for (const RunReport& part : counts) add_counts(run, part);
  for (const auto& measurer : measurers) run.worker_restarts += measurer->restarts();
  run.cubins_compiled = pool.compiled_count();
  run.compile_workers = pool.workers();
  run.wall_seconds = seconds_since(started);
  return run;
}

}  // namespace gemmtune::tuner
