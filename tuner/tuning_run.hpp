// The driver of `tune`: for each problem, a search strategy proposes configurations, a pool of
// worker processes compiles them, a measuring process checks each against cuBLAS and times it,
// and every result (failures too) lands in the database in its own transaction. A re-run skips
// what is stored, so an interrupted run resumes and loses at most the candidate in flight.
// With several GPUs (--devices), each has its measuring process and a thread that drives it,
// taking the run's problems one at a time from a shared queue (problem_queue.hpp); the compile
// pool is shared among them (shared_compile_pool.hpp) and each thread writes through its own
// connection to the one database.
#pragma once

#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "budget.hpp"
#include "cache_records.hpp"
#include "device_selection.hpp"
#include "precision.hpp"
#include "tuning_db.hpp"
#include "shapes_file.hpp"
#include "timing.hpp"

namespace gemmtune::tuner {

struct TuneOptions {
  std::string gpu;                    // part of the device name to tune on (case-insensitive); "any": the first
  std::optional<DeviceRequest> devices;  // --devices: which of the GPUs matching `gpu`; unset: the first
  std::string db_path = "tuned.db";
  std::string strategy = "guided";
  Budget budget;                      // per problem
  int jobs = 1;                       // compile worker processes
  bool retune = false;                // measure again what the database already has
  bool dry_run = false;               // compile and store what the strategy would compile; no GPU
  bool list_only = false;             // dry run: name the candidates, compile nothing
  std::string arch;                   // dry run: the arch to compile for
  std::vector<std::string> families;  // empty: every family tuned by default that `precision` admits
  // The class tuned for: only families it admits are candidates, cuBLAS is timed in its compute
  // type, and the winners stored are this class's.
  Precision precision = Precision::Fp32;
  TimingOptions timing{10.0, 60.0, 5, 200};
  double timeout_floor_seconds = 10;  // a candidate gets at least this long before it is killed
  // --time-limit: seconds the whole run may take. Past it no problem starts, the search in
  // progress stops handing out candidates and measures none of those still waiting, and the
  // report says which problems were cut or not started (a later run on the database resumes them).
  std::optional<double> time_limit_seconds;
};

// What --time-limit did to a problem.
enum class TimeLimitEffect {
  None,        // tuned as the budget allowed
  Cut,         // its search stopped at the limit: the winner is the best measured so far
  NotStarted,  // the limit had passed before it started
};

struct ProblemReport {
  Problem problem;
  std::optional<cache::Winner> winner;
  double cublas_ms = 0;
  double seconds = 0;             // tuning time of this problem
  std::size_t candidates = 0;     // handed out by the strategy
  std::size_t measured = 0;       // measured in this run
  std::size_t resumed = 0;        // found in the database
  std::size_t failed = 0;         // in this run, any failure status
  std::size_t space = 0;
  std::size_t pruned = 0;         // left out of the space: known or predicted to fail or spill
  int device_index = -1;          // the GPU it was measured on (CUDA's index); -1 in a dry run
  TimeLimitEffect time_limit = TimeLimitEffect::None;
};

// What one measuring process of a run (one for each GPU --devices names, in that order) did.
struct DeviceShare {
  int index = 0;  // the GPU, as CUDA numbers it
  std::string name;
  std::size_t problems = 0;  // tuned by it
  double seconds = 0;        // the tuning time of those problems
};

struct RunReport {
  std::vector<ProblemReport> problems;  // in the order of the shapes file
  std::string gpu_name;
  std::vector<DeviceShare> devices;  // a tuning run's measuring processes; empty in a dry run
  std::size_t cubins_compiled = 0;
  std::size_t cubins_reused = 0;    // found in the database
  std::size_t cubins_stored_concurrently = 0;  // of those, found after waiting for another run's claim
  std::size_t compiles_avoided = 0;  // known (compile_outcomes) to fail or spill: recorded, not compiled
  double wall_seconds = 0;
  int worker_restarts = 0;
  // Where the run's time went: the measuring process busy (inputs, cuBLAS, checking and timing
  // candidates), the driver waiting with nothing compiled to measure, and the compile workers'
  // own time (summed over workers, who run side by side; the first two are summed over the
  // measuring processes likewise).
  double measuring_seconds = 0;
  double waiting_for_compiles_seconds = 0;
  double compile_worker_seconds = 0;
  int compile_workers = 0;
  // Of measuring_seconds, the measuring process's own account of candidates (the rest: inputs,
  // references and cuBLAS a problem, and messages between the processes).
  double loading_seconds = 0;
  double checking_seconds = 0;
  double timing_seconds = 0;
  // The early cut (early_cut.hpp): candidates timed by their probe alone, close contenders
  // timed longer, and the timed repetitions the cut left out, in seconds of GPU time.
  std::size_t timings_cut = 0;
  std::size_t timings_extended = 0;
  double timing_seconds_saved = 0;
  // Dry run: the candidates planned (every problem's, each once, in the order compiled), and
  // those a time budget left uncompiled.
  std::vector<std::string> planned;
  std::size_t left_by_budget = 0;
};

// A line of progress: "problem i of n", candidates done of planned, and a message. Sent as each
// candidate ends, and also while none does (about every 200 ms), so that a printer can say
// something at least every so often.
struct Progress {
  std::size_t problem_index = 0;
  std::size_t problem_count = 0;
  std::string problem;
  std::size_t done = 0;
  std::size_t planned = 0;
  std::size_t resumed = 0;  // of `done`, found in the database: no work here, so not part of a rate
  double seconds = 0;       // since this problem started (a dry run: since it started compiling)
  std::string message;      // the last candidate's outcome; empty when no candidate ended
  // Which measuring process sends it, of how many (--devices), and its GPU's index (-1: none,
  // a dry run). Sent from that process's thread; run_tuning makes the calls one at a time.
  int device = -1;
  std::size_t measurer = 0;
  std::size_t measurers = 1;
};
using ProgressCallback = std::function<void(const Progress&)>;

// The database named by options.db_path cannot be used: not an SQLite or gemmtune database,
// damaged or truncated, written by newer code, read-only. Bad input, like a bad shapes file: it
// is refused before anything is written to it.
class DatabaseRefused : public InputError {
 public:
  using InputError::InputError;
};

// Opens the tuner's database; throws DatabaseRefused for one it cannot use.
cache::Database open_tuning_database(const std::string& path, cache::OpenMode mode);

// Tunes every problem for options.precision on the first GPU that matches options.gpu, or on
// every GPU options.devices names, each problem on the first of them to be free. Throws
// InputError for no GPU, a GPU that does not match (listing the visible ones), a --devices that
// names no GPU here or GPUs of several models, a named family it cannot run or that the class
// does not admit, DatabaseRefused for a database that cannot be opened.
RunReport run_tuning(const TuneOptions& options, const std::vector<ProblemSpec>& problems,
                     const ProgressCallback& progress);

// Compiles and stores, for options.arch and without a GPU, what the strategy would compile on a
// GPU within the budget (dry_run_plan.hpp): guided, the cost model's favourites and their
// neighbours; random, the budget's draws; exhaustive, the whole space. A time budget applies to
// the compiling (per problem, so problems times it in all). With options.list_only it compiles
// nothing and only fills `planned`. Logs the count and an estimated time before it starts.
// Concurrent dry runs on one database compile each candidate once between them
// (compile_claims.hpp). Throws DatabaseRefused as run_tuning does.
RunReport run_dry(const TuneOptions& options, const std::vector<ProblemSpec>& problems,
                  const ProgressCallback& progress);

}  // namespace gemmtune::tuner
